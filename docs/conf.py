"""Sphinx configuration of crocbench's documentation site (``sphinx-build -W -b html docs docs/_build/html``)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "crocbench"
author = "crocbench developers"
copyright = "2026, crocbench developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "config_reference",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3

# numpydoc: the docstrings' convention (Parameters, Returns, Examples); members are listed by autodoc
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc sections give the types
autosummary_generate = False  # the summary tables link to the members documented on the same page

# numpydoc's validation of the public API's docstrings (each finding a warning, so an error under ``-W``): every
# public function, class and method has a docstring (GL08) whose Parameters section matches its signature (PR01
# undocumented, PR02 unknown parameter) and, if it returns a value, a Returns section (RT01).  It checks what autodoc
# documents (docs/api/*.rst); an object is skipped when its full dotted name matches an exclude regex (re.search).
numpydoc_validation_checks = {"GL08", "PR01", "PR02", "RT01"}
numpydoc_validation_exclude = {
    # checked: crocbench.cv, .data, .metrics, .models, .similarity, .stats; every other module is not yet
    r"^crocbench\.(?!(cv|data|metrics|models|similarity|stats)\b)",
    # classes a module without __all__ imports (pathlib.Path by crocbench.data.pubchem): autodoc reads them while
    # choosing members, never shows them
    r"^crocbench\.data\.pubchem\.Path$",
}
# numpydoc takes a first parameter named ``cls`` for a classmethod's and leaves it out of the signature; the class
# decorator crocbench.data.register documents its ``cls``, which is then "unknown" (PR02).  Its other checks apply.
numpydoc_validation_overrides = {"PR02": r"^Register a kind of source under its ``Source\.key``"}

# Every cross-reference must resolve (``sphinx-build -n -W``), except into the third-party libraries the
# docstrings mention, which are not documented here (no intersphinx: the build needs no network).
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|scipy|pandas|sklearn|torch|rdkit|matplotlib|pyarrow)(\..+)?"),
]

html_theme = "pydata_sphinx_theme"
html_title = "crocbench"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # every page gets its "On this page" panel; the configuration page's key table takes the page's width
    "secondary_sidebar_items": {"**": ["page-toc", "sourcelink"], "user_guide/configuration": []},
}
# The left sidebar lists the pages of the user guide's section; the studies, the leaderboards and the API reference
# leave it out so that their wide tables get the page's width (with the CSS in _static/crocbench.css, a text column
# of at least 900 px at a 1280 px window), and the benchmarks page is a section of its own, with no pages to list.
html_sidebars = {"benchmarks": [], "studies/*": [], "api/*": [], "leaderboards/*": []}
html_static_path = ["_static"]
html_css_files = ["crocbench.css"]


# --- constants a package re-exports: documented by their ``#:`` comment in the module that defines them --------
# autodoc reads ``#:`` comments from the module it documents only; ``crocbench.stats.TESTS`` is assigned in
# ``crocbench/stats/_tests.py`` and imported by the package, which lists it in ``__all__``.
_ATTR_DOCS: dict[str, list[tuple[str, list[str]]]] = {}


def _attr_docs(name: str) -> list[tuple[str, list[str]]]:
    """``[(module, comment lines)]`` of every crocbench module that assigns ``name`` under a ``#:`` comment."""
    if not _ATTR_DOCS:
        import pkgutil

        from sphinx.pycode import ModuleAnalyzer

        import crocbench

        for info in pkgutil.walk_packages(crocbench.__path__, "crocbench."):
            if info.name.endswith("__main__"):  # reading it would run the command line
                continue
            try:
                docs = ModuleAnalyzer.for_module(info.name).find_attr_docs()
            except Exception:  # a module without source (none today): nothing to read
                continue
            for (namespace, attr), lines in docs.items():
                if not namespace:
                    _ATTR_DOCS.setdefault(attr, []).append((info.name, list(lines)))
        _ATTR_DOCS.setdefault("", [])  # built
    return _ATTR_DOCS.get(name, [])


def _defining_comment(name: str, obj) -> tuple[str, list[str]] | None:
    """``(module, comment lines)`` of the ``#:`` comment above the assignment of ``obj`` as ``name``, if any."""
    import importlib

    for module, lines in _attr_docs(name):
        if getattr(importlib.import_module(module), name, None) is obj:
            return module, lines
    return None


def _reexported_constant_doc(app, what, name, obj, options, lines):
    """A re-exported constant's docstring: its ``#:`` comment (autodoc would give its type's docstring)."""
    if what != "data":
        return
    package, _, attr = name.rpartition(".")
    found = _defining_comment(attr, obj)
    if found and found[0] != package:
        lines[:] = found[1]


def setup(app):
    app.connect("autodoc-process-docstring", _reexported_constant_doc)

"""The optional dependencies: which extra installs each module, and the one-line error when one is missing.

``pip install crocbench`` installs the core (numpy, scipy, pandas): :mod:`crocbench.metrics`,
:mod:`crocbench.stats` and the ``crocbench score`` and ``compare`` commands. The workflow, the models, the
fingerprints, the similarity engine, the plots and the report need the modules of :data:`EXTRAS`, which
``pip install 'crocbench[workflow]'`` installs. Every import of one of them in the package stands in a
:func:`needs` block, so a missing one stops with one line that names the extra::

    crocbench.models needs torch, which the 'workflow' extra installs: pip install 'crocbench[workflow]'

Where the module is installed the block only imports it, as a bare ``import`` would.
"""

from __future__ import annotations

import importlib

__all__ = ["EXTRAS", "MissingExtra", "needs", "require"]

#: Module (top-level import name) -> (distribution, extra that installs it). tests/test_packaging.py checks
#: these against pyproject.toml's optional dependencies.
EXTRAS = {
    "chemprop": ("chemprop", "gnn"),
    "lightning": ("lightning", "gnn"),
    "jsonschema": ("jsonschema", "workflow"),
    "lightgbm": ("lightgbm", "workflow"),
    "llvmlite": ("llvmlite", "workflow"),
    "matplotlib": ("matplotlib", "workflow"),
    "numba": ("numba", "workflow"),
    "pyarrow": ("pyarrow", "workflow"),
    "pymetis": ("pymetis", "workflow"),
    "rdkit": ("rdkit", "workflow"),
    "sklearn": ("scikit-learn", "workflow"),
    "snakemake": ("snakemake", "workflow"),
    "statsmodels": ("statsmodels", "workflow"),
    "threadpoolctl": ("threadpoolctl", "workflow"),
    "torch": ("torch", "workflow"),
    "yaml": ("pyyaml", "workflow"),
}


class MissingExtra(ModuleNotFoundError):
    """A feature's optional module is not installed; the message is one line that names the extra.

    Parameters
    ----------
    feature : str
        What needs the module, e.g. ``"crocbench.models"`` or ``"crocbench synthesize"``.
    module : str
        The module's top-level import name, a key of :data:`EXTRAS`.

    Examples
    --------
    >>> print(MissingExtra("crocbench.models", "sklearn"))
    crocbench.models needs scikit-learn, which the 'workflow' extra installs: pip install 'crocbench[workflow]'
    """

    def __init__(self, feature: str, module: str):
        self.feature = feature
        self.distribution, self.extra = EXTRAS[module]
        super().__init__(
            f"{feature} needs {self.distribution}, which the '{self.extra}' extra installs: "
            f"pip install 'crocbench[{self.extra}]'",
            name=module,
        )

    def __reduce__(self):  # raised in a worker process, it crosses back whole
        return type(self), (self.feature, self.name)


class needs:  # lower case: a context manager read as a statement, `with needs(...):`
    """``with needs(feature): import torch``: an extra's module missing raises :class:`MissingExtra`.

    A ``ModuleNotFoundError`` for a module of :data:`EXTRAS` becomes the one-line :class:`MissingExtra` that names
    ``feature`` and the extra; any other error passes unchanged (a module that is installed but broken shows its
    own traceback).

    Parameters
    ----------
    feature : str
        What needs the modules imported in the block, named in the message.

    Examples
    --------
    >>> with needs("crocbench.plots"):
    ...     import matplotlib  # installed: the block only imports it
    """

    __slots__ = ("feature",)

    def __init__(self, feature: str):
        self.feature = feature

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> bool:
        if kind is not None and issubclass(kind, ModuleNotFoundError) and not isinstance(exc, MissingExtra):
            if exc.name in EXTRAS:  # the package itself is missing, not a module inside it
                raise MissingExtra(self.feature, exc.name) from None
        return False


def require(feature: str, *modules: str) -> None:
    """Import ``modules`` in a :func:`needs` block: a command checks its extra before it starts any work.

    Examples
    --------
    >>> require("crocbench explain", "numba", "torch")  # installed: imported, nothing printed
    """
    with needs(feature):
        for module in modules:
            importlib.import_module(module)

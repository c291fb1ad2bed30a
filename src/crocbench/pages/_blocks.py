"""The generated blocks of the README and the docs (``<!-- reference:NAME -->``), and regenerating them all."""

from __future__ import annotations

from pathlib import Path

from .._io import atomic_write, read_table, read_text, write_text
from ..reference import is_panel_reference, is_study_reference, references
from ._leaderboard import leaderboard_figures, leaderboard_tables
from ._splits import split_tables
from ._tables import document_tables, reference_figure
from ._verdict import verdict_tables

_BLOCK = r"<!-- reference:({name}) -->\n(.*?)\n?<!-- /reference:\1 -->"


def reference_blocks(text: str) -> dict:
    """The ``<!-- reference:NAME -->`` ... ``<!-- /reference:NAME -->`` blocks of a Markdown text: name -> table.

    A name is a table of :func:`readme_tables` (``pooled``) or ``<panel>/<table>`` (``pubchem_hts/roc``).
    """
    import re

    pattern = re.compile(_BLOCK.format(name=r"[\w./-]+"), flags=re.S)
    return {m.group(1): m.group(2).strip() for m in pattern.finditer(text)}


def _rewritten(text: str, tables: dict, mine, where: str) -> tuple:
    """``text`` with each of its blocks that ``mine(name)`` selects rewritten from ``tables``: (text, names seen,
    names changed). A selected block naming no table raises one line."""
    import re

    seen, changed = set(), []
    for name in reference_blocks(text):
        if not mine(name):
            continue  # another reference's block
        if name not in tables:
            raise ValueError(f"{where}: block <!-- reference:{name} --> names no table of the committed references")
        match = re.compile(_BLOCK.format(name=re.escape(name)), flags=re.S).search(text)
        seen.add(name)
        if match.group(2) != tables[name]:
            changed.append(name)
            block = f"<!-- reference:{name} -->\n{tables[name]}\n<!-- /reference:{name} -->"
            text = text[: match.start()] + block + text[match.end() :]
    return text, seen, changed


def update_readme(documents, reference) -> list:
    """Rewrite the ``<!-- reference:NAME -->`` blocks of the Markdown ``documents`` (README.md, pages of the
    docs) from the reference; returns ``(document, name)`` of the blocks whose text changed.

    Blocks from ``dtp_aids``'s reference are named by table (``pooled``), a panel's by ``<panel>/<table>``; the
    blocks of other references are left alone. A block may stand in any of the documents; every table of
    :func:`document_tables` must stand in at least one, and a block of this reference naming no table is an
    error.
    """
    documents = [documents] if isinstance(documents, str | Path) else list(documents)
    tables, seen, changed = _readable(document_tables, Path(reference)), set(), []
    named = is_panel_reference(reference) or is_study_reference(reference)
    prefix = f"{Path(reference).name}/" if named else None

    def mine(name):
        return name.startswith(prefix) if prefix else "/" not in name

    texts = {}
    for document in documents:
        text, found, moved = _rewritten(read_text(document, "Markdown"), tables, mine, str(document))
        texts[Path(document)] = text
        seen |= found
        changed += [(str(document), name) for name in moved]
    missing = [name for name in tables if name not in seen]
    if missing:
        raise ValueError(f"no <!-- reference:{missing[0]} --> block in {', '.join(map(str, documents))}")
    for path, text in texts.items():  # nothing is written when a block is missing
        write_text(path, text)
    return changed


def documents_of(root) -> list:
    """The Markdown documents that hold generated blocks: ``README.md`` and every page under ``docs/``."""
    root = Path(root)
    return [root / "README.md", *sorted(p for p in (root / "docs").rglob("*.md") if "_build" not in p.parts)]


def regenerate_documents(root, check: bool = False) -> list:
    """Rewrite every generated block of the README and the docs, and every generated figure, from the committed
    references (``root/results/reference``, each with its manifest), entries (every benchmark's leaderboard,
    ``crocbench.pages._leaderboard``), the splits' table (``crocbench.pages._splits``) and each declared verdict
    study's block (``crocbench.pages._verdict``): the one command behind ``crocbench regenerate``. A reference
    whose manifest names no document and no figure (a panel still growing screen by screen) is not published yet,
    and no page holds its blocks. Within one call, each panel compared with others is read once and each of its sets of claims
    across the screens computed once, and each benchmark's inputs and ranks are read and computed once for its
    block and its figure (a memo that lives and ends with the call: a second call reads afresh).

    Parameters
    ----------
    root : path-like
        The repository's root.
    check : bool, default=False
        Write nothing; only say what would change.

    Returns
    -------
    list of (str, str)
        ``(document or figure, block name or figure kind)`` of what changed (or would).
    """
    import tempfile

    from .._extras import needs

    with needs("crocbench regenerate"):
        from matplotlib.image import imread

    root = Path(root)
    manifests = [m for m in references(root / "results" / "reference") if m.documents or m.figures]
    tables, memo = {}, {}  # memo: each panel's tables and claims, each benchmark's leaderboard, read and computed once
    for manifest in manifests:
        tables.update(_readable(lambda folder: document_tables(folder, memo), manifest.folder))
    tables.update(leaderboard_tables(root, memo))
    tables.update(split_tables(root))
    tables.update(verdict_tables(root))
    changed, seen, texts = [], set(), {}
    for document in documents_of(root):
        text, found, moved = _rewritten(
            read_text(document, "Markdown"), tables, lambda name: True, str(document.relative_to(root))
        )
        seen |= found
        changed += [(str(document.relative_to(root)), name) for name in moved]
        texts[document] = text
    missing = [name for name in tables if name not in seen]
    if missing:
        raise ValueError(f"no <!-- reference:{missing[0]} --> block in README.md or docs/")
    drawers = [
        (figure, kind, lambda out, m=manifest, k=kind: reference_figure(m.folder, k, out))
        for manifest in manifests
        for figure, kind in manifest.figures.items()
    ]
    drawers += [(figure, "leaderboard", draw) for figure, draw in leaderboard_figures(root, memo).items()]
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (figure, kind, draw) in enumerate(drawers):
            drawn = Path(tmp) / f"{n}{Path(figure).suffix}"
            draw(drawn)
            target = root / figure
            same = target.is_file() and _same_figure(target, drawn, imread)
            if not same:
                changed.append((figure, kind))
                figures.append((target, drawn.read_bytes()))
        if not check:
            for path, text in texts.items():
                if text != path.read_text():
                    write_text(path, text)
            for path, data in figures:
                with atomic_write(path) as out:
                    out.write_bytes(data)
    return changed


def _readable(tables, folder: Path) -> dict:
    """``tables(folder)``; where one of the folder's tables cannot be read (not UTF-8, cut short, empty), one line
    naming it (:func:`crocbench._io.read_table` says which and why)."""
    import pandas as pd

    try:
        return tables(folder)
    except (UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError):
        for path in sorted(folder.glob("*.tsv")):
            read_table(path)
        raise


def _same_figure(target: Path, drawn: Path, imread) -> bool:
    """Whether the figure ``drawn`` shows what ``target`` shows: the same bytes, or else the same pixels (read with
    ``imread``)."""
    return target.read_bytes() == drawn.read_bytes() or _same_pixels(imread(target), imread(drawn))


def _same_pixels(a, b) -> bool:
    return a.shape == b.shape and bool((a == b).all())

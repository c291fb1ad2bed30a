"""Panels compared: which panel references a panel is set beside, each one's values as its tests read them, and
the comparison of two on the campaigns they share."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..reference import is_panel_reference, read_manifest

#: The pairs of a study that ask whether training for the top helps (labels as ``config/examples/ecfp_rankers.yaml``
#: gives them): trained for the top, then the same model trained plainly. Pairs a study lacks are left out.
TRAINED_FOR_THE_TOP = (("GBM-rank", "GBM"), ("MLP-exp", "MLP"))


def _campaigns(reference) -> set:
    from ..data.pubchem import campaign_of

    screens = pd.read_csv(Path(reference) / "datasets.tsv", sep="\t", usecols=["dataset"])["dataset"]
    return set(screens.map(campaign_of) if read_manifest(reference).campaign_key == "campaign" else screens)


def _variant(reference) -> tuple:
    """(split, labels) of a reference's manifest: what an overlay changes."""
    manifest = read_manifest(reference)
    return manifest.split, manifest.labels


def compared_panels(reference) -> list:
    """The panel references beside this one (same parent folder) that it is compared with: those holding every
    one of its screens' campaigns (its manifest's ``campaign_key``: a scaffold-split or a confirmed overlay of a
    panel is compared with the panel) and no ranker it lacks (a run of the paper's five is not compared with a run
    of more rankers; that run is compared with it), and no overlay of another kind: the other overlays nothing,
    or it changes the same thing (its manifest's split and labels are this one's; a scaffold split against
    confirmed actives would change two things at once). The panel it overlays (its manifest's ``overlays``) is
    compared with it on the campaigns they share, while either is still growing screen by screen."""
    folder = Path(reference)
    mine, rankers, overlaid = _campaigns(folder), _rankers(folder), read_manifest(folder).overlays
    return [
        other
        for other in sorted(folder.parent.iterdir())
        if other != folder
        and is_panel_reference(other)
        and (read_manifest(other).overlays is None or _variant(other) == _variant(folder))
        and (mine <= _campaigns(other) or (other.name == overlaid and bool(mine & _campaigns(other))))
        and _rankers(other) <= rankers
    ]


def panel_values(reference) -> pd.DataFrame:
    """A panel reference's value of each model on each screen: its ``datasets.tsv``, or where the panel repeats
    its cross-validation (``datasets_repeats.tsv``), each value's mean over the repeats, as its tests take them."""
    return panel_values_from(*read_panel_tables(Path(reference)))


def read_panel_tables(folder: Path):
    """A panel reference's ``datasets.tsv``, and its ``datasets_repeats.tsv`` or None."""
    repeated = folder / "datasets_repeats.tsv"
    per_repeat = pd.read_csv(repeated, sep="\t") if repeated.is_file() else None
    return pd.read_csv(folder / "datasets.tsv", sep="\t"), per_repeat


def panel_values_from(table: pd.DataFrame, per_repeat: pd.DataFrame | None, bounds: bool = False) -> pd.DataFrame:
    """:func:`panel_values` of tables read; with ``bounds``, a repeated panel's values bounded by the lowest and
    the highest repeat's (:func:`crocbench.report.repeat_means`)."""
    from ..report import repeat_means

    if per_repeat is None:
        return table
    means = repeat_means(per_repeat.drop(columns=["compounds", "actives"]), bounds=bounds)
    keys = ["dataset", "model", "compounds", "actives"]
    return table[keys].merge(means, on=["dataset", "model"], how="left", validate="one_to_one")


def _rankers(reference) -> set:
    return set(pd.read_csv(Path(reference) / "datasets.tsv", sep="\t", usecols=["model"])["model"])


def comparison_markdown(reference, other, memo: dict | None = None) -> str:
    """:func:`crocbench.report.panels_compared` of two panel references, on the campaigns they share, as Markdown:
    a column per reference (named by its folder). Two references of more rankers than the paper's five (the ECFP
    rankers beside them) are compared on every ranker both rank, over the metrics of
    :data:`crocbench.report.SUMMARY_TABLE_METRICS` both rank, with the records of the pairs of
    :data:`TRAINED_FOR_THE_TOP`; otherwise on the paper's five over
    :data:`crocbench.report.SUMMARY_FIGURE_METRICS`. A panel that repeats its cross-validation is read on each
    value's mean over the repeats (:func:`panel_values`); its claims, per screen and across the screens, on its
    first repeat's, as its own claims table.

    Parameters
    ----------
    reference, other : path-like
        The two panel reference folders.
    memo : dict, optional
        What one regeneration has read and computed already (:func:`crocbench.pages.regenerate_documents` keeps
        one per call): each panel's tables, read once, and each set of claims across the screens, computed once
        per distinct input (a panel set beside several others on the same shared screens). None: nothing kept.

    Returns
    -------
    str
        The comparison, a row per quantity and a column per reference.
    """
    from ..data.pubchem import campaign_of
    from ..models import LABELS
    from ..paper import PAPER_MODELS
    from ..report import SUMMARY_FIGURE_METRICS, SUMMARY_TABLE_METRICS, markdown_table, panels_compared

    folders = (Path(reference), Path(other))
    read = [_once(memo, ("panel", f.resolve()), lambda f=f: _compared_tables(f)) for f in folders]
    panels = {f.name: tuple(tables) for f, (*tables, _) in zip(folders, read)}
    ranks = [r for *_, r in read]
    paper = {m: LABELS[m] for m in PAPER_MODELS}
    both = [m for m in dict.fromkeys(ranks[1]["model"]) if m in set(ranks[0]["model"])]
    if set(both) > set(paper.values()):
        names = {m: m for m in both}
        held = set(ranks[0]["metric"]) & set(ranks[1]["metric"])
        metrics = [m for m in SUMMARY_TABLE_METRICS if m in held]
        pairs = [pair for pair in TRAINED_FOR_THE_TOP if set(pair) <= set(both)]
    else:
        names, metrics, pairs = paper, SUMMARY_FIGURE_METRICS, []
    compared = panels_compared(
        panels,
        names,
        key=campaign_of,
        metrics=metrics,
        across=lambda per_screen, table: _claims_across(per_screen, table, paper, memo),
        pairs=pairs,
    )
    return markdown_table(compared.rename(columns={"what": ""}))


def _claims_per_screen(folder: Path) -> pd.DataFrame | None:
    """A panel reference's paper's claims per screen, or None where it does not rank the paper's five."""
    path = folder / "claims_per_screen.tsv"
    return pd.read_csv(path, sep="\t") if path.is_file() else None


def _compared_tables(folder: Path) -> tuple:
    """What :func:`comparison_markdown` reads of a panel reference: its values (:func:`panel_values`), its claims
    per screen (or None), the values its claims are tested on (its first repeat's: ``datasets.tsv``) and its
    ``ranks.tsv``."""
    table, per_repeat = read_panel_tables(folder)
    return (
        panel_values_from(table, per_repeat),
        _claims_per_screen(folder),
        table,
        pd.read_csv(folder / "ranks.tsv", sep="\t"),
    )


def _claims_across(per_screen: pd.DataFrame, table: pd.DataFrame, paper: dict, memo: dict | None) -> pd.DataFrame:
    """:func:`crocbench.paper.claims_across` on the paper's five rankers' rows of ``table``, computed once per
    distinct input in ``memo``: its key is the two tables' contents (their columns, types and every row's hash),
    and a hit stands only where both tables equal the ones it was computed on."""
    from ..paper import claims_across

    mine = table[table["model"].isin(paper.values())]
    if memo is None:
        return claims_across(per_screen, mine, paper)
    key = ("claims_across", _content(per_screen), _content(mine))
    kept = memo.get(key)
    if kept is None or not (_same(kept[0], per_screen) and _same(kept[1], mine)):
        kept = memo[key] = (per_screen, mine, claims_across(per_screen, mine, paper))
    return kept[2]


def _content(frame: pd.DataFrame) -> tuple:
    """A table's columns, their types and its rows' hashes, in order (its index left out)."""
    rows = pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes()
    return tuple(frame.columns), tuple(map(str, frame.dtypes)), rows


def _same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Whether two tables hold the same rows, in order, whatever their index."""
    return a.reset_index(drop=True).equals(b.reset_index(drop=True))


def _once(memo: dict | None, key, compute):
    """``compute()``, kept in ``memo`` under ``key`` and taken from it the next time (None: computed each time)."""
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]

"""A panel's reference assembled screen by screen: a summary's screens added to the reference, and the tables
across the screens recomputed from every screen it then holds (see :mod:`crocbench.reference`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .._io import read_table
from ._tables import (
    CLAIMS_FILES,
    PER_SCREEN,
    ROW_KEYS,
    compare,
    holds_across,
    holds_claims,
    panel_files,
    reference_files,
    reference_frame,
)

#: Optional summary tables of one screen each that the summary and the reference hold both or neither of (the same
#: design): each repeat's values (``cv: repeats`` above 1) and PAINS (``summary: pains``); merged screen by screen.
SAME_DESIGN = ("datasets_repeats.tsv", "pains.tsv", "datasets_without_pains.tsv")
#: The paper's claim that a reference cannot check (it pools every screen's table 2, which a reference does not keep).
PAIRED_CLAIM = "paired_more_powerful"


def across_screens(datasets: pd.DataFrame, per_screen: pd.DataFrame | None, ranked: list, repeats=None) -> dict:
    """The summary's tables across the screens, from its tables of one screen each.

    Parameters
    ----------
    datasets : DataFrame
        :func:`crocbench.report.datasets_table`'s output (each screen's pooled values; with repeats, the first
        repeat's).
    per_screen : DataFrame or None
        :func:`crocbench.paper.screen_claims`'s output; None for a panel without the paper's five rankers.
    ranked : list
        The labels of the models the ranks and tests compare (the summary's ``models``).
    repeats : DataFrame or None
        Each repeat's values (``datasets_repeats.tsv``) of a repeated cross-validation: the ranks and tests then
        read each screen's mean over the repeats, as the summary's do; the paper's claims read ``datasets``.

    Returns
    -------
    dict
        ``{table name: DataFrame}`` for ``ranks.tsv``, ``wilcoxon.tsv``, ``conover.tsv`` and, with ``per_screen``,
        ``claims.tsv``. The paired tests' claim pools every screen's table 2, which a reference does not keep: it
        reads "not checked" (each screen's share is in ``per_screen``).
    """
    from ..models import LABELS
    from ..paper import PAPER_MODELS, claims_across
    from ..report import tests_across_screens

    ranks, pairs, conover = tests_across_screens(datasets, ranked, repeats)
    tables = {"ranks.tsv": ranks, "wilcoxon.tsv": pairs, "conover.tsv": conover}
    if per_screen is not None:
        tables["claims.tsv"] = claims_across(per_screen, datasets, {m: LABELS[m] for m in PAPER_MODELS})
    return tables


def _screens(frame: pd.DataFrame) -> list:
    return list(dict.fromkeys(frame["dataset"]))


def panel_screens(folder) -> list:
    """The screens a panel's reference (or summary) holds, in its ``datasets.tsv``'s order."""
    return _screens(read_table(Path(folder) / "datasets.tsv", usecols=["dataset"]))


def added_screens(results, reference, design=None, held_design=None) -> dict:
    """A panel's reference with a summary's screens added: ``{table name: DataFrame}`` of :data:`SUMMARY_FILES`.

    The reference's tables of one screen each keep its other screens and take the summary's (a screen it already
    holds is replaced in place; new screens follow), and the tables across the screens are recomputed from them
    all (:func:`across_screens`; with repeats, from each screen's mean over them) once there are two screens. A
    summary of every screen the reference holds, with its tables across them, is taken as it is. A summary of its
    screens only (the target ``screen_tables``, on one screen or more) adds them the same way; its design names
    the ranked runs (``design.yaml``'s ``ranked``) where no ranks table does. The novel actives' values
    (``novel.tsv``) merge like a table of one screen each where both hold them; the structures the screens share
    are left out of a merged panel (the caller removes the reference's). Each repeat's values and the PAINS tables
    (``SAME_DESIGN``) merge screen by screen; a summary that holds one the reference does not, or the other way
    round, or other repeats, is refused.

    Parameters
    ----------
    results : path
        A panel's summary folder (``results/summary``).
    reference : path
        The panel's reference folder (``results/reference/<panel>``).
    design, held_design : dict or None
        The summary's design (``tables/design.yaml``) and the reference's (its manifest's): where no ranks table
        says which runs are ranked, their ``ranked`` does.

    Returns
    -------
    dict
        The tables to write.

    Raises
    ------
    ValueError
        When the two hold different rankers, metrics, ranked models, repeats or PAINS tables, or the summary's
        tables across its screens are not what its own screens give.
    """
    from ._tables import optional_summary_files

    extra = optional_summary_files(results)
    claims = holds_claims(results)
    if claims != holds_claims(reference):
        held, lacks = (results, reference) if claims else (reference, results)
        raise ValueError(
            f"{held} holds the paper's claims and {lacks} does not: screens are added to a panel of the same rankers"
        )
    for name in SAME_DESIGN:
        if (name in extra) != (Path(reference) / name).is_file():
            held, lacks = (results, reference) if name in extra else (reference, results)
            raise ValueError(
                f"{held} holds {name} and {lacks} does not: screens are added to a panel of the same design "
                "(repeats, PAINS)"
            )
    new = summary_frames(results, design, across=False)
    kept = panel_files(reference)
    old = {n: read_table(Path(reference) / n) for n in kept}
    if holds_across(results) and set(_screens(new["datasets.tsv"])) >= set(_screens(old["datasets.tsv"])):
        return new
    # the novel actives' values merge screen by screen where both hold them; the structures the screens share
    # cannot (a new screen's with the old ones are not known) and are left out
    held = [n for n in PER_SCREEN if n in kept]  # the claims only where it ranks the paper's five
    per_screen = [
        *held,
        *(n for n in SAME_DESIGN if n in extra),
        *(["novel.tsv"] if "novel.tsv" in new and (Path(reference) / "novel.tsv").is_file() else []),
    ]
    for name in per_screen[len(held) :]:
        old[name] = read_table(Path(reference) / name)
    if "datasets_repeats.tsv" in extra:
        counts = [sorted(set(t["datasets_repeats.tsv"]["repeat"])) for t in (new, old)]
        if counts[0] != counts[1]:
            raise ValueError(
                f"{results} holds repeats {counts[0]}; {reference} holds {counts[1]}: screens are added to a panel "
                "of the same repeats"
            )
    for name in per_screen:
        # the novel actives' keys include each screen's own top count (top631, top1013, ...): the merged table has
        # the union of the columns, as one run of the screens has
        if name != "novel.tsv" and list(new[name].columns) != list(old[name].columns):
            raise ValueError(f"{results}: its {name} has other columns than {reference}'s")
    models = [list(dict.fromkeys(t["datasets.tsv"]["model"])) for t in (new, old)]
    ranked = [_ranked(t, d, f) for t, d, f in ((new, design, results), (old, held_design, reference))]
    if models[0] != models[1] or set(ranked[0]) != set(ranked[1]):  # ranked: the same runs, in any order
        raise ValueError(
            f"{results} ranks {', '.join(ranked[0])} of {', '.join(models[0])}; {reference} ranks "
            f"{', '.join(ranked[1])} of {', '.join(models[1])}: a screen is added to a panel of the same rankers"
        )
    screens = set(_screens(new["datasets.tsv"]))
    merged = {}
    for name in per_screen:
        held = _screens(old[name])
        rows = {d: old[name][old[name]["dataset"] == d] for d in held}
        rows.update({d: new[name][new[name]["dataset"] == d] for d in screens})  # replaced in place ...
        order = held + [d for d in _screens(new[name]) if d not in held]  # ... and new screens follow
        merged[name] = pd.concat([rows[d] for d in order], ignore_index=True)
    return _with_across(merged, ranked[0])


def recomputed_across(reference) -> dict:
    """A panel's reference's tables across the screens, recomputed from its tables of one screen each (with
    repeats, from each screen's mean over them) for the runs its ranks table ranks: ``{table name: DataFrame}`` of
    those it holds. After a change to what those tables hold, the reference takes them without a run of its screens.

    The paper's claim that the paired test is the more powerful pools every screen's table 2, which a reference
    does not keep: its row stays the reference's.

    Raises
    ------
    ValueError
        In one line, for a folder that holds no panel's tables across two screens or more.
    """
    folder = Path(reference)
    if not (folder / "ranks.tsv").is_file() or not (folder / "datasets.tsv").is_file():  # a reference's, at its top
        raise ValueError(f"{reference}: no panel reference with tables across its screens (ranks.tsv) to recompute")
    names = [n for n in PER_SCREEN if holds_claims(folder) or n not in CLAIMS_FILES]
    names += [n for n in ("datasets_repeats.tsv", "ranks.tsv") if (folder / n).is_file()]  # ranks: the runs ranked
    tables = {n: read_table(folder / n) for n in names}
    new = {n: t for n, t in _across(tables, _ranked(tables, None, folder)).items() if (folder / n).is_file()}
    if "claims.tsv" in new:
        held = read_table(folder / "claims.tsv").set_index("id")
        claims = new["claims.tsv"].set_index("id")
        if PAIRED_CLAIM in held.index and set(claims.columns) <= set(held.columns):
            claims.loc[PAIRED_CLAIM] = held.loc[PAIRED_CLAIM, claims.columns]
        new["claims.tsv"] = claims.reset_index()[new["claims.tsv"].columns]
    return new


def summary_frames(results, design=None, across: bool = True) -> dict:
    """A panel's summary's tables as its reference keeps them (``{table name: DataFrame}``), checked: each table of
    one screen each holds the screens of its ``datasets.tsv`` (:func:`check_screens`), and its tables across the
    screens are what its screens' values give. A summary of its screens only (the target ``screen_tables``) gets
    them here, from two screens on, for the runs its design ranks (``design.yaml``'s ``ranked``); without
    ``across`` (its screens are added to a reference, which computes them over all its screens), it does not.

    Raises
    ------
    ValueError
        In one line, for tables of another run, or a summary of its screens only whose design names no ranked runs.
    """
    check_screens(results)
    tables = {n: reference_frame(results, n) for n in reference_files(results)}
    ranked = _ranked(tables, design, results)
    if not holds_across(results):
        return _with_across(tables, ranked) if across else tables
    if len(_screens(tables["datasets.tsv"])) < 2:
        raise ValueError(
            f"{results}: its ranks.tsv is left from another run (its datasets.tsv holds one screen): run the "
            "summary's target again, or remove its tables across the screens"
        )
    own = _across(tables, ranked)
    source = "datasets_repeats.tsv" if "datasets_repeats.tsv" in tables else "datasets.tsv"
    paired = PAIRED_CLAIM  # it pools every screen's table 2, which a reference does not keep
    held = dict(tables)
    if "claims.tsv" in own:
        own["claims.tsv"] = own["claims.tsv"][own["claims.tsv"]["id"] != paired]
        held["claims.tsv"] = tables["claims.tsv"][tables["claims.tsv"]["id"] != paired]
    for name in own:
        # recomputed from the 10 significant digits of the values it was computed from (a difference of two close
        # values keeps fewer)
        if compare(own[name], held[name], name, rtol=1e-6, atol=1e-8):
            raise ValueError(
                f"{results}: its {name} is not what its {source} gives: a table across the screens left from "
                "another run (run the summary's target again)"
            )
    return tables


def _with_across(tables: dict, ranked: list) -> dict:
    """A panel's tables of one screen each, with the tables across the screens recomputed from them once they hold
    two screens or more (one screen has no ranks)."""
    if len(_screens(tables["datasets.tsv"])) < 2:
        return tables
    return {**tables, **_across(tables, ranked)}


def _across(tables: dict, ranked: list) -> dict:
    """:func:`across_screens` of a panel's tables of one screen each, by table name."""
    return across_screens(
        tables["datasets.tsv"], tables.get("claims_per_screen.tsv"), ranked, tables.get("datasets_repeats.tsv")
    )


def check_screens(results) -> None:
    r"""Refuse a panel's summary whose tables of one screen each do not all hold the screens of its ``datasets.tsv``
    (e.g. some left from a run of other screens that stopped before it rewrote them): one line naming the table.

    Examples
    --------
    A summary folder whose PAINS counts are another run's:

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "tables").mkdir()
    >>> pd.DataFrame({"dataset": ["b"], "model": ["IRV"]}).to_csv(folder / "tables" / "datasets.tsv", sep="\t")
    >>> pd.DataFrame({"dataset": ["a"], "flagged": [3]}).to_csv(folder / "tables" / "pains.tsv", sep="\t")
    >>> check_screens(folder)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../tables/pains.tsv holds a; its datasets.tsv holds b: tables of another run (run the summary's target again)
    """
    from ._tables import optional_summary_files

    tables = Path(results) / "tables"
    held = _screens(read_table(tables / "datasets.tsv", usecols=["dataset"]))
    for name in ("claims_per_screen.tsv", *optional_summary_files(results)):
        path = tables / name
        if not path.is_file() or name not in ROW_KEYS or ROW_KEYS[name][0] != "dataset":
            continue
        screens = _screens(read_table(path, usecols=["dataset"]))
        if set(screens) != set(held):
            raise ValueError(
                f"{path} holds {', '.join(screens)}; its datasets.tsv holds {', '.join(held)}: tables of another run "
                "(run the summary's target again)"
            )


def _ranked(tables: dict, design, folder) -> list:
    """The labels a summary's or reference's ranks and tests compare: its ranks table's, else its design's."""
    if "ranks.tsv" in tables:
        return list(dict.fromkeys(tables["ranks.tsv"]["model"]))
    if design and design.get("ranked"):
        return list(design["ranked"])
    raise ValueError(
        f"{folder}: no ranks table and no design naming the ranked runs (design.yaml: ranked): the screens' tables "
        "are added from a summary whose run wrote its design"
    )

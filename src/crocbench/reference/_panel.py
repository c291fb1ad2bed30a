"""A panel's reference assembled screen by screen: a summary's screens added to the reference, and the tables
across the screens recomputed from every screen it then holds (see :mod:`crocbench.reference`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ._tables import SUMMARY_FILES, compare, reference_frame

#: The tables of one screen each (rows named by ``dataset``); the other summary tables are across the screens.
PER_SCREEN = ("datasets.tsv", "claims_per_screen.tsv")
#: Optional summary tables of one screen each that the summary and the reference hold both or neither of (the same
#: design): each repeat's values (``cv: repeats`` above 1) and PAINS (``summary: pains``); merged screen by screen.
SAME_DESIGN = ("datasets_repeats.tsv", "pains.tsv", "datasets_without_pains.tsv")
ACROSS = tuple(n for n in SUMMARY_FILES if n not in PER_SCREEN)


def across_screens(datasets: pd.DataFrame, per_screen: pd.DataFrame, ranked: list, repeats=None) -> dict:
    """The summary's tables across the screens, from its tables of one screen each.

    Parameters
    ----------
    datasets : DataFrame
        :func:`crocbench.report.datasets_table`'s output (each screen's pooled values; with repeats, the first
        repeat's).
    per_screen : DataFrame
        :func:`crocbench.paper.screen_claims`'s output.
    ranked : list
        The labels of the models the ranks and tests compare (the summary's ``models``).
    repeats : DataFrame or None
        Each repeat's values (``datasets_repeats.tsv``) of a repeated cross-validation: the ranks and tests then
        read each screen's mean over the repeats, as the summary's do; the paper's claims read ``datasets``.

    Returns
    -------
    dict
        ``{table name: DataFrame}`` for ``ranks.tsv``, ``wilcoxon.tsv``, ``conover.tsv`` and ``claims.tsv``. The
        paired tests' claim pools every screen's table 2, which a reference does not keep: it reads "not checked"
        (each screen's share is in ``per_screen``).
    """
    from ..models import LABELS
    from ..paper import PAPER_MODELS, claims_across
    from ..report import tests_across_screens

    if repeats is None:
        values = datasets
    else:
        from ..report.findings import repeat_means

        values = repeat_means(repeats)
    ranks, pairs, conover = tests_across_screens(values, ranked)
    claims = claims_across(per_screen, datasets, {m: LABELS[m] for m in PAPER_MODELS})
    return {"ranks.tsv": ranks, "wilcoxon.tsv": pairs, "conover.tsv": conover, "claims.tsv": claims}


def _screens(frame: pd.DataFrame) -> list:
    return list(dict.fromkeys(frame["dataset"]))


def added_screens(results, reference) -> dict:
    """A panel's reference with a summary's screens added: ``{table name: DataFrame}`` of :data:`SUMMARY_FILES`.

    The reference's tables of one screen each keep its other screens and take the summary's (a screen it already
    holds is replaced in place; new screens follow), and the tables across the screens are recomputed from them
    all (:func:`across_screens`; with repeats, from each screen's mean over them). A summary of every screen the
    reference holds is taken as it is. The novel actives' values (``novel.tsv``) merge like a table of one screen
    each where both hold them; the structures the screens share are left out of a merged panel (the caller removes
    the reference's). Each repeat's values and the PAINS tables (``SAME_DESIGN``) merge screen by screen; a
    summary that holds one the reference does not, or the other way round, or other repeats, is refused.

    Parameters
    ----------
    results : path
        A panel's summary folder (``results/summary``).
    reference : path
        The panel's reference folder (``results/reference/<panel>``).

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
    for name in SAME_DESIGN:
        if (name in extra) != (Path(reference) / name).is_file():
            held, lacks = (results, reference) if name in extra else (reference, results)
            raise ValueError(
                f"{held} holds {name} and {lacks} does not: screens are added to a panel of the same design "
                "(repeats, PAINS)"
            )
    new = {n: reference_frame(results, n) for n in (*SUMMARY_FILES, *extra)}
    old = {n: pd.read_csv(Path(reference) / n, sep="\t") for n in SUMMARY_FILES}
    if set(_screens(new["datasets.tsv"])) >= set(_screens(old["datasets.tsv"])):
        return new
    # the novel actives' values merge screen by screen where both hold them; the structures the screens share
    # cannot (a new screen's with the old ones are not known) and are left out
    per_screen = [
        *PER_SCREEN,
        *(n for n in SAME_DESIGN if n in extra),
        *(["novel.tsv"] if "novel.tsv" in new and (Path(reference) / "novel.tsv").is_file() else []),
    ]
    for name in per_screen[len(PER_SCREEN) :]:
        old[name] = pd.read_csv(Path(reference) / name, sep="\t")
    if "datasets_repeats.tsv" in extra:
        counts = [sorted(set(t["datasets_repeats.tsv"]["repeat"])) for t in (new, old)]
        if counts[0] != counts[1]:
            raise ValueError(
                f"{results} holds repeats {counts[0]}; {reference} holds {counts[1]}: screens are added to a panel "
                "of the same repeats"
            )
    for name in per_screen:
        if list(new[name].columns) != list(old[name].columns):
            raise ValueError(f"{results}: its {name} has other columns than {reference}'s")
    models = [list(dict.fromkeys(t["datasets.tsv"]["model"])) for t in (new, old)]
    ranked = [list(dict.fromkeys(t["ranks.tsv"]["model"])) for t in (new, old)]
    if models[0] != models[1] or ranked[0] != ranked[1]:
        raise ValueError(
            f"{results} ranks {', '.join(ranked[0])} of {', '.join(models[0])}; {reference} ranks "
            f"{', '.join(ranked[1])} of {', '.join(models[1])}: a screen is added to a panel of the same rankers"
        )
    source = "datasets_repeats.tsv" if "datasets_repeats.tsv" in extra else "datasets.tsv"
    own = across_screens(new["datasets.tsv"], new["claims_per_screen.tsv"], ranked[0], new.get("datasets_repeats.tsv"))
    for name in ("ranks.tsv", "wilcoxon.tsv", "conover.tsv"):
        # recomputed from the 10 significant digits of the values it was computed from (a difference of two close
        # values keeps fewer)
        if compare(own[name], new[name], name, rtol=1e-6, atol=1e-8):
            raise ValueError(
                f"{results}: its {name} is not what its {source} gives: screens are added from summaries whose "
                "tables across the screens are their screens' own"
            )
    screens = set(_screens(new["datasets.tsv"]))
    merged = {}
    for name in per_screen:
        held = _screens(old[name])
        rows = {d: old[name][old[name]["dataset"] == d] for d in held}
        rows.update({d: new[name][new[name]["dataset"] == d] for d in screens})  # replaced in place ...
        order = held + [d for d in _screens(new[name]) if d not in held]  # ... and new screens follow
        merged[name] = pd.concat([rows[d] for d in order], ignore_index=True)
    across = across_screens(
        merged["datasets.tsv"], merged["claims_per_screen.tsv"], ranked[0], merged.get("datasets_repeats.tsv")
    )
    return {**merged, **across}

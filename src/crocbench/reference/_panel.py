"""A panel's reference assembled screen by screen: a summary's screens added to the reference, and the tables
across the screens recomputed from every screen it then holds (see :mod:`crocbench.reference`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ._tables import SUMMARY_FILES, compare, reference_frame

#: The tables of one screen each (rows named by ``dataset``); the other summary tables are across the screens.
PER_SCREEN = ("datasets.tsv", "claims_per_screen.tsv")
#: Optional summary tables a panel grown screen by screen refuses: repeats and PAINS (write it from one summary).
NOT_ADDED = ("datasets_repeats.tsv", "pains.tsv", "datasets_without_pains.tsv")
ACROSS = tuple(n for n in SUMMARY_FILES if n not in PER_SCREEN)


def across_screens(datasets: pd.DataFrame, per_screen: pd.DataFrame, ranked: list) -> dict:
    """The summary's tables across the screens, from its tables of one screen each.

    Parameters
    ----------
    datasets : DataFrame
        :func:`crocbench.report.datasets_table`'s output (each screen's pooled values).
    per_screen : DataFrame
        :func:`crocbench.paper.screen_claims`'s output.
    ranked : list
        The labels of the models the ranks and tests compare (the summary's ``models``).

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

    ranks, pairs, conover = tests_across_screens(datasets, ranked)
    claims = claims_across(per_screen, datasets, {m: LABELS[m] for m in PAPER_MODELS})
    return {"ranks.tsv": ranks, "wilcoxon.tsv": pairs, "conover.tsv": conover, "claims.tsv": claims}


def _screens(frame: pd.DataFrame) -> list:
    return list(dict.fromkeys(frame["dataset"]))


def added_screens(results, reference) -> dict:
    """A panel's reference with a summary's screens added: ``{table name: DataFrame}`` of :data:`SUMMARY_FILES`.

    The reference's tables of one screen each keep its other screens and take the summary's (a screen it already
    holds is replaced in place; new screens follow), and the tables across the screens are recomputed from them
    all (:func:`across_screens`). A summary of every screen the reference holds is taken as it is. The novel
    actives' values (``novel.tsv``) merge like a table of one screen each where both hold them; the structures the
    screens share are left out of a merged panel (the caller removes the reference's); repeats and PAINS tables
    (``NOT_ADDED``) are refused.

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
        When the two hold different rankers, metrics or ranked models, or the summary's tables across its screens
        are not what its own screens give (e.g. means over repeated cross-validations).
    """
    from ._tables import optional_summary_files

    refused = [n for n in NOT_ADDED if n in optional_summary_files(results) or (Path(reference) / n).is_file()]
    if refused:
        raise ValueError(
            f"{results}: {refused[0]} (repeats or PAINS) is not merged screen by screen: write the whole panel's "
            "reference from one summary"
        )
    extra = [n for n in optional_summary_files(results) if n not in NOT_ADDED]
    new = {n: reference_frame(results, n) for n in (*SUMMARY_FILES, *extra)}
    old = {n: pd.read_csv(Path(reference) / n, sep="\t") for n in SUMMARY_FILES}
    if set(_screens(new["datasets.tsv"])) >= set(_screens(old["datasets.tsv"])):
        return new
    # the novel actives' values merge screen by screen where both hold them; the structures the screens share
    # cannot (a new screen's with the old ones are not known) and are left out
    per_screen = [
        *PER_SCREEN,
        *(["novel.tsv"] if "novel.tsv" in new and (Path(reference) / "novel.tsv").is_file() else []),
    ]
    for name in per_screen[len(PER_SCREEN) :]:
        old[name] = pd.read_csv(Path(reference) / name, sep="\t")
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
    own = across_screens(new["datasets.tsv"], new["claims_per_screen.tsv"], ranked[0])
    for name in ("ranks.tsv", "wilcoxon.tsv", "conover.tsv"):
        # recomputed from the 10 significant digits of the values it was computed from (a difference of two close
        # values keeps fewer)
        if compare(own[name], new[name], name, rtol=1e-6, atol=1e-8):
            raise ValueError(
                f"{results}: its {name} is not what its datasets.tsv gives (a summary of repeated "
                "cross-validations?): screens are added from summaries of each screen's pooled values"
            )
    screens = set(_screens(new["datasets.tsv"]))
    merged = {}
    for name in per_screen:
        held = _screens(old[name])
        rows = {d: old[name][old[name]["dataset"] == d] for d in held}
        rows.update({d: new[name][new[name]["dataset"] == d] for d in screens})  # replaced in place ...
        order = held + [d for d in _screens(new[name]) if d not in held]  # ... and new screens follow
        merged[name] = pd.concat([rows[d] for d in order], ignore_index=True)
    return {**merged, **across_screens(merged["datasets.tsv"], merged["claims_per_screen.tsv"], ranked[0])}

"""The summary without the PAINS compounds: each screen's flagged compounds, and the declared family without them."""

from __future__ import annotations

import pandas as pd

from .._format import markdown_table
from .._summary import repeat_means
from ._questions import Questions
from ._screens import family_markdown, family_table, repeats_agreeing


def pains_markdown(counts: pd.DataFrame, without: pd.DataFrame, questions: dict | None = None) -> str:
    """The summary without the PAINS compounds (:mod:`crocbench.chem.pains`), as Markdown: the flagged compounds and
    actives of each screen, and, where the study declared its questions, the declared family's tests on each
    model's values without them (:func:`family_table`).

    Parameters
    ----------
    counts : DataFrame
        One row per screen: ``dataset`` and :func:`crocbench.chem.pains.flag_counts`'s columns.
    without : DataFrame
        :func:`crocbench.report.datasets_table` of the screens without their flagged compounds, with a ``repeat`` column where a
        repeated cross-validation gives one table per repeat (the family is then tested on their means).
    questions : dict, default=None
        The study's ``summary: questions``.

    Returns
    -------
    str
    """
    shares = counts.assign(
        share=lambda t: (100 * t["flagged"] / t["compounds"]).map("{:.1f}%".format),
        active_share=lambda t: (100 * t["flagged_actives"] / t["actives"].clip(lower=1)).map("{:.1f}%".format),
    )
    table = shares[["dataset", "compounds", "flagged", "share", "actives", "flagged_actives", "active_share"]]
    table.columns = ["screen", "compounds", "PAINS", "share", "actives", "PAINS actives", "share of actives"]
    lines = [
        f"PAINS compounds (RDKit's FilterCatalog, families A, B and C): {int(counts['flagged'].sum()):,} of "
        f"{int(counts['compounds'].sum()):,} compounds and {int(counts['flagged_actives'].sum()):,} of "
        f"{int(counts['actives'].sum()):,} actives over {len(counts)} screens (a compound is counted once per "
        "screen).",
        "",
        markdown_table(table),
    ]
    if questions is not None:
        declared = Questions.from_dict(questions)
        repeats = int(without["repeat"].nunique()) if "repeat" in without.columns else 1
        family = family_table(repeat_means(without) if "repeat" in without.columns else without, declared)
        if repeats > 1:  # as the headline: on the means over the repeats, and each repeat on its own
            family = repeats_agreeing(without, declared, family)
        lines += [
            "",
            f"The declared family ({declared.declared}) on each model's values without the PAINS compounds"
            + (f" (their means over the {repeats} repeats):" if repeats > 1 else ":"),
            "",
            family_markdown(family, declared),
        ]
    return "\n".join(lines)

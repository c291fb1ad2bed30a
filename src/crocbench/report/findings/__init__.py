"""A study's answers, written from its tables and its declared questions: numbers and verdicts by code, never by hand.

A study declares its questions before it runs (:class:`Questions`, the config's ``summary: questions``): the metric of
record, the confirmatory family (pairs of rankers x metrics, Holm-adjusted together) and a practical-significance
threshold per metric. From a panel's per-screen values (``datasets.tsv``) this module computes, for every test of
the family, the record over the screens, the effect (:func:`crocbench.stats.paired_effect`: the mean paired
difference with its bootstrap interval over the screens), the Wilcoxon signed-rank p-value and its Holm adjustment
over the whole family, and a verdict (:func:`family_table`); and writes them as Markdown (:func:`answers_markdown`,
:func:`family_markdown`, :func:`headline_markdown`). Everything else a page says of the ranks is exploratory
(:func:`exploratory_markdown`).

A family declared after the run (``declared: after the run``) is tested the same way, and every answer says it is
exploratory. No function here asserts a result: when a number moves, the words follow. A study on one dataset
has its own family table (:func:`study_family_table`: the paper's paired permutation test, each ranker's interval).

Modules: ``_questions`` (:class:`Questions`, :data:`VERDICTS`, :func:`describe`, :func:`verdict_counts`),
``_screens`` (across screens, and each ranker's spread over the repeats: :func:`repeat_spread`; the means over
the repeats are :func:`crocbench.report.repeat_means`), ``_one_dataset`` (a study on one dataset),
``_exploratory`` (beyond the family), ``_pains`` (the family without the PAINS compounds), ``_memorization``
(the strata of the test actives: best on novel actives, the analogs' share of each gain) and ``_verdict`` (a verdict
study's union of families with each verdict's robustness, and its decompositions: :func:`verdict_table`).
"""

from ._exploratory import exploratory_markdown
from ._memorization import (
    memorization_findings_markdown,
    memorization_headline_markdown,
    novel_markdown,
    stratum_datasets,
)
from ._one_dataset import study_answers_markdown, study_family_markdown, study_family_table, study_headline_markdown
from ._pains import pains_markdown
from ._questions import DECLARED, VERDICTS, Questions, describe, verdict_counts
from ._screens import (
    answers_markdown,
    family_markdown,
    family_table,
    headline_markdown,
    repeat_spread,
    repeats_agreeing,
    spread_markdown,
)
from ._verdict import (
    Arm,
    awaiting_markdown,
    declared_arms,
    decomposition_markdown,
    decomposition_table,
    verdict_markdown,
    verdict_table,
)

__all__ = [
    "Arm",
    "DECLARED",
    "VERDICTS",
    "Questions",
    "answers_markdown",
    "awaiting_markdown",
    "declared_arms",
    "decomposition_markdown",
    "decomposition_table",
    "describe",
    "exploratory_markdown",
    "family_markdown",
    "family_table",
    "headline_markdown",
    "memorization_findings_markdown",
    "memorization_headline_markdown",
    "novel_markdown",
    "pains_markdown",
    "stratum_datasets",
    "repeat_spread",
    "repeats_agreeing",
    "spread_markdown",
    "study_answers_markdown",
    "study_family_markdown",
    "study_family_table",
    "study_headline_markdown",
    "verdict_counts",
    "verdict_markdown",
    "verdict_table",
]

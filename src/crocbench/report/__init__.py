"""Tables of the report: built from pooled scores and fit records, written as TSV and Markdown.

One concern per module:

- ``_format``: Markdown tables and cells (numbers, p-values);
- ``_claims``: claims about rankers: :class:`Check` (a claim defined once), checked on one screen
  (:class:`OnScreen`) or across screens (:class:`Across`) by :func:`evaluate`, the :class:`Claim` verdict and
  its Markdown list; a paper's own claims live in its package (:mod:`crocbench.paper`);
- ``_tables``: tables 1 (areas, pooled and per fold; the other papers' metrics) and 2 (the six tests'
  p-values per pair of models);
- ``_irv``: the IRV training table and the IRV training study;
- ``_svm``: the SVM set-up sensitivity study;
- ``_power``: the power study's tables;
- ``_landing``: the published-vs-reproduced table, and the HTML report's landing summary that leads with it;
- ``_rankers``: a study of rankers on one dataset: table 1 with intervals, each metric's order, chosen pairs' tests;
- ``_protocol``: the evaluation protocol: the split (folds, scaffolds), table 1 with bootstrap intervals, the
  repeats (mean and SD over repeated cross-validations, corrected resampled t-tests);
- ``_summary``: the summary across datasets, computed (ranks; Friedman, Conover, Nemenyi and Wilcoxon tests;
  with repeats, each dataset's mean over them);
  ``_summary_markdown`` renders it; ``_panels`` compares panels on the screens they share; ``_shared`` counts the
  structures the screens share.

The report knows nothing of a particular paper: a paper's numbers (anchors, epochs) and claims are given to it.

The metric columns derive from the paper's headline areas (:data:`crocbench.metrics.HEADLINE`:
AUC[ROC], then AUC[CROC(exp)] at a = 7, 14 and 80; see :func:`crocbench.metrics.paper_metrics`).
"""

from ._claims import Across, Check, Claim, OnScreen, claims_markdown, evaluate, holds_per_claim
from ._format import markdown_html, markdown_table
from ._irv import irv_study_closest, irv_study_markdown, irv_study_table, irv_training_table
from ._landing import landing_rst, published_cells, quantity_labels
from ._matrix import metric_matrix
from ._memorization import (
    memorization_markdown,
    memorization_table,
    split_similarity_curves,
    split_similarity_markdown,
    split_similarity_table,
    stratum_tests,
    stratum_tests_markdown,
)
from ._panels import panels_compared
from ._power import power_markdown, power_notes
from ._protocol import (
    folds_markdown,
    intervals_markdown,
    intervals_table,
    repeats_markdown,
    repeats_table,
    repeats_tests,
    split_comparison,
    split_comparison_markdown,
    split_orders,
)
from ._rankers import STUDY_METRICS, orders_markdown, pair_tests, pair_tests_markdown, rankers_markdown
from ._shared import shared_markdown, shared_structures, structure_keys
from ._summary import (
    SUMMARY_EF_KEY,
    SUMMARY_FIGURE_METRICS,
    SUMMARY_RANK_METRICS,
    SUMMARY_TABLE_METRICS,
    SUMMARY_TESTS,
    SUMMARY_TOP,
    SUMMARY_TOP_KEY,
    conover_table,
    critical_difference_subplots,
    datasets_table,
    ranks_table,
    repeat_means,
    summary_calls,
    summary_labels,
    tests_across_screens,
)
from ._summary_markdown import (
    claims_across_markdown,
    conover_markdown,
    datasets_markdown,
    pairs_markdown,
    ranks_markdown,
    ranks_overview_markdown,
    screens_markdown,
)
from ._svm import (
    SETUP_COLUMNS,
    anchor_matches,
    pooling_table,
    sensitivity_keys,
    svm_choices,
    svm_sensitivity_markdown,
    svm_sensitivity_table,
)
from ._tables import (
    RANDOM_ROW,
    areas_markdown,
    areas_table,
    metric_set_for,
    other_metrics_markdown,
    other_metrics_table,
    per_fold_summary,
    pooled_metrics,
    significance_markdown,
    significance_table,
    undefined_per_fold,
    write_pooled,
)

__all__ = [
    "memorization_markdown",
    "memorization_table",
    "split_similarity_curves",
    "split_similarity_markdown",
    "split_similarity_table",
    "stratum_tests",
    "stratum_tests_markdown",
    "RANDOM_ROW",
    "STUDY_METRICS",
    "orders_markdown",
    "pair_tests",
    "pair_tests_markdown",
    "rankers_markdown",
    "SETUP_COLUMNS",
    "SUMMARY_FIGURE_METRICS",
    "SUMMARY_RANK_METRICS",
    "SUMMARY_TABLE_METRICS",
    "SUMMARY_TESTS",
    "SUMMARY_TOP",
    "SUMMARY_EF_KEY",
    "SUMMARY_TOP_KEY",
    "Across",
    "Check",
    "Claim",
    "OnScreen",
    "evaluate",
    "holds_per_claim",
    "metric_matrix",
    "claims_markdown",
    "markdown_html",
    "markdown_table",
    "shared_markdown",
    "shared_structures",
    "structure_keys",
    "areas_markdown",
    "folds_markdown",
    "intervals_markdown",
    "intervals_table",
    "repeats_markdown",
    "repeats_table",
    "repeats_tests",
    "split_comparison",
    "split_comparison_markdown",
    "split_orders",
    "areas_table",
    "other_metrics_markdown",
    "other_metrics_table",
    "metric_set_for",
    "per_fold_summary",
    "pooled_metrics",
    "significance_markdown",
    "significance_table",
    "undefined_per_fold",
    "write_pooled",
    "irv_study_closest",
    "irv_study_markdown",
    "irv_study_table",
    "irv_training_table",
    "anchor_matches",
    "pooling_table",
    "sensitivity_keys",
    "svm_choices",
    "svm_sensitivity_markdown",
    "svm_sensitivity_table",
    "power_markdown",
    "power_notes",
    "datasets_markdown",
    "datasets_table",
    "conover_markdown",
    "conover_table",
    "ranks_markdown",
    "ranks_table",
    "repeat_means",
    "tests_across_screens",
    "pairs_markdown",
    "panels_compared",
    "ranks_overview_markdown",
    "screens_markdown",
    "summary_calls",
    "critical_difference_subplots",
    "summary_labels",
    "claims_across_markdown",
    "landing_rst",
    "published_cells",
    "quantity_labels",
]

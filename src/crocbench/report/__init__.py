"""Tables of the report: built from pooled scores and fit records, written as TSV and Markdown.

One concern per module:

- ``_format``: Markdown tables and cells (numbers, p-values);
- ``_claims``: :class:`Claim`, a paper's claim checked on a run, and its Markdown list;
- ``_tables``: the paper's tables 1 (areas, pooled and per fold; the other references' metrics) and 2
  (the six tests' p-values per pair of models);
- ``_published``: the paper's published numbers and claims (``published.yaml``) beside a run's (table 4);
- ``_irv``: the IRV training table (Appendix A) and the IRV training study;
- ``_svm``: the SVM set-up sensitivity study;
- ``_power``: the power study;
- ``_protocol``: the evaluation protocol: the split (folds, scaffolds), table 1 with bootstrap intervals, the
  repeats (mean and SD over repeated cross-validations, corrected resampled t-tests);
- ``_summary``: the summary across datasets (ranks, Friedman and Nemenyi tests).

The metric columns derive from the paper's headline areas (``HEADLINE_KEYS`` of ``crocbench.metrics._panel``:
AUC[ROC], then AUC[CROC(exp)] at a = 7, 14 and 80; see :func:`crocbench.metrics.paper_panel`).
"""

from ._claims import Claim, claims_markdown
from ._format import markdown_table
from ._irv import irv_study_closest, irv_study_markdown, irv_study_table, irv_training_claims, irv_training_table
from ._power import power_claims, power_markdown, power_notes
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
from ._published import (
    PAPER,
    PAPER_MODELS,
    among_paper_models,
    check_claims,
    irv_training_notes,
    load_published,
    measured_values,
    paper_irv_epochs,
    published_comparison,
    published_points,
)
from ._summary import (
    SUMMARY_EF_KEY,
    SUMMARY_FIGURE_METRICS,
    SUMMARY_METRICS,
    SUMMARY_RANK_METRICS,
    SUMMARY_TOP,
    SUMMARY_TOP_KEY,
    claims_across,
    claims_across_markdown,
    datasets_markdown,
    datasets_table,
    pairs_markdown,
    panels_compared,
    ranks_markdown,
    ranks_overview_markdown,
    ranks_table,
    screen_claims,
    screens_markdown,
    summary_calls,
    summary_labels,
)
from ._svm import (
    SENSITIVITY_KEYS,
    SETUP_COLUMNS,
    paper_svm_matches,
    pooling_table,
    sensitivity_keys,
    svm_choices,
    svm_sensitivity_markdown,
    svm_sensitivity_table,
)
from ._tables import (
    HEADLINE_BEDROC_KEYS,
    RANDOM_ROW,
    areas_markdown,
    areas_table,
    other_metrics_markdown,
    other_metrics_table,
    panel_for,
    per_fold_summary,
    pooled_metrics,
    significance_markdown,
    significance_table,
    undefined_per_fold,
    write_pooled,
)

__all__ = [
    "HEADLINE_BEDROC_KEYS",
    "PAPER",
    "RANDOM_ROW",
    "SENSITIVITY_KEYS",
    "SETUP_COLUMNS",
    "PAPER_MODELS",
    "SUMMARY_FIGURE_METRICS",
    "SUMMARY_METRICS",
    "SUMMARY_RANK_METRICS",
    "SUMMARY_TOP",
    "SUMMARY_EF_KEY",
    "SUMMARY_TOP_KEY",
    "Claim",
    "claims_markdown",
    "markdown_table",
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
    "panel_for",
    "per_fold_summary",
    "pooled_metrics",
    "significance_markdown",
    "significance_table",
    "undefined_per_fold",
    "write_pooled",
    "among_paper_models",
    "check_claims",
    "irv_training_notes",
    "load_published",
    "measured_values",
    "paper_irv_epochs",
    "published_comparison",
    "published_points",
    "irv_study_closest",
    "irv_study_markdown",
    "irv_study_table",
    "irv_training_claims",
    "irv_training_table",
    "paper_svm_matches",
    "pooling_table",
    "sensitivity_keys",
    "svm_choices",
    "svm_sensitivity_markdown",
    "svm_sensitivity_table",
    "power_claims",
    "power_markdown",
    "power_notes",
    "datasets_markdown",
    "datasets_table",
    "ranks_markdown",
    "ranks_table",
    "pairs_markdown",
    "panels_compared",
    "ranks_overview_markdown",
    "screens_markdown",
    "summary_calls",
    "summary_labels",
    "screen_claims",
    "claims_across",
    "claims_across_markdown",
]

"""Early-retrieval metrics: ROC, CROC, AC, CAC, their relatives, and the other papers' measures.

Every area here is ``scale * mean(h(x_i)) + offset`` over the positives i,
with ``x_i`` the number of negatives above positive i (ROC family) or its
rank (AC family); :func:`per_positive_values` exposes the ``h(x_i)`` that the
significance tests in :mod:`crocbench.stats` compare.  All functions take
``(y_true, y_score, ...)`` with higher score = more likely positive, resolve
tied scores exactly (see ``_ranking`` below) and raise
``ValueError`` on bad input.

Beyond the CROC paper: average precision, precision/recall at k,
R-precision, LocAUC, logAUC, DCG and NDCG are means over the positives too (they plug into the
tests); ``_retrieval`` adds the set-based IR measures (:func:`precision`,
:func:`recall`, :func:`f_beta`, ...), ``_probabilities`` KDD Cup ``perf``'s
probability metrics (:func:`cross_entropy`, :func:`rmse`, :func:`slac_q`),
``_queries`` the per-query scores (:func:`tap_k`, :func:`roc_n_per_query`,
:func:`mean_average_precision`, :func:`top1`), which do not.

Modules, one concern each: ``_validation`` (checking labels and scores),
``_ranking`` (ranks and FPRs with ties), ``_transforms`` (the CROC
magnifications), ``_definitions`` (the registry :data:`METRICS`: each metric's :class:`Definition`,
``h`` and its affine map), ``_areas`` (a definition's value and per-positive
values), ``_resamples`` (the value on many resamples at once), ``_baselines``
(the exact random baselines); one function per metric, by family: ``_roc``
(ROC, CROC, cut-off ROC, ROC_n, pROC, LocAUC), ``_enrichment`` (AC, CAC, RIE,
BEDROC, SLR, EF, hits at k), ``_precision`` (precision and recall at k,
R-precision, AP), ``_screening`` (logAUC, DCG, NDCG) and ``_queries`` (per
query); ``_scorers`` (any metric as a scikit-learn scorer), ``_curves``,
``_confusion`` (the counts of a retrieved set), ``_retrieval``,
``_probabilities``, ``_sets`` (named metric calls and the named metric sets:
the paper's, the benchmarks') and ``_other_metrics`` (the other papers' metrics).
``tests/test_metrics_common.py`` checks every metric of the registry.
"""

from ._areas import evaluate, per_positive_values, score
from ._baselines import random_baseline
from ._confusion import AVERAGES, Confusion, confusion
from ._curves import ac_curve, cac_curve, croc_curve, precision_recall_curve, roc_curve
from ._definitions import METRIC_FAMILY, METRICS, Definition, RandomBaseline, definition
from ._enrichment import ac_auc, bedroc, cac_auc, enrichment_factor, hits_at_k, rie, slr
from ._other_metrics import FAMILIES, OtherMetric, other_metrics, other_values, per_fold_metrics
from ._precision import average_precision, precision_at_k, r_precision, recall_at_k
from ._probabilities import cross_entropy, rmse, slac_q
from ._queries import (
    last_positive_rank,
    mean_average_precision,
    per_query,
    roc_n_per_query,
    tap_k,
    tap_threshold,
    top1,
)
from ._ranking import TIES, Counts, Ranking
from ._resamples import Resamples, evaluate_resamples
from ._retrieval import accuracy, f_beta, fallout, precision, precision_at_recall, recall
from ._roc import croc_auc, loc_auc, proc_auc, roc_auc, roc_auc_cutoff, roc_n
from ._scorers import scorer
from ._screening import dcg, log_auc, ndcg
from ._sets import (
    ALPHAS,
    CUTOFFS,
    HEADLINE,
    HEADLINE_BEDROC,
    MetricCall,
    benchmark_metrics,
    hits_call,
    paper_metrics,
    parse_metric,
    top_cutoff,
)
from ._transforms import TRANSFORMS, cutoff_transform, get_transform, random_croc_auc_limit
from ._validation import check_binary_scores

__all__ = [
    "ALPHAS",
    "AVERAGES",
    "CUTOFFS",
    "HEADLINE",
    "HEADLINE_BEDROC",
    "FAMILIES",
    "METRICS",
    "METRIC_FAMILY",
    "TIES",
    "TRANSFORMS",
    "Confusion",
    "Counts",
    "Definition",
    "MetricCall",
    "OtherMetric",
    "RandomBaseline",
    "Ranking",
    "Resamples",
    "accuracy",
    "ac_auc",
    "ac_curve",
    "average_precision",
    "bedroc",
    "benchmark_metrics",
    "cac_auc",
    "cac_curve",
    "check_binary_scores",
    "croc_auc",
    "croc_curve",
    "cutoff_transform",
    "dcg",
    "definition",
    "enrichment_factor",
    "evaluate",
    "evaluate_resamples",
    "get_transform",
    "hits_at_k",
    "hits_call",
    "paper_metrics",
    "parse_metric",
    "per_fold_metrics",
    "top_cutoff",
    "per_positive_values",
    "proc_auc",
    "random_baseline",
    "random_croc_auc_limit",
    "rie",
    "roc_auc",
    "roc_auc_cutoff",
    "roc_curve",
    "roc_n",
    "score",
    "scorer",
    "slr",
    "confusion",
    "cross_entropy",
    "f_beta",
    "fallout",
    "last_positive_rank",
    "loc_auc",
    "log_auc",
    "mean_average_precision",
    "ndcg",
    "per_query",
    "precision",
    "precision_at_k",
    "precision_at_recall",
    "precision_recall_curve",
    "r_precision",
    "recall",
    "recall_at_k",
    "rmse",
    "roc_n_per_query",
    "other_metrics",
    "other_values",
    "slac_q",
    "tap_k",
    "tap_threshold",
    "top1",
]

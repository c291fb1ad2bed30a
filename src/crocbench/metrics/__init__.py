"""Early-retrieval metrics: ROC, CROC, AC, CAC and their relatives.

Every area here is ``scale * mean(h(x_i)) + offset`` over the positives i,
with ``x_i`` the number of negatives above positive i (ROC family) or its
rank (AC family); :func:`per_positive_values` exposes the ``h(x_i)`` that the
significance tests in :mod:`crocbench.stats` compare.  All functions take
``(y_true, y_score, ...)`` with higher score = more likely positive, resolve
tied scores exactly (see :mod:`crocbench.metrics._ranking`) and raise
``ValueError`` on bad input.
"""

from ._areas import (
    METRICS,
    Definition,
    RandomBaseline,
    ac_auc,
    bedroc,
    cac_auc,
    croc_auc,
    definition,
    enrichment_factor,
    evaluate,
    hits_at_k,
    per_positive_values,
    proc_auc,
    random_baseline,
    rie,
    roc_auc,
    roc_auc_cutoff,
    roc_n,
    score,
    slr,
)
from ._curves import ac_curve, cac_curve, croc_curve, roc_curve
from ._panel import ALPHAS, CUTOFFS, MetricCall, paper_panel, parse_metric
from ._ranking import TIES, Counts, Ranking, check_binary_scores
from ._transforms import TRANSFORMS, cutoff_transform, get_transform, random_croc_auc_limit

__all__ = [
    "ALPHAS", "CUTOFFS", "METRICS", "TIES", "TRANSFORMS",
    "Counts", "Definition", "MetricCall", "RandomBaseline", "Ranking",
    "ac_auc", "ac_curve", "bedroc", "cac_auc", "cac_curve", "check_binary_scores",
    "croc_auc", "croc_curve", "cutoff_transform", "definition", "enrichment_factor",
    "evaluate", "get_transform", "hits_at_k", "paper_panel", "parse_metric",
    "per_positive_values", "proc_auc", "random_baseline", "random_croc_auc_limit",
    "rie", "roc_auc", "roc_auc_cutoff", "roc_curve", "roc_n", "score", "slr",
]

"""The exact random baselines: a metric's mean and SD over the uniformly random orderings of a list.

Computed from the metric's one :class:`~crocbench.metrics.Definition`
(:mod:`crocbench.metrics._definitions`), without sampling.
"""

from __future__ import annotations

import math

import numpy as np

from ._definitions import RANK, RANKING, RandomBaseline, _check_count, definition
from ._ranking import Counts


def random_baseline(metric: str, n: int, n_pos: int, /, **params) -> RandomBaseline:
    """Exact mean and SD of ``metric`` for a uniformly random ranking of n items.

    For rank metrics the positives' ranks are a random ``n_pos``-subset of
    1..n: the mean of ``h`` over 1..n, with the finite-population variance
    ``var(h) / n_pos * (n - n_pos) / (n - 1)``.  For FPR metrics each
    positive has j negatives above it with j uniform on 0..n_neg, and two
    positives' (j, j') are a uniform multiset pair, which gives
    ``var(mean) = var(h) * (n + 1) / (n_pos * (n_neg + 2))``.  For AUC[ROC]
    this is the Mann-Whitney variance ``(n + 1) / (12 n_pos n_neg)``.

    Parameters
    ----------
    metric : str
        A name from :data:`METRICS` whose per-positive value is a function of one position
        (every metric but ``average_precision`` and ``loc_auc``).
    n : int
        Length of the list, at least 2.
    n_pos : int
        Number of positives in it, 1 to ``n - 1``.
    **params
        The metric's parameters (e.g. ``alpha=80``).

    Returns
    -------
    RandomBaseline
        ``(mean, sd)`` of the metric over the uniformly random orderings of the list.

    Examples
    --------
    >>> b = random_baseline("roc_auc", 100, 10)
    >>> round(b.mean, 6), round(b.sd ** 2 * 12 * 10 * 90, 6)
    (0.5, 101.0)
    """
    n = _check_count(n, "n", 2, 2**62)
    n_pos = _check_count(n_pos, "n_pos", 1, n - 1)
    c = Counts(n, n_pos, n - n_pos)
    d = definition(metric, c, **params)
    if d.kind == RANKING:
        raise ValueError(
            f"{metric} has no exact random baseline (its per-positive value is not a function of one position)"
        )
    if d.kind == RANK:
        v = np.asarray(d.h(np.arange(1, n + 1, dtype=np.int64)), dtype=np.float64)
        var_mean = v.var() / n_pos * (n - n_pos) / (n - 1)
    else:
        v = np.asarray(d.h(np.arange(0, c.n_neg + 1, dtype=np.int64)), dtype=np.float64)
        var_mean = v.var() * (n + 1) / (n_pos * (c.n_neg + 2))
    return RandomBaseline(float(d.scale * v.mean() + d.offset), float(abs(d.scale) * math.sqrt(max(var_mean, 0.0))))

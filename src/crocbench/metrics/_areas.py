"""Every area of the CROC framework as ``scale * mean(per-positive values) + offset``: the one evaluation path.

Every metric here is (an affine map of) a mean over the positives of a
function ``h`` of each positive's FPR (``j``, the negatives above it) or
rank ``r``, defined once by its :class:`~crocbench.metrics.Definition`
(:mod:`crocbench.metrics._definitions`).  This module turns that one
definition into the metric's value (:func:`score`, :func:`evaluate`) and its
per-positive values, on which the significance tests run
(:func:`per_positive_values`).  The one function per metric lives in
``_roc_areas`` (ROC family), ``_ac_areas`` (AC family) and ``_other_areas``
(the other papers' means over the positives); the value on many
resamples at once in ``_resamples``, the random classifier's exact mean and
SD in ``_baselines``.
"""

from __future__ import annotations

import numpy as np

from ._definitions import FPR, RANK, Definition, definition
from ._ranking import Ranking, check_ties


def _values(ranking: Ranking, d: Definition, ties: str) -> np.ndarray:
    if d.kind == FPR:
        return ranking.fpr_values(d.h, ties)
    if d.kind == RANK:
        return ranking.rank_values(d.h, ties)
    return d.h(ranking, check_ties(ties))


def _as_ranking(y_true, y_score) -> Ranking:
    return y_true if isinstance(y_true, Ranking) and y_score is None else Ranking(y_true, y_score)


def per_positive_values(y_true, y_score, metric: str, *, ties: str = "expected", **params) -> np.ndarray:
    """Per-positive values whose mean, mapped affinely, is the metric.

    ``metric(y_true, y_score) == scale * per_positive_values(...).mean() + offset``
    with ``scale, offset`` from :func:`definition`; ``scale > 0`` for every
    metric here, so a larger mean is a better ranking.  The significance
    tests of :mod:`crocbench.stats` run on these values.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    metric : str
        A name from :data:`METRICS` (e.g. ``"croc_auc"``).
    **params
        The metric's parameters (e.g. ``alpha=80``).
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    ndarray of shape (n_pos,)
        One value per positive, in input order.

    Examples
    --------
    The paper's worked example: FPRs {0, 0, 0.2, 0.2, 0.4} give values 1 - FPR.

    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]
    >>> per_positive_values(y, list(range(10, 0, -1)), "roc_auc")
    array([1. , 1. , 0.8, 0.8, 0.6])
    """
    ranking = _as_ranking(y_true, y_score)
    return _values(ranking, definition(metric, ranking.counts, **params), ties)


def evaluate(ranking: Ranking, d: Definition, ties: str = "expected") -> float:
    """The value of a metric :class:`Definition` on a :class:`Ranking`.

    Parameters
    ----------
    ranking : Ranking
        The scored list.
    d : Definition
        The metric's definition for a list of this size (:func:`definition` with ``ranking.counts``).
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        ``d.scale * mean(per-positive values) + d.offset``.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> r = Ranking(y, s)
    >>> round(evaluate(r, definition("roc_auc", r.counts)), 12)
    0.84
    """
    values = _values(ranking, d, ties)
    # scale x sum / n rather than scale x mean: a count (scale = n_pos, e.g. hits_at_k) is then exact
    return float(d.scale * values.sum() / values.size + d.offset)


def score(y_true, y_score, metric: str, *, ties: str = "expected", **params) -> float:
    """Value of ``metric`` (a name from :data:`METRICS`); see :func:`per_positive_values`.

    ``y_true`` may be a :class:`Ranking` (with ``y_score=None``) to reuse one sort.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    metric : str
        A name from :data:`METRICS` (e.g. ``"bedroc"``).
    **params
        The metric's parameters (e.g. ``alpha=20``); see the metric's own function.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The metric's value, ``scale * mean(per-positive values) + offset``.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(score(y, s, "croc_auc", alpha=7), 4)
    0.5104
    >>> score(y, s, "hits_at_k", k=3)
    2.0
    """
    ranking = _as_ranking(y_true, y_score)
    return evaluate(ranking, definition(metric, ranking.counts, **params), ties)

"""The other papers' set-based IR measures: precision, recall, fallout, F-beta, accuracy and R-precision.

Sources
-------
[IR]     Weber, "Multimedia Retrieval", ch. 1: precision, recall, fallout,
         F-beta, R-precision, precision-recall curves, micro/macro averaging.

The metrics that are a mean over the positives of one list (average
precision, precision/recall at k, R-precision, LocAUC) live with the CROC
areas in :mod:`crocbench.metrics._precision` and plug into the significance
tests; those here do not (they are ratios of counts), nor do the probability
metrics of :mod:`crocbench.metrics._probabilities` or the per-query scores of
:mod:`crocbench.metrics._queries` (MAP, TOP1, TAP-k, ...).

Each measure is computed from the confusion counts of the retrieved set
(:mod:`crocbench.metrics._confusion`); with ``groups``, on each query and
averaged over the queries (``average="macro"``) or from the counts summed
over the queries (``"micro"``).
"""

from __future__ import annotations

import numpy as np  # noqa: F401 (the doctests)

from ._confusion import _set_measure
from ._curves import precision_recall_curve


def precision(
    y_true, y_score, *, k=None, threshold=None, groups=None, average: str = "macro", ties: str = "expected"
) -> float:
    """Precision ``TP / (TP + FP)`` of the retrieved set [IR].

    ``k`` or ``threshold`` chooses the set (see :func:`confusion`); with
    ``groups``, ``average="macro"`` is the mean of the queries' precisions
    and ``"micro"`` is summed TP over summed retrieved.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    k : int, default=None
        Retrieve the ``k`` top-ranked items (of every query), 1 to the list's size.
    threshold : float, default=None
        Retrieve the items scoring at least ``threshold``; give exactly one of ``k`` and ``threshold``.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item (each distinct value is one query); None for a single query.
    average : {"macro", "micro"}, default="macro"
        With ``groups``: the mean of the queries' values, or the value of the counts summed over the queries.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The precision, in [0, 1].

    Examples
    --------
    Query 0 retrieves 3 items, 2 relevant; query 1 retrieves 2, 1 relevant:
    macro (2/3 + 1/2) / 2, micro 3/5.

    >>> y = [1, 0, 1, 1, 0, 0]; s = [2, 1, 2, 2, 1, 0]; q = [0, 0, 0, 1, 1, 1]
    >>> p_macro = precision(y, s, threshold=1, groups=q)
    >>> p_micro = precision(y, s, threshold=1, groups=q, average="micro")
    >>> round(p_macro, 4), p_micro
    (0.5833, 0.6)
    """
    return _set_measure(y_true, y_score, "precision", k, threshold, groups, average, ties)


def recall(
    y_true, y_score, *, k=None, threshold=None, groups=None, average: str = "macro", ties: str = "expected"
) -> float:
    """Recall (TPR) ``TP / (TP + FN)`` of the retrieved set [IR]; see :func:`precision`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    k : int, default=None
        Retrieve the ``k`` top-ranked items (of every query), 1 to the list's size.
    threshold : float, default=None
        Retrieve the items scoring at least ``threshold``; give exactly one of ``k`` and ``threshold``.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item (each distinct value is one query); None for a single query.
    average : {"macro", "micro"}, default="macro"
        With ``groups``: the mean of the queries' values, or the value of the counts summed over the queries.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The recall, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 1, 0, 0, 1, 0]; s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> recall(y, s, k=5)  # 4 of the 6 positives in the top 5
    0.6666666666666666
    """
    return _set_measure(y_true, y_score, "recall", k, threshold, groups, average, ties)


def fallout(
    y_true, y_score, *, k=None, threshold=None, groups=None, average: str = "macro", ties: str = "expected"
) -> float:
    """Fallout (FPR) ``FP / (FP + TN)`` of the retrieved set [IR]; lower is better.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    k : int, default=None
        Retrieve the ``k`` top-ranked items (of every query), 1 to the list's size.
    threshold : float, default=None
        Retrieve the items scoring at least ``threshold``; give exactly one of ``k`` and ``threshold``.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item (each distinct value is one query); None for a single query.
    average : {"macro", "micro"}, default="macro"
        With ``groups``: the mean of the queries' values, or the value of the counts summed over the queries.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The fallout, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 1, 0, 0, 1, 0]; s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> fallout(y, s, k=5)  # 1 of the 4 negatives in the top 5
    0.25
    """
    return _set_measure(y_true, y_score, "fallout", k, threshold, groups, average, ties)


def f_beta(
    y_true,
    y_score,
    beta: float = 1.0,
    *,
    k=None,
    threshold=None,
    groups=None,
    average: str = "macro",
    ties: str = "expected",
) -> float:
    """F-measure ``(1 + b^2) p r / (b^2 p + r)`` of the retrieved set [IR].

    ``beta = 0`` is precision alone, large beta weighs recall.  ``"micro"``
    combines the micro-averaged precision and recall; ``"macro"`` averages
    the queries' F values.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    beta : float, default=1.0
        Weight of recall against precision, at least 0.
    k : int, default=None
        Retrieve the ``k`` top-ranked items (of every query), 1 to the list's size.
    threshold : float, default=None
        Retrieve the items scoring at least ``threshold``; give exactly one of ``k`` and ``threshold``.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item (each distinct value is one query); None for a single query.
    average : {"macro", "micro"}, default="macro"
        With ``groups``: the mean of the queries' values, or the value of the counts summed over the queries.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The F-measure, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 1, 0, 0, 1, 0]; s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> f_beta(y, s, k=5)  # precision 4/5, recall 4/6
    0.7272727272727272
    """
    return _set_measure(y_true, y_score, "f_beta", k, threshold, groups, average, ties, beta)


def accuracy(y_true, y_score, threshold: float = 0.5, *, groups=None, average: str = "macro") -> float:
    """perf's accuracy: the share of items on the right side of ``threshold`` (``>= threshold`` is class 1).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    threshold : float, default=0.5
        Items scoring at least ``threshold`` are predicted positive.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item (each distinct value is one query); None for a single query.
    average : {"macro", "micro"}, default="macro"
        With ``groups``: the mean of the queries' values, or the value of the counts summed over the queries.

    Returns
    -------
    float
        The share of items classified right, in [0, 1].

    Examples
    --------
    Weber's 20-instance example: best accuracy 70% at T = 0.54.

    >>> y = [1,1,0,1,1,1,0,0,1,0,1,0,1,0,0,0,1,0,1,0]
    >>> s = [.9,.8,.7,.6,.55,.54,.53,.52,.51,.5,.4,.39,.38,.37,.36,.35,.34,.33,.3,.1]
    >>> accuracy(y, s, 0.54)
    0.7
    """
    return _set_measure(y_true, y_score, "accuracy", None, threshold, groups, average, "expected")


def precision_at_recall(y_true, y_score, recall_level: float) -> float:
    """Weber's R-precision: the best precision among the thresholds that reach ``recall_level``.

    The interpolated precision-recall curve at that recall.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    recall_level : float
        The recall to reach, in [0, 1].

    Returns
    -------
    float
        The best precision among the thresholds whose recall is at least ``recall_level``.

    Examples
    --------
    Weber's walk-through: recall 0.8 is first reached at rank 6 (4/6).

    >>> y = [1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    >>> round(precision_at_recall(y, -np.arange(14), 0.8), 4)
    0.6667
    """
    level = float(recall_level)
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"recall_level must be in [0, 1]; got {recall_level!r}")
    r, p = precision_recall_curve(y_true, y_score)
    return float(p[r >= level - 1e-12].max())

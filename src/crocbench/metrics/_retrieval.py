"""The other references' set-based IR measures and ``perf``'s probability metrics.

Sources
-------
[perf]   KDD Cup 2004 ``perf`` metric definitions (Caruana): accuracy,
         cross-entropy, SLAC Q-score, RMSE.
[IR]     Weber, "Multimedia Retrieval", ch. 1: precision, recall, fallout,
         F-beta, R-precision, precision-recall curves, micro/macro averaging.

The metrics that are a mean over the positives of one list (average
precision, precision/recall at k, R-precision, LocAUC) live with the CROC
areas in :mod:`crocbench.metrics._areas` and plug into the significance
tests; those here do not (they are ratios of counts or functions of
calibrated probabilities), nor do the per-query scores of
:mod:`crocbench.metrics._queries` (MAP, TOP1, TAP-k, ...).

With ``groups``, the set-based measures are computed on each query
(:mod:`crocbench.metrics._queries`) and averaged over the queries
(``average="macro"``) or computed from the counts summed over the queries
(``"micro"``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._curves import precision_recall_curve
from ._queries import _macro, _split_queries
from ._ranking import Ranking, check_binary_scores, check_ties

AVERAGES = ("macro", "micro")


# --- set-based measures ---------------------------------------------------------------


class Confusion(NamedTuple):
    """Confusion counts of a retrieved set (expected counts when a tie straddles the cut).

    Parameters
    ----------
    tp : float
        True positives: positives retrieved.
    fp : float
        False positives: negatives retrieved.
    fn : float
        False negatives: positives not retrieved.
    tn : float
        True negatives: negatives not retrieved.
    """

    tp: float
    fp: float
    fn: float
    tn: float

    def __add__(self, other):  # micro averaging sums the counts
        return Confusion(*(a + b for a, b in zip(self, other)))

    @property
    def precision(self) -> float:
        """``TP / (TP + FP)``; ``ValueError`` when nothing is retrieved."""
        return _ratio(self.tp, self.tp + self.fp, "precision", "nothing is retrieved")

    @property
    def recall(self) -> float:
        """``TP / (TP + FN)``; ``ValueError`` when there are no positives."""
        return _ratio(self.tp, self.tp + self.fn, "recall", "there are no positives")

    @property
    def fallout(self) -> float:
        """``FP / (FP + TN)``; ``ValueError`` when there are no negatives."""
        return _ratio(self.fp, self.fp + self.tn, "fallout", "there are no negatives")

    @property
    def accuracy(self) -> float:
        """``(TP + TN) / (TP + FP + FN + TN)``."""
        return (self.tp + self.tn) / (self.tp + self.fp + self.fn + self.tn)

    def f_beta(self, beta: float = 1.0) -> float:
        """``(1 + b^2) p r / (b^2 p + r)``; 0 when p = r = 0.

        Parameters
        ----------
        beta : float, default=1.0
            Weight of recall against precision, at least 0.

        Returns
        -------
        float
            The F-measure, in [0, 1].
        """
        b2 = _check_beta(beta) ** 2
        p, r = self.precision, self.recall
        return 0.0 if p == r == 0 else (1 + b2) * p * r / (b2 * p + r)


def _ratio(num: float, den: float, what: str, why: str) -> float:
    if den == 0:
        raise ValueError(f"{what} is undefined: {why}")
    return float(num / den)


def _check_beta(beta) -> float:
    try:
        b = float(beta)
    except (TypeError, ValueError):
        raise ValueError(f"beta must be a non-negative number; got {beta!r}") from None
    if not (b >= 0 and math.isfinite(b)):
        raise ValueError(f"beta must be a non-negative finite number; got {beta!r}")
    return b


def _confusion(y: np.ndarray, s: np.ndarray, k, threshold, ties: str) -> Confusion:
    n, n_pos = y.size, int(y.sum())
    if k is not None:
        if not isinstance(k, (int, np.integer)) or not 1 <= k <= n:
            raise ValueError(f"k must be an integer in [1, {n}] for this list; got {k!r}")
        if 0 < n_pos < n:
            tp = float(Ranking(y, s).rank_values(lambda r: (r <= k).astype(np.float64), ties).sum())
        else:
            tp = float(k if n_pos == n else 0)
        retrieved = float(k)
    else:
        kept = s >= threshold
        tp, retrieved = float((kept & y).sum()), float(kept.sum())
    fp = retrieved - tp
    return Confusion(tp, fp, n_pos - tp, n - n_pos - fp)


def _check_cut(k, threshold) -> None:
    if (k is None) == (threshold is None):
        raise ValueError(
            "give exactly one of k (the k top-ranked items are retrieved) "
            "or threshold (items scoring >= threshold are retrieved)"
        )
    if threshold is not None and not (isinstance(threshold, (int, float, np.number)) and math.isfinite(threshold)):
        raise ValueError(f"threshold must be a finite number; got {threshold!r}")


def confusion(y_true, y_score, *, k=None, threshold=None, groups=None, ties: str = "expected") -> Confusion:
    """Confusion counts of the retrieved set: the top ``k`` items, or those scoring ``>= threshold``.

    With ``groups``, the top k of every query (or one threshold for all),
    counts summed over the queries (micro).  Under ``"expected"`` ties a tie
    group cut by rank k contributes its expected number of positives.

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
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    Confusion
        ``(tp, fp, fn, tn)``, summed over the queries; expected counts when a tie straddles rank ``k``.

    Examples
    --------
    Weber's 20-instance example, threshold 0.54 (the row's own score counts):

    >>> y = [1,1,0,1,1,1,0,0,1,0,1,0,1,0,0,0,1,0,1,0]
    >>> s = [.9,.8,.7,.6,.55,.54,.53,.52,.51,.5,.4,.39,.38,.37,.36,.35,.34,.33,.3,.1]
    >>> confusion(y, s, threshold=0.54)
    Confusion(tp=5.0, fp=1.0, fn=5.0, tn=9.0)
    """
    return _set_measure(y_true, y_score, None, k, threshold, groups, "micro", ties)


def _set_measure(y_true, y_score, measure, k, threshold, groups, average: str, ties: str, beta: float = 1.0):
    _check_cut(k, threshold)
    check_ties(ties)
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {AVERAGES}; got {average!r}")
    y, s = check_binary_scores(y_true, y_score, both_classes=False)

    def value(c: Confusion) -> float:
        return c.f_beta(beta) if measure == "f_beta" else getattr(c, measure)

    queries = _split_queries(y, s, groups)
    if measure is None or average == "micro":
        total = Confusion(0.0, 0.0, 0.0, 0.0)
        for _, yq, sq in queries:
            total = total + _confusion(yq, sq, k, threshold, ties)
        return total if measure is None else value(total)
    return _macro(y, s, groups, lambda yq, sq: value(_confusion(yq, sq, k, threshold, ties)), False)


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


# --- probabilities (perf) ---------------------------------------------------------------


def _check_probabilities(y_true, y_prob, what: str) -> tuple[np.ndarray, np.ndarray]:
    y, p = check_binary_scores(y_true, y_prob, both_classes=False)
    bad = (p < 0) | (p > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{what} needs probabilities in [0, 1]; found {float(p[i])!r} at index {i} "
            f"({int(bad.sum())} value(s) outside)"
        )
    return y, p


def cross_entropy(y_true, y_prob, *, eps: float = 1e-15) -> float:
    """perf's mean cross-entropy ``-mean(y log p + (1 - y) log(1 - p))`` (natural log; minimize).

    perf returns "a very, very large number" when a prediction is exactly
    wrong (p = 0 for a positive or 1 for a negative); here probabilities are
    clamped to ``[eps, 1 - eps]`` first (Weber's Delta, default 1e-15), so
    one such case adds ``-log(1e-15) / N = 34.5 / N``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    eps : float, default=1e-15
        Probabilities are clamped to ``[eps, 1 - eps]``; in (0, 0.5).

    Returns
    -------
    float
        The mean cross-entropy in nats, at least 0.

    Examples
    --------
    >>> round(cross_entropy([1, 0], [0.5, 0.5]), 6) == round(math.log(2), 6)
    True
    """
    y, p = _check_probabilities(y_true, y_prob, "cross_entropy")
    if not 0 < eps < 0.5:
        raise ValueError(f"eps must be in (0, 0.5); got {eps!r}")
    p = np.clip(p, eps, 1 - eps)
    return float(-np.mean(np.where(y, np.log(p), np.log1p(-p))))


def rmse(y_true, y_prob) -> float:
    """perf's root-mean-squared error ``sqrt(mean((y - p)^2))`` (minimize).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].

    Returns
    -------
    float
        The root-mean-squared error, in [0, 1].

    Examples
    --------
    >>> rmse([1, 0, 1, 0], [0.5, 0.5, 1.0, 0.0])
    0.3535533905932738
    """
    y, p = check_binary_scores(y_true, y_prob, both_classes=False)
    return float(np.sqrt(np.mean((y - p) ** 2)))


def slac_q(y_true, y_prob, bins: int = 100) -> float:
    """perf's SLAC Q-score (SLQ) with ``bins`` equal bins of [0, 1] (maximize).

    Each bin contributes ``(1 - 2 err)^2 * n_bin / N`` with ``err`` its
    minority share.  Bin i holds ``[i / bins, (i + 1) / bins)``; the last
    also holds 1.0.  Bin edges are exact decimals: 0.29 falls in bin 29
    (a plain ``floor(0.29 * 100)`` gives 28 in binary floating point).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    bins : int, default=100
        Number of equal-width bins of [0, 1].

    Returns
    -------
    float
        The Q-score, in [0, 1] (1 when every bin is pure).

    Examples
    --------
    perf's example bin: 350 positives and 150 negatives, err = 0.3.

    >>> round(slac_q([1] * 350 + [0] * 150, [0.025] * 500), 12)
    0.16
    """
    if not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"bins must be a positive integer; got {bins!r}")
    y, p = _check_probabilities(y_true, y_prob, "slac_q")
    idx = np.minimum(np.floor(np.round(p * bins, 9)).astype(np.int64), bins - 1)
    total = np.bincount(idx, minlength=bins).astype(np.float64)
    pos = np.bincount(idx, weights=y.astype(np.float64), minlength=bins)
    used = total > 0
    err = np.minimum(pos[used], total[used] - pos[used]) / total[used]
    return float(np.sum((1 - 2 * err) ** 2 * total[used]) / y.size)

"""The confusion counts of a retrieved set (the top k, or a score threshold), per query and averaged.

Sources
-------
[IR]     Weber, "Multimedia Retrieval", ch. 1: precision, recall, fallout,
         F-beta, micro/macro averaging.

With ``groups``, the counts are computed on each query
(:mod:`crocbench.metrics._queries`) and a measure of them averaged over the
queries (``average="macro"``) or computed from the counts summed over the
queries (``"micro"``); the measures themselves are in
:mod:`crocbench.metrics._retrieval`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._queries import _macro, _split_queries
from ._ranking import Ranking, check_ties
from ._validation import check_binary_scores

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

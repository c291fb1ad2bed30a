"""The one representation every metric is built on.

Every area in the CROC paper is an affine transform of a mean, over the
positives, of a function of each positive's position in the ranking: either
``j``, the number of negatives ranked above it (ROC-type metrics: the FPR of a
positive is ``j / n_neg``), or ``r``, its 1-based rank among all compounds
(AC-type metrics).  :class:`Ranking` computes those positions once, with the
tie structure needed to resolve tied scores exactly, and every metric, curve
and significance test reuses it (as scikit-learn's ``_binary_clf_curve`` is
reused by all of its curves).

Ties
----
Tied scores are resolved in one of three ways:

``"expected"`` (default)
    The exact expectation over uniformly random orderings of the tied items.
    A positive tied with ``m`` negatives, ``a`` negatives being strictly above
    the tie, has ``a + i`` negatives above it with ``i`` uniform on
    ``0..m``; a positive in a tie group of ``g`` items, ``b`` items being
    strictly above the group, has a rank uniform on ``b+1..b+g``.  By
    linearity of expectation the expected metric is the mean of these
    per-positive expectations, which are computed exactly (never sampled).
``"optimistic"``
    Positives are placed before the negatives they are tied with.
``"pessimistic"``
    Positives are placed after the negatives they are tied with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ._validation import check_binary_scores

TIES = ("expected", "optimistic", "pessimistic")


class Counts(NamedTuple):
    """Sizes of a ranked list: all items, positives and negatives.

    Parameters
    ----------
    n : int
        Number of items in the list.
    n_pos : int
        Number of positives.
    n_neg : int
        Number of negatives, ``n - n_pos``.
    """

    n: int
    n_pos: int
    n_neg: int


def check_ties(ties: str) -> str:
    if ties not in TIES:
        raise ValueError(f"ties must be one of {TIES}; got {ties!r}")
    return ties


def _interval_means(h: Callable[[np.ndarray], np.ndarray], lo: np.ndarray, length: np.ndarray) -> np.ndarray:
    """``mean(h(lo[g] + i) for i in range(length[g]))`` for every group g, exactly.

    The work is ``sum(length)``: at most the size of the domain, since the
    intervals of distinct tie groups do not overlap.
    """
    if np.all(length == 1):
        return np.asarray(h(lo), dtype=np.float64)
    total = int(length.sum())
    seg_start = np.zeros(length.size, dtype=np.int64)
    np.cumsum(length[:-1], out=seg_start[1:])
    points = np.arange(total, dtype=np.int64) - np.repeat(seg_start - lo, length)
    values = np.asarray(h(points), dtype=np.float64)
    return np.add.reduceat(values, seg_start) / length


class Ranking:
    """Positions of the positives in a scored list, with their tie structure.

    Build it once per (labels, scores) and ask it for any number of metrics:
    the list is sorted only here.  Higher score = more likely positive.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or bool); 1 marks a positive.
    y_score : array-like of shape (n,)
        Finite real scores.

    Attributes
    ----------
    counts : Counts
        ``(n, n_pos, n_neg)``.
    neg_above, neg_tied, pos_above, pos_tied : ndarray of shape (n_groups,)
        Per group of tied positives (groups in decreasing score order): the
        number of negatives strictly above / tied with the group and the
        number of positives strictly above / in the group.

    Examples
    --------
    The paper's worked example: positives at ranks 1, 2, 4, 5, 7 of 10.

    >>> import numpy as np
    >>> y = np.array([1, 1, 0, 1, 1, 0, 1, 0, 0, 0])
    >>> r = Ranking(y, -np.arange(10))
    >>> r.fpr_values(lambda j: j / r.counts.n_neg)
    array([0. , 0. , 0.2, 0.2, 0.4])
    >>> r.rank_values(lambda k: k)
    array([1., 2., 4., 5., 7.])
    """

    __slots__ = ("counts", "neg_above", "neg_tied", "pos_above", "pos_tied", "_order", "_group", "_offset")

    def __init__(self, y_true, y_score):
        y, s = check_binary_scores(y_true, y_score)
        pos = s[y]
        neg = np.sort(s[~y])
        n_pos, n_neg = pos.size, neg.size
        self.counts = Counts(int(y.size), int(n_pos), int(n_neg))
        order = np.argsort(-pos, kind="stable")
        ps = pos[order]
        is_start = np.empty(n_pos, dtype=bool)
        is_start[0] = True
        np.not_equal(ps[1:], ps[:-1], out=is_start[1:])
        starts = np.flatnonzero(is_start)
        values = ps[starts]
        hi = np.searchsorted(neg, values, side="right")
        lo = np.searchsorted(neg, values, side="left")
        self.neg_above = (n_neg - hi).astype(np.int64)
        self.neg_tied = (hi - lo).astype(np.int64)
        self.pos_above = starts.astype(np.int64)
        self.pos_tied = np.diff(np.append(starts, n_pos)).astype(np.int64)
        self._order = order
        self._group = np.repeat(np.arange(starts.size), self.pos_tied)
        self._offset = np.arange(n_pos, dtype=np.int64) - starts[self._group]

    @classmethod
    def _from_groups(cls, n_neg: int, neg_above, neg_tied, pos_tied) -> Ranking:
        """The ranking with these tie groups of positives (every ``pos_tied >= 1``), in decreasing score order.

        A bootstrap resample (:mod:`crocbench.stats`) is one: its positives are
        the groups' counts, in group order (the input order of this ranking).
        """
        pos_tied = np.asarray(pos_tied, dtype=np.int64)
        obj = cls.__new__(cls)
        n_pos = int(pos_tied.sum())
        obj.counts = Counts(n_pos + int(n_neg), n_pos, int(n_neg))
        obj.neg_above = np.asarray(neg_above, dtype=np.int64)
        obj.neg_tied = np.asarray(neg_tied, dtype=np.int64)
        starts = np.zeros(pos_tied.size, dtype=np.int64)
        np.cumsum(pos_tied[:-1], out=starts[1:])
        obj.pos_above = starts
        obj.pos_tied = pos_tied
        obj._order = np.arange(n_pos, dtype=np.int64)
        obj._group = np.repeat(np.arange(pos_tied.size), pos_tied)
        obj._offset = obj._order - starts[obj._group]
        return obj

    def stratum(self, keep) -> Ranking:
        """The ranking of the same list with only the positives ``keep`` marks: the other positives deleted.

        Every kept positive keeps the negatives above and tied with it (its FPR is unchanged); its rank and tie
        group lose the deleted positives.  So any metric of the result equals the metric of the list with the
        other positives' rows removed, ties included (``tests/test_metrics_common.py`` checks every registered
        metric by brute force), from one sort of the whole list.

        Parameters
        ----------
        keep : array-like of bool of shape (n_pos,)
            Per positive, in input order: whether it stays.  At least one must.

        Returns
        -------
        Ranking
            The list of all negatives and the kept positives; its positives in their input order.

        Examples
        --------
        >>> r = Ranking([1, 1, 0, 1, 0], [5, 4, 3, 2, 1])
        >>> s = r.stratum([False, True, True])
        >>> s.counts, s.rank_values(lambda k: k).tolist()
        (Counts(n=4, n_pos=2, n_neg=2), [1.0, 3.0])
        """
        keep = np.asarray(keep, dtype=bool)
        if keep.shape != (self.counts.n_pos,):
            raise ValueError(f"keep must mark each of the {self.counts.n_pos} positives; got shape {keep.shape}")
        if not keep.any():
            raise ValueError("a stratum needs at least one positive")
        kept_sorted = keep[self._order]  # sorted position -> kept?
        per_group = np.bincount(self._group[kept_sorted], minlength=self.pos_tied.size)
        some = per_group > 0
        sub = Ranking._from_groups(self.counts.n_neg, self.neg_above[some], self.neg_tied[some], per_group[some])
        sub._order = (np.cumsum(keep) - 1)[self._order[kept_sorted]]  # each kept positive's input position
        return sub

    def negative_bins(self) -> np.ndarray:
        """The negatives counted by where they fall among the positives' tie groups, in decreasing score order.

        ``2 G + 1`` counts for G groups: those strictly above group 0, those
        tied with group 0, those strictly between groups 0 and 1, ..., those
        strictly below the last group.  A resample's negatives are a
        multinomial draw over these bins (:func:`crocbench.stats.bootstrap`).

        Returns
        -------
        ndarray of int64 of shape (2 * n_groups + 1,)
            The negatives above, tied with and between the positives' tie groups; they sum to ``n_neg``.
        """
        n_groups = self.neg_above.size
        bins = np.empty(2 * n_groups + 1, dtype=np.int64)
        bins[1::2] = self.neg_tied
        below = self.neg_above + self.neg_tied  # negatives at or above each group
        bins[0] = self.neg_above[0]
        bins[2:-1:2] = self.neg_above[1:] - below[:-1]
        bins[-1] = self.counts.n_neg - below[-1]
        return bins

    def _to_input_order(self, sorted_values: np.ndarray) -> np.ndarray:
        out = np.empty(self.counts.n_pos, dtype=np.float64)
        out[self._order] = sorted_values
        return out

    def fpr_values(self, h: Callable[[np.ndarray], np.ndarray], ties: str = "expected") -> np.ndarray:
        """Per-positive values ``h(j)``, j = number of negatives ranked above.

        ``h`` must accept an integer array with values in ``0..n_neg``.
        Returns one value per positive, in the order the positives appear in
        the input.

        Parameters
        ----------
        h : callable
            Vectorized ``h(j)`` on an integer array with values in ``0..n_neg``.
        ties : {"expected", "optimistic", "pessimistic"}, default="expected"
            How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
            its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

        Returns
        -------
        ndarray of float64 of shape (n_pos,)
            ``h(j)`` per positive (its expectation under ``"expected"`` ties), in input order.
        """
        check_ties(ties)
        a, m = self.neg_above, self.neg_tied
        if ties == "optimistic":
            per_group = np.asarray(h(a), dtype=np.float64)
        elif ties == "pessimistic":
            per_group = np.asarray(h(a + m), dtype=np.float64)
        else:
            per_group = _interval_means(h, a, m + 1)
        return self._to_input_order(per_group[self._group])

    def first_ranks(self) -> np.ndarray:
        """1-based rank of the first item of each positive's tie group, in input order.

        A positive's score is at least the score at rank ``m`` exactly when
        its first rank is at most ``m`` (the whole tie group passes a score
        threshold together).

        Returns
        -------
        ndarray of float64 of shape (n_pos,)
            Per positive, in input order, the rank of the first item of its tie group.
        """
        first = (self.neg_above + self.pos_above + 1).astype(np.float64)
        return self._to_input_order(first[self._group])

    def precision_values(self, ties: str = "expected") -> np.ndarray:
        """Per-positive precision at the positive's rank: ``(positives at or above) / rank``.

        Their mean is the average precision.  With ``"expected"`` ties each
        positive of a tie group gets the group's exact expected precision
        over uniformly random orderings of the group: position ``t`` of a
        group of ``g`` items (``p`` positives, ``b`` items and ``P``
        positives above it) holds a positive with probability ``p / g``,
        and then has ``1 + (t - 1)(p - 1)/(g - 1)`` positives of the group
        at or above it on average (hypergeometric), so the group's expected
        sum of precisions is
        ``sum_t (p / g) (P + 1 + (t - 1)(p - 1)/(g - 1)) / (b + t)``.
        The work is linear in the group sizes (perf enumerates pairs of
        tied cases, quadratic in them).

        Parameters
        ----------
        ties : {"expected", "optimistic", "pessimistic"}, default="expected"
            How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
            its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

        Returns
        -------
        ndarray of float64 of shape (n_pos,)
            The precision at each positive's rank (expected under ``"expected"`` ties), in input order.

        Examples
        --------
        Weber's walk-through: relevant documents at ranks 1, 2, 4, 6, 13.

        >>> y = np.zeros(14, dtype=int); y[[0, 1, 3, 5, 12]] = 1
        >>> Ranking(y, -np.arange(14)).precision_values().round(4)
        array([1.    , 1.    , 0.75  , 0.6667, 0.3846])
        """
        check_ties(ties)
        big_p, p = self.pos_above.astype(np.float64), self.pos_tied
        m = self.neg_tied
        above = (self.neg_above + self.pos_above).astype(np.float64)
        if ties != "expected":
            k = self._offset + 1.0  # k-th positive of its group
            g = self._group
            skip = m[g] if ties == "pessimistic" else 0
            values = (big_p[g] + k) / (above[g] + skip + k)
            return self._to_input_order(values)
        size = p + m
        if np.all(size == 1):
            per_group = (big_p + 1.0) / (above + 1.0)
        else:
            starts = np.zeros(size.size, dtype=np.int64)
            np.cumsum(size[:-1], out=starts[1:])
            grp = np.repeat(np.arange(size.size), size)
            t = (np.arange(int(size.sum())) - starts[grp] + 1).astype(np.float64)
            gg = size[grp].astype(np.float64)
            share = np.where(gg > 1, (p[grp] - 1.0) / np.maximum(gg - 1.0, 1.0), 0.0)
            terms = (big_p[grp] + 1.0 + (t - 1.0) * share) / (above[grp] + t)
            per_group = np.add.reduceat(terms, starts) / size
        return self._to_input_order(per_group[self._group])

    def rank_values(self, h: Callable[[np.ndarray], np.ndarray], ties: str = "expected") -> np.ndarray:
        """Per-positive values ``h(r)``, r = 1-based rank among all items.

        ``h`` must accept an integer array with values in ``1..n``.  With
        ``"optimistic"`` ties the positives of a tie group take the group's
        first ranks, with ``"pessimistic"`` its last ranks (in input order).

        Parameters
        ----------
        h : callable
            Vectorized ``h(r)`` on an integer array with values in ``1..n``.
        ties : {"expected", "optimistic", "pessimistic"}, default="expected"
            How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
            its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

        Returns
        -------
        ndarray of float64 of shape (n_pos,)
            ``h(r)`` per positive (its expectation under ``"expected"`` ties), in input order.
        """
        check_ties(ties)
        above = self.neg_above + self.pos_above
        if ties == "expected":
            size = self.neg_tied + self.pos_tied
            per_group = _interval_means(h, above + 1, size)
            return self._to_input_order(per_group[self._group])
        first = above + 1 if ties == "optimistic" else above + self.neg_tied + 1
        ranks = first[self._group] + self._offset
        return self._to_input_order(np.asarray(h(ranks), dtype=np.float64))

"""Many resamples of one list at once: their stacked tie groups and a metric's value on every one.

:class:`Resamples` stacks the tie groups of a list's bootstrap resamples
(:func:`crocbench.stats.draw_resamples`); :func:`evaluate_resamples` gives a
metric's value on all of them in one pass, averaging each tie group's
per-positive values exactly (long groups from prefix sums of ``h``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._areas import evaluate
from ._definitions import FPR, RANKING, Definition, definition  # noqa: F401 (definition: evaluate_resamples' doctest)
from ._ranking import Counts, Ranking, _interval_means, check_ties


class Resamples(NamedTuple):
    """Many rankings of one list's resamples, stacked tie group by tie group (:func:`crocbench.stats.bootstrap`).

    Entry ``e`` is a tie group of positives of resample ``resample[e]`` (entries
    of a resample are consecutive, in decreasing score order), with
    ``neg_above``, ``neg_tied``, ``pos_above`` and ``pos_tied`` as in
    :class:`Ranking`.  Every resample has ``n_pos`` positives and ``n_neg``
    negatives.

    Parameters
    ----------
    n_resamples : int
        Number of resamples B.
    n_pos, n_neg : int
        Number of positives and negatives of every resample.
    resample : ndarray of int64 of shape (n_entries,)
        The resample (0..B-1) of each entry, nondecreasing.
    neg_above, neg_tied, pos_above, pos_tied : ndarray of int64 of shape (n_entries,)
        Per entry, the negatives strictly above / tied with the tie group and the positives strictly above /
        in it, as in :class:`Ranking`.
    """

    n_resamples: int
    n_pos: int
    n_neg: int
    resample: np.ndarray
    neg_above: np.ndarray
    neg_tied: np.ndarray
    pos_above: np.ndarray
    pos_tied: np.ndarray

    @property
    def counts(self) -> Counts:
        """``(n, n_pos, n_neg)`` of every resample: those of the list resampled."""
        return Counts(self.n_pos + self.n_neg, self.n_pos, self.n_neg)

    def ranking(self, b: int) -> Ranking:
        """Resample ``b`` as a :class:`Ranking`.

        Parameters
        ----------
        b : int
            The resample, 0 to ``n_resamples - 1``.

        Returns
        -------
        Ranking
            The ranking of resample ``b``, its positives in tie-group order.
        """
        lo, hi = np.searchsorted(self.resample, [b, b + 1])
        return Ranking._from_groups(self.n_neg, self.neg_above[lo:hi], self.neg_tied[lo:hi], self.pos_tied[lo:hi])


#: Tie intervals longer than this are averaged from prefix sums of ``h`` (:func:`_means`), not point by point.
_DIRECT_MAX = 64


def _means(h, lo: np.ndarray, length: np.ndarray, first: int, last: int) -> np.ndarray:
    """``mean(h(lo + i) for i in range(length))`` per entry, ``lo .. lo + length - 1`` within ``first .. last``.

    Short intervals point by point (:func:`~crocbench.metrics._ranking._interval_means`, exact); long ones from
    the prefix sums of ``h`` over the whole domain, computed once: a resample's big tie group (thousands of
    compounds scored 0 by a kNN) then costs O(1), not O(its size), per resample. The difference of two prefix sums
    is off by about 1e-16 of the whole sum (below 1e-10 of a metric's value on a list of a million).
    """
    long = length > _DIRECT_MAX
    if not long.any():
        return _interval_means(h, lo, length)
    out = np.empty(lo.size, dtype=np.float64)
    if (~long).any():
        out[~long] = _interval_means(h, lo[~long], length[~long])
    prefix = np.zeros(last - first + 2, dtype=np.float64)
    np.cumsum(np.asarray(h(np.arange(first, last + 1, dtype=np.int64)), dtype=np.float64), out=prefix[1:])
    start, size = lo[long] - first, length[long]
    out[long] = (prefix[start + size] - prefix[start]) / size
    return out


def _group_means(d: Definition, r: Resamples, ties: str) -> np.ndarray:
    """Per entry (tie group) of ``r``, the mean of ``d``'s per-positive values over the group's positives.

    The same values :meth:`Ranking.fpr_values` and :meth:`Ranking.rank_values`
    give each positive, averaged within the group (under ``"optimistic"`` or
    ``"pessimistic"`` ties a group's positives take consecutive ranks).
    """
    if d.kind == FPR:
        if ties == "optimistic":
            return np.asarray(d.h(r.neg_above), dtype=np.float64)
        if ties == "pessimistic":
            return np.asarray(d.h(r.neg_above + r.neg_tied), dtype=np.float64)
        return _means(d.h, r.neg_above, r.neg_tied + 1, 0, r.n_neg)
    above = r.neg_above + r.pos_above
    n = r.n_pos + r.n_neg
    if ties == "optimistic":
        return _means(d.h, above + 1, r.pos_tied, 1, n)
    if ties == "pessimistic":
        return _means(d.h, above + r.neg_tied + 1, r.pos_tied, 1, n)
    return _means(d.h, above + 1, r.neg_tied + r.pos_tied, 1, n)


def evaluate_resamples(d: Definition, resamples: Resamples, ties: str = "expected") -> np.ndarray:
    """The value of a metric :class:`Definition` on every resample at once: one value per resample.

    Each resample's value is what :func:`evaluate` gives on its
    :class:`Ranking` (``resamples.ranking(b)``); FPR and rank metrics are
    computed for all resamples in one pass, the others resample by resample.

    Parameters
    ----------
    d : Definition
        The metric's definition for a list of the resamples' size (:func:`definition` with ``resamples.counts``).
    resamples : Resamples
        The resampled rankings, stacked tie group by tie group (:func:`crocbench.stats.draw_resamples`).
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    ndarray of shape (n_resamples,)
        The metric's value on every resample, in resample order.

    Examples
    --------
    >>> from crocbench.stats import draw_resamples
    >>> r = Ranking([1, 1, 0, 1, 1, 0, 1, 0, 0, 0], -np.arange(10))
    >>> resamples = draw_resamples(r, 4, np.random.default_rng(0))
    >>> values = evaluate_resamples(definition("roc_auc", r.counts), resamples)
    >>> bool(np.allclose(values, [evaluate(resamples.ranking(b), definition("roc_auc", r.counts)) for b in range(4)]))
    True
    """
    check_ties(ties)
    r = resamples
    if d.kind == RANKING:
        return np.array([evaluate(r.ranking(b), d, ties) for b in range(r.n_resamples)])
    sums = np.bincount(r.resample, weights=r.pos_tied * _group_means(d, r, ties), minlength=r.n_resamples)
    return d.scale * sums / r.n_pos + d.offset

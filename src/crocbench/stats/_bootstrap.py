"""Confidence intervals: a stratified bootstrap over compounds, exact for ties, drawn as counts.

A resample keeps the list's ``n_pos`` positives and ``n_neg`` negatives,
each class drawn with replacement from its own compounds (a stratified
bootstrap: the class sizes, and so every metric's definition, stay those of
the list).  Only where a resample's compounds fall among the positives' tie
groups matters to a metric (:class:`crocbench.metrics.Ranking`), so a resample
is drawn as two multinomial counts, never as a list of compounds: how many
copies of each tie group of positives, and how many negatives in each of the
``2 G + 1`` bins around the G groups (:meth:`~crocbench.metrics.Ranking.negative_bins`).
A resampled compound's copies tie with one another and are resolved by the
metric's own tie rule, exactly as if the resampled list had been built and
sorted; the work per resample is O(G), not O(n log n).

The interval is the percentile interval of the resampled values (the
``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles, numpy's default
linear interpolation); its coverage on simulated screens is measured in
``benchmarks/studies/bootstrap.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..metrics import Ranking, Resamples, paper_metrics
from ..metrics._areas import _as_ranking
from ..metrics._ranking import check_ties

#: Resamples of an interval unless told otherwise.
DEFAULT_RESAMPLES = 1000
#: The fewest resamples accepted: with fewer, a 95% interval's ends rest on two or three resampled values each.
MIN_RESAMPLES = 100
#: The most resamples accepted: an interval's ends have long settled, and each resample keeps a value per metric
#: (10^9 of them would need some 180 GB).
MAX_RESAMPLES = 1_000_000
#: Multinomial counts held at once (resamples x bins): about 40 MB of int64 per array.
_CHUNK_CELLS = 5_000_000


class Interval(NamedTuple):
    """A metric's value on the list and its bootstrap interval.

    Parameters
    ----------
    key : str
        The metric's key (:attr:`MetricCall.key <crocbench.metrics.MetricCall>`).
    label : str
        The metric's label.
    value : float
        The metric on the list itself.
    low, high : float
        The percentile interval's bounds.
    se : float
        The bootstrap standard error (SD of the resampled values).
    """

    key: str
    label: str
    value: float
    low: float
    high: float
    se: float  # the SD of the resampled values


def check_resamples(n_resamples) -> int:
    """``n_resamples`` as an int, or one line saying why it cannot give an interval.

    Parameters
    ----------
    n_resamples : int
        The requested number of bootstrap resamples.

    Returns
    -------
    int
        ``n_resamples``, checked to be an integer in [:data:`MIN_RESAMPLES`, :data:`MAX_RESAMPLES`].

    Raises
    ------
    ValueError
        If it is not, with one line saying why.

    Examples
    --------
    >>> check_resamples(1000)
    1000
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)):
        raise ValueError(f"the number of bootstrap resamples must be a whole number; got {n_resamples!r}")
    if n_resamples < MIN_RESAMPLES:
        raise ValueError(
            f"the number of bootstrap resamples must be at least {MIN_RESAMPLES} (a 95% interval's ends need "
            f"them); got {n_resamples}"
        )
    if n_resamples > MAX_RESAMPLES:
        raise ValueError(
            f"the number of bootstrap resamples must be at most {MAX_RESAMPLES:,} (an interval's ends settle long "
            f"before); got {n_resamples:,}"
        )
    return int(n_resamples)


def draw_resamples(ranking: Ranking, n_resamples: int, rng: np.random.Generator) -> Resamples:
    """``n_resamples`` stratified bootstrap resamples of ``ranking``, stacked (:class:`~crocbench.metrics.Resamples`).

    Parameters
    ----------
    ranking : Ranking
        The list to resample (:class:`~crocbench.metrics.Ranking`).
    n_resamples : int
        The number of resamples B.
    rng : numpy.random.Generator
        The random source.

    Returns
    -------
    Resamples
        B resamples with the list's numbers of positives and negatives (stratified), as multinomial counts of
        its tie groups.

    Examples
    --------
    >>> r = Ranking([1, 0, 1, 0, 0], [5, 4, 3, 2, 1])
    >>> s = draw_resamples(r, 3, np.random.default_rng(0))
    >>> [int(s.pos_tied[s.resample == b].sum()) for b in range(3)], s.n_neg
    ([2, 2, 2], 3)
    """
    n_pos, n_neg = ranking.counts.n_pos, ranking.counts.n_neg
    copies = rng.multinomial(n_pos, ranking.pos_tied / n_pos, size=n_resamples)
    binned = rng.multinomial(n_neg, ranking.negative_bins() / n_neg, size=n_resamples)
    return resamples_from_counts(ranking, copies, binned)


def resamples_from_counts(ranking: Ranking, copies: np.ndarray, binned: np.ndarray) -> Resamples:
    """The resamples with these counts of each tie group of positives and of negatives in each bin.

    Parameters
    ----------
    ranking : Ranking
        The list resampled, with G tie groups of positives.
    copies : ndarray of shape (B, G)
        Per resample, the positives drawn from each group (each row sums to n_pos).
    binned : ndarray of shape (B, 2 G + 1)
        Per resample, the negatives drawn from each bin of
        :meth:`~crocbench.metrics.Ranking.negative_bins` (each row sums to n_neg).

    Returns
    -------
    Resamples
        The B resamples, stacked tie group by tie group.
    """
    copies, binned = np.atleast_2d(copies), np.atleast_2d(binned)
    groups = ranking.pos_tied.size
    if copies.shape[1] != groups or binned.shape != (copies.shape[0], 2 * groups + 1):
        raise ValueError(f"counts of shape {copies.shape} and {binned.shape} do not fit {groups} tie groups")
    before = np.cumsum(binned, axis=1)[:, 0 : 2 * groups : 2]  # negatives strictly above each group
    keep = copies > 0
    return Resamples(
        n_resamples=copies.shape[0],
        n_pos=ranking.counts.n_pos,
        n_neg=ranking.counts.n_neg,
        resample=np.nonzero(keep)[0],
        neg_above=before[keep],
        neg_tied=binned[:, 1::2][keep],
        pos_above=(np.cumsum(copies, axis=1) - copies)[keep],
        pos_tied=copies[keep],
    )


def bootstrap_values(
    y_true, y_score=None, calls=None, *, n_resamples: int = DEFAULT_RESAMPLES, seed=0, ties: str = "expected"
) -> np.ndarray:
    """Every metric of ``calls`` on each of ``n_resamples`` stratified bootstrap resamples.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool), or a :class:`~crocbench.metrics.Ranking` of the list (then
        ``y_score=None``).
    y_score : array-like of shape (n_samples,), default=None
        Scores, higher meaning more likely positive; None when ``y_true`` is a Ranking.
    calls : list of MetricCall, default=None
        The metrics (:class:`~crocbench.metrics.MetricCall`); None for :func:`crocbench.metrics.paper_metrics`
        with its top-k capped at the list's size.
    n_resamples : int, default=DEFAULT_RESAMPLES
        Bootstrap resamples, at least :data:`MIN_RESAMPLES`.
    seed : int or numpy.random.Generator, default=0
        Seeds numpy's ``default_rng``; the same seed gives the same draws.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved (see :mod:`crocbench.metrics`).

    Returns
    -------
    ndarray of shape (n_resamples, len(calls))
        Each metric (column) on each resample (row).
    """
    ranking = _as_ranking(y_true, y_score)
    n_resamples = check_resamples(n_resamples)
    check_ties(ties)
    calls = list(calls) if calls is not None else paper_metrics(top_k=min(1000, ranking.counts.n))
    rng = np.random.default_rng(seed)
    chunk = max(1, _CHUNK_CELLS // (2 * ranking.pos_tied.size + 1))
    out = np.empty((n_resamples, len(calls)), dtype=np.float64)
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        resamples = draw_resamples(ranking, stop - start, rng)
        for i, call in enumerate(calls):
            out[start:stop, i] = call.resampled(resamples, ties)
    return out


def bootstrap(
    y_true,
    y_score=None,
    calls=None,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    level: float = 0.95,
    seed=0,
    ties: str = "expected",
) -> list[Interval]:
    """Each metric's value and its ``level`` percentile interval from a stratified bootstrap over compounds.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool), or a :class:`~crocbench.metrics.Ranking` of the list (then
        ``y_score=None``).
    y_score : array-like of shape (n_samples,), default=None
        Scores, higher meaning more likely positive; None when ``y_true`` is a Ranking.
    calls : list of MetricCall, default=None
        The metrics (:class:`~crocbench.metrics.MetricCall`); None for :func:`crocbench.metrics.paper_metrics`
        (the paper's metric set).
    n_resamples : int, default=DEFAULT_RESAMPLES
        Bootstrap resamples, at least :data:`MIN_RESAMPLES`.
    level : float, default=0.95
        The interval's nominal coverage, in (0, 1).
    seed : int or numpy.random.Generator, default=0
        Seeds numpy's ``default_rng``; the same seed gives the same draws.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved (see :mod:`crocbench.metrics`).

    Returns
    -------
    list of Interval
        One per call: key, label, value (on the list itself), low, high, se.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> y = np.r_[np.ones(50), np.zeros(950)]
    >>> s = rng.normal(size=1000) + y
    >>> (iv,) = bootstrap(y, s, [paper_metrics()[0]], seed=0)
    >>> iv.low < iv.value < iv.high, round(iv.value, 3)
    (True, 0.789)
    """
    if not (isinstance(level, (int, float)) and 0 < level < 1):
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    ranking = _as_ranking(y_true, y_score)
    calls = list(calls) if calls is not None else paper_metrics(top_k=min(1000, ranking.counts.n))
    values = bootstrap_values(ranking, None, calls, n_resamples=n_resamples, seed=seed, ties=ties)
    low, high = np.quantile(values, [(1 - level) / 2, (1 + level) / 2], axis=0)
    se = values.std(axis=0, ddof=1)
    return [
        Interval(c.key, c.label, c.value(ranking, ties), float(lo), float(hi), float(e))
        for c, lo, hi, e in zip(calls, low, high, se)
    ]

"""Every area of the CROC framework as ``scale * mean(per-positive values) + offset``: the score functions.

Every metric here is (an affine map of) a mean over the positives of a
function ``h`` of each positive's FPR (``j``, the negatives above it) or
rank ``r``, defined once by its :class:`~crocbench.metrics.Definition`
(:mod:`crocbench.metrics._definitions`).  From that one definition come the
metric's value (:func:`score`, :func:`evaluate` and one function per metric,
:func:`roc_auc`, :func:`croc_auc`, ...), its per-positive values, on which
the significance tests run (:func:`per_positive_values`), and the random
classifier's exact mean and SD (:func:`random_baseline`).
"""

from __future__ import annotations

import math

import numpy as np

from ._definitions import FPR, RANK, RANKING, Definition, RandomBaseline, _check_count, definition
from ._ranking import Counts, Ranking, Resamples, _interval_means, check_ties
from ._transforms import Transform


def _values(ranking: Ranking, d: Definition, ties: str) -> np.ndarray:
    if d.kind == FPR:
        return ranking.fpr_values(d.h, ties)
    if d.kind == RANK:
        return ranking.rank_values(d.h, ties)
    return d.h(ranking, check_ties(ties))


def _as_ranking(y_true, y_score) -> Ranking:
    return y_true if isinstance(y_true, Ranking) and y_score is None else Ranking(y_true, y_score)


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


# --- public metric functions ---------------------------------------------------


def roc_auc(y_true, y_score, *, ties: str = "expected") -> float:
    """Area under the ROC curve: mean over positives of ``1 - FPR``.

    With ``ties="expected"`` it equals :func:`sklearn.metrics.roc_auc_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - FPR``, in [0, 1]; 0.5 on average for a random ranking.

    Examples
    --------
    >>> round(roc_auc([1, 1, 0, 1, 1, 0, 1, 0, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]), 12)
    0.84

    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(roc_auc(y, s), 12)
    0.84
    >>> roc_auc([1, 0, 1, 0], [2, 2, 1, 0])  # a tied pair counts 1/2
    0.625
    """
    return score(y_true, y_score, "roc_auc", ties=ties)


def croc_auc(y_true, y_score, alpha=None, transform: Transform = "exp", *, ties: str = "expected") -> float:
    """Area under the CROC curve: mean over positives of ``1 - f(FPR)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    alpha : float, default=None
        The magnification factor, > 0; required by the named transforms (the paper uses 7, 14 and 80:
        under ``"exp"`` they send FPR 0.1, 0.05 and 0.0086 to 0.5).
    transform : {"exp", "pow", "log"} or callable, default="exp"
        The magnification function ``f`` (see :func:`get_transform`); a callable ``f(x)`` mapping
        [0, 1] onto [0, 1] is used as given, without ``alpha``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - f(FPR)``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(croc_auc(y, s, alpha=7), 4)
    0.5104
    >>> round(croc_auc(y, s, alpha=80), 4)  # only the two positives above every negative still count
    0.4
    """
    return score(y_true, y_score, "croc_auc", ties=ties, alpha=alpha, transform=transform)


def roc_auc_cutoff(y_true, y_score, t, *, ties: str = "expected") -> float:
    """ROC area over FPR in [0, t], divided by t (so a perfect ranking gives 1).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    t : float
        The FPR cutoff, in (0, 1].
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - min(FPR / t, 1)``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(roc_auc_cutoff(y, s, t=0.4), 12)
    0.6
    """
    return score(y_true, y_score, "roc_auc_cutoff", ties=ties, t=t)


def roc_n(y_true, y_score, n: int = 50, *, ties: str = "expected") -> float:
    """ROC_n: ROC area up to the n-th negative, normalized so a perfect ranking gives 1.

    Equal to ``roc_auc_cutoff`` with ``t = n / n_neg``: each positive scores
    ``1 - min(j / n, 1)`` with j the negatives above it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    n : int, default=50
        The number of negatives up to which the area is taken, 1 to ``n_neg``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - min(j / n, 1)``, j the negatives ranked above, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(roc_n(y, s, n=2), 12)
    0.6
    """
    return score(y_true, y_score, "roc_n", ties=ties, n=n)


def proc_auc(y_true, y_score, *, ties: str = "expected") -> float:
    """Area under the pROC curve of Clark & Webster-Clark (2008), normalized to [0, 1].

    The x axis is ``log10(max(FPR, 0.5 / N))`` (N = all items), which runs
    from ``log10(0.5 / N)`` to 0.  The area under that curve (in decades) is
    the mean over positives of ``-log10(max(FPR, 0.5/N))``; we divide it by
    the width ``log10(2 N)`` so that a perfect ranking gives 1 and the worst 0.
    Multiply by ``log10(2 N)`` to get Clark & Webster-Clark's unnormalized pAUC.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The normalized pROC area, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(proc_auc(y, s), 4)
    0.6761
    """
    return score(y_true, y_score, "proc_auc", ties=ties)


def ac_auc(y_true, y_score, *, ties: str = "expected") -> float:
    """Area under the accumulation (enrichment) curve, slanted convention.

    x = fraction of all items ranked above; a positive at rank r contributes
    ``1 - (r - 1/2) / N``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - (r - 1/2) / N``, in (0, 1).

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(ac_auc(y, s), 12)
    0.67
    """
    return score(y_true, y_score, "ac_auc", ties=ties)


def cac_auc(y_true, y_score, alpha=None, transform: Transform = "exp", *, ties: str = "expected") -> float:
    """Area under the concentrated AC curve, slanted convention.

    A positive at rank r contributes ``1 - (f((r - 1) / N) + f(r / N)) / 2``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    alpha : float, default=None
        The magnification factor, > 0; required by the named transforms (the paper uses 7, 14 and 80:
        under ``"exp"`` they send FPR 0.1, 0.05 and 0.0086 to 0.5).
    transform : {"exp", "pow", "log"} or callable, default="exp"
        The magnification function ``f`` (see :func:`get_transform`); a callable ``f(x)`` mapping
        [0, 1] onto [0, 1] is used as given, without ``alpha``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - (f((r - 1) / N) + f(r / N)) / 2``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(cac_auc(y, s, alpha=7), 4)
    0.253
    """
    return score(y_true, y_score, "cac_auc", ties=ties, alpha=alpha, transform=transform)


def rie(y_true, y_score, alpha: float = 20.0, *, ties: str = "expected") -> float:
    """Robust initial enhancement (Sheridan et al. 2001; Truchon & Bayly 2007).

    ``sum(exp(-alpha r_i / N)) / (n_pos / N * (1 - e^-alpha) / (e^(alpha/N) - 1))``:
    1 on average for a random ranking.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    alpha : float, default=20.0
        The exponential's weight on the early ranks, > 0.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The RIE; 1 on average for a random ranking, larger is better.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(rie(y, s, alpha=20), 4)
    1.9682
    """
    return score(y_true, y_score, "rie", ties=ties, alpha=alpha)


def bedroc(y_true, y_score, alpha: float = 20.0, *, ties: str = "expected") -> float:
    """Boltzmann-enhanced discrimination of ROC (Truchon & Bayly 2007).

    RIE rescaled by its exact minimum and maximum for the list to [0, 1],
    as in ``rdkit.ML.Scoring.Scoring.CalcBEDROC``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    alpha : float, default=20.0
        The exponential's weight on the early ranks, > 0 (20 puts 80% of the weight on the top 8%).
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The BEDROC, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(bedroc(y, s, alpha=20), 4)
    0.9842
    """
    return score(y_true, y_score, "bedroc", ties=ties, alpha=alpha)


def slr(y_true, y_score, *, ties: str = "expected") -> float:
    """Sum of log ranks: ``-sum(log(r_i / N))`` over the positives (larger is better).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        ``-sum(log(r_i / N))`` over the positives, at least 0.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(slr(y, s), 4)
    5.8781
    """
    return score(y_true, y_score, "slr", ties=ties)


def enrichment_factor(y_true, y_score, fraction, *, ties: str = "expected") -> float:
    """Enrichment factor in the top ``fraction`` of the list.

    ``(hits in the top n_top / n_top) / (n_pos / N)`` with
    ``n_top``: fraction x N rounded half up, at least 1 (as "actives in the top 1%"); with ties, the expected number of hits.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    fraction : float
        The share of the list at the top, in (0, 1] (e.g. 0.01 for the top 1%).
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The enrichment factor, from 0 to ``N / n_pos``; 1 on average for a random ranking.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> enrichment_factor(y, s, fraction=0.2)  # 2 hits in the top 2, half the list positive
    2.0
    """
    return score(y_true, y_score, "enrichment_factor", ties=ties, fraction=fraction)


def hits_at_k(y_true, y_score, k: int, *, ties: str = "expected") -> float:
    """Number of positives among the k top-ranked items (expected number under ties).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    k : int
        The number of top-ranked items, 1 to ``n_samples``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The number of positives among the top k, from 0 to ``min(k, n_pos)``.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> hits_at_k(y, s, k=3)
    2.0
    """
    return score(y_true, y_score, "hits_at_k", ties=ties, k=k)


def precision_at_k(y_true, y_score, k: int, *, ties: str = "expected") -> float:
    """Precision among the k top-ranked items: ``hits_at_k / k`` (Weber 2019, section 1.4).

    A mean over the positives (of ``n_pos / k * [r <= k]``), so it plugs
    into the significance tests, like :func:`hits_at_k`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    k : int
        The number of top-ranked items, 1 to ``n_samples``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        ``hits_at_k / k``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(precision_at_k(y, s, k=5), 12)
    0.8
    """
    return score(y_true, y_score, "precision_at_k", ties=ties, k=k)


def recall_at_k(y_true, y_score, k: int, *, ties: str = "expected") -> float:
    """Recall (TPR) among the k top-ranked items: ``hits_at_k / n_pos``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    k : int
        The number of top-ranked items, 1 to ``n_samples``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        ``hits_at_k / n_pos``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(recall_at_k(y, s, k=5), 12)
    0.8
    """
    return score(y_true, y_score, "recall_at_k", ties=ties, k=k)


def r_precision(y_true, y_score, *, ties: str = "expected") -> float:
    """R-precision: precision at rank R = n_pos (TREC's definition; equals recall there).

    Weber's variant, the best precision once a given recall is reached, is
    :func:`crocbench.metrics.precision_at_recall`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The share of positives among the top ``n_pos`` items, in [0, 1].

    Examples
    --------
    Weber's walk-through: 5 relevant documents at ranks 1, 2, 4, 6, 13; 3 of them in the top 5.

    >>> y = np.zeros(14, dtype=int); y[[0, 1, 3, 5, 12]] = 1
    >>> r_precision(y, -np.arange(14))
    0.6
    """
    return score(y_true, y_score, "r_precision", ties=ties)


def average_precision(y_true, y_score, *, ties: str = "expected") -> float:
    """Average precision: mean over the positives of the precision at each positive's rank.

    This is perf's APR (KDD Cup 2004, "expected precision") and the area
    under the raw precision-recall step curve.  With ``ties="expected"`` it
    is the exact mean over every ordering of the tied items (perf's tie
    rule), computed without enumerating them in time linear in the tie
    groups' sizes; see :meth:`Ranking.precision_values`.  ``"pessimistic"``
    is perf's fallback for very many ties.  It differs from
    :func:`sklearn.metrics.average_precision_score` only when scores tie
    (scikit-learn counts a whole tie group at its last position).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of the precision at their rank, in (0, 1].

    Examples
    --------
    Weber's walk-through: (1 + 1 + 3/4 + 4/6 + 5/13) / 5.

    >>> y = np.zeros(14, dtype=int); y[[0, 1, 3, 5, 12]] = 1
    >>> round(average_precision(y, -np.arange(14)), 4)
    0.7603
    """
    return score(y_true, y_score, "average_precision", ties=ties)


def loc_auc(y_true, y_score, u0: float = 0.1, *, ties: str = "expected") -> float:
    """Local AUC of Clemencon & Vayatis (2007): the AUC restricted to the top mass ``u0``.

    ``LocAUC(s, u0) = P{s(X) > s(X'), s(X) >= Q(s, 1 - u0) | Y = 1, Y' = -1}``
    with ``Q(s, 1 - u0)`` the score above which a fraction ``u0`` of all
    items lies.  The empirical estimator takes Q = the score at rank
    ``ceil(u0 N)``; a positive scoring at least Q contributes its
    ``1 - FPR`` (the share of negatives below it; a tied negative counts
    1/2 under ``"expected"`` ties), any other positive 0.  For ``u0 = 1`` it
    is AUC[ROC].  By Theorem 9 / Remark 7 it equals
    ``int_0^a beta(alpha) d alpha + b (1 - a)``, with (a, b) the (FPR, TPR)
    of the ROC curve at the threshold Q.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    u0 : float, default=0.1
        The top mass of the list, in (0, 1].
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - FPR`` for those scored at least Q, 0 for the others;
        between 0 and 1, AUC[ROC] for ``u0 = 1``.

    Examples
    --------
    The paper's 10-item example, top 50%: the positives at ranks 1, 2, 4, 5 qualify.

    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]
    >>> round(loc_auc(y, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], u0=0.5), 12)
    0.72
    """
    return score(y_true, y_score, "loc_auc", ties=ties, u0=u0)

"""Per-query scores: a metric on each query's own ranking, averaged over the queries (macro).

Sources
-------
[perf]   KDD Cup 2004 ``perf`` metric definitions (Caruana): TOP1, rank of
         the last positive, average precision over blocks (queries).
[TAP]    Carroll, Kann, Sheetlin & Spouge (2010) "Threshold Average Precision
         (TAP-k)": TAP-k, ROC_n per query and the pooled ROC_n.

Queries
-------
Functions taking ``groups`` treat each distinct value as one query (a
``perf`` "block"): the metric is computed on each query's own ranking and
averaged over the queries (macro); the set-based measures of
:mod:`crocbench.metrics._retrieval` can also sum the counts (micro).  A query
in which a metric is undefined (e.g. no positive for average precision)
raises ``ValueError`` naming it; ``skip_undefined=True`` drops such queries
with a ``RuntimeWarning`` saying how many.  A mean over queries is not a mean
over the positives of one list, so these metrics do not plug into the
significance tests.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ._areas import score
from ._ranking import Ranking, check_ties
from ._roc import roc_n
from ._validation import check_binary_scores

# --- queries ----------------------------------------------------------------------


def _split_queries(y, s, groups):
    """``[(query id, labels, scores), ...]`` in sorted query order; ``groups=None`` is one query."""
    if groups is None:
        return [(None, y, s)]
    g = np.asarray(groups)
    if g.ndim != 1 or g.shape[0] != y.shape[0]:
        raise ValueError(f"groups must be 1-D with one query id per score; got shape {g.shape} for {y.shape[0]} scores")
    if g.dtype.kind == "f" and np.isnan(g).any():
        raise ValueError(f"groups has {int(np.isnan(g).sum())} missing query id(s)")
    try:
        ids, inverse = np.unique(g, return_inverse=True)
    except TypeError:  # mixed types: compare as text
        ids, inverse = np.unique(g.astype(str), return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(ids.size + 1))
    return [
        (ids[q].item() if hasattr(ids[q], "item") else ids[q], y[order[a:b]], s[order[a:b]])
        for q, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))
    ]


def per_query(y_true, y_score, groups, fn, *, skip_undefined: bool = False) -> pd.Series:
    """``fn(labels, scores)`` on each query's items; a Series indexed by query id.

    ``fn`` raising ``ValueError`` on a query (a metric undefined there) is
    re-raised naming the query, or with ``skip_undefined`` the query is left
    out and a ``RuntimeWarning`` counts the queries left out.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,)
        The query id of each item; each distinct value is one query.
    fn : callable
        ``fn(labels, scores) -> float`` on one query's items (bool and float64 arrays).
    skip_undefined : bool, default=False
        Leave out (with a ``RuntimeWarning``) the queries where the metric is undefined, instead of raising
        ``ValueError``.

    Returns
    -------
    pandas.Series of float64
        ``fn``'s value per query, indexed by query id (sorted), named ``"value"``.

    Examples
    --------
    >>> from crocbench.metrics import average_precision
    >>> y = [1, 0, 1, 0, 0, 1]; s = [3, 2, 1, 3, 2, 1]; q = ["a", "a", "a", "b", "b", "b"]
    >>> per_query(y, s, q, average_precision).round(4).to_dict()
    {'a': 0.8333, 'b': 0.3333}
    """
    y, s = check_binary_scores(y_true, y_score, both_classes=False)
    values, skipped = {}, []
    for q, yq, sq in _split_queries(y, s, groups):
        try:
            values[q] = float(fn(yq, sq))
        except ValueError as exc:
            if not skip_undefined:
                where = "" if q is None else f"query {q!r}: "
                raise ValueError(f"{where}{exc}") from None
            skipped.append(q)
    if skipped:
        warnings.warn(
            f"{len(skipped)} of {len(skipped) + len(values)} queries left out (metric undefined there), "
            f"e.g. {skipped[0]!r}",
            RuntimeWarning,
            stacklevel=2,
        )
    if not values:
        raise ValueError("the metric is undefined in every query")
    return pd.Series(values, dtype=np.float64, name="value").rename_axis("query")


def _macro(y_true, y_score, groups, fn, skip_undefined: bool) -> float:
    return float(per_query(y_true, y_score, groups, fn, skip_undefined=skip_undefined).mean())


def mean_average_precision(y_true, y_score, groups, *, ties: str = "expected", skip_undefined: bool = False) -> float:
    """Mean over the queries of the average precision (perf's APR over blocks; MAP).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,)
        The query id of each item; each distinct value is one query.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.
    skip_undefined : bool, default=False
        Leave out (with a ``RuntimeWarning``) the queries where the metric is undefined, instead of raising
        ``ValueError``.

    Returns
    -------
    float
        The mean over the queries of their average precision, in (0, 1].

    Examples
    --------
    >>> y = [1, 0, 1, 0, 0, 1]; s = [3, 2, 1, 3, 2, 1]; q = ["a", "a", "a", "b", "b", "b"]
    >>> round(mean_average_precision(y, s, q), 4)  # (5/6 + 1/3) / 2
    0.5833
    """
    check_ties(ties)
    return _macro(y_true, y_score, groups, lambda y, s: score(y, s, "average_precision", ties=ties), skip_undefined)


def roc_n_per_query(
    y_true, y_score, groups, n: int = 50, *, ties: str = "expected", skip_undefined: bool = False
) -> float:
    """Mean over the queries of each query's ROC_n [TAP].

    The *pooled* ROC_n that Carroll et al. criticize is :func:`roc_n` on
    all queries' items ranked together as one list; compare the two to see
    how far a few queries drive the pooled score.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,)
        The query id of each item; each distinct value is one query.
    n : int, default=50
        The number of negatives up to which each query's ROC area is taken.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.
    skip_undefined : bool, default=False
        Leave out (with a ``RuntimeWarning``) the queries where the metric is undefined, instead of raising
        ``ValueError``.

    Returns
    -------
    float
        The mean over the queries of their ROC_n, in [0, 1].

    Examples
    --------
    >>> y = [1, 0, 1, 0, 0, 1]; s = [3, 2, 1, 3, 2, 1]; q = ["a", "a", "a", "b", "b", "b"]
    >>> roc_n_per_query(y, s, q, n=1)  # query a: 1 and 0, query b: 0 and 0
    0.25
    """
    check_ties(ties)
    return _macro(y_true, y_score, groups, lambda y, s: roc_n(y, s, n, ties=ties), skip_undefined)


def top1(y_true, y_score, groups=None) -> float:
    """perf's TOP1: fraction of queries whose top-scored item is a positive.

    Ties do not help: a query scores 1 only if every item tied at its top
    score is positive.  A query without positives scores 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item; each distinct value is one query, None for a single query.

    Returns
    -------
    float
        The fraction of queries whose top-scored items are all positive, in [0, 1].

    Examples
    --------
    >>> top1([1, 0, 0, 1], [0.9, 0.9, 0.5, 0.7], groups=["a", "a", "b", "b"])
    0.5
    """

    def one(y, s):
        return float(np.all(y[s == s.max()]))

    return _macro(y_true, y_score, groups, one, False)


def last_positive_rank(y_true, y_score, groups=None, *, skip_undefined: bool = False) -> float:
    """perf's average rank of the last positive (lower is better).

    Ties do not help: positives sort to the low end of their ties, so the
    last positive's rank is the number of items scoring at least the
    lowest-scored positive.  Undefined for a query without positives.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item; each distinct value is one query, None for a single query.
    skip_undefined : bool, default=False
        Leave out (with a ``RuntimeWarning``) the queries where the metric is undefined, instead of raising
        ``ValueError``.

    Returns
    -------
    float
        The mean over the queries of the last positive's rank, from 1 to the queries' sizes.

    Examples
    --------
    >>> last_positive_rank([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    3.0
    """

    def one(y, s):
        if not y.any():
            raise ValueError("no positives: the rank of the last positive is undefined")
        return float(np.count_nonzero(s >= s[y].min()))

    return _macro(y_true, y_score, groups, one, skip_undefined)


# --- TAP-k ----------------------------------------------------------------------------


def tap_threshold(y_true, y_score, groups=None, k: int = 5) -> float:
    """The score threshold of TAP-k: the median over the queries of the score of each query's k-th negative.

    E-values rise as scores fall, so this is Carroll et al.'s E-value
    threshold at which the median query has ``k`` irrelevant records
    retrieved (a query with fewer than k negatives counts as -inf).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item; each distinct value is one query, None for a single query.
    k : int, default=5
        The number of negatives (irrelevant records) the median query retrieves, at least 1.

    Returns
    -------
    float
        The median over the queries of each query's k-th highest negative score (-inf for a query with
        fewer than k negatives).

    Examples
    --------
    >>> tap_threshold([1, 0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.1], k=2)
    0.6
    """
    y, s = check_binary_scores(y_true, y_score, both_classes=False)
    if not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be a positive integer; got {k!r}")
    kth = []
    for _, yq, sq in _split_queries(y, s, groups):
        neg = np.sort(sq[~yq])[::-1]
        kth.append(neg[k - 1] if neg.size >= k else -np.inf)
    return float(np.median(kth))


def _tap_one(y: np.ndarray, s: np.ndarray, threshold: float, ties: str) -> float:
    n_pos = int(y.sum())
    if n_pos == 0:
        raise ValueError("no positives: TAP is undefined")
    kept = s >= threshold
    retrieved, hits = int(kept.sum()), int((kept & y).sum())
    if n_pos == y.size:
        precisions = np.ones(n_pos)
    else:
        precisions = Ranking(y, s).precision_values(ties)
    total = precisions[s[y] >= threshold].sum()
    threshold_precision = hits / retrieved if retrieved else 0.0
    return (total + threshold_precision) / (n_pos + 1)


def tap_k(y_true, y_score, groups=None, k: int = 5, *, ties: str = "expected", skip_undefined: bool = False) -> float:
    """Threshold average precision at a median of k irrelevant records per query (TAP-k) [TAP].

    One score threshold for all queries (:func:`tap_threshold`).  For a
    query with T positives, of which those scoring at least the threshold
    are retrieved at ranks ``t_1 < t_2 < ...`` among ``L`` retrieved items,
    ``TAP = (sum_i i / t_i + p_L) / (T + 1)`` where ``p_L`` is the precision
    of the retrieved list (0 if it is empty).  TAP-k is the mean over the
    queries.  Tied items are retrieved together; tied precisions are
    resolved like :func:`average_precision`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,), default=None
        The query id of each item; each distinct value is one query, None for a single query.
    k : int, default=5
        The number of negatives the median query retrieves at the threshold (:func:`tap_threshold`).
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.
    skip_undefined : bool, default=False
        Leave out (with a ``RuntimeWarning``) the queries where the metric is undefined, instead of raising
        ``ValueError``.

    Returns
    -------
    float
        The mean over the queries of their TAP, in [0, 1].

    Examples
    --------
    One query, k = 2: the threshold is the 2nd negative's score 0.6, so
    the top 4 items are retrieved, with positives at ranks 1 and 3 and
    ``p_L = 2/4``; T = 3.

    >>> round(tap_k([1, 0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.1], k=2), 4)  # (1 + 2/3 + 1/2) / 4
    0.5417
    """
    check_ties(ties)
    threshold = tap_threshold(y_true, y_score, groups, k)
    return _macro(y_true, y_score, groups, lambda y, s: _tap_one(y, s, threshold, ties), skip_undefined)

"""The precision family: precision and recall at k, R-precision and average precision.

Means over the positives of one list like the areas, so they plug into the significance tests; each is computed by
:func:`crocbench.metrics.score` from the metric's
:class:`~crocbench.metrics.Definition`.
"""

from __future__ import annotations

import numpy as np  # noqa: F401 (the doctests)

from ._areas import score


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

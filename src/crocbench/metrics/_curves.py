"""ROC, CROC, AC and CAC curves for plotting.

All four come from one pass over the distinct scores (:func:`_cumulative_counts`).
A group of tied items is drawn as the straight segment that is the expected
curve over random orderings of the group; before a magnification function is
applied, such segments are subdivided at every unit step of the x count so
that the transformed curve follows ``f`` instead of a chord.
"""

from __future__ import annotations

import numpy as np

from ._transforms import Transform, get_transform
from ._validation import check_binary_scores


def _cumulative_counts(y_true, y_score) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Negatives and positives at or above each distinct score, from (0, 0)."""
    y, s = check_binary_scores(y_true, y_score)
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    last = np.flatnonzero(np.append(s[1:] != s[:-1], True))
    tp = np.cumsum(y)[last]
    fp = (last + 1) - tp
    tp = np.concatenate(([0], tp)).astype(np.float64)
    fp = np.concatenate(([0], fp)).astype(np.float64)
    return fp, tp, int(y.sum()), int(y.size - y.sum())


def _densify(u: np.ndarray, tp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Insert a point at every integer step of ``u`` inside segments longer than 1."""
    du = np.diff(u).astype(np.int64)
    if np.all(du <= 1):
        return u, tp
    steps = np.maximum(du, 1)
    seg = np.repeat(np.arange(du.size), steps)
    k = np.arange(seg.size) - np.repeat(np.cumsum(steps) - steps, steps)
    frac = np.where(du[seg] > 0, k / np.maximum(du[seg], 1), 0.0)
    new_u = u[seg] + frac * du[seg]
    new_tp = tp[seg] + frac * (tp[seg + 1] - tp[seg])
    return np.append(new_u, u[-1]), np.append(new_tp, tp[-1])


def roc_curve(y_true, y_score) -> tuple[np.ndarray, np.ndarray]:
    """ROC curve: (FPR, TPR) at every distinct score threshold, from (0, 0) to (1, 1).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.

    Returns
    -------
    fpr : ndarray of shape (n_thresholds + 1,)
        False positive rate at or above each distinct score, decreasing scores, from 0.
    tpr : ndarray of shape (n_thresholds + 1,)
        True positive rate at the same thresholds, from 0 to 1.

    Examples
    --------
    >>> fpr, tpr = roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    """
    fp, tp, n_pos, n_neg = _cumulative_counts(y_true, y_score)
    return fp / n_neg, tp / n_pos


def croc_curve(y_true, y_score, alpha=None, transform: Transform = "exp") -> tuple[np.ndarray, np.ndarray]:
    """CROC curve: (f(FPR), TPR), with tied segments following ``f``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    alpha : float, default=None
        The magnification factor, > 0; required by the named transforms.
    transform : {"exp", "pow", "log"} or callable, default="exp"
        The magnification function ``f`` (see :func:`get_transform`).

    Returns
    -------
    x : ndarray of shape (n_points,)
        ``f(FPR)``, from 0 to 1, tied segments subdivided at every negative.
    tpr : ndarray of shape (n_points,)
        The true positive rate at each point.

    Examples
    --------
    >>> x, tpr = croc_curve([1, 0, 1, 0], [4, 3, 2, 1], alpha=7)
    >>> x.round(3).tolist(), tpr.tolist()
    ([0.0, 0.0, 0.971, 0.971, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    f = get_transform(transform, alpha)
    fp, tp, n_pos, n_neg = _cumulative_counts(y_true, y_score)
    fp, tp = _densify(fp, tp)
    return f(fp / n_neg), tp / n_pos


def ac_curve(y_true, y_score) -> tuple[np.ndarray, np.ndarray]:
    """Accumulation curve: (fraction of all items ranked above, TPR).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.

    Returns
    -------
    x : ndarray of shape (n_thresholds + 1,)
        Fraction of all items at or above each distinct score, from 0 to 1.
    tpr : ndarray of shape (n_thresholds + 1,)
        The true positive rate at the same thresholds.

    Examples
    --------
    >>> x, tpr = ac_curve([1, 0, 1, 0], [4, 3, 2, 1])
    >>> x.tolist(), tpr.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    fp, tp, n_pos, n_neg = _cumulative_counts(y_true, y_score)
    return (fp + tp) / (n_pos + n_neg), tp / n_pos


def cac_curve(y_true, y_score, alpha=None, transform: Transform = "exp") -> tuple[np.ndarray, np.ndarray]:
    """Concentrated AC curve: (f(fraction of items above), TPR), slanted convention.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    alpha : float, default=None
        The magnification factor, > 0; required by the named transforms.
    transform : {"exp", "pow", "log"} or callable, default="exp"
        The magnification function ``f`` (see :func:`get_transform`).

    Returns
    -------
    x : ndarray of shape (n_points,)
        ``f(fraction of items above)``, from 0 to 1, tied segments subdivided at every item.
    tpr : ndarray of shape (n_points,)
        The true positive rate at each point.

    Examples
    --------
    >>> x, tpr = cac_curve([1, 0, 1, 0], [4, 3, 2, 1], alpha=7)
    >>> x.round(3).tolist(), tpr.tolist()
    ([0.0, 0.827, 0.971, 0.996, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    f = get_transform(transform, alpha)
    fp, tp, n_pos, n_neg = _cumulative_counts(y_true, y_score)
    u, tp = _densify(fp + tp, tp)
    return f(u / (n_pos + n_neg)), tp / n_pos


def precision_recall_curve(y_true, y_score, *, interpolated: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Precision-recall curve: (recall, precision) after each distinct score threshold, top down.

    Raw, precision falls at every negative and rises at every positive (a
    tie group is one step).  ``interpolated=True`` gives each recall the
    best precision at that or any higher recall, the usual step curve
    (Weber, section 1.4).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    interpolated : bool, default=False
        Give each recall the best precision at that or any higher recall.

    Returns
    -------
    recall : ndarray of shape (n_thresholds,)
        Recall after each distinct score threshold, top down, nondecreasing to 1.
    precision : ndarray of shape (n_thresholds,)
        Precision at the same thresholds.

    Examples
    --------
    Weber's walk-through, first six ranks (relevant at 1, 2, 4, 6):

    >>> r, p = precision_recall_curve([1, 1, 0, 1, 0, 1, 0], [7, 6, 5, 4, 3, 2, 1])
    >>> p.round(2).tolist()
    [1.0, 1.0, 0.67, 0.75, 0.6, 0.67, 0.57]
    >>> precision_recall_curve([1, 1, 0, 1, 0, 1, 0], [7, 6, 5, 4, 3, 2, 1], interpolated=True)[1].round(2).tolist()
    [1.0, 1.0, 1.0, 0.75, 0.75, 0.67, 0.67]
    """
    fp, tp, n_pos, _ = _cumulative_counts(y_true, y_score)
    fp, tp = fp[1:], tp[1:]
    precision, recall = tp / (tp + fp), tp / n_pos
    if interpolated:  # best precision over every point at this recall or beyond
        best_after = np.maximum.accumulate(precision[::-1])[::-1]
        precision = best_after[np.searchsorted(recall, recall, side="left")]
    return recall, precision

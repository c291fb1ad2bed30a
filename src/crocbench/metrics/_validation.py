"""Checking the input every metric takes: binary labels and finite real scores of one list."""

from __future__ import annotations

import numpy as np


def check_binary_scores(y_true, y_score, *, both_classes: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Validate labels and scores and return them as (bool, float64) arrays.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (0/1 or bool; 1 marks a positive).
    y_score : array-like of shape (n_samples,)
        Finite real scores, higher meaning more likely positive.
    both_classes : bool, default=True
        Require at least one positive and one negative (the metrics are undefined otherwise).

    Returns
    -------
    y : ndarray of bool of shape (n_samples,)
        The labels, True for a positive.
    s : ndarray of float64 of shape (n_samples,)
        The scores.

    Raises
    ------
    ValueError
        If the inputs are not 1-D, differ in length, are empty, the labels
        are not binary (0/1 or bool), a score is NaN or infinite, or (unless
        ``both_classes=False``) there is no positive or no negative.

    Examples
    --------
    >>> check_binary_scores([1, 0, 0], [3, 2, 1])
    (array([ True, False, False]), array([3., 2., 1.]))
    """
    y = np.asarray(y_true)
    s = np.asarray(y_score)
    if y.ndim != 1 or s.ndim != 1:
        raise ValueError(f"y_true and y_score must be 1-D; got shapes {y.shape} and {s.shape}")
    if y.shape[0] != s.shape[0]:
        raise ValueError(f"y_true and y_score differ in length: {y.shape[0]} labels, {s.shape[0]} scores")
    if y.shape[0] == 0:
        raise ValueError("y_true and y_score are empty")
    if y.dtype == bool:
        yb = y
    else:
        if not (np.issubdtype(y.dtype, np.number)):
            found = np.unique(y.astype(str))[:5]
            raise ValueError(f"y_true must be binary (0/1 or bool); found values {list(found)}")
        bad = (y != 0) & (y != 1)
        if bad.any():
            found = np.unique(y[bad])[:5]
            raise ValueError(f"y_true must be binary (0/1 or bool); found other values {found.tolist()}")
        yb = y == 1
    if not np.issubdtype(s.dtype, np.number) or np.issubdtype(s.dtype, np.complexfloating):
        raise ValueError(f"y_score must be real numbers; got dtype {s.dtype}")
    s = s.astype(np.float64, copy=False)
    finite = np.isfinite(s)
    if not finite.all():
        bad_idx = np.flatnonzero(~finite)
        raise ValueError(f"y_score has {bad_idx.size} NaN or infinite value(s), first at index {bad_idx[0]}")
    n_pos = int(yb.sum())
    if not both_classes:
        return yb, s
    if n_pos == 0:
        raise ValueError("y_true has no positives: the metrics are undefined")
    if n_pos == yb.size:
        raise ValueError("y_true has no negatives: the metrics are undefined")
    return yb, s

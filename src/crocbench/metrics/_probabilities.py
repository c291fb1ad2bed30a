"""KDD Cup 2004 ``perf``'s probability metrics: cross-entropy, RMSE and the SLAC Q-score.

Sources
-------
[perf]   KDD Cup 2004 ``perf`` metric definitions (Caruana): accuracy,
         cross-entropy, SLAC Q-score, RMSE.

They need calibrated probabilities in [0, 1] rather than scores, and are not
means over the positives, so the significance tests do not apply to them.
"""

from __future__ import annotations

import math  # noqa: F401 (the doctests)

import numpy as np

from ._validation import check_binary_scores


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

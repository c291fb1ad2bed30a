"""Rank-based reweighting of training examples (the paper's Appendix A): push learning towards the top.

After each epoch the training examples are ranked by the current model's
scores (r = 1 is the top; tied scores share their average rank) and get
weights ``w_r = C h(r)``, ``C`` chosen so the weights sum to 1 (their sum at
the uniform start, 1/N each).

========================  =====================================================
scheme                    h(r)
========================  =====================================================
``none``                  1 (uniform, 1/N each: the plain IRV)
``power``                 1 / r
``power_density``         g(r) / r, g(r) the density of the scores at the r-th
                          score: a Gaussian kernel density estimate with
                          Silverman's bandwidth 0.9 min(sd, IQR/1.34) N^(-1/5),
                          computed on a grid of 2,048 bins (linear binning,
                          linear interpolation back to the scores)
``exp``                   exp(-alpha r / N)
``exp_anneal``            exp(-alpha_t r / N), alpha_t rising linearly from
                          ``alpha_start`` at epoch 1 to ``alpha_end`` at epoch
                          ``anneal_epochs``, then constant
========================  =====================================================
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SCHEMES = ("none", "power", "power_density", "exp", "exp_anneal")
_BINS = 2048


def average_ranks(scores: np.ndarray) -> np.ndarray:
    """Ranks by decreasing score, 1 = top; tied scores share the mean of their ranks.

    Parameters
    ----------
    scores : ndarray of shape (n,)
        The scores.

    Returns
    -------
    ndarray of float64 of shape (n,)
        The ranks, 1 = highest score.

    Examples
    --------
    >>> average_ranks(np.array([0.1, 0.9, 0.5, 0.9])).tolist()
    [4.0, 1.5, 3.0, 1.5]
    """
    scores = np.asarray(scores, dtype=np.float64)
    order = np.argsort(-scores)
    ordered = scores[order]
    ranks = np.empty(scores.size)
    new_group = ordered[1:] != ordered[:-1]
    if new_group.all():  # no ties (the usual case for real-valued scores)
        ranks[order] = np.arange(1.0, scores.size + 1)
        return ranks
    start = np.flatnonzero(np.r_[True, new_group])  # first position of each tie group
    size = np.diff(np.r_[start, ordered.size])
    ranks[order] = np.repeat(start + (size + 1) / 2.0, size)
    return ranks


def silverman_bandwidth(x: np.ndarray) -> float:
    """0.9 min(sd, IQR / 1.34) n^(-1/5); a tiny positive value when the scores are all equal.

    Parameters
    ----------
    x : ndarray of shape (n,)
        The sample.

    Returns
    -------
    float
        The bandwidth, positive.

    Examples
    --------
    >>> round(float(silverman_bandwidth(np.arange(100.0))), 4)  # 0.9 sd n^(-1/5)
    10.3947
    """
    x = np.asarray(x, dtype=np.float64)
    q75, q25 = np.percentile(x, [75, 25])
    spread = min(np.std(x, ddof=1) if x.size > 1 else 0.0, (q75 - q25) / 1.34)
    if spread <= 0:
        spread = np.std(x) if np.std(x) > 0 else 1.0
    return 0.9 * spread * x.size**-0.2


def score_density(x: np.ndarray, bandwidth: float | None = None, bins: int = _BINS) -> np.ndarray:
    """Gaussian kernel density of the sample ``x`` evaluated at each of its points (binned, see module doc).

    Parameters
    ----------
    x : ndarray of shape (n,)
        The sample (e.g. the training compounds' scores).
    bandwidth : float, default=None
        The kernel's bandwidth; None for :func:`silverman_bandwidth`.
    bins : int, default=2048
        Grid points of the binned estimate.

    Returns
    -------
    ndarray of float64 of shape (n,)
        The density at each point of ``x``.
    """
    x = np.asarray(x, dtype=np.float64)
    h = silverman_bandwidth(x) if bandwidth is None else float(bandwidth)
    lo, hi = x.min() - 4 * h, x.max() + 4 * h
    step = (hi - lo) / (bins - 1)
    pos = (x - lo) / step
    left = np.clip(np.floor(pos).astype(np.int64), 0, bins - 2)
    frac = pos - left
    counts = np.bincount(left, 1 - frac, bins) + np.bincount(left + 1, frac, bins)
    half = min(bins - 1, int(np.ceil(4 * h / step)))
    offsets = np.arange(-half, half + 1) * step
    kernel = np.exp(-0.5 * (offsets / h) ** 2) / (h * np.sqrt(2 * np.pi) * x.size)
    grid = np.convolve(counts, kernel, mode="same")
    return (1 - frac) * grid[left] + frac * grid[left + 1]


@dataclass(frozen=True)
class Reweighting:
    """A reweighting scheme and its parameters; ``weights(scores, epoch)`` gives the next epoch's weights.

    Parameters
    ----------
    scheme : str, default="none"
        One of ``crocbench.models.SCHEMES``.
    alpha : float, default=20.0
        The exponent of the ``exp`` scheme.
    alpha_start : float, default=1.0
        The first exponent of ``exp_anneal``.
    alpha_end : float, default=20.0
        Its last exponent.
    anneal_epochs : int, default=20
        The epochs over which ``exp_anneal`` moves from ``alpha_start`` to ``alpha_end``.
    """

    scheme: str = "none"
    alpha: float = 20.0
    alpha_start: float = 1.0
    alpha_end: float = 20.0
    anneal_epochs: int = 20

    def __post_init__(self):
        if self.scheme not in SCHEMES:
            raise ValueError(f"unknown reweighting scheme {self.scheme!r}; schemes are: {', '.join(SCHEMES)}")
        if min(self.alpha, self.alpha_start, self.alpha_end) < 0 or self.anneal_epochs < 1:
            raise ValueError("alphas must be >= 0 and anneal_epochs >= 1")

    def alpha_at(self, epoch: int) -> float:
        """The exponent's alpha used for the weights computed after ``epoch`` (1-based).

        Parameters
        ----------
        epoch : int
            The epoch, from 1.

        Returns
        -------
        float
            The exponent (nan for the schemes without one).
        """
        if self.scheme == "exp":
            return self.alpha
        if self.scheme != "exp_anneal":
            return float("nan")
        t = min(max(epoch - 1, 0), self.anneal_epochs - 1) / max(self.anneal_epochs - 1, 1)
        return self.alpha_start + (self.alpha_end - self.alpha_start) * t

    def weights(self, scores, epoch: int = 1) -> np.ndarray:
        """Weights (summing to 1) of the examples with these current scores, after ``epoch``.

        Parameters
        ----------
        scores : array-like of shape (n,)
            The training compounds' current scores.
        epoch : int, default=1
            The epoch just finished.

        Returns
        -------
        ndarray of float64 of shape (n,)
            The weights, summing to 1.

        Examples
        --------
        >>> Reweighting("none").weights(np.array([0.2, 0.9, 0.4, 0.1])).tolist()
        [0.25, 0.25, 0.25, 0.25]
        """
        scores = np.asarray(scores, dtype=np.float64)
        n = scores.size
        if self.scheme == "none":
            return np.full(n, 1.0 / n)
        r = average_ranks(scores)
        if self.scheme == "power":
            h = 1.0 / r
        elif self.scheme == "power_density":
            h = score_density(scores) / r
        else:
            h = np.exp(-self.alpha_at(epoch) * (r - 1) / n)  # the constant exp(-alpha/N) goes into C
        return h / h.sum()

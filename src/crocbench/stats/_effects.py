"""Effect sizes across screens: the mean paired difference of two rankers with its bootstrap interval.

A p-value across screens says whether two rankers differ; the effect size says by how much. Here the effect is
the mean over the screens of a metric's paired difference (a - b), and its interval is the percentile interval
of that mean over resamples of the screens (each resample draws as many screens as there are, with replacement;
the screens are the unit, as in the paired Wilcoxon test beside it).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

#: Resamples of an effect's interval unless told otherwise.
EFFECT_RESAMPLES = 10_000


class Effect(NamedTuple):
    """A mean paired difference across screens and its bootstrap interval.

    Parameters
    ----------
    mean : float
        The mean over the screens of ``a - b``.
    low, high : float
        The percentile interval's bounds.
    screens : int
        The number of screens.
    """

    mean: float
    low: float
    high: float
    screens: int


#: The most resampled indices drawn at once (a chunk of resamples).
DRAWN_AT_ONCE = 5_000_000


@functools.lru_cache(maxsize=8)
def _draws(seed: int, screens: int, n_resamples: int) -> np.ndarray:
    """The resamples' indices of one chunk, read-only: every pair of a panel tested with one seed draws the same
    screens, so they are drawn once (as :func:`paired_effect`'s generator would draw them)."""
    draws = np.random.default_rng(seed).integers(0, screens, size=(n_resamples, screens))
    draws.flags.writeable = False
    return draws


def paired_effect(a, b, *, level: float = 0.95, n_resamples: int = EFFECT_RESAMPLES, seed=0) -> Effect:
    """The mean paired difference ``a - b`` across screens, with its percentile bootstrap interval over screens.

    Parameters
    ----------
    a, b : array-like of shape (n_screens,)
        One ranker's metric per screen, and the other's, in the same screen order.
    level : float, default=0.95
        The interval's coverage.
    n_resamples : int, default=10000
        Bootstrap resamples of the screens.
    seed : int or numpy Generator, default=0
        The resampling's seed: the same seed gives the same interval.

    Returns
    -------
    Effect

    Examples
    --------
    >>> paired_effect([3.0, 5.0, 4.0], [1.0, 3.0, 2.0])
    Effect(mean=2.0, low=2.0, high=2.0, screens=3)
    >>> e = paired_effect([0.30, 0.52, 0.41, 0.38], [0.25, 0.40, 0.42, 0.30])
    >>> round(e.mean, 4), e.low < e.mean < e.high
    (0.06, True)
    """
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.ndim != 1 or x.shape != y.shape or x.size == 0:
        raise ValueError(f"a and b must be 1-d and of one length, at least 1; got shapes {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("a and b must be finite")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level}")
    if int(n_resamples) != n_resamples or n_resamples < 100:
        raise ValueError(f"n_resamples must be a whole number of at least 100; got {n_resamples}")
    d = x - y
    if np.ptp(d) == 0:  # every resample has the same mean: no rounding noise in the bounds
        return Effect(float(d[0]), float(d[0]), float(d[0]), d.size)
    chunk = max(1, DRAWN_AT_ONCE // d.size)
    if isinstance(seed, (int, np.integer)) and n_resamples <= chunk:  # one draw, the same for every pair of a panel
        means = d[_draws(int(seed), d.size, int(n_resamples))].mean(axis=1)
    else:
        rng = np.random.default_rng(seed)
        means = np.empty(int(n_resamples))
        for start in range(0, means.size, chunk):
            stop = min(means.size, start + chunk)
            means[start:stop] = d[rng.integers(0, d.size, size=(stop - start, d.size))].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return Effect(float(d.mean()), float(low), float(high), d.size)


class Decomposition(NamedTuple):
    """A declared pair's difference across screens, ranker ``A`` on features ``1`` against ranker ``B`` on features
    ``2``, split into a ranker part and a features part (:func:`decompose`); each an :class:`Effect`.

    Parameters
    ----------
    total : Effect
        ``A1 - B2``, the declared pair's difference.
    ranker : Effect
        The ranker part: ``A - B`` at the same features, the mean of ``A1 - B1`` and ``A2 - B2``.
    features : Effect
        The features part: ``1 - 2`` for the same ranker, the mean of ``A1 - A2`` and ``B1 - B2``.
    ranker_at : tuple of Effect
        ``A1 - B1`` and ``A2 - B2``: the ranker part at each set of features.
    features_of : tuple of Effect
        ``A1 - A2`` and ``B1 - B2``: the features part for each ranker.
    """

    total: Effect
    ranker: Effect
    features: Effect
    ranker_at: tuple
    features_of: tuple


def decompose(a1, a2, b1, b2, *, level: float = 0.95, n_resamples: int = EFFECT_RESAMPLES, seed=0) -> Decomposition:
    """Split ``A1 - B2`` (ranker A on features 1 against ranker B on features 2) into a ranker and a features part.

    The two paths of the 2 x 2 factorial, ``(A1 - B1) + (B1 - B2)`` and ``(A2 - B2) + (A1 - A2)``, split the
    difference differently where ranker and features interact; the parts here are their means (each factor's
    effect averaged over the other's levels), so ``ranker + features == total`` on every screen and no path is
    preferred. The interaction, ``(A1 - B1) - (A2 - B2)``, is read from ``ranker_at``. Each part's interval is
    :func:`paired_effect`'s over the screens, with one seed: every part resamples the same screens.

    Parameters
    ----------
    a1, a2, b1, b2 : array-like of shape (n_screens,)
        Ranker A on features 1 and on features 2, ranker B on features 1 and on features 2, one metric per screen
        in one screen order.
    level, n_resamples, seed
        :func:`paired_effect`'s.

    Returns
    -------
    Decomposition

    Examples
    --------
    >>> d = decompose([0.5, 0.7], [0.4, 0.5], [0.3, 0.4], [0.2, 0.3])
    >>> [round(e.mean, 4) for e in (d.total, d.ranker, d.features)]
    [0.35, 0.225, 0.125]
    """
    v = [np.asarray(x, dtype=float) for x in (a1, a2, b1, b2)]
    if any(x.shape != v[0].shape for x in v):
        raise ValueError(f"a1, a2, b1 and b2 must be of one shape; got {[x.shape for x in v]}")
    a1, a2, b1, b2 = v
    zero = np.zeros_like(a1)

    def effect(d):
        return paired_effect(d, zero, level=level, n_resamples=n_resamples, seed=seed)

    return Decomposition(
        effect(a1 - b2),
        effect(((a1 - b1) + (a2 - b2)) / 2),
        effect(((a1 - a2) + (b1 - b2)) / 2),
        (effect(a1 - b1), effect(a2 - b2)),
        (effect(a1 - a2), effect(b1 - b2)),
    )

"""Ties of the rank tests: values closer than :data:`RANK_RESOLUTION` (relative to themselves) are equal.

The signed-rank and rank-sum tests (and the Wilcoxon tests across datasets)
rank per-positive values whose last bits depend on the machine; snapping
them first makes the ranks, and so the p-values, the same on every machine.
"""

from __future__ import annotations

import numpy as np

#: Relative resolution of the rank tests: two values closer than this times their magnitude are ties
#: (a paired difference that small, relative to the two values, is zero).  Per-positive values are
#: computed with transcendental functions (log, exp) and sums whose last bits depend on the CPU's
#: SIMD and BLAS kernels: without it, a value pair tied on one machine is 1 ulp apart on another and
#: the rank statistic moves (issue 16: p 0.010308 vs 0.010309).  That noise is ~1e-16 of a value;
#: distinct per-positive values differ by far more than 1e-12 of theirs, however small they are.
RANK_RESOLUTION = 1e-12


def snap_ties(v: np.ndarray, resolution: float = RANK_RESOLUTION, scale=None) -> np.ndarray:
    """``v`` (n, m) with neighbouring values closer than ``resolution`` x their magnitude made equal.

    Column by column, the sorted values are cut into groups wherever two
    neighbours differ by more than ``resolution`` times the larger of their
    ``scale`` (default: their own absolute values); every value becomes its
    group's smallest.  Ranks of the result are the ranks of ``v`` with
    last-bit noise counted as ties, the same on every machine.

    Parameters
    ----------
    v : ndarray of shape (n, m)
        Values, one column per comparison.
    resolution : float, default=RANK_RESOLUTION
        Relative distance below which neighbouring values are ties.
    scale : ndarray of shape (n, m), default=None
        Magnitudes the resolution is relative to; None for ``abs(v)``.

    Returns
    -------
    ndarray of shape (n, m)
        ``v`` with every group of near-equal values set to its smallest.

    Examples
    --------
    >>> snap_ties(np.array([[0.3], [0.1 + 0.2], [0.5], [1e-17], [3e-17]])).ravel().tolist()
    [0.3, 0.3, 0.5, 1e-17, 3e-17]
    """
    v = np.asarray(v, dtype=np.float64)
    if scale is not None:
        scale = np.ascontiguousarray(np.asarray(scale, dtype=np.float64).T)
    return _snap_rows(np.ascontiguousarray(v.T), resolution, scale).T


def _snap_rows(v: np.ndarray, resolution: float = RANK_RESOLUTION, scale=None) -> np.ndarray:
    """:func:`snap_ties` of the rows of ``v`` (m, n): one comparison's values per row, contiguous, so that each
    sort and gather runs along memory (along the columns of an (n, m) array they stride, several times slower)."""
    # Equal values land in one group and take its smallest, whatever order they sort in; so does the scale where
    # it is the values' own. A scale of its own (e.g. a paired difference's) can differ between equal values, so
    # they keep their order (a stable sort) there; otherwise the vectorized sort, about 3x faster, gives the same.
    kind = "stable" if scale is not None else None
    scale = np.abs(v) if scale is None else scale
    order = np.argsort(v, axis=1, kind=kind)
    s, sc = np.take_along_axis(v, order, axis=1), np.take_along_axis(scale, order, axis=1)
    starts = np.ones(s.shape, dtype=bool)
    starts[:, 1:] = (s[:, 1:] - s[:, :-1]) > resolution * np.maximum(sc[:, 1:], sc[:, :-1])
    group = np.maximum.accumulate(np.where(starts, np.arange(s.shape[1]), 0), axis=1)
    out = np.empty_like(v)
    np.put_along_axis(out, order, np.take_along_axis(s, group, axis=1), axis=1)
    return out


def _has_ties(v: np.ndarray) -> np.ndarray:
    """Per row of ``v`` (m, n): whether two values are equal."""
    s = np.sort(v, axis=1)
    return (s[:, 1:] == s[:, :-1]).any(axis=1)


def _paired_differences(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x - y, row by row ((m, n): one comparison per row), for a signed-rank test: a difference is only as
    precise as the two values it comes from, so |d| below the resolution of max(|x|, |y|) is 0, and |d|s closer
    than that are tied."""
    d = x - y
    scale = np.maximum(np.abs(x), np.abs(y))
    magnitude = np.where(np.abs(d) <= RANK_RESOLUTION * scale, 0.0, np.abs(d))
    return np.sign(d) * _snap_rows(magnitude, scale=scale)

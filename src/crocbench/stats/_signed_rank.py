"""The Wilcoxon signed-rank test of paired differences, with :func:`scipy.stats.wilcoxon`'s p-values to the last bit.

scipy's ``method="auto"`` takes the exact null distribution of W+ without ties or zeros (up to 50 differences), a
permutation test over every sign pattern with ties or zeros (up to 13) and the normal approximation past those.
The first two are computed here from cached tables (the counts of W+ per sample size, the sign patterns), without
scipy's per-call validation and batches: across datasets the tests are many and small (a page regeneration runs
hundreds), and each call to scipy cost about 3 ms.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ._scipy import scipy_stats as _sps

#: The most datasets whose sign patterns scipy enumerates for a signed-rank test with ties or zeros (2^13 of them).
ENUMERATED_SIGNS = 13
#: The most datasets for which scipy's ``method="auto"`` takes the exact distribution (no ties, no zeros).
EXACT_DATASETS = 50


@cache
def _w_plus_counts(n: int) -> np.ndarray:
    """How many of the 2^n sign patterns of the ranks 1..n give each W+ = 0, 1, ..., n(n+1)/2 (exact integers)."""
    counts = np.zeros(n * (n + 1) // 2 + 1, dtype=np.int64)
    counts[0] = 1
    for rank in range(1, n + 1):  # rank positive or not: the patterns without it, shifted by it or not
        shifted = np.zeros_like(counts)
        shifted[rank:] = counts[:-rank]
        counts = counts + shifted
    return counts


@cache
def _sign_patterns(n: int) -> np.ndarray:
    """Every sign pattern of n differences, one per row: 1 keeps an entry positive."""
    return (np.arange(2**n)[:, None] >> np.arange(n)) & 1


def signed_rank_test(d: np.ndarray) -> tuple[float, float]:
    """The signed-rank statistic and :func:`scipy.stats.wilcoxon`'s two-sided p-value of the differences ``d``
    (``zero_method="wilcox"``, ``method="auto"``): ``(W+ - W-, p)``, with zeros dropped and ``(0.0, 1.0)`` where
    every difference is zero.

    Without ties or zeros (at most :data:`EXACT_DATASETS` differences) the p-value is twice the smaller tail of W+'s
    exact distribution, as scipy's: its counts over 2^n are dyadic, so the sums are exact and the bits are scipy's.
    With ties or zeros among at most :data:`ENUMERATED_SIGNS`, scipy's permutation test is done by enumerating the
    2^n sign patterns at once, with its tolerance for theoretically equal sums. Past those, scipy computes it.

    Examples
    --------
    >>> from scipy.stats import wilcoxon
    >>> d = np.array([0.5, 0.5, -0.2, 0.0, 1.0, 0.5])  # tied magnitudes and a zero
    >>> statistic, p = signed_rank_test(d)
    >>> statistic, p == float(wilcoxon(d).pvalue)
    (13.0, True)
    >>> signed_rank_test(np.array([0.1, 0.2, 0.3]))  # W+ = 6 of 6: 1 pattern in 8 per tail
    (6.0, 0.25)
    """
    n = d.size
    nonzero = d != 0
    if not nonzero.any():
        return 0.0, 1.0
    magnitudes = np.abs(d[nonzero])
    ranks = np.zeros(n)
    ranks[nonzero] = _sps().rankdata(magnitudes)
    statistic = float((np.sign(d) * ranks).sum())
    observed = ranks[d > 0].sum()
    exact = magnitudes.size == n and len(np.unique(magnitudes)) == n  # no zeros, no ties
    if n > (EXACT_DATASETS if exact else ENUMERATED_SIGNS):
        return statistic, float(_sps().wilcoxon(d, zero_method="wilcox", method="auto").pvalue)
    if exact:
        counts = _w_plus_counts(n)
        w = int(observed)  # the ranks are 1..n: W+ is a whole number
        less, greater = counts[: w + 1].sum() / 2.0**n, counts[w:].sum() / 2.0**n
        return statistic, float(min(1.0, 2 * min(less, greater)))
    null = (_sign_patterns(n) * ranks).sum(axis=1)  # W+ of each pattern (a zero has no rank)
    gamma = abs(np.finfo(float).eps * 100 * observed)  # scipy's tolerance for theoretically equal sums
    less, greater = (null <= observed + gamma).mean(), (null >= observed - gamma).mean()
    return statistic, float(min(1.0, 2 * min(less, greater)))

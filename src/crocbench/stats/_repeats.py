"""Two models compared over the folds of a repeated cross-validation: the corrected resampled t-test.

The folds of one cross-validation share most of their training compounds, and the repeats reuse the same
compounds, so the fold-by-fold differences of two models are correlated and the ordinary t-test on them is far
too liberal (Dietterich 1998).  Nadeau & Bengio (2003) correct the variance of the mean difference by the share
of compounds a test fold holds against its training set; Bouckaert & Frank (2004) apply it to r repeats of
k-fold cross-validation:

    t = mean(d) / sqrt((1 / (k r) + n_test / n_train) var(d)),   k r - 1 degrees of freedom,

with d the k r fold-by-fold differences of a metric and ``n_test / n_train = 1 / (k - 1)`` for k folds.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._scipy import scipy_stats as _sps


class CorrectedT(NamedTuple):
    """The corrected resampled t-test's outcome: mean difference (a - b), its t, degrees of freedom, p-value.

    Parameters
    ----------
    difference : float
        The mean difference of the metric, model a - model b, over the (repeat, fold) pairs.
    t : float
        The corrected t statistic.
    df : int
        Its degrees of freedom, ``k r - 1``.
    p_value : float
        The p-value under the test's alternative.
    """

    difference: float
    t: float
    df: int
    p_value: float


def corrected_t_test(differences, test_share: float, alternative: str = "two-sided") -> CorrectedT:
    """Nadeau & Bengio's corrected resampled t-test on fold-by-fold differences of two models.

    Parameters
    ----------
    differences : array-like of shape (k r,)
        One difference (model a - model b) of a metric per (repeat, fold), each on that fold's test compounds.
    test_share : float
        ``n_test / n_train``, the size of a test fold against its training set (``1 / (k - 1)`` for k folds);
        0 gives the ordinary one-sample t-test.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: a is better than b.

    Returns
    -------
    CorrectedT
        With ``t = nan`` and ``p_value = nan`` when every difference is the same (no spread to test against).

    Examples
    --------
    >>> r = corrected_t_test([0.02, 0.01, 0.03, 0.00, 0.02, 0.01, 0.02, 0.03, 0.01, 0.02], test_share=1 / 9)
    >>> round(r.t, 3), r.df, round(r.p_value, 4)
    (3.9, 9, 0.0036)
    """
    d = np.asarray(differences, dtype=np.float64).ravel()
    if d.size < 2:
        raise ValueError(f"the corrected t-test needs at least 2 differences; got {d.size}")
    if not np.isfinite(d).all():
        raise ValueError("the differences must be finite numbers")
    if not (math.isfinite(test_share) and test_share >= 0):
        raise ValueError(f"test_share must be a number >= 0; got {test_share!r}")
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(f"alternative must be two-sided, greater or less; got {alternative!r}")
    mean, var, df = float(d.mean()), float(d.var(ddof=1)), d.size - 1
    if np.ptp(d) == 0:  # every difference equal (var may then be last-bit noise, not 0)
        return CorrectedT(mean, math.nan, df, math.nan)
    t = mean / math.sqrt((1.0 / d.size + test_share) * var)
    if alternative == "two-sided":
        p = 2 * _sps().t.sf(abs(t), df)
    else:
        p = _sps().t.sf(t, df) if alternative == "greater" else _sps().t.cdf(t, df)
    return CorrectedT(mean, t, df, float(p))

"""The six tests' p-values on the columns of (n, m) arrays of per-positive values: the batched core.

:func:`p_values` runs one test of :data:`TESTS` on every column at once:
the permutation tests with one draw shared by all columns
(:mod:`crocbench.stats._permutation`), the t-tests and the Wilcoxon tests
through scipy, the exact-or-normal choice made column by column on values
with last-bit noise counted as ties (:mod:`crocbench.stats._ties`).
"""

from __future__ import annotations

import warnings

import numpy as np

from ._permutation import _paired_chunks, _permutation_hits, _tolerance, _unpaired_chunks
from ._scipy import scipy_stats as _sps
from ._ties import _has_ties, _paired_differences, _snap_rows

#: The six tests by name: the ``tests`` of :func:`compare` and :func:`run_tests` (all six by default), the
#: ``name`` of :func:`p_values`; the package docstring says what each does.
TESTS = (
    "paired_permutation",
    "unpaired_permutation",
    "paired_t",
    "unpaired_t",
    "paired_wilcoxon",
    "unpaired_wilcoxon",
)
#: Each test's label in the tables of the pages and the report (``"paired_t"`` -> ``"paired t"``), by its name in
#: :data:`TESTS`.
TEST_LABELS = {
    "paired_permutation": "paired permutation",
    "unpaired_permutation": "unpaired permutation",
    "paired_t": "paired t",
    "unpaired_t": "unpaired t",
    "paired_wilcoxon": "paired Wilcoxon",
    "unpaired_wilcoxon": "unpaired Wilcoxon",
}
#: The ``alternative`` of a test: ``"observed"`` (one-sided in the direction of the observed difference, as in
#: the paper; the default), ``"two-sided"``, ``"greater"`` (a better than b) or ``"less"``.
ALTERNATIVES = ("observed", "two-sided", "greater", "less")


def _check_samples(a, b, paired: bool) -> tuple[np.ndarray, np.ndarray]:
    """Non-empty finite samples: 1-D arrays, or (n, m) arrays with the same m columns."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != b.ndim or a.ndim not in (1, 2) or a.size == 0 or b.size == 0 or a.shape[1:] != b.shape[1:]:
        raise ValueError(
            f"values must be non-empty 1-D arrays (or 2-D with the same columns); got shapes {a.shape} and {b.shape}"
        )
    if paired and a.shape[0] != b.shape[0]:
        raise ValueError(f"a paired test needs values of the same positives; got {a.shape[0]} and {b.shape[0]}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("values must be finite")
    return a, b


def check_tests(tests) -> None:
    """Every name in ``tests`` is one of :data:`TESTS` (else a ValueError naming the unknown ones).

    Parameters
    ----------
    tests : iterable of str
        Test names.

    Raises
    ------
    ValueError
        If a name is not one of :data:`TESTS`.
    """
    unknown = [t for t in tests if t not in TESTS]
    if unknown:
        raise ValueError(f"unknown test(s) {unknown}; known: {', '.join(TESTS)}")


def _check_n_samples(n_samples) -> int:
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer; got {n_samples!r}")
    return int(n_samples)


def p_values(name: str, a, b, alternative, *, n_samples: int = 10_000, seed=0) -> np.ndarray:
    """p-values of test ``name`` for every column of ``a`` and ``b`` at once.

    The batched core of every test here (the one-sample functions call it
    with one column).  ``a`` and ``b`` are (n, m) arrays of per-positive
    values, column j holding one comparison (e.g. one metric, or one
    random subset); for the paired tests row i of both is the same
    positive.  ``alternative`` is ``"greater"`` (a better than b),
    ``"less"`` or ``"two-sided"``, or a tuple of them: then the result is
    (len(alternative), m), every alternative from the same permutation
    draw.  Permutation tests draw one set of
    ``n_samples`` sign flips or splits and apply it to every column (each
    column's test is exact in distribution; the columns share their Monte
    Carlo noise).  A column without variance (all differences 0) gets p = 1.

    Parameters
    ----------
    name : str
        One of :data:`TESTS`.
    a, b : array-like of shape (n_a, m) and (n_b, m)
        Per-positive values of the two methods, one column per comparison.
    alternative : {"greater", "less", "two-sided"} or tuple of them
        The alternative hypothesis; ``"greater"`` is a better than b.
    n_samples : int, default=10_000
        Monte Carlo samples of the permutation tests (10,000 in the paper).
    seed : int or numpy.random.Generator, default=0
        Seeds numpy's ``default_rng``; the same seed gives the same draws.

    Returns
    -------
    ndarray of shape (m,) or (len(alternative), m)
        The p-value of every column (for every alternative of a tuple).

    Examples
    --------
    >>> a = np.linspace(0.5, 0.9, 50); b = a ** 2  # a > b for every positive
    >>> (p_values("paired_t", np.c_[a, b], np.c_[b, a], "greater") < 1e-6).tolist()
    [True, False]
    """
    if name not in TESTS:
        raise ValueError(f"unknown test {name!r}; known: {', '.join(TESTS)}")
    alternatives = (alternative,) if isinstance(alternative, str) else tuple(alternative)
    for alt in alternatives:
        if alt not in ALTERNATIVES[1:]:
            raise ValueError(f"alternative must be one of {ALTERNATIVES[1:]}; got {alt!r}")
    paired = name.startswith("paired")
    a, b = _check_samples(a, b, paired)
    if name.endswith("permutation"):
        rng = np.random.default_rng(seed)
        n_samples = _check_n_samples(n_samples)
        # chunk by chunk, hits counted as they come: memory does not grow with n_samples (the draws are those
        # of paired/unpaired_permutation_samples, in the same order)
        chunks = _paired_chunks(a - b, n_samples, rng) if paired else _unpaired_chunks(a, b, n_samples, rng)
        observed, tol = a.mean(axis=0) - b.mean(axis=0), _tolerance(a, b)
        hits = np.zeros((len(alternatives), *a.shape[1:]), dtype=np.int64)
        for samples in chunks:
            hits += np.array([_permutation_hits(samples, observed, alt, tol) for alt in alternatives])
        p = (1.0 + hits) / (1.0 + n_samples)
    else:
        same = np.all(a == b, axis=0) if paired else np.zeros(a.shape[1], dtype=bool)
        p = np.ones((len(alternatives), a.shape[1]))
        if (~same).any():
            samples = _scipy_samples(name, a[:, ~same], b[:, ~same])  # once for every alternative
            for i, alt in enumerate(alternatives):
                # scipy warns on degenerate samples (e.g. a constant paired difference: "precision loss");
                # their p-values are handled here (non-finite -> 1), so the warning is noise for the caller
                with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    p[i, ~same] = _scipy_p(name, samples, alt)
    p = np.where(np.isfinite(p), p, 1.0)  # a degenerate sample (no variance): no evidence
    return p[0] if isinstance(alternative, str) else p


def _scipy_samples(name: str, x: np.ndarray, y: np.ndarray) -> tuple:
    """What :func:`_scipy_p` gives scipy, prepared once for every alternative: ``(arrays, axis, exact)``.

    The t-tests get ``x`` and ``y`` (n, m) as they are, along axis 0.  The
    rank tests get one comparison per row ((m, n), contiguous: their ties
    are snapped and scipy ranks them along memory, several times faster
    than along the columns of (n, m); ranks and their sums are exact, so
    the p-values are the same) and ``exact``, the exact-or-normal choice
    per comparison, made as scipy makes it for one sample: the signed-rank
    test is exact for at most 50 differences without zeros or ties, the
    rank-sum test for a sample of at most 8 without ties; otherwise the
    normal approximation (with continuity correction).  For 13 or fewer
    differences with ties scipy would run a permutation test; the normal
    approximation is used.
    """
    if name in ("paired_t", "unpaired_t"):
        return (x, y), 0, None
    x, y = np.ascontiguousarray(x.T), np.ascontiguousarray(y.T)
    if name == "paired_wilcoxon":
        d = _paired_differences(x, y)
        return (d,), 1, (d.shape[1] <= 50) & ~(d == 0).any(axis=1) & ~_has_ties(np.abs(d))
    pooled = _snap_rows(np.concatenate([x, y], axis=1))
    small = min(x.shape[1], y.shape[1]) <= 8
    return (pooled[:, : x.shape[1]], pooled[:, x.shape[1] :]), 1, small & ~_has_ties(pooled)


def _scipy_p(name: str, samples: tuple, alternative: str) -> np.ndarray:
    """scipy's p-values, one per comparison of :func:`_scipy_samples`'s ``samples``, the exact-or-normal choice
    made per comparison (scipy's ``method="auto"`` looks at a whole batch at once: one tie anywhere would switch
    every comparison)."""
    arrays, axis, exact = samples
    if name == "paired_t":
        return _sps().ttest_rel(*arrays, alternative=alternative, axis=axis).pvalue
    if name == "unpaired_t":
        return _sps().ttest_ind(*arrays, equal_var=False, alternative=alternative, axis=axis).pvalue
    if name == "paired_wilcoxon":
        run = lambda rows, method: (
            (  # noqa: E731
                _sps().wilcoxon(
                    arrays[0][rows], zero_method="wilcox", alternative=alternative, method=method, axis=axis
                )
            ).pvalue
        )
    else:
        run = lambda rows, method: (
            (  # noqa: E731
                _sps().mannwhitneyu(arrays[0][rows], arrays[1][rows], alternative=alternative, method=method, axis=axis)
            ).pvalue
        )
    p = np.empty(arrays[0].shape[0])
    for method, rows in (("exact", exact), ("asymptotic", ~exact)):
        if rows.any():
            p[rows] = run(rows, method)
    return p

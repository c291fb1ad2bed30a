"""The paper's six significance tests for the difference of a metric between two rankings.

Every metric of :mod:`crocbench.metrics` is an increasing affine transform of
the mean of per-positive values, so comparing two rankings of the same
compounds is comparing two samples of per-positive values
(:func:`crocbench.metrics.per_positive_values`):

``paired_permutation``
    One fair coin per positive decides whether its two values are swapped
    between the methods (paper, section 2.5; novel there).
``unpaired_permutation``
    Both methods' values are pooled and split at random into two sets of the
    original sizes.
``paired_t`` / ``unpaired_t``
    Student's paired t-test and Welch's t-test on the values.
``paired_wilcoxon`` / ``unpaired_wilcoxon``
    Wilcoxon signed-rank test (zero differences dropped) and rank-sum
    (Mann-Whitney U) test; values closer than :data:`RANK_RESOLUTION`
    (relative to themselves) are ties, so that last-bit noise cannot move a rank.

Permutation p-values are ``(1 + #samples at least as extreme) / (1 + n)``.
By default (``alternative="observed"``) every test is one-sided in the
direction of the observed difference, as in the paper; ``"two-sided"``,
``"greater"`` (a better than b) and ``"less"`` are available.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from scipy import stats as _sps

from .metrics import Ranking, parse_metric
from .metrics._panel import MetricCall

TESTS = (
    "paired_permutation",
    "unpaired_permutation",
    "paired_t",
    "unpaired_t",
    "paired_wilcoxon",
    "unpaired_wilcoxon",
)
ALTERNATIVES = ("observed", "two-sided", "greater", "less")
_CHUNK_CELLS = 4_000_000  # random cells drawn per vectorized chunk


class TestResult(NamedTuple):
    """Outcome of one test: the observed mean difference (a - b) and its p-value."""

    __test__ = False  # not a pytest test class

    test: str
    difference: float
    p_value: float
    alternative: str


class Comparison(NamedTuple):
    """Two rankings compared on one metric."""

    metric: str
    value_a: float
    value_b: float
    results: dict

    @property
    def difference(self) -> float:
        return self.value_a - self.value_b


def _check_samples(a, b, paired: bool) -> tuple[np.ndarray, np.ndarray]:
    """Non-empty finite samples: 1-D arrays, or (n, m) arrays with the same m columns."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != b.ndim or a.ndim not in (1, 2) or a.size == 0 or b.size == 0 or a.shape[1:] != b.shape[1:]:
        raise ValueError(f"values must be non-empty 1-D arrays (or 2-D with the same columns); "
                         f"got shapes {a.shape} and {b.shape}")
    if paired and a.shape[0] != b.shape[0]:
        raise ValueError(f"a paired test needs values of the same positives; got {a.shape[0]} and {b.shape[0]}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("values must be finite")
    return a, b


def _prepare(a, b, paired: bool, alternative: str) -> tuple[np.ndarray, np.ndarray, float, str]:
    """Checked samples, the observed mean difference and the resolved alternative."""
    a, b = _check_samples(a, b, paired)
    observed = float(a.mean() - b.mean())
    return a, b, observed, _resolve(alternative, observed)


def _resolve(alternative: str, observed: float) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}; got {alternative!r}")
    if alternative == "observed":
        return "greater" if observed >= 0 else "less"
    return alternative


def check_tests(tests) -> None:
    """Every name in ``tests`` is one of :data:`TESTS` (else a ValueError naming the unknown ones)."""
    unknown = [t for t in tests if t not in TESTS]
    if unknown:
        raise ValueError(f"unknown test(s) {unknown}; known: {', '.join(TESTS)}")


def _check_n_samples(n_samples) -> int:
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer; got {n_samples!r}")
    return int(n_samples)


def _permutation_hits(samples: np.ndarray, observed, alternative: str, tol) -> np.ndarray:
    """Column-wise counts of ``samples`` (rows, m) at least as extreme as ``observed`` (m,); the p-value is
    ``(1 + hits) / (1 + n_samples)``, hits summed over every chunk of samples."""
    if alternative == "greater":
        return np.count_nonzero(samples >= observed - tol, axis=0)
    if alternative == "less":
        return np.count_nonzero(samples <= observed + tol, axis=0)
    return np.count_nonzero(np.abs(samples) >= np.abs(observed) - tol, axis=0)


def _tolerance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # Sampled statistics equal to the observed one up to rounding count as "at least as extreme".
    return 1e-9 * (np.abs(a).mean(axis=0) + np.abs(b).mean(axis=0) + 1e-300)


def paired_permutation_samples(d: np.ndarray, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """Mean of ``s_i * d_i`` with independent fair signs s_i, ``n_samples`` times (vectorized).

    ``d`` is (n,) or (n, m): with m columns the same sign flips are applied
    to every column (one draw serves several metrics of the same positives),
    and the result is (n_samples, m).
    """
    return _collect(_paired_chunks(d, n_samples, rng), n_samples, d.shape[1:])


def _collect(chunks, n_samples: int, columns: tuple) -> np.ndarray:
    out = np.empty((n_samples,) + columns)
    start = 0
    for block in chunks:
        out[start:start + block.shape[0]] = block
        start += block.shape[0]
    return out


def _paired_chunks(d: np.ndarray, n_samples: int, rng: np.random.Generator):
    """:func:`paired_permutation_samples` chunk by chunk (about :data:`_CHUNK_CELLS` random cells each), so
    that a caller counting hits holds one chunk at a time, whatever ``n_samples``."""
    n = d.shape[0]
    total = d.sum(axis=0)
    chunk = max(1, _CHUNK_CELLS // max(n, 1))
    n_bytes = (n + 7) // 8
    for start in range(0, n_samples, chunk):
        rows = min(chunk, n_samples - start)
        raw = np.frombuffer(rng.bytes(rows * n_bytes), dtype=np.uint8).reshape(rows, n_bytes)
        bits = np.unpackbits(raw, axis=1, count=n).astype(d.dtype)
        # sum of s_i d_i with s_i = 2 bit_i - 1
        yield (2.0 * (bits @ d) - total) / n


def unpaired_permutation_samples(a: np.ndarray, b: np.ndarray, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """``mean(first part) - mean(second part)`` of random splits of the pooled values.

    ``a`` and ``b`` are (na,) and (nb,), or (na, m) and (nb, m) with one
    split applied to every column; the result is (n_samples,) or (n_samples, m).

    Each split is uniform over the C(na + nb, na) ways: a fair coin per value
    (one random bit, not a float, per value), then the part that came out too
    large gives up a uniformly random set of the surplus.  The result does not
    depend on which values are which, so it is uniform among splits of the
    right size.  Parts of very different sizes draw each split by sorting
    random keys instead.
    """
    return _collect(_unpaired_chunks(a, b, n_samples, rng), n_samples, a.shape[1:])


def _unpaired_chunks(a: np.ndarray, b: np.ndarray, n_samples: int, rng: np.random.Generator):
    """:func:`unpaired_permutation_samples` chunk by chunk (as :func:`_paired_chunks`)."""
    pooled = np.concatenate([a, b])
    n, na, nb = pooled.shape[0], a.shape[0], b.shape[0]
    total = pooled.sum(axis=0)
    chunk = max(1, _CHUNK_CELLS // n)
    coins = 0.25 <= na / n <= 0.75
    n_bytes = (n + 7) // 8
    for start in range(0, n_samples, chunk):
        rows = min(chunk, n_samples - start)
        if coins:
            raw = np.frombuffer(rng.bytes(rows * n_bytes), dtype=np.uint8).reshape(rows, n_bytes)
            bits = np.unpackbits(raw, axis=1, count=n)
            _resize(bits, na, rng)
            first = bits.astype(pooled.dtype)
        else:
            keys = rng.random((rows, n))
            chosen = np.argpartition(keys, na - 1, axis=1)[:, :na]
            first = np.zeros((rows, n))
            np.put_along_axis(first, chosen, 1.0, axis=1)
        s_a = first @ pooled
        yield s_a / na - (total - s_a) / nb


def _resize(bits: np.ndarray, size: int, rng: np.random.Generator) -> None:
    """Flip a uniformly random set of each row's ``bits`` (0/1, (rows, n), in place) so that exactly ``size``
    are 1: ones to zeros in a row with too many, zeros to ones in a row with too few.

    Vectorized rejection sampling: uniform column draws per row, kept when they land on the kind to flip; a
    row's first distinct kept draws, in draw order, are a uniform sample without replacement.
    """
    n = bits.shape[1]
    surplus = np.count_nonzero(bits, axis=1).astype(np.int64) - size
    rows = np.flatnonzero(surplus)
    while rows.size:
        need, flip = np.abs(surplus[rows]), (surplus[rows] > 0).astype(bits.dtype)
        width = 2 * int(need.max()) + 32
        draws = rng.integers(0, n, size=(rows.size, width))
        kept = bits[rows[:, None], draws] == flip[:, None]
        keys = np.where(kept, np.arange(rows.size)[:, None] * n + draws, -1).ravel()
        distinct, first = np.unique(keys, return_index=True)
        first = np.sort(first[distinct >= 0])  # first occurrences, in draw order, rows in turn
        local = first // width
        rank = np.arange(first.size) - np.searchsorted(local, local)
        take = rank < need[local]
        bits[rows[local[take]], draws.ravel()[first[take]]] = 1 - flip[local[take]]
        got = np.bincount(local[take], minlength=rows.size)
        surplus[rows] -= np.sign(surplus[rows]) * got
        rows = rows[got < need]


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
        hits = np.zeros((len(alternatives), a.shape[1]), dtype=np.int64)
        for samples in chunks:
            hits += np.array([_permutation_hits(samples, observed, alt, tol) for alt in alternatives])
        p = (1.0 + hits) / (1.0 + n_samples)
    else:
        same = np.all(a == b, axis=0) if paired else np.zeros(a.shape[1], dtype=bool)
        p = np.ones((len(alternatives), a.shape[1]))
        if (~same).any():
            x, y = a[:, ~same], b[:, ~same]
            for i, alt in enumerate(alternatives):
                # scipy warns on degenerate samples (e.g. a constant paired difference: "precision loss");
                # their p-values are handled here (non-finite -> 1), so the warning is noise for the caller
                with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    p[i, ~same] = _scipy_p(name, x, y, alt)
    p = np.where(np.isfinite(p), p, 1.0)  # a degenerate sample (no variance): no evidence
    return p[0] if isinstance(alternative, str) else p


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

    Examples
    --------
    >>> snap_ties(np.array([[0.3], [0.1 + 0.2], [0.5], [1e-17], [3e-17]])).ravel().tolist()
    [0.3, 0.3, 0.5, 1e-17, 3e-17]
    """
    v = np.asarray(v, dtype=np.float64)
    scale = np.abs(v) if scale is None else np.asarray(scale, dtype=np.float64)
    order = np.argsort(v, axis=0, kind="stable")
    s, sc = np.take_along_axis(v, order, axis=0), np.take_along_axis(scale, order, axis=0)
    starts = np.ones(s.shape, dtype=bool)
    starts[1:] = (s[1:] - s[:-1]) > resolution * np.maximum(sc[1:], sc[:-1])
    group = np.maximum.accumulate(np.where(starts, np.arange(s.shape[0])[:, None], 0), axis=0)
    out = np.empty_like(v)
    np.put_along_axis(out, order, np.take_along_axis(s, group, axis=0), axis=0)
    return out


def _has_ties(v: np.ndarray) -> np.ndarray:
    """Per column of ``v`` (n, m): whether two values are equal."""
    s = np.sort(v, axis=0)
    return (s[1:] == s[:-1]).any(axis=0)


def _paired_differences(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x - y for a signed-rank test: a difference is only as precise as the two values it comes from, so |d|
    below the resolution of max(|x|, |y|) is 0, and |d|s closer than that are tied."""
    d = x - y
    scale = np.maximum(np.abs(x), np.abs(y))
    magnitude = np.where(np.abs(d) <= RANK_RESOLUTION * scale, 0.0, np.abs(d))
    return np.sign(d) * snap_ties(magnitude, scale=scale)


def _scipy_p(name: str, x: np.ndarray, y: np.ndarray, alternative: str) -> np.ndarray:
    """scipy's p-values column-wise, the exact-or-normal choice made per column.

    scipy's ``method="auto"`` looks at a whole batch at once (one tie
    anywhere switches every column), so the choice is made here, column by
    column, as scipy makes it for one sample: the signed-rank test is exact
    for at most 50 differences without zeros or ties, the rank-sum test for
    a sample of at most 8 without ties; otherwise the normal approximation
    (with continuity correction).  For 13 or fewer differences with ties
    scipy would run a permutation test; the normal approximation is used.
    """
    if name == "paired_t":
        return _sps.ttest_rel(x, y, alternative=alternative, axis=0).pvalue
    if name == "unpaired_t":
        return _sps.ttest_ind(x, y, equal_var=False, alternative=alternative, axis=0).pvalue
    if name == "paired_wilcoxon":
        d = _paired_differences(x, y)
        exact = (d.shape[0] <= 50) & ~(d == 0).any(axis=0) & ~_has_ties(np.abs(d))
        run = lambda cols, method: _sps.wilcoxon(d[:, cols], zero_method="wilcox",  # noqa: E731
                                                 alternative=alternative, method=method, axis=0).pvalue
    else:
        pooled = snap_ties(np.concatenate([x, y]))
        x, y = pooled[:x.shape[0]], pooled[x.shape[0]:]
        small = min(x.shape[0], y.shape[0]) <= 8
        exact = small & ~_has_ties(pooled)
        run = lambda cols, method: _sps.mannwhitneyu(x[:, cols], y[:, cols], alternative=alternative,  # noqa: E731
                                                     method=method, axis=0).pvalue
    p = np.empty(x.shape[1])
    for method, cols in (("exact", exact), ("asymptotic", ~exact)):
        if cols.any():
            p[cols] = run(cols, method)
    return p


def _one(name: str, a, b, alternative: str, **kwargs) -> TestResult:
    a, b, observed, alt = _prepare(a, b, name.startswith("paired"), alternative)
    p = p_values(name, a[:, None], b[:, None], alt, **kwargs)[0]
    return TestResult(name, observed, float(p), alt)


def permutation_test(a, b, *, paired: bool, n_samples: int = 10_000, seed=0, alternative: str = "observed") -> TestResult:
    """Paired or unpaired permutation test of ``mean(a) - mean(b)``.

    Parameters
    ----------
    a, b : array-like
        Per-positive values of the two methods (same positives, same order
        when ``paired``).
    paired : bool
    n_samples : int
        Monte Carlo samples (10,000 in the paper).
    seed : int or numpy Generator
    alternative : {"observed", "two-sided", "greater", "less"}

    Examples
    --------
    >>> a = np.linspace(0.5, 1.0, 50); b = a - 0.1
    >>> permutation_test(a, b, paired=True, n_samples=999).p_value  # every sign flip is smaller
    0.001
    """
    name = f"{'paired' if paired else 'unpaired'}_permutation"
    return _one(name, a, b, alternative, n_samples=_check_n_samples(n_samples), seed=seed)


def t_test(a, b, *, paired: bool, alternative: str = "observed") -> TestResult:
    """Paired (Student) or unpaired (Welch) t-test on per-positive values."""
    return _one(f"{'paired' if paired else 'unpaired'}_t", a, b, alternative)


def run_tests(a, b, tests=TESTS, *, n_samples: int = 10_000, seed=0, alternative: str = "observed") -> dict:
    """Run the named tests on two samples of per-positive values; returns ``{test: TestResult}``."""
    check_tests(tests)
    n_samples = _check_n_samples(n_samples)
    return {name: _one(name, a, b, alternative, n_samples=n_samples, seed=seed) for name in tests}


def compare(
    y_true,
    score_a,
    score_b,
    metric="croc_auc:alpha=80",
    *,
    tests=TESTS,
    ties: str = "expected",
    n_samples: int = 10_000,
    seed=0,
    alternative: str = "observed",
) -> Comparison:
    """Compare two rankings of the same compounds on one metric with the six tests.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels shared by both rankings.
    score_a, score_b : array-like of shape (n,)
        The two methods' scores for the same compounds, in the same order.
    metric : str or MetricCall
        ``"name"``, ``"name:key=value,..."`` or a panel key (see
        :func:`crocbench.metrics.parse_metric`).

    Examples
    --------
    >>> y = np.r_[np.ones(30), np.zeros(300)]
    >>> rng = np.random.default_rng(1)
    >>> good = y * 2 + rng.normal(size=330); bad = y * 0.5 + rng.normal(size=330)
    >>> c = compare(y, good, bad, "roc_auc", tests=["paired_permutation"], n_samples=999)
    >>> c.value_a > c.value_b, c.results["paired_permutation"].p_value < 0.01
    (True, True)
    """
    return compare_many(y_true, score_a, score_b, [metric], tests=tests, ties=ties, n_samples=n_samples, seed=seed,
                        alternative=alternative)[0]


def compare_many(y_true, score_a, score_b, metrics, *, tests=TESTS, ties: str = "expected", n_samples: int = 10_000,
                 seed=0, alternative: str = "observed") -> list[Comparison]:
    """:func:`compare` on several metrics at once: one permutation draw per test serves every metric.

    Each metric's test is exact in distribution, as with :func:`compare` on
    its own and the same seed; the metrics share their Monte Carlo noise
    (:func:`p_values`), and the draws cost as much as for one metric.

    Returns
    -------
    list of Comparison, one per metric, in order.

    Examples
    --------
    >>> y = np.r_[np.ones(30), np.zeros(300)]
    >>> rng = np.random.default_rng(1)
    >>> good = y * 2 + rng.normal(size=330); bad = y * 0.5 + rng.normal(size=330)
    >>> [(c.metric, c.value_a > c.value_b) for c in compare_many(y, good, bad, ["roc_auc", "croc_exp_80"], n_samples=99)]
    [('roc', True), ('croc_exp_80', True)]
    """
    check_tests(tests)
    calls = [m if isinstance(m, MetricCall) else parse_metric(m) for m in metrics]
    ra, rb = Ranking(y_true, score_a), Ranking(y_true, score_b)
    va = np.column_stack([c.per_positive(ra, ties) for c in calls])
    vb = np.column_stack([c.per_positive(rb, ties) for c in calls])
    observed = va.mean(axis=0) - vb.mean(axis=0)
    alternatives = [_resolve(alternative, float(o)) for o in observed]
    needed = tuple(dict.fromkeys(alternatives))
    n_samples = _check_n_samples(n_samples)
    results = [{} for _ in calls]
    for name in tests:
        kwargs = {"n_samples": n_samples, "seed": seed} if name.endswith("permutation") else {}
        p = p_values(name, va, vb, needed, **kwargs)
        for j, alt in enumerate(alternatives):
            results[j][name] = TestResult(name, float(observed[j]), float(p[needed.index(alt), j]), alt)
    out = []
    for j, call in enumerate(calls):
        d = call.definition(ra.counts)
        out.append(Comparison(call.key, float(d.scale * va[:, j].mean() + d.offset),
                              float(d.scale * vb[:, j].mean() + d.offset), results[j]))
    return out


# --- Many datasets: which ranker wins across them (Demsar 2006) ------------------------------------


class Friedman(NamedTuple):
    """Friedman's test of k rankers over N datasets (Demsar 2006, section 3.2.2).

    ``statistic`` is chi^2_F (with the tie correction scipy applies), ``p_value``
    its chi-square p-value (k - 1 df); ``iman_davenport`` and ``iman_davenport_p``
    are the F statistic Demsar recommends, F_F = (N - 1) chi^2_F / (N (k - 1) - chi^2_F),
    and its p-value (k - 1, (k - 1)(N - 1) df).
    """

    statistic: float
    p_value: float
    iman_davenport: float
    iman_davenport_p: float
    mean_ranks: np.ndarray


def _scores_table(values) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if v.ndim != 2 or v.shape[0] < 2 or v.shape[1] < 2:
        raise ValueError(f"values must be a (datasets, rankers) table with at least 2 of each; got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError("values must be finite (a metric undefined on a dataset cannot be ranked)")
    return v


def dataset_ranks(values, higher_is_better: bool = True) -> np.ndarray:
    """Each ranker's rank on each dataset: 1 = best, tied values share their mean rank.

    Parameters
    ----------
    values : array-like of shape (n_datasets, n_rankers)
        A metric per dataset (rows) and ranker (columns).
    higher_is_better : bool

    Returns
    -------
    ndarray of shape (n_datasets, n_rankers)

    Examples
    --------
    >>> dataset_ranks([[0.9, 0.8, 0.8], [0.5, 0.7, 0.6]]).tolist()
    [[1.0, 2.5, 2.5], [3.0, 1.0, 2.0]]
    """
    v = _scores_table(values)
    return _sps.rankdata(-v if higher_is_better else v, axis=1)


def friedman_test(values, higher_is_better: bool = True) -> Friedman:
    """Friedman's test that k rankers perform alike over N datasets.

    chi^2_F = 12 / (N k (k + 1)) sum_j R_j^2 - 3 N (k + 1), with R_j ranker j's
    rank sum, divided by 1 - sum(t^3 - t) / (N (k^3 - k)) over groups of t tied
    values within a dataset (as :func:`scipy.stats.friedmanchisquare`).

    Parameters
    ----------
    values : array-like of shape (n_datasets, n_rankers)

    Returns
    -------
    Friedman

    Examples
    --------
    >>> f = friedman_test([[3, 2, 1], [3, 2, 1], [3, 1, 2]])
    >>> round(f.statistic, 4), f.mean_ranks.tolist()
    (4.6667, [1.0, 2.3333333333333335, 2.6666666666666665])
    """
    ranks = dataset_ranks(values, higher_is_better)
    n, k = ranks.shape
    chi2 = 12.0 / (n * k * (k + 1)) * float((ranks.sum(axis=0) ** 2).sum()) - 3.0 * n * (k + 1)
    ties = 0.0
    for row in ranks:
        _, t = np.unique(row, return_counts=True)
        ties += float((t ** 3 - t).sum())
    correction = 1.0 - ties / (n * (k ** 3 - k))
    chi2 = chi2 / correction if correction > 0 else 0.0  # every dataset ties every ranker: no evidence at all
    p = float(_sps.chi2.sf(chi2, k - 1))
    denominator = n * (k - 1) - chi2
    f = (n - 1) * chi2 / denominator if denominator > 0 else np.inf
    f_p = float(_sps.f.sf(f, k - 1, (k - 1) * (n - 1))) if np.isfinite(f) and n > 1 else 0.0
    return Friedman(float(chi2), p, float(f), f_p, ranks.mean(axis=0))


def nemenyi_critical_difference(k: int, n_datasets: int, alpha: float = 0.05) -> float:
    """The Nemenyi test's critical difference of mean ranks (Demsar 2006, section 3.2.2).

    CD = q_alpha sqrt(k (k + 1) / (6 N)), with q_alpha the studentized range
    statistic's upper alpha quantile for k groups and infinite degrees of
    freedom, divided by sqrt(2) (Demsar's table 5a: 1.960, 2.343, 2.569, ...
    for k = 2, 3, 4 at alpha = 0.05).  Two rankers whose mean ranks differ by at
    least CD perform differently.

    Examples
    --------
    >>> round(nemenyi_critical_difference(5, 3), 3)  # q_0.05 = 2.728
    3.522
    """
    if int(k) != k or k < 2 or int(n_datasets) != n_datasets or n_datasets < 1:
        raise ValueError(f"need k >= 2 rankers and N >= 1 datasets; got k={k}, N={n_datasets}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha}")
    q = _sps.studentized_range.ppf(1 - alpha, int(k), np.inf) / np.sqrt(2)
    return float(q * np.sqrt(k * (k + 1) / (6.0 * n_datasets)))


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (strong control of the family-wise error).

    The i-th smallest p-value is multiplied by (m - i + 1), made monotone
    non-decreasing in that order, and capped at 1; reject where the adjusted
    p-value is at most alpha.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or ((p < 0) | (p > 1) | np.isnan(p)).any():
        raise ValueError("p_values must be a 1-d array of values in [0, 1]")
    order = np.argsort(p, kind="stable")
    m = p.size
    adjusted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    out = np.empty_like(p)
    out[order] = adjusted
    return out


def pairwise_wilcoxon(values, names) -> list[dict]:
    """Two-sided paired Wilcoxon signed-rank tests across datasets for every pair of rankers, Holm-adjusted.

    Parameters
    ----------
    values : array-like of shape (n_datasets, n_rankers)
    names : sequence of str
        The rankers, in column order.

    Returns
    -------
    list of dict
        One per pair (a before b in ``names`` order): a, b, wins (datasets where
        a is higher), losses, ties, mean_difference (a - b), p_value (the
        signed-rank test, zero differences dropped, exact by enumerating the
        signs when there are at most 13 datasets even with tied differences, as
        :func:`scipy.stats.wilcoxon` does) and p_holm (adjusted over all pairs).
    """
    v = _scores_table(values)
    if len(names) != v.shape[1]:
        raise ValueError(f"{len(names)} names for {v.shape[1]} rankers")
    rows = []
    for i in range(v.shape[1]):
        for j in range(i + 1, v.shape[1]):
            d = _paired_differences(v[:, [i]], v[:, [j]])[:, 0]
            nonzero = d != 0
            p = float(_sps.wilcoxon(d, zero_method="wilcox", method="auto").pvalue) if nonzero.any() else 1.0
            rows.append({"a": names[i], "b": names[j], "wins": int((d > 0).sum()), "losses": int((d < 0).sum()),
                         "ties": int((~nonzero).sum()), "mean_difference": float(d.mean()), "p_value": float(p)})
    for row, adjusted in zip(rows, holm([r["p_value"] for r in rows]) if rows else []):
        row["p_holm"] = float(adjusted)
    return rows

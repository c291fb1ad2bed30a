"""Two rankings of the same compounds compared on one metric, or several, with the paper's six tests.

Every metric of :mod:`crocbench.metrics` is an increasing affine map of the
mean over the positives of a per-positive value (a function of each
positive's rank or FPR), so comparing two rankings is comparing two samples
of per-positive values (:func:`crocbench.metrics.per_positive_values`).
:func:`compare` and :func:`compare_many` compute them from labels and
scores; :func:`permutation_test`, :func:`t_test` and :func:`run_tests` take
them directly.  All of them end in :func:`crocbench.stats.p_values`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..metrics import Ranking, parse_metric
from ..metrics._panel import MetricCall
from ._pvalues import ALTERNATIVES, TESTS, _check_n_samples, _check_samples, check_tests, p_values


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


def _one(name: str, a, b, alternative: str, **kwargs) -> TestResult:
    a, b, observed, alt = _prepare(a, b, name.startswith("paired"), alternative)
    p = p_values(name, a[:, None], b[:, None], alt, **kwargs)[0]
    return TestResult(name, observed, float(p), alt)


def permutation_test(
    a, b, *, paired: bool, n_samples: int = 10_000, seed=0, alternative: str = "observed"
) -> TestResult:
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
    return compare_many(
        y_true,
        score_a,
        score_b,
        [metric],
        tests=tests,
        ties=ties,
        n_samples=n_samples,
        seed=seed,
        alternative=alternative,
    )[0]


def compare_many(
    y_true,
    score_a,
    score_b,
    metrics,
    *,
    tests=TESTS,
    ties: str = "expected",
    n_samples: int = 10_000,
    seed=0,
    alternative: str = "observed",
) -> list[Comparison]:
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
        out.append(
            Comparison(
                call.key,
                float(d.scale * va[:, j].mean() + d.offset),
                float(d.scale * vb[:, j].mean() + d.offset),
                results[j],
            )
        )
    return out

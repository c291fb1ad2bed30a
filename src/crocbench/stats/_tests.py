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
from ..metrics._sets import MetricCall
from ._pvalues import ALTERNATIVES, TESTS, _check_n_samples, _check_samples, check_tests, p_values


class TestResult(NamedTuple):
    """Outcome of one test: the observed mean difference (a - b) and its p-value.

    Parameters
    ----------
    test : str
        The test's name, one of :data:`TESTS`.
    difference : float
        The observed ``mean(a) - mean(b)``.
    p_value : float
        The p-value.
    alternative : str
        The alternative tested (``"observed"`` resolved to ``"greater"`` or ``"less"``).
    """

    __test__ = False  # not a pytest test class

    test: str
    difference: float
    p_value: float
    alternative: str


class Comparison(NamedTuple):
    """Two rankings compared on one metric.

    Parameters
    ----------
    metric : str
        The metric's key.
    value_a, value_b : float
        The metric for ranking a and ranking b.
    results : dict
        ``{test name: TestResult}``.
    """

    metric: str
    value_a: float
    value_b: float
    results: dict

    @property
    def difference(self) -> float:
        """``value_a - value_b``."""
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
    a, b : array-like of shape (n_a,) and (n_b,)
        Per-positive values of the two methods (same positives, same order for the paired tests).
    paired : bool
        Paired test (one fair coin per positive swaps its two values) or unpaired (random splits of the
        pooled values).
    n_samples : int, default=10_000
        Monte Carlo samples of the permutation tests (10,000 in the paper).
    seed : int or numpy.random.Generator, default=0
        Seeds numpy's ``default_rng``; the same seed gives the same draws.
    alternative : {"observed", "two-sided", "greater", "less"}, default="observed"
        The alternative hypothesis: ``"greater"`` is a better than b; ``"observed"`` is one-sided in the
        direction of the observed difference, as in the paper.

    Returns
    -------
    TestResult
        The observed difference and the permutation p-value ``(1 + #at least as extreme) / (1 + n_samples)``.

    Examples
    --------
    >>> a = np.linspace(0.5, 1.0, 50); b = a - 0.1
    >>> permutation_test(a, b, paired=True, n_samples=999).p_value  # every sign flip is smaller
    0.001
    """
    name = f"{'paired' if paired else 'unpaired'}_permutation"
    return _one(name, a, b, alternative, n_samples=_check_n_samples(n_samples), seed=seed)


def t_test(a, b, *, paired: bool, alternative: str = "observed") -> TestResult:
    """Paired (Student) or unpaired (Welch) t-test on per-positive values.

    Parameters
    ----------
    a, b : array-like of shape (n_a,) and (n_b,)
        Per-positive values of the two methods (same positives, same order for the paired tests).
    paired : bool
        Student's paired t-test, or Welch's unpaired t-test.
    alternative : {"observed", "two-sided", "greater", "less"}, default="observed"
        The alternative hypothesis: ``"greater"`` is a better than b; ``"observed"`` is one-sided in the
        direction of the observed difference, as in the paper.

    Returns
    -------
    TestResult
        The observed difference and the t-test's p-value.

    Examples
    --------
    >>> a = np.linspace(0.5, 1.0, 50); b = a - 0.1 + np.linspace(-0.01, 0.01, 50)
    >>> t_test(a, b, paired=True).p_value < 1e-6
    True
    """
    return _one(f"{'paired' if paired else 'unpaired'}_t", a, b, alternative)


def run_tests(a, b, tests=TESTS, *, n_samples: int = 10_000, seed=0, alternative: str = "observed") -> dict:
    """Run the named tests on two samples of per-positive values; returns ``{test: TestResult}``.

    Parameters
    ----------
    a, b : array-like of shape (n_a,) and (n_b,)
        Per-positive values of the two methods (same positives, same order for the paired tests).
    tests : sequence of str, default=TESTS
        Names from :data:`TESTS`.
    n_samples : int, default=10_000
        Monte Carlo samples of the permutation tests (10,000 in the paper).
    seed : int or numpy.random.Generator, default=0
        Seeds numpy's ``default_rng``; the same seed gives the same draws.
    alternative : {"observed", "two-sided", "greater", "less"}, default="observed"
        The alternative hypothesis: ``"greater"`` is a better than b; ``"observed"`` is one-sided in the
        direction of the observed difference, as in the paper.

    Returns
    -------
    dict
        ``{test name: TestResult}``, in the order of ``tests``.
    """
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
    y_true : array-like of shape (n_samples,)
        Binary labels shared by both rankings.
    score_a, score_b : array-like of shape (n_samples,)
        The two methods' scores for the same compounds, in the same order.
    metric : str or MetricCall, default="croc_auc:alpha=80"
        ``"name"``, ``"name:key=value,..."`` or a named metric (see :func:`crocbench.metrics.parse_metric`).
    tests : sequence of str, default=TESTS
        Names from :data:`TESTS`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved (see :mod:`crocbench.metrics`).
    n_samples : int, default=10_000
        Monte Carlo samples of the permutation tests (10,000 in the paper).
    seed : int or numpy.random.Generator, default=0
        Seeds numpy's ``default_rng``; the same seed gives the same draws.
    alternative : {"observed", "two-sided", "greater", "less"}, default="observed"
        The alternative hypothesis: ``"greater"`` is a better than b; ``"observed"`` is one-sided in the
        direction of the observed difference, as in the paper.

    Returns
    -------
    Comparison
        The metric's two values and every test's result.

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

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels shared by both rankings.
    score_a, score_b : array-like of shape (n_samples,)
        The two methods' scores for the same compounds, in the same order.
    metrics : sequence of str or MetricCall
        The metrics, each as :func:`compare` takes it.
    tests : sequence of str, default=TESTS
        Names from :data:`TESTS`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved (see :mod:`crocbench.metrics`).
    n_samples : int, default=10_000
        Monte Carlo samples of the permutation tests (10,000 in the paper).
    seed : int or numpy.random.Generator, default=0
        Seeds numpy's ``default_rng``; the same seed gives the same draws.
    alternative : {"observed", "two-sided", "greater", "less"}, default="observed"
        The alternative hypothesis: ``"greater"`` is a better than b; ``"observed"`` is one-sided in the
        direction of the observed difference, as in the paper.

    Returns
    -------
    list of Comparison
        One per metric, in order.

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

"""Statistical power of every metric and test, measured on real predictions by subsampling.

The paper claims that AUC[CROC(exp)] and the paired permutation test have
more power than the alternatives, but shows it on one dataset with one table
of p-values.  Here it is measured: for a subset size (a fraction of the
compounds, stratified by label) draw R random subsets, re-rank each
classifier's pooled out-of-fold scores within the subset, and run the six
tests on every metric for each pair of classifiers.  The power of a (metric,
test) at that size is the share of subsets where the test rejects at
``p < level`` in the direction of the full-data difference; the share
rejecting in the opposite direction is reported too.  Simulated score
distributions would be circular (the paper's point): the subsets keep the
real classifiers' joint behaviour on the same compounds.

Both directions are one-sided tests at ``level``, so under no difference
each direction rejects about ``level`` of the time.  Counts in the panel
(actives in the top k, ROC_n) are scaled with the subset so that each metric
looks at the same early fraction of the list.  Permutation tests use fewer
samples than the paper's 10,000 (1,000 by default): the p-value's Monte
Carlo error at 0.05 is then about 0.007.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from ._parallel import map_processes
from .metrics import Ranking
from .metrics._sets import MetricCall
from .stats import TESTS, check_tests, p_values

FRACTIONS = (0.02, 0.05, 0.10, 0.20, 0.50)
#: Values per call of a column-wise test (t, Wilcoxon) over many subsets: bounds its working memory (a few copies
#: of this many float64s; all 200 subsets in one call took 12.7 GB in two processes at N = 250,000).
_CELLS = 20_000_000
PAIRS = (("irv", "svm"), ("irv", "knn"), ("knn", "svm"), ("svm", "maxsim"))


class Subsets(NamedTuple):
    """Row indices of ``n_subsets`` stratified random subsets (one row each) and their class sizes."""

    rows: np.ndarray
    n_pos: int
    n_neg: int


def subset_counts(y, fraction: float) -> tuple[int, int]:
    """Positives and negatives in a stratified subset of ``fraction``; ValueError if too few to test."""
    y = np.asarray(y, dtype=bool)
    if not 0 < fraction <= 1:
        raise ValueError(f"subset fractions must be in (0, 1]; got {fraction!r}")
    n_pos, n_neg = round(fraction * int(y.sum())), round(fraction * int((~y).sum()))
    if n_pos < 2 or n_neg < 1:
        raise ValueError(
            f"a {fraction:g} subset of {int(y.sum())} positives and {int((~y).sum())} negatives holds "
            f"{n_pos} positive(s) and {n_neg} negative(s): too few to test (need 2 and 1)"
        )
    return n_pos, n_neg


def feasible_fractions(y, fractions) -> tuple[list, list]:
    """The fractions whose subsets can be tested, and a note for each one left out."""
    kept, notes = [], []
    for f in fractions:
        try:
            subset_counts(y, f)
            kept.append(f)
        except ValueError as exc:
            notes.append(f"subset size {f:g} left out: {exc}")
    return kept, notes


def stratified_subsets(y, fraction: float, n_subsets: int, rng: np.random.Generator) -> Subsets:
    """``n_subsets`` random subsets holding ``round(fraction * n)`` of each class, without replacement.

    Positives come first in each row, so row ``r`` of every model lists the
    same compounds in the same order.
    """
    y = np.asarray(y, dtype=bool)
    n_pos, n_neg = subset_counts(y, fraction)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    rows = np.empty((n_subsets, n_pos + n_neg), dtype=np.int64)
    for r in range(n_subsets):
        rows[r, :n_pos] = rng.choice(pos, n_pos, replace=False)
        rows[r, n_pos:] = rng.choice(neg, n_neg, replace=False)
    return Subsets(rows, n_pos, n_neg)


def scaled_calls(calls, fraction: float) -> list[MetricCall]:
    """The panel for a subset: the count parameters (``k`` of top-k hits, ``n`` of ROC_n) times ``fraction``."""
    out = []
    for c in calls:
        params = dict(c.params)
        for name in ("k", "n"):
            if name in params:
                params[name] = max(1, round(params[name] * fraction))
        out.append(c._replace(params=params))
    return out


def _values(y_sub: np.ndarray, s_sub: np.ndarray, calls) -> np.ndarray:
    """(n_pos, n_metrics) per-positive values of one ranked subset (positives in input order)."""
    ranking = Ranking(y_sub, s_sub)
    return np.column_stack([c.per_positive(ranking) for c in calls])


def power_study(
    y,
    scores: dict,
    calls,
    *,
    pairs=PAIRS,
    fractions=FRACTIONS,
    n_subsets: int = 200,
    n_samples: int = 1000,
    tests=TESTS,
    level: float = 0.05,
    seed: int = 0,
    n_jobs: int = 1,
    progress=None,
) -> pd.DataFrame:
    """Power of each (pair, metric, test) at each subset size; a long table.

    Parameters
    ----------
    y : array-like of shape (n,)
        Binary labels of the pooled compounds.
    scores : dict
        Model name -> scores of the same compounds (e.g. pooled out-of-fold scores).
    calls : list of MetricCall
        The metrics (e.g. :func:`crocbench.metrics.paper_metrics`).
    pairs : sequence of (model a, model b)
    fractions : sequence of float
        Subset sizes as fractions of each class.
    n_subsets, n_samples : int
        Subsets per size; permutation samples per test.
    level : float
        Rejection level of each one-sided test.
    n_jobs : int
        Subset sizes studied at a time, in separate processes (largest first;
        one BLAS thread each).  Each size draws from its own seed, so the table
        is the same for any ``n_jobs``.
    progress : writable stream, optional
        Receives a line per subset size.

    Returns
    -------
    DataFrame
        One row per (pair, metric, test, fraction): ``a``, ``b``, ``metric``,
        ``label``, ``test``, ``fraction``, ``size``, ``positives``,
        ``full_difference`` (a - b on all compounds), ``power`` (share of
        subsets rejecting in the full-data direction) and ``wrong``
        (share rejecting in the other direction).
    """
    y = np.asarray(y, dtype=bool)
    missing = sorted({m for pair in pairs for m in pair} - set(scores))
    if missing:
        raise ValueError(f"no scores for model(s) {missing}; have {sorted(scores)}")
    models = sorted({m for pair in pairs for m in pair})
    s = {m: np.asarray(scores[m], dtype=np.float64) for m in models}
    for m in models:
        if s[m].shape != y.shape:
            raise ValueError(f"scores of {m!r} have shape {s[m].shape}; labels {y.shape}")
    check_tests(tests)
    calls, pairs = list(calls), [tuple(p) for p in pairs]
    full = {m: Ranking(y, s[m]) for m in models}
    full_diff = np.array([[c.value(full[a]) - c.value(full[b]) for c in calls] for a, b in pairs])
    seeds = np.random.SeedSequence(seed).spawn(len(fractions))
    common = (y, s, calls, pairs, full_diff, n_subsets, n_samples, tuple(tests), level)
    # with n_jobs processes, each size's subsets in parts of at most a (2 n_jobs)-th of the work (subsets x size),
    # so that the processes share out the largest size too; every part draws the size's subsets and test seeds as
    # the whole does and keeps its slice, so the counts (and the table) are the same for any split
    share = sum(fractions) / (2 * n_jobs)
    parts = [min(n_subsets, math.ceil(f / share - 1e-9)) if n_jobs > 1 else 1 for f in fractions]
    owner = [i for i in range(len(fractions)) for _ in range(parts[i])]  # each task's size
    tasks = [
        (fractions[i], seeds[i], n_subsets * p // parts[i], n_subsets * (p + 1) // parts[i], *common)
        for i in range(len(fractions))
        for p in range(parts[i])
    ]
    left = list(parts)

    def done(t, result):
        left[owner[t]] -= 1
        if progress is not None and left[owner[t]] == 0:
            print(
                f"power: subsets of {fractions[owner[t]]:g} ({result[1]} positives, {result[2]} negatives) done",
                file=progress,
                flush=True,
            )

    results = map_processes(_fraction_task, tasks, n_jobs, first=lambda task: -task[0] * (task[3] - task[2]), done=done)
    rows = []
    for i, fraction in enumerate(fractions):
        mine = [r for t, r in enumerate(results) if owner[t] == i]
        n_pos, n_neg = mine[0][1], mine[0][2]
        counts = {test: sum(r[0][test] for r in mine) for test in tests}  # (2, pairs x metrics) rejections
        for test in tests:
            power = (counts[test][0] / n_subsets).reshape(len(pairs), len(calls))
            wrong = (counts[test][1] / n_subsets).reshape(len(pairs), len(calls))
            for p_i, (a, b) in enumerate(pairs):
                for c_i, call in enumerate(calls):
                    rows.append(
                        {
                            "a": a,
                            "b": b,
                            "metric": call.key,
                            "label": call.label,
                            "test": test,
                            "fraction": fraction,
                            "size": n_pos + n_neg,
                            "positives": n_pos,
                            "full_difference": full_diff[p_i, c_i],
                            "power": power[p_i, c_i],
                            "wrong": wrong[p_i, c_i],
                        }
                    )
    return pd.DataFrame(rows)


def _fraction_task(task: tuple) -> tuple:
    """:func:`_fraction_rows` of one packed task (what :func:`~crocbench._parallel.map_processes` passes)."""
    return _fraction_rows(*task)


def _fraction_rows(fraction, seed, lo, hi, y, s, calls, pairs, full_diff, n_subsets, n_samples, tests, level) -> tuple:
    """Subsets ``lo:hi`` of one subset size of :func:`power_study`: ``({test: (2, pairs x metrics) rejection
    counts in the full-data direction and against it}, positives, negatives)``.  The size's subsets and each
    permutation test's seeds are drawn whole, as for ``0:n_subsets``, and sliced."""
    sign = np.where(full_diff >= 0, 1, -1)  # (pairs, metrics)
    rng = np.random.default_rng(seed)
    sub = stratified_subsets(y, fraction, n_subsets, rng)
    sub_calls = scaled_calls(calls, fraction)
    y_sub = np.zeros(sub.rows.shape[1], dtype=bool)
    y_sub[: sub.n_pos] = True
    mine = sub.rows[lo:hi]
    # values[m]: (subsets, n_pos, n_metrics)
    values = {m: np.stack([_values(y_sub, s[m][r], sub_calls) for r in mine]) for m in s}
    # oriented so that "greater" is the full-data direction: better[r] is (n_pos, pairs * metrics)
    better = np.concatenate([np.where(sign[p] > 0, values[a], values[b]) for p, (a, b) in enumerate(pairs)], axis=2)
    worse = np.concatenate([np.where(sign[p] > 0, values[b], values[a]) for p, (a, b) in enumerate(pairs)], axis=2)
    width, n = better.shape[2], mine.shape[0]
    counts = {}
    for test in tests:
        if test.endswith("permutation"):  # a fresh draw per subset, shared by its pairs and metrics
            test_seeds = rng.integers(0, 2**63, size=n_subsets)[lo:hi]
            p = np.stack(
                [
                    p_values(
                        test, better[r], worse[r], ("greater", "less"), n_samples=n_samples, seed=int(test_seeds[r])
                    )
                    for r in range(n)
                ],
                axis=1,
            )
        else:  # column-wise tests: many subsets per call, columns (subset, pair, metric), at most _CELLS values
            step = max(1, _CELLS // (sub.n_pos * width))
            flat = lambda v: v.transpose(1, 0, 2).reshape(sub.n_pos, -1)  # noqa: E731
            p = np.concatenate(
                [
                    p_values(test, flat(better[i : i + step]), flat(worse[i : i + step]), ("greater", "less")).reshape(
                        2, -1, width
                    )
                    for i in range(0, n, step)
                ],
                axis=1,
            )
        counts[test] = (p < level).sum(axis=1)  # (2, width): rejections in the full-data direction, against it
    return counts, sub.n_pos, sub.n_neg

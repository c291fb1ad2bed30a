"""The bootstrap intervals' coverage on simulated screens: how often each metric's interval holds its population value.

A screen is ``n_pos`` positives N(shift, 1) and ``n_neg`` negatives N(0, 1) (binormal); a metric's population value
is the metric on a screen :data:`POPULATION_FACTOR` times larger laid on the two distributions' quantiles (ranks
and counts put on the screen's scale). :func:`coverage` draws screens and counts the intervals
(:func:`crocbench.stats.bootstrap`) that hold it. Run by ``benchmarks/studies/bootstrap.py`` and by the statistics
tests (``pytest -m statistics``).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm

from .._parallel import map_processes
from ..metrics import Counts, MetricCall, Ranking, paper_metrics
from ._bootstrap import bootstrap

N_POS, N_NEG, SHIFT = 200, 5000, 1.5
#: How much finer the population's quantile grid is than a simulated screen.
POPULATION_FACTOR = 100


def simulated_screen(rng, n_pos: int = N_POS, n_neg: int = N_NEG, shift: float = SHIFT):
    """Labels and binormal scores: ``n_pos`` positives N(shift, 1) then ``n_neg`` negatives N(0, 1)."""
    y = np.r_[np.ones(n_pos, dtype=np.int8), np.zeros(n_neg, dtype=np.int8)]
    return y, rng.normal(size=n_pos + n_neg) + shift * y


def coverage_metrics(n: int) -> list[MetricCall]:
    """Table 1's metrics for a screen of n compounds, actives counted in its top 1%."""
    return paper_metrics(top_k=0.01, n=n)


def population_values(calls, n_pos: int = N_POS, n_neg: int = N_NEG, shift: float = SHIFT) -> np.ndarray:
    """Each metric's population value for screens of ``n_pos`` positives and ``n_neg`` negatives.

    The two distributions are laid on a quantile grid ``POPULATION_FACTOR`` times finer than the screen; each grid
    positive's FPR (or share of the list above it) is put on the screen's scale (j = FPR n_neg, r = share N), and
    the metric's own definition for the screen's counts averages its per-positive function over them.
    """
    f = POPULATION_FACTOR
    big_pos, big_neg = f * n_pos, f * n_neg
    pos = shift + norm.ppf((np.arange(big_pos) + 0.5) / big_pos)
    neg = norm.ppf((np.arange(big_neg) + 0.5) / big_neg)
    grid = Ranking(np.r_[np.ones(big_pos), np.zeros(big_neg)], np.r_[pos, neg])
    counts = Counts(n_pos + n_neg, n_pos, n_neg)
    out = []
    for c in calls:
        d = c.definition(counts)
        per_positive = grid.fpr_values if d.kind == "fpr" else grid.rank_values
        out.append(d.scale * per_positive(lambda x, h=d.h: h(x / f)).mean() + d.offset)
    return np.array(out)


def coverage(
    replicates: int,
    resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    n_pos: int = N_POS,
    n_neg: int = N_NEG,
    shift: float = SHIFT,
    n_jobs: int = 1,
):
    """``(calls, covered share per call, mean interval width per call)`` over ``replicates`` simulated screens.

    The screens are drawn in order from one generator (``seed``) and screen r's resamples are seeded by r, so
    the result is the same for any ``n_jobs`` (worker processes, each bootstrapping a share of the screens;
    the widths are summed in screen order).
    """
    calls = coverage_metrics(n_pos + n_neg)
    truth = population_values(calls, n_pos, n_neg, shift)
    rng = np.random.default_rng(seed)
    screens = [simulated_screen(rng, n_pos, n_neg, shift) for _ in range(replicates)]
    y, scores = screens[0][0], np.stack([s for _, s in screens])  # every screen has the same labels
    parts = max(1, min(replicates, 4 * n_jobs)) if n_jobs > 1 else 1  # a few parts a process: they even out
    bounds = np.linspace(0, replicates, parts + 1).astype(int)
    tasks = [(lo, y, scores[lo:hi], calls, truth, resamples, level) for lo, hi in zip(bounds, bounds[1:])]
    results = map_processes(_coverage_part, tasks, n_jobs)
    hits = np.concatenate([h for h, _ in results]).sum(axis=0)
    widths = np.zeros(len(calls))
    for w in np.concatenate([w for _, w in results]):  # in screen order, as one process sums them
        widths += w
    return calls, hits / replicates, widths / replicates


def _coverage_part(task) -> tuple:
    """Screens ``lo, lo + 1, ...`` of :func:`coverage` (their labels and scores given): per screen, which intervals hold the
    population value and their widths."""
    lo, y, scores, calls, truth, resamples, level = task
    hits = np.zeros((len(scores), len(calls)), dtype=np.int64)
    widths = np.zeros((len(scores), len(calls)))
    for i, s in enumerate(scores):
        intervals = bootstrap(y, s, calls, n_resamples=resamples, level=level, seed=int(lo + i))
        low = np.array([iv.low for iv in intervals])
        high = np.array([iv.high for iv in intervals])
        hits[i] = (low <= truth) & (truth <= high)
        widths[i] = high - low
    return hits, widths

"""The bootstrap intervals (crocbench.stats.bootstrap): their cost at 1,000,000 scores, and their coverage.

    python benchmarks/bootstrap.py [--replicates 1000] [--resamples 1000] [--positives 200] [--negatives 5000]

1. Cost: every metric of table 1 with its interval (1,000 resamples) on one list of 1,000,000 scores (1% positives,
   binormal), wall time and peak RSS; beside it the time to compute the values alone.
2. Coverage: screens of 200 positives and 5,000 negatives drawn from a binormal model (negatives N(0, 1), positives
   N(1.5, 1)); each metric's 95% interval is checked against the metric's population value, the metric on a
   100-times larger "screen" laid on the two distributions' quantiles (ranks and counts of the panel scaled with
   it).  Prints, per metric, the share of replicates whose interval holds the population value.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import measure, print_result, step_args  # noqa: E402

from crocbench.metrics import Counts, MetricCall, Ranking, paper_panel  # noqa: E402
from crocbench.stats import bootstrap  # noqa: E402

N_POS, N_NEG, SHIFT = 200, 5000, 1.5
#: How much finer the population's quantile grid is than a simulated screen.
POPULATION_FACTOR = 100


def simulated_screen(rng, n_pos: int = N_POS, n_neg: int = N_NEG, shift: float = SHIFT):
    """Labels and binormal scores: ``n_pos`` positives N(shift, 1) then ``n_neg`` negatives N(0, 1)."""
    y = np.r_[np.ones(n_pos, dtype=np.int8), np.zeros(n_neg, dtype=np.int8)]
    return y, rng.normal(size=n_pos + n_neg) + shift * y


def coverage_panel(n: int) -> list[MetricCall]:
    """Table 1's metrics for a screen of n compounds, actives counted in its top 1%."""
    return paper_panel(top_k=0.01, n=n)


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
):
    """``(calls, covered share per call, mean interval width per call)`` over ``replicates`` simulated screens."""
    calls = coverage_panel(n_pos + n_neg)
    truth = population_values(calls, n_pos, n_neg, shift)
    rng = np.random.default_rng(seed)
    hits, widths = np.zeros(len(calls)), np.zeros(len(calls))
    for r in range(replicates):
        y, s = simulated_screen(rng, n_pos, n_neg, shift)
        intervals = bootstrap(y, s, calls, n_resamples=resamples, level=level, seed=r)
        low = np.array([iv.low for iv in intervals])
        high = np.array([iv.high for iv in intervals])
        hits += (low <= truth) & (truth <= high)
        widths += high - low
    return calls, hits / replicates, widths / replicates


def _cost_step(n: int, resamples: int) -> None:
    rng = np.random.default_rng(0)
    y, s = simulated_screen(rng, n // 100, n - n // 100)
    calls = paper_panel(top_k=1000, n=n)
    start = time.perf_counter()
    ranking = Ranking(y, s)
    [c.value(ranking) for c in calls]
    values = time.perf_counter() - start
    start = time.perf_counter()
    bootstrap(ranking, None, calls, n_resamples=resamples)
    print_result({"values_s": values, "intervals_s": time.perf_counter() - start})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--replicates", type=int, default=1000)
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument("--positives", type=int, default=N_POS, help="positives of a simulated screen")
    p.add_argument("--negatives", type=int, default=N_NEG, help="negatives of a simulated screen")
    p.add_argument("--n", type=int, default=1_000_000, help="scores of the cost measurement")
    args = p.parse_args()

    result = measure(__file__, args.n, args.resamples)
    print(f"## Cost: table 1 ({len(paper_panel())} metrics) on {args.n:,} scores, {args.resamples} resamples\n")
    print("| step | wall s | peak RSS MB |\n|---|---:|---:|")
    print(f"| values alone | {result['values_s']:.2f} | |")
    print(f"| values and intervals | {result['intervals_s']:.2f} | {1000 * result['peak_rss_gb']:.0f} |\n")

    start = time.perf_counter()
    calls, covered, width = coverage(args.replicates, args.resamples, n_pos=args.positives, n_neg=args.negatives)
    took = time.perf_counter() - start
    se = np.sqrt(0.95 * 0.05 / args.replicates)
    print(
        f"## Coverage of the 95% interval: {args.replicates} binormal screens ({args.positives} positives N({SHIFT}, 1), "
        f"{args.negatives} negatives N(0, 1)), {args.resamples} resamples each; {took:.0f} s\n"
    )
    print(f"Binomial SE of a coverage: {100 * se:.1f} points.\n")
    print("| metric | coverage % | mean width |\n|---|---:|---:|")
    for c, cov, w in zip(calls, covered, width):
        print(f"| {c.label} | {100 * cov:.1f} | {w:.4g} |")


if __name__ == "__main__":
    args = step_args()
    if args is not None:
        _cost_step(int(args[0]), int(args[1]))
    else:
        main()

"""The bootstrap intervals (crocbench.stats.bootstrap): their cost at 1,000,000 scores, and their coverage.

    python benchmarks/studies/bootstrap.py [--replicates 1000] [--resamples 1000] [--positives 200] [--negatives 5000]
                                           [--jobs 1]

1. Cost: every metric of table 1 with its interval (1,000 resamples) on one list of 1,000,000 scores (1% positives,
   binormal), wall time and peak RSS; beside it the time to compute the values alone.
2. Coverage: screens of 200 positives and 5,000 negatives drawn from a binormal model (negatives N(0, 1), positives
   N(1.5, 1)); each metric's 95% interval is checked against the metric's population value, the metric on a
   100-times larger "screen" laid on the two distributions' quantiles (ranks and counts of the panel scaled with
   it).  Prints, per metric, the share of replicates whose interval holds the population value (the same for any
   ``--jobs``: worker processes sharing the screens).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from crocbench._bench import measure, print_result, step_args
from crocbench.metrics import Ranking, paper_metrics
from crocbench.stats import bootstrap
from crocbench.stats._coverage import N_NEG, N_POS, SHIFT, coverage, simulated_screen


def _cost_step(n: int, resamples: int) -> None:
    rng = np.random.default_rng(0)
    y, s = simulated_screen(rng, n // 100, n - n // 100)
    calls = paper_metrics(top_k=1000, n=n)
    start = time.perf_counter()
    ranking = Ranking(y, s)
    [c.value(ranking) for c in calls]
    values = time.perf_counter() - start
    start = time.perf_counter()
    bootstrap(ranking, None, calls, n_resamples=resamples)
    print_result({"values_s": values, "intervals_s": time.perf_counter() - start})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--replicates", type=int, default=1000)
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument("--positives", type=int, default=N_POS, help="positives of a simulated screen")
    p.add_argument("--negatives", type=int, default=N_NEG, help="negatives of a simulated screen")
    p.add_argument("--n", type=int, default=1_000_000, help="scores of the cost measurement")
    p.add_argument("--jobs", type=int, default=1, help="processes for the coverage (the same result for any)")
    args = p.parse_args()

    result = measure(__file__, args.n, args.resamples)
    print(f"## Cost: table 1 ({len(paper_metrics())} metrics) on {args.n:,} scores, {args.resamples} resamples\n")
    print("| step | wall s | peak RSS MB |\n|---|---:|---:|")
    print(f"| values alone | {result['values_s']:.2f} | |")
    print(f"| values and intervals | {result['intervals_s']:.2f} | {1000 * result['peak_rss_gb']:.0f} |\n")

    start = time.perf_counter()
    calls, covered, width = coverage(
        args.replicates, args.resamples, n_pos=args.positives, n_neg=args.negatives, n_jobs=args.jobs
    )
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

"""Cost of the power study, and the tests' rejection rate when there is nothing to find; prints two tables.

    python benchmarks/studies/power.py [results/dtp_aids]

1. The default study (5 subset sizes x 200 subsets, 4 pairs, the 18 metrics of
   table 1, the six tests, 1,000 permutation samples) on the pooled scores of a
   finished workflow run; target (2 cores): <= 3 minutes.  Without a run, on
   synthetic scores of the same shape.
2. Calibration on synthetic rankings with no difference between the two
   methods (40,000 items, 5% positives, 500 subsets of 1% and 5%): the share
   of subsets where each test rejects at p < 0.05 in either direction
   (nominal 0.10), when (a) the methods differ only on the positives (the
   null the per-positive tests are built for) and (b) the methods also score
   the negatives independently (the negatives' variability is not in the
   per-positive values).
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import numpy as np
import pandas as pd

from crocbench.metrics import paper_metrics, parse_metric
from crocbench.power import PAIRS, power_study

ROOT = Path(__file__).resolve().parents[2]


def _scores(results: Path):
    models = sorted({m for pair in PAIRS for m in pair})
    paths = {m: results / "scores" / f"{m}.parquet" for m in models}
    if all(p.is_file() for p in paths.values()):
        tables = {m: pd.read_parquet(p) for m, p in paths.items()}
        return (
            next(iter(tables.values()))["label"].to_numpy(),
            {m: t["score"].to_numpy() for m, t in tables.items()},
            str(results),
        )
    rng = np.random.default_rng(0)
    y = rng.random(41_906) < 1487 / 41_906
    strengths = {"irv": 2.0, "svm": 1.9, "knn": 1.8, "maxsim": 1.5}
    return y, {m: s * y + rng.normal(size=y.size) for m, s in strengths.items()}, "synthetic (no workflow run found)"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "results",
        type=Path,
        nargs="?",
        default=ROOT / "results" / "dtp_aids",
        help="a run's results (else synthetic scores)",
    )
    results = p.parse_args().results
    y, scores, source = _scores(results)
    rows = []
    for n_jobs in (1, 2):  # one process, and the workflow's power_study job (2 threads: two processes)
        start = time.perf_counter()
        table = power_study(y, scores, paper_metrics(), n_jobs=n_jobs)
        seconds = time.perf_counter() - start
        who = resource.RUSAGE_SELF if n_jobs == 1 else resource.RUSAGE_CHILDREN
        rows.append(
            (
                f"default study (5 sizes x 200 subsets), n_jobs={n_jobs}",
                seconds,
                resource.getrusage(who).ru_maxrss / 1e6,
            )
        )
    print(f"power study on {source}: {len(table)} (pair, metric, test, size) cells")
    print(f"{'step':<56}  {'seconds':>8}  {'peak RSS GB':>11}  target")
    for name, seconds, peak in rows:
        print(f"{name:<56}  {seconds:>8.1f}  {peak:>11.2f}  <= 180 s")

    rng = np.random.default_rng(1)
    n = 40_000
    y = rng.random(n) < 0.05
    a = y + rng.normal(size=n)
    b_indep = y + rng.normal(size=n)
    b_shared = np.where(y, y + rng.normal(size=n), a)
    calls = [parse_metric(m) for m in ("roc_auc", "croc_exp_14", "croc_exp_80")]
    print(
        "\nrejection rate at p < 0.05, either direction, no true difference (nominal 0.10; "
        "500 subsets x 2 sizes x 3 metrics; binomial SE of one cell about 0.013)"
    )
    rates = {}
    for name, b in (("differ on positives only", b_shared), ("negatives scored independently", b_indep)):
        df = power_study(y, {"a": a, "b": b}, calls, pairs=[("a", "b")], fractions=(0.01, 0.05), n_subsets=500, seed=2)
        rates[name] = (df["power"] + df["wrong"]).groupby(df["test"]).mean()
    print(pd.DataFrame(rates).round(3).to_string())


if __name__ == "__main__":
    main()

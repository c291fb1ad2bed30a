"""Speed of the metrics and significance tests; prints a table.

    python benchmarks/speed/metrics.py

Targets (2 cores): every area of the paper's panel for N = 1,000,000 scores
(3.5% positives) in under 1 s total; each of the other papers' metrics
(average precision, TAP-k, LocAUC, perf, IR measures) on 1,000,000 scores in
under 1 s, with and without ties, per-query ones over 1,000 queries; any single area for N = 42,000 in under
5 ms; a paired permutation test with 10,000 samples on 1,500 positives in
under 0.5 s; ``crocbench compare`` on two 2,000,000-row files in under 15 s (and
``crocbench score`` on one), as processes of the installed command.  The ratio to scikit-learn's roc_auc_score is measured in the
same run on the same input.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score

from crocbench import metrics as M
from crocbench import stats as S


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def data(n: int, seed: int = 0, ties: bool = False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.035
    s = rng.normal(size=n) + 1.5 * y
    return y, (np.round(s, 1) if ties else s)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.parse_args()
    rows = []
    panel = M.paper_metrics()

    y, s = data(1_000_000)
    separate = best_of(lambda: [M.score(y, s, c.metric, **c.params) for c in panel], 3)

    def shared_ranking():
        ranking = M.Ranking(y, s)
        return [c.value(ranking) for c in panel]

    shared = best_of(shared_ranking, 3)
    sk = best_of(lambda: roc_auc_score(y, s), 3)
    ours = best_of(lambda: M.roc_auc(y, s), 3)
    rows += [
        (f"all {len(panel)} areas, N=1e6, one call each", separate, "< 1 s"),
        (f"all {len(panel)} areas, N=1e6, one shared Ranking", shared, "< 1 s"),
        ("roc_auc, N=1e6", ours, ""),
        ("sklearn roc_auc_score, N=1e6", sk, f"ratio sklearn/ours = {sk / ours:.1f}x"),
    ]
    yt, st = data(1_000_000, ties=True)
    ours_t, sk_t = best_of(lambda: M.roc_auc(yt, st), 3), best_of(lambda: roc_auc_score(yt, st), 3)
    rows.append(("roc_auc, N=1e6, 81 tie groups", ours_t, f"ratio sklearn/ours = {sk_t / ours_t:.1f}x"))
    rows.append(
        (
            f"all {len(panel)} areas, N=1e6, 81 tie groups",
            best_of(lambda: [M.score(yt, st, c.metric, **c.params) for c in panel], 3),
            "< 1 s",
        )
    )

    probs = 1.0 / (1.0 + np.exp(-s))
    probs_t = 1.0 / (1.0 + np.exp(-st))
    groups = np.random.default_rng(2).integers(0, 1000, size=s.size)
    other = M.other_metrics(top_k=1000, n=50)
    for tied, (yy, ss, pp) in (("", (y, s, probs)), (", ties", (yt, st, probs_t))):
        for m in other:
            x = pp if m.needs == "probabilities" else ss
            g = groups if m.needs == "groups" or m.key in ("top1", "last_positive_rank") else None
            queries = ", 1,000 queries" if g is not None else ""
            seconds = best_of(lambda: m.compute(yy, x, g, "expected"), 3)  # noqa: B023 (called here, in the loop)
            rows.append((f"{m.label}, N=1e6{queries}{tied}", seconds, "< 1 s"))
    ap, sk_ap = best_of(lambda: M.average_precision(y, s), 3), best_of(lambda: average_precision_score(y, s), 3)
    rows.append(("sklearn average_precision_score, N=1e6", sk_ap, f"ratio sklearn/ours = {sk_ap / ap:.1f}x"))
    rows.append(
        (
            "precision-recall curve, N=1e6",
            best_of(lambda: M.precision_recall_curve(y, s, interpolated=True), 3),
            "< 1 s",
        )
    )

    y, s = data(42_000)
    single = {c.key: best_of(lambda c=c: M.score(y, s, c.metric, **c.params), 20) for c in panel}
    worst = max(single, key=single.get)
    sk42 = best_of(lambda: roc_auc_score(y, s), 20)
    rows += [
        (f"slowest single area, N=42,000 ({worst})", single[worst], "< 5 ms"),
        ("roc_auc, N=42,000", single["roc"], f"ratio sklearn/ours = {sk42 / single['roc']:.1f}x"),
    ]

    rng = np.random.default_rng(1)
    a, b = rng.random(1500), rng.random(1500)
    rows += [
        ("paired permutation, 10,000 x 1,500", best_of(lambda: S.permutation_test(a, b, paired=True), 3), "< 0.5 s"),
        ("unpaired permutation, 10,000 x 1,500", best_of(lambda: S.permutation_test(a, b, paired=False), 3), ""),
        ("all six tests, 1,500 positives", best_of(lambda: S.run_tests(a, b), 3), ""),
    ]

    rows += cli_rows()

    width = max(len(r[0]) for r in rows)
    print(f"{'benchmark':<{width}}  {'seconds':>9}  note")
    print(f"{'-' * width}  {'-' * 9}  ----")
    for name, sec, note in rows:
        print(f"{name:<{width}}  {sec:>9.4f}  {note}")


def cli_rows(n: int = 2_000_000) -> list:
    """The installed command end to end on two n-row files (ids in another order in the second), one run each:
    reading, checking, matching ids and computing, as a user runs it."""
    import shutil
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    import pandas as pd

    command = shutil.which("crocbench") or str(Path(sys.executable).with_name("crocbench"))
    rng = np.random.default_rng(5)
    y = rng.random(n) < 0.035
    ids = np.char.add("NSC", np.arange(n).astype(str))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a.csv", Path(tmp) / "b.csv"
        pd.DataFrame({"id": ids, "score": rng.normal(size=n) + 1.5 * y, "label": y.astype(int)}).to_csv(a, index=False)
        perm = rng.permutation(n)
        pd.DataFrame({"id": ids[perm], "score": (rng.normal(size=n) + y)[perm], "label": y[perm].astype(int)}).to_csv(
            b, index=False
        )
        for name, args, target in (
            (f"crocbench score, {n:,} rows (every metric)", ["score", a], ""),
            (f"crocbench compare, {n:,} rows (2 metrics x 6 tests)", ["compare", a, b], "< 15 s"),
        ):
            t = time.perf_counter()
            done = subprocess.run([command, *map(str, args)], capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"{name} failed: {done.stderr}")
            rows.append((name, time.perf_counter() - t, target))
    return rows


if __name__ == "__main__":
    main()

"""The cluster split's leader clustering: crocbench against RDKit's LeaderPicker, same fingerprints, same threshold.

    python benchmarks/speed/clusters.py --ecfp results/transcription_5_primary/ecfp.npz [--threshold 0.4]
                                        [--n N] [--skip-rdkit]

The task: the leaders of Hartigan's leader algorithm (sphere exclusion) over a screen's ECFP4 bits in file order,
and every compound's cluster (:mod:`crocbench.chem.clusters`). Each engine runs in a subprocess of its own
(crocbench._bench: wall time, CPU time, peak RSS):

- crocbench: ``crocbench.chem.clusters.leader_clusters`` (the project's exact Tanimoto engine, both cores): leaders and
  every compound's cluster;
- RDKit: ``LeaderPicker.LazyBitVectorPick`` at distance ``1 - threshold`` (two threads), on the bit vectors built
  from the same bits: the leaders only (no assignment).

The table gives each engine's time, peak memory, leaders, and whether RDKit's picks equal crocbench's leaders.
Target (the issue): the panel's largest screen (641,736 compounds) on 2 cores within 24 GB.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, measure, print_result, step_args  # noqa: E402


def _counts(path: str, n: int):
    from crocbench.chem.ecfp import load_ecfp

    counts = load_ecfp(path)
    return counts[: min(n, counts.shape[0])]


def _crocbench(path: str, n: int, threshold: float, out: str) -> None:
    from crocbench.chem.clusters import bit_fingerprints, leader_clusters

    fp = bit_fingerprints(_counts(path, int(n)))
    start, cpu = time.perf_counter(), cpu_seconds()
    clusters = leader_clusters(fp, float(threshold))
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    first = np.r_[True, clusters[1:] > np.maximum.accumulate(clusters)[:-1]]  # a new cluster number: its leader
    np.save(out, np.flatnonzero(first))
    print_result({"seconds": wall, "cpu_seconds": cpu, "leaders": int(first.sum()), "n": int(clusters.size)})


def _rdkit(path: str, n: int, threshold: float, out: str) -> None:
    from rdkit import DataStructs
    from rdkit.SimDivFilters import rdSimDivPickers

    counts = _counts(path, int(n))
    vectors = []
    for i in range(counts.shape[0]):
        v = DataStructs.ExplicitBitVect(counts.shape[1])
        v.SetBitsFromList(counts.indices[counts.indptr[i] : counts.indptr[i + 1]].tolist())
        vectors.append(v)
    start, cpu = time.perf_counter(), cpu_seconds()
    picks = rdSimDivPickers.LeaderPicker().LazyBitVectorPick(
        vectors, len(vectors), 1.0 - float(threshold), numThreads=2
    )
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    np.save(out, np.sort(np.asarray(list(picks), dtype=np.int64)))
    print_result({"seconds": wall, "cpu_seconds": cpu, "leaders": len(picks), "n": len(vectors)})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ecfp", required=True, help="a screen's results/{dataset}/ecfp.npz")
    p.add_argument("--threshold", type=float, default=0.4)
    p.add_argument("--n", type=int, default=10**9, help="the first N compounds (default: all)")
    p.add_argument("--skip-rdkit", action="store_true", help="crocbench only (RDKit takes minutes on large screens)")
    args = p.parse_args()
    if not Path(args.ecfp).is_file():
        sys.exit(f"{args.ecfp}: no such file (run the workflow's ecfp rule first)")
    with tempfile.TemporaryDirectory() as folder:
        runs = {"crocbench": measure(__file__, "crocbench", args.ecfp, args.n, args.threshold, f"{folder}/c.npy")}
        if not args.skip_rdkit:
            runs["RDKit LeaderPicker"] = measure(
                __file__, "rdkit", args.ecfp, args.n, args.threshold, f"{folder}/r.npy"
            )
            runs["RDKit LeaderPicker"]["same"] = np.array_equal(np.load(f"{folder}/c.npy"), np.load(f"{folder}/r.npy"))
    base = runs["crocbench"]["seconds"]
    print(f"{runs['crocbench']['n']:,} compounds, threshold {args.threshold}\n")
    print("| engine | seconds | CPU seconds | peak RSS (GB) | leaders | x crocbench's time | same leaders |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, r in runs.items():
        same = "" if name == "crocbench" else ("yes" if r["same"] else "NO")
        print(
            f"| {name} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | {r['peak_rss_gb']:.2f} | {r['leaders']:,} | "
            f"{r['seconds'] / base:.1f} | {same} |"
        )


if __name__ == "__main__":
    args = step_args()
    if args is None:
        main()
    else:
        {"crocbench": _crocbench, "rdkit": _rdkit}[args[0]](*args[1:])

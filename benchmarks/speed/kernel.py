"""What the SVM's Tanimoto kernels cost: the kernel of a subsample, and one SVM fold as the panel runs it.

    python benchmarks/speed/kernel.py RESULTS [--n N] [--fold F] [--before SRC]

RESULTS is a finished PubChem panel screen's folder (e.g. ``results/ion_channel3_primary`` of a panel run). Two
steps, each in a process of its own (2 threads, as a fold job):

- ``kernel``: the float64 Tanimoto matrix (what LIBSVM takes) of N seeded compounds of the screen (default
  22,360: what a fold of a 305,000-compound screen fits on under the panel's ``max_kernel_gb: 4``);
- ``svm fold``: fold F of the SVM exactly as ``config/panels/pubchem_hts.yaml`` sets it up (``large: subsample``,
  ``max_kernel_gb: 4``; inner CV, final fit, scoring), from the run's fingerprints, neighbours and folds
  (``benchmarks/accounting/fold_job.py``'s replay).

With ``--before SRC`` (e.g. a worktree of an older commit's ``src/``) both steps run again on that code, and
the table says whether the kernel's bytes and the fold's scores are identical. Prints a Markdown table: wall
and CPU seconds, pairs per second, peak RSS.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, measure, print_result, step_args  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PANEL = ROOT / "config" / "panels" / "pubchem_hts.yaml"


def _kernel(results: str, n: int) -> None:
    import torch

    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.similarity import FeatureMatrix, tanimoto_matrix

    torch.set_num_threads(2)
    fm = FeatureMatrix(load_fingerprints(Path(results) / "fingerprints.npz"))
    rows = np.sort(np.random.default_rng(0).choice(fm.n, min(n, fm.n), replace=False))
    sub = fm.take(rows)
    tanimoto_matrix(sub.take(np.arange(min(sub.n, 64))), dtype=np.float64)  # compile (numba's cache) first
    start, cpu = time.perf_counter(), cpu_seconds()
    mat = tanimoto_matrix(sub, dtype=np.float64)
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    digest = hashlib.sha256(mat.view(np.uint8)).hexdigest()
    print_result({"seconds": wall, "cpu_seconds": cpu, "pairs": sub.n * (sub.n + 1) / 2, "sha256": digest})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", help="a finished panel screen's results folder")
    p.add_argument("--n", type=int, default=22360, help="compounds in the kernel (default: 22,360)")
    p.add_argument("--fold", type=int, default=0)
    p.add_argument("--before", metavar="SRC", help="also run on this source folder's crocbench: before/after")
    args = p.parse_args()
    if not (Path(args.results) / "fingerprints.npz").is_file():
        sys.exit(f"{args.results}: no fingerprints.npz (run the workflow first, or name a finished screen's folder)")
    codes = {"crocbench": None}
    if args.before:
        codes["crocbench before"] = {"PYTHONPATH": str(Path(args.before).resolve())}
    rows = []
    for step, extra in (("kernel", args.n), ("svm_fold", args.fold)):
        for name, env in codes.items():
            script = __file__ if step == "kernel" else str(ROOT / "benchmarks" / "accounting" / "fold_job.py")
            args_ = (args.results, extra) if step == "kernel" else (args.results, "svm", extra, PANEL)
            rows.append((step, name, measure(script, step.replace("svm_", ""), *args_, env=env)))
    print(
        f"## The SVM's kernels on {Path(args.results).name}: a kernel of {args.n:,} compounds; SVM fold {args.fold}\n"
    )
    print(
        "| step | code | wall s | CPU s | pairs/s (wall) | peak RSS GB | vs crocbench | identical | "
        "scores = the workflow's fold |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---|")
    now = {step: r for step, name, r in rows if name == "crocbench"}
    for step, name, r in rows:
        rate = f"{r['pairs'] / r['seconds']:.3g}" if "pairs" in r else ""
        ratio = now[step]["seconds"] / r["seconds"]
        same = "" if name == "crocbench" else ("yes" if r["sha256"] == now[step]["sha256"] else "NO")
        as_run = {True: "yes", False: "NO"}.get(r.get("as_run"), "")
        print(
            f"| {step.replace('_', ' ')} | {name} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | {rate} | "
            f"{r['peak_rss_gb']:.2f} | {ratio:.2f}x | {same} | {as_run} |"
        )


if __name__ == "__main__":
    args = step_args()
    if args is None:
        main()
    elif args[0] == "kernel":
        _kernel(args[1], int(args[2]))

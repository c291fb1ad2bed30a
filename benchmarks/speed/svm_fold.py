"""The SVM's folds as a workflow fold job runs them, against an older commit's code, side by side.

    python benchmarks/speed/svm_fold.py RESULTS --before SRC [--folds 0,1] [--repeats 2]

RESULTS is a folder with a screen's ``fingerprints.npz`` and ``folds.tsv`` (e.g. ``results/dtp_aids`` after
``snakemake --cores 1 results/dtp_aids/fingerprints.npz results/dtp_aids/folds.tsv``). A step fits the SVM, set
up as ``config.yaml`` sets it up, on each of FOLDS one after the other in one process that keeps its kernel memory
(``keep_kernel_memory``), as the workflow's ``score_folds_<n>_<j>`` job does, on the threads the run gives that
job, and scores the test compounds. Each step runs in a process of its own, this checkout's code and SRC's
(``--before``, e.g. ``src/`` of ``git worktree add /tmp/base bcbe6a0``) in turn, ``--repeats`` times (before,
after, before, after: on a shared machine the load moves). Prints a Markdown table: wall and CPU seconds, peak
RSS, the ratio of the code before to this code's (wall and CPU), and whether the fold's scores are the same
bytes as the code before's; and the machine's CPU model.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, measure, print_result, step_args  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _folds_step(results: str, folds: str) -> None:
    """Fit and score the SVM's ``folds`` (comma-separated) in this process, as one fold job; print the result."""
    import pandas as pd
    import torch

    try:
        from crocbench.chem.fingerprints import load_fingerprints
    except ImportError:  # before the chem package
        from crocbench.fingerprints import load_fingerprints
    from crocbench._memory import keep_kernel_memory
    from crocbench.config import load_config, study_runs
    from crocbench.cv import cross_validate, repeat_seed
    from crocbench.models import make_model
    from crocbench.similarity import SimilarityIndex

    config = load_config([ROOT / "config.yaml"], root=ROOT)
    run = study_runs(config, [ROOT / "plugins"])["svm"]
    results, only = Path(results), [int(f) for f in folds.split(",")]
    table = pd.read_csv(results / "folds.tsv", sep="\t", dtype={"id": str})
    threads = run.resources(len(table), config["cv"]["folds"])["threads"]
    torch.set_num_threads(threads)
    seed = repeat_seed(config["cv"]["seed"], 0)
    start, cpu = time.perf_counter(), cpu_seconds()
    data = SimilarityIndex(load_fingerprints(results / "fingerprints.npz"), block=config["similarity"]["block"])
    with keep_kernel_memory():
        done = cross_validate(
            lambda k: make_model("svm", run.params, seed=(seed, k), n_jobs=threads), data, table, only=only
        )
    scores = np.concatenate([done.scores[f]["score"].to_numpy() for f in only])
    print_result(
        {
            "seconds": time.perf_counter() - start,
            "cpu_seconds": cpu_seconds() - cpu,
            "threads": threads,
            "sha256": hashlib.sha256(scores.tobytes()).hexdigest(),
        }
    )


def cpu_model() -> str:
    """The machine's CPU model (``lscpu``'s "Model name"), or the platform's processor string."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    names = [line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Model name")]
    return names[0] if names else platform.processor() or "unknown"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", help="a folder with fingerprints.npz and folds.tsv")
    p.add_argument("--before", metavar="SRC", required=True, help="the older code's src/ folder")
    p.add_argument("--folds", default="0,1", help="the folds of one job, comma-separated (default: 0,1)")
    p.add_argument("--repeats", type=int, default=2)
    args = p.parse_args()
    for name in ("fingerprints.npz", "folds.tsv"):
        if not (Path(args.results) / name).is_file():
            sys.exit(f"{args.results}: no {name} (run the workflow's fingerprints and folds first)")
    codes = {"before": {"PYTHONPATH": str(Path(args.before).resolve())}, "now": {"PYTHONPATH": str(ROOT / "src")}}
    rows = []
    for repeat in range(args.repeats):
        for name, env in codes.items():
            result = measure(__file__, "folds", args.results, args.folds, env=env)
            rows.append((repeat, name, result))
            print(f"repeat {repeat + 1}, {name}: {result['seconds']:.1f} s", file=sys.stderr, flush=True)
    print(f"## The SVM's folds {args.folds} of {Path(args.results).name} in one job, on {cpu_model()}\n")
    print("| repeat | code | wall s | CPU s | peak RSS GB | before / now (wall) | before / now (CPU) | same bytes |")
    print("|---:|---|---:|---:|---:|---:|---:|---|")
    for repeat, name, r in rows:
        before = next(b for k, n, b in rows if k == repeat and n == "before")
        ratio = (
            f"{before['seconds'] / r['seconds']:.2f} | {before['cpu_seconds'] / r['cpu_seconds']:.2f}"
            if name == "now"
            else " | "
        )
        same = "yes" if r["sha256"] == before["sha256"] else "NO"
        print(
            f"| {repeat + 1} | {name} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | {r['peak_rss_gb']:.2f} "
            f"| {ratio} | {same} |"
        )


if __name__ == "__main__":
    steps = step_args()
    if steps is None:
        main()
    elif steps[0] == "folds":
        _folds_step(*steps[1:])
    else:
        sys.exit(f"unknown step {steps[0]!r}")

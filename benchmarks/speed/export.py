"""A benchmark's export, first and repeated, at HEAD and at a baseline commit, each timed in a subprocess of its
own (crocbench._bench: wall time, CPU time, peak RSS), with the ratio baseline / HEAD and the machine.

    python benchmarks/speed/export.py --before /tmp/base [--benchmark fair_random] [--screens A,B]

Each export runs with its side's default number of processes (the baseline's 2; HEAD's every core). ``--before`` is
a checkout of the baseline commit (``git worktree add /tmp/base bcbe6a0``); its ``src/`` runs the
baseline's export, reading that checkout's config files and reference. Each side gets a user cache of its own
(``CROCBENCH_CACHE``), empty at the start: the first export standardizes the raw files and fills the cache, the
repeated one exports into a second, empty folder. The mirror is ``CROCBENCH_MIRROR`` (default: the project's).

Target (issue 96.3): a repeated export of ``fair_random`` in at most 30 s; the first export's RDKit work on every
core of the machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, machine, measure, print_result, step_args  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _export(name: str, out: str, root: str, screens: str) -> None:
    import inspect

    from crocbench.benchmark import export, find_spec

    # the baseline's specs lived in its checkout (results/benchmarks), found from a root; today's ship in the package
    spec = find_spec(name, root) if "root" in inspect.signature(find_spec).parameters else find_spec(name)
    chosen = screens.split(",") if screens != "all" else None
    start, cpu = time.perf_counter(), cpu_seconds()
    files = export(spec, out, root, screens=chosen, progress=sys.stderr)  # each side's default processes
    rows = sum(v.get("compounds", 0) for v in files.values())
    print_result({"seconds": time.perf_counter() - start, "cpu_seconds": cpu_seconds() - cpu, "rows": rows})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--benchmark", default="fair_random", help="a committed benchmark's name")
    p.add_argument("--before", required=True, help="a checkout of the baseline commit (its src/ and config files)")
    p.add_argument("--screens", default="all", help="comma-separated screens (default: all)")
    args = p.parse_args()
    mirror = os.environ.get("CROCBENCH_MIRROR") or str((ROOT / ".." / "shared" / "mirror").resolve())
    sides = {"baseline": Path(args.before).resolve(), "HEAD": ROOT}
    runs = {}
    with tempfile.TemporaryDirectory() as folder:
        for side, checkout in sides.items():
            env = {"PYTHONPATH": str(checkout / "src"), "CROCBENCH_MIRROR": mirror}
            env["CROCBENCH_CACHE"] = str(Path(folder) / side / "cache")
            for run in ("first", "repeated"):
                out = Path(folder) / side / run
                runs[side, run] = measure(__file__, "export", args.benchmark, out, checkout, args.screens, env=env)
                print(f"{side} {run}: {runs[side, run]['wall_seconds']:.1f} s", file=sys.stderr, flush=True)
    print(f"benchmark {args.benchmark}, screens: {args.screens}; machine: {machine()}\n")
    print("| export | baseline s | HEAD s | baseline / HEAD | HEAD main-process CPU s | HEAD peak RSS GB | rows |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for run in ("first", "repeated"):
        base, head = runs["baseline", run], runs["HEAD", run]
        print(
            f"| {run} | {base['wall_seconds']:.1f} | {head['wall_seconds']:.1f} | "
            f"{base['wall_seconds'] / head['wall_seconds']:.2f} | {head['cpu_seconds']:.1f} | "
            f"{head['peak_rss_gb']:.2f} | {head['rows']:,} |"
        )


if __name__ == "__main__":
    step = step_args()
    if step is not None:
        {"export": _export}[step[0]](*step[1:])
    else:
        main()

"""Entering a benchmark: the export of a panel from the mirror, and the evaluation of a submission of all its
screens, each timed in a subprocess of its own (crocbench._bench: wall time, CPU time, peak RSS).

    python benchmarks/speed/benchmark_entry.py [--benchmark pubchem_hts_confirmed] [--export DIR]

- export: ``crocbench.benchmark.export`` of every screen into a fresh folder (standardized from the mirror,
  folds made, each file checked against the spec), skipped when ``--export`` names a finished export;
- evaluate: a submission of seeded random scores for every compound of every screen (written first, not timed),
  then ``load`` + ``evaluate`` + ``Result.write``: the files read and checked against the spec's sha256, the
  submission checked, every metric and its exact random baseline per screen, the placement (ranks, Friedman,
  Nemenyi, Conover, Wilcoxon-Holm and 10,000-resample effect intervals per metric and ranker), the record, the
  page and the figure.

Targets (issue 71), on 2 cores: the 10 confirmed screens (2.7 million rows) evaluated in at most 60 s and 2 GB;
a panel exported in at most 5 minutes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, measure, print_result, step_args  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _export(name: str, out: str) -> None:
    from crocbench.benchmark import export, find_spec

    spec = find_spec(name)
    start, cpu = time.perf_counter(), cpu_seconds()
    files = export(spec, out, ROOT, progress=sys.stderr)
    rows = sum(v.get("compounds", 0) for v in files.values())
    print_result({"seconds": time.perf_counter() - start, "cpu_seconds": cpu_seconds() - cpu, "rows": rows})


def _evaluate(export: str, submission: str, out: str) -> None:
    from crocbench.benchmark import load

    start, cpu = time.perf_counter(), cpu_seconds()
    bench = load(export)
    result = bench.evaluate(submission, name="random scores")
    result.write(out)
    rows = int(result.values["compounds"].sum())
    print_result({"seconds": time.perf_counter() - start, "cpu_seconds": cpu_seconds() - cpu, "rows": rows})


def _submission(export: Path, folder: Path) -> None:
    import numpy as np
    import pandas as pd

    from crocbench.benchmark import export_spec

    spec = export_spec(export)
    rng = np.random.default_rng(0)
    folder.mkdir()
    for screen in spec.screens:
        ids = pd.read_csv(export / f"{screen}.csv", usecols=["id"], dtype=str)["id"]
        pd.DataFrame({"id": ids, "score": rng.random(len(ids))}).to_csv(folder / f"{screen}.csv", index=False)
    (folder / "benchmark.json").write_bytes((export / "benchmark.json").read_bytes())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--benchmark", default="pubchem_hts_confirmed", help="a committed benchmark's name")
    p.add_argument("--export", help="a finished export of it (default: export it here first, timed)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        runs = {}
        export = Path(args.export) if args.export else Path(folder) / "export"
        if not args.export:
            runs["export"] = measure(__file__, "export", args.benchmark, export)
        _submission(export, Path(folder) / "submission")
        runs["evaluate"] = measure(__file__, "evaluate", export, Path(folder) / "submission", Path(folder) / "out")
    print(f"benchmark {args.benchmark}\n")
    print("| step | rows | seconds | CPU seconds | peak RSS (GB) |")
    print("|---|---:|---:|---:|---:|")
    for name, r in runs.items():
        print(f"| {name} | {r['rows']:,} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | {r['peak_rss_gb']:.2f} |")


if __name__ == "__main__":
    args = step_args()
    if args is None:
        main()
    else:
        {"export": _export, "evaluate": _evaluate}[args[0]](*args[1:])

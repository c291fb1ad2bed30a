"""What each ranker and each stage of a run cost, from the run's own ``benchmark:`` files: a table per run folder.

    python benchmarks/accounting/rankers.py RUN_FOLDER [--screens NAME ...] [--runs]

RUN_FOLDER is a project folder where the workflow ran (in one or several invocations). Every job's wall seconds and
CPU seconds are read from its benchmark file (``logs/{dataset}/benchmark/``, every repeat's); a ranker's stage is its
fold jobs, the candidates of a development panel (``rf.c1``, ``rf.c2``, ...) counted with their ranker (``rf``);
the other jobs by ``crocbench._accounting.stage_of`` (data, neighbours, tables, other); ``--runs`` keeps each
candidate apart and gives its jobs' mean seconds per screen. Prints, as Markdown, one row
per stage: its jobs, hours of job wall time (two jobs at once each count their own), hours of CPU, the longest job,
and each screen's hours (the summary's jobs, of ``results/summary`` and ``results/screens``, in a column
``summary``); then the run's wall time from Snakemake's logs (each invocation's first to last timestamp; with
``--screens``, of the invocations that ran a job of one of them).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from crocbench._accounting import SUMMARY_LOGS, invocation_walls, jobs, stage_of
from crocbench.models._development import CANDIDATE


def ranker_of(stage: str) -> str:
    """The ranker a stage belongs to: a candidate run's (``rf.c3``: ``rf``), else the stage itself."""
    match = CANDIDATE.match(stage)
    return match["run"] if match else stage


def stage_table(run: Path, screens=None, runs: bool = False) -> pd.DataFrame:
    """One row per stage (a ranker's fold jobs, its candidates' together unless ``runs``; or data, neighbours,
    tables, other):
    ``jobs``, ``wall_h`` and ``cpu_h`` (summed over the jobs), ``longest_s``, and a column per screen: its wall
    hours (with ``runs``: its jobs' mean seconds, ``<screen> s``);
    sorted by wall hours, largest first."""
    parts = []
    folders = sorted(p for p in (run / "logs").iterdir() if (p / "benchmark").is_dir())
    for folder in folders:
        if screens and folder.name not in screens:
            continue
        table = jobs(folder)
        cpu = [_cpu_seconds(folder / "benchmark" / f"{f}.tsv") for f in table["file"]]
        stages = [stage_of(r, f) for r, f in zip(table["rule"], table["file"])]
        stages = stages if runs else [ranker_of(stage) for stage in stages]
        screen = "summary" if folder.name in SUMMARY_LOGS else folder.name  # the summary's jobs: one column
        parts.append(table.assign(screen=screen, stage=stages, cpu_s=cpu))
    if not parts:
        raise SystemExit(
            f"{run}: no benchmark files under logs/*/benchmark (of {', '.join(screens or ['any screen'])})"
        )
    every = pd.concat(parts, ignore_index=True)
    out = every.groupby("stage").agg(
        jobs=("s", "size"), wall_h=("s", "sum"), cpu_h=("cpu_s", "sum"), longest_s=("s", "max")
    )
    out[["wall_h", "cpu_h"]] /= 3600
    if runs:  # a run's job on each screen, in seconds
        per_screen = every.pivot_table(index="stage", columns="screen", values="s", aggfunc="mean").add_suffix(" s")
    else:
        per_screen = every.pivot_table(index="stage", columns="screen", values="s", aggfunc="sum", fill_value=0) / 3600
    return out.join(per_screen).sort_values("wall_h", ascending=False)


def _cpu_seconds(path: Path) -> float:
    bench = pd.read_csv(path, sep="\t")
    value = pd.to_numeric(bench["cpu_time"], errors="coerce").iloc[-1] if "cpu_time" in bench.columns else None
    return 0.0 if value is None or pd.isna(value) else float(value)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path, help="the project folder where the workflow ran")
    p.add_argument("--screens", nargs="+", help="only these screens (default: every screen with benchmark files)")
    p.add_argument("--runs", action="store_true", help="each run apart: a development panel's candidates too")
    args = p.parse_args(argv)
    if not (args.run / "logs").is_dir():
        sys.exit(f"{args.run}: no logs folder (a project folder where the workflow ran)")
    table = stage_table(args.run, args.screens, args.runs)
    total = table[["jobs", "wall_h", "cpu_h"]].sum()
    print(
        f"## {args.run}: {int(total['jobs']):,} jobs, {total['wall_h']:.2f} h of job wall time, {total['cpu_h']:.2f} h of CPU\n"
    )
    shown = table.assign(jobs=table["jobs"].map("{:,}".format)).astype(object)
    print(shown.where(table.notna(), None).to_markdown(floatfmt=".2f", missingval=""))  # a screen a run skipped: blank
    walls = invocation_walls(args.run, screens=args.screens)
    which = f"ran a job of {', '.join(args.screens)} and " if args.screens else ""
    print(
        f"\nWall time of the run: {sum(walls) / 3600:.2f} h in {len(walls)} invocation(s) that {which}finished a job."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a panel run costs (config/panels/pubchem_hts.yaml): per screen and per stage, measured so far and estimated.

    python benchmarks/accounting/panel.py RUN_FOLDER [--config config/panels/pubchem_hts.yaml]

RUN_FOLDER is the project folder where `snakemake --cores 2 --configfile config/panels/pubchem_hts.yaml` ran (in
one or several invocations: Snakemake resumes). Read from the run's own files: each job's wall time and peak RSS
from its `benchmark:` file (logs/{dataset}/benchmark/), a screen counted as done once its tables/areas.tsv exists,
and the wall time of each invocation from Snakemake's logs (.snakemake/log/: first to last timestamp; --since to
leave out earlier invocations in the same folder).

Prints, as Markdown: one row per screen (compounds, actives, done or not, job time, longest job, largest peak RSS
and its job; "logged" when every job's log ends with its peaks or the job ran under 15 s (Snakemake samples
every 0.5 s for 15 s), else "sampled": some longer jobs ran before steps logged their peaks, and Snakemake's
sampled max_rss (every 30 s after 15 s) can miss a late peak; crocbench._accounting.jobs says how they
combine);
the job time per stage over the screens done; and, for the screens not done yet, an estimate marked as such:
each stage's job time per compound (per pair of compounds for the neighbour search) over the screens done,
times the screen's size. Targets (issue 39): the 25 primary screens in at most 8 hours of wall time on 2 cores,
no job above 8 GB.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

import pandas as pd
import yaml

from crocbench._accounting import PAIR_STAGES, invocation_walls, jobs, stage_of

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path)
    p.add_argument(
        "--config",
        type=Path,
        default=ROOT / "config" / "panels" / "pubchem_hts.yaml",
        help="the panel, or an overlay of it (pubchem_hts_scaffold.yaml, pubchem_hts_confirmed.yaml): its dataset list",
    )
    p.add_argument(
        "--counts",
        type=Path,
        default=ROOT / "config" / "panels" / "pubchem_hts_counts.tsv",
        help="every screen's compounds (kept) and actives (positives)",
    )
    p.add_argument(
        "--models",
        nargs="+",
        default=[],
        help="also print these models' fold jobs per screen done (a fold's mean job seconds, e.g. the ECFP rankers: "
        "rf gbm gbm_rank logreg mlp mlp_exp), the least-squares line of their ten folds' seconds against a screen's "
        "compounds, its estimate for every screen, and their largest job's peak",
    )
    p.add_argument(
        "--since",
        type=datetime.fromisoformat,
        default=None,
        help="count the wall time of the invocations started at or after this time only (e.g. 2026-11-24T19:00)",
    )
    args = p.parse_args()
    config = yaml.safe_load(args.config.read_text())
    counts = pd.read_csv(args.counts, sep="\t").set_index("dataset")
    rows, stages, folds = [], [], []
    for dataset in config["dataset"]:
        n, actives = int(counts.loc[dataset, "kept"]), int(counts.loc[dataset, "positives"])
        done = (args.run / "results" / dataset / "tables" / "areas.tsv").is_file()
        folder = args.run / "logs" / dataset
        screen_jobs = jobs(folder) if done else None
        rows.append(
            {
                "screen": dataset,
                "compounds": n,
                "actives": actives,
                "done": done,
                "job min": screen_jobs["s"].sum() / 60 if done else None,
                "longest job s": screen_jobs["s"].max() if done else None,
                "peak RSS GB": screen_jobs["max_rss_mb"].max() / 1024
                if done
                else None,  # as benchmarks/accounting/run_cost.py
                "largest job": screen_jobs.loc[screen_jobs["max_rss_mb"].idxmax(), "file"] if done else None,
                "peaks": ("logged" if screen_jobs["rss_complete"].all() else "sampled") if done else None,
            }
        )
        if done:
            screen_jobs["stage"] = [stage_of(r, f) for r, f in zip(screen_jobs["rule"], screen_jobs["file"])]
            for stage, part in screen_jobs.groupby("stage"):
                stages.append({"screen": dataset, "compounds": n, "stage": stage, "s": part["s"].sum()})
            mine = screen_jobs[screen_jobs["stage"].isin(args.models)]
            folds += [{"screen": dataset, "compounds": n, **r} for r in mine.to_dict("records")]
    table = pd.DataFrame(rows)
    per_stage = pd.DataFrame(stages)
    print(f"## {args.config.name}: {int(table['done'].sum())} of {len(table)} screens done in {args.run}\n")
    shown = table.copy()
    for col, fmt in (("job min", "{:.1f}"), ("longest job s", "{:.0f}"), ("peak RSS GB", "{:.1f}")):
        shown[col] = [("" if v is None or pd.isna(v) else fmt.format(v)) for v in shown[col]]
    shown["compounds"] = [f"{v:,}" for v in shown["compounds"]]
    for col in ("largest job", "peaks"):
        shown[col] = ["" if v is None or pd.isna(v) else v for v in shown[col]]
    print(shown.to_markdown(index=False) + "\n")
    if per_stage.empty:
        return
    size = per_stage.assign(
        unit=[n * (n - 1) / 2 if s in PAIR_STAGES else n for s, n in zip(per_stage["stage"], per_stage["compounds"])]
    )
    rate = size.groupby("stage")["s"].sum() / size.groupby("stage")["unit"].sum()
    pending = table[~table["done"]]
    estimate = {
        stage: sum(r * (n * (n - 1) / 2 if stage in PAIR_STAGES else n) for n in pending["compounds"])
        for stage, r in rate.items()
    }
    summary = pd.DataFrame(
        {
            "measured job min": per_stage.groupby("stage")["s"].sum() / 60,
            "estimated job min, screens not done": pd.Series(estimate) / 60,
        }
    ).sort_values("measured job min", ascending=False)
    summary.loc["all stages"] = summary.sum()
    print("Job time per stage (a model's stage: its 10 fold jobs; estimates: per compound, or per pair for the")
    print("neighbour search, over the screens done, times each pending screen's size):\n")
    print(summary.to_markdown(floatfmt=".1f") + "\n")
    walls = invocation_walls(args.run, args.since)
    measured_jobs = per_stage["s"].sum()
    every_job = sum(
        jobs(args.run / "logs" / d)["s"].sum()
        for d in config["dataset"]
        if (args.run / "logs" / d / "benchmark").is_dir()
    )  # the screens not done too: the invocations' wall time covers their jobs
    print(
        f"- wall time of the {len(walls)} Snakemake invocations in {args.run}: {sum(walls) / 3600:.2f} h, for "
        f"{every_job / 3600:.2f} h of jobs (all screens' jobs so far, done or not)"
    )
    top = table.loc[table["peak RSS GB"].astype(float).idxmax()]
    print(
        f"- job time of the screens done: {measured_jobs / 3600:.2f} h; largest peak RSS "
        f"{top['peak RSS GB'] * 1024:,.0f} MiB ({top['screen']}, {top['largest job']}; {top['peaks']})"
    )
    if not pending.empty:
        ratio = sum(walls) / every_job if every_job else float("nan")
        total = (measured_jobs + sum(estimate.values())) / 3600
        print(
            f"- estimated (not measured): all {len(table)} screens {total:.1f} h of jobs, about {total * ratio:.1f} h "
            f"of wall at this run's wall/job ratio ({ratio:.2f})"
        )
    if args.models:
        print_models(pd.DataFrame(folds), args.models, table["compounds"].sum(), len(table))


def print_models(folds: pd.DataFrame, models: list, compounds: int, screens: int) -> None:
    """The ``--models`` section: a fold's mean job seconds per model and screen done, the line through the screens
    of their ten folds' job seconds against compounds, and what it gives for the panel."""
    import numpy as np

    if folds.empty:
        print(f"\nNo fold job of {', '.join(models)} in the screens done.")
        return
    missing = sorted(set(models) - set(folds["stage"]))
    if missing:
        raise SystemExit(f"no fold jobs of {', '.join(missing)} in the screens done")
    mean = folds.pivot_table(index=["screen", "compounds"], columns="stage", values="s", aggfunc="mean")[models]
    mean["a fold of all"] = mean.sum(axis=1)
    shown = mean.reset_index()
    shown["compounds"] = [f"{v:,}" for v in shown["compounds"]]
    print(f"\nA fold's mean job seconds of {', '.join(models)}, per screen done:\n")
    print(shown.to_markdown(index=False, floatfmt=".1f") + "\n")
    per_screen = folds.groupby(["screen", "compounds"])["s"].sum().reset_index()
    rate = per_screen["s"].sum() / per_screen["compounds"].sum()
    print(
        f"- these models' fold jobs: {per_screen['s'].sum() / 3600:.2f} h over {len(per_screen)} screens, "
        f"{rate * 1000:.2f} ms a compound; at that rate all {screens} screens ({compounds:,} compounds) take an "
        f"estimated {rate * compounds / 3600:.1f} h of jobs, {rate * compounds / 7200:.1f} h of wall two at a time"
    )
    sizes = per_screen["compounds"]
    if len(per_screen) >= 3 and sizes.max() >= 2 * sizes.min():  # a line needs screens of different sizes
        slope, intercept = np.polyfit(sizes, per_screen["s"], 1)
        total = (intercept * screens + slope * compounds) / 3600
        print(
            f"- the least-squares line over the {len(per_screen)} screens: {intercept:.0f} s + {slope * 1000:.2f} ms "
            f"a compound for a screen's ten folds, an estimated {total:.1f} h of jobs for all {screens} screens"
        )
    largest = folds.loc[folds["max_rss_mb"].idxmax()]
    print(
        f"- their largest job: {largest['max_rss_mb']:,.0f} MiB ({largest['screen']}, {largest['file']}; "
        f"{'logged' if largest['rss_logged'] else 'sampled'})"
    )


if __name__ == "__main__":
    main()

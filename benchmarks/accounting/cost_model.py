"""What each ranker's fold costs at full settings on three screen sizes, and the hours of the headline runs.

    python benchmarks/accounting/cost_model.py [--screens dtp_aids=RESULTS ion_channel2_primary=RESULTS ...]
        [--rf-trees 50] [--seeds 3] [--models ...] [--measured TABLE.md]
        [--plan FOLDS,REPEATS,GROUPED_REPEATS --budget B --dev-screens K --dev-folds V --rf-cap TREES
         [--chosen CHOSEN.tsv [--best]] [--panel CONFIG.yaml|NAME,NAME,...] [--features N]]

Each ``NAME=RESULTS`` is a finished screen's results folder (``folds.tsv``, ``fingerprints.npz``, the neighbours,
``ecfp.npz``): by default DTP AIDS (``results/dtp_aids`` of the default run with ``ecfp.npz`` built), a
100,000-compound screen and a 300,000-compound screen of a panel run. Fold 0 of every ranker is replayed by
``fold_job.py`` in a process of its own, one at a time, with its job's threads, on the config its runs use:
``config.yaml`` with ``config/examples/ecfp_rankers.yaml`` for DTP AIDS, ``config/panels/pubchem_hts.yaml`` with
``config/panels/pubchem_hts_full.yaml`` for a panel screen (today's rankers at their defaults: 500 trees on every
training compound, early stopping). The forest's fold is timed at ``--rf-trees`` trees and its seconds scaled to
its 500 (a forest's time is linear in its trees; so marked).

From the three sizes, each screen's fold is interpolated per ranker on log seconds against log compounds (piecewise
linear; beyond the largest size, the last segment's slope), and so the hours of the headline runs: the confirmed panel's 10 screens
(``config/panels/pubchem_hts_confirmed.yaml``, its sizes from ``pubchem_hts_counts.tsv``), 10 folds each, under the
random split and a grouped split, the stochastic rankers at ``--seeds`` seeds. Hours of jobs are the fold jobs'
seconds; hours of wall on 2 cores weigh each job by its threads (a 1-thread job shares the machine with another).
``--measured`` reads the per-fold table of an earlier run's output instead of measuring.

``--plan F,R,G`` prices a design of the fair re-run instead: the confirmed panel under F-fold cross-validation,
R repeats of the random split and G of the grouped split (each repeat its own split and its own seeds, so R
seeds), every fold's training set (F - 1) / F of the screen; tuning on a development panel of the ``--dev-screens``
smallest campaigns the confirmed panel does not hold (their primary screens), ``--budget`` configurations per
tuned ranker (RANDOM and MAX-SIM untuned), each validated on ``--dev-folds`` of the F folds (default all, one
F-fold pass; a ranker whose class scores all its folds in one job, ``fold_jobs = 1``, runs them all); the forest at ``--rf-cap`` trees (its fold
seconds scale with its trees). With ``--chosen`` (``crocbench tuning choose``'s table, its ``seconds`` a validation
fold's job seconds on the development screens, averaged), each tuned ranker's headline hours are scaled by its chosen
candidate's seconds over its priced default's at the development screens' sizes (a setting that costs 3x its
default makes its hours 3x); the development panel's seconds are its own run's, on a machine that may have been
busier than the measured table's; with ``--best``, each ranker's best candidate is priced instead of its chosen one
(the tuning without its cost margin). ``--panel`` prices other screens than the confirmed panel's: a config whose
``dataset:`` lists them, or their names joined by commas (their sizes from ``pubchem_hts_counts.tsv``). ``--features N``
prices every ranker but RANDOM on N sets of features (each arm of a factorial of rankers and fingerprints tuned with
its twin's budget), each at the ranker's measured seconds: until an arm on the other fingerprint is measured, its
fold is assumed to cost its twin's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import measure  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FOLD_JOB = Path(__file__).resolve().parent / "fold_job.py"
DEFAULT_SCREENS = {
    "dtp_aids": "results/dtp_aids",
    "ion_channel2_primary": "results/ion_channel2_primary",
    "hsf1_primary": "results/hsf1_primary",
}
MODELS = ("random", "maxsim", "knn", "svm", "irv", "logreg", "gbm", "gbm_rank", "mlp", "mlp_exp", "rf")
STOCHASTIC = ("rf", "gbm", "gbm_rank", "mlp", "mlp_exp")  # trained from a seed: run at --seeds seeds
FULL_TREES = 500


def configs(name: str) -> list[Path]:
    """The config files a screen's runs use over ``config.yaml``."""
    if name == "dtp_aids":
        return [ROOT / "config" / "examples" / "ecfp_rankers.yaml"]
    return [ROOT / "config" / "panels" / "pubchem_hts.yaml", ROOT / "config" / "panels" / "pubchem_hts_full.yaml"]


def fold_seconds(sizes, seconds, n: float) -> float:
    """A fold's seconds at ``n`` compounds from those measured at ``sizes``: piecewise linear in log seconds against
    log compounds, the end segments' slopes beyond the sizes measured."""
    x, y = np.log(np.asarray(sizes, dtype=float)), np.log(np.asarray(seconds, dtype=float))
    order = np.argsort(x)
    x, y = x[order], y[order]
    i = int(np.clip(np.searchsorted(x, np.log(n)) - 1, 0, x.size - 2))
    slope = (y[i + 1] - y[i]) / (x[i + 1] - x[i])
    return float(np.exp(y[i] + slope * (np.log(n) - x[i])))


def read_measured(path: str) -> tuple[list[int], dict]:
    """The sizes and ``{ranker: {"threads", "seconds"}}`` of a per-fold table this script printed."""
    lines = [line for line in Path(path).read_text().splitlines() if line.startswith("|")]
    head = lines[0].split("|")[3:-2]
    sizes = [int(cell.split("(")[1].split(")")[0].replace(",", "")) for cell in head]
    rows = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if not cells[1].isdigit():
            break
        rows[cells[0].split(" ")[0]] = {
            "threads": int(cells[1]),
            "seconds": [float(c.replace(",", "")) for c in cells[2 : 2 + len(sizes)]],
        }
    return sizes, rows


def confirmed_sizes(panel: str | None = None) -> dict:
    """The screens of ``panel`` (a config's ``dataset:`` or names joined by commas; default the confirmed panel) and
    their compounds (the counts table's ``kept``)."""
    import pandas as pd
    import yaml

    if panel and not panel.endswith((".yaml", ".yml")):
        names = panel.split(",")
    else:
        names = yaml.safe_load(Path(panel or ROOT / "config" / "panels" / "pubchem_hts_confirmed.yaml").read_text())
        names = names["dataset"]
    counts = pd.read_csv(ROOT / "config" / "panels" / "pubchem_hts_counts.tsv", sep="\t").set_index("dataset")
    return {n: int(counts.loc[n, "kept"]) for n in names}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--screens", nargs="+", default=[f"{k}={v}" for k, v in DEFAULT_SCREENS.items()])
    p.add_argument("--models", nargs="*", default=list(MODELS))
    p.add_argument("--rf-trees", type=int, default=50, help="the forest's trees when timed (default 50)")
    p.add_argument("--seeds", type=int, default=3, help="seeds of each stochastic ranker (default 3)")
    p.add_argument("--measured", help="an earlier run's output: estimate from its per-fold table, measure nothing")
    p.add_argument("--plan", help="F,R,G: price a design (folds, random repeats, grouped repeats); needs --measured")
    p.add_argument("--budget", type=int, default=8, help="--plan: configurations per tuned ranker (default 8)")
    p.add_argument("--dev-screens", type=int, default=15, help="--plan: development screens (default 15)")
    p.add_argument("--dev-folds", type=int, help="--plan: validation folds per development screen (default all F)")
    p.add_argument("--chosen", help="--plan: the chosen candidates' table (chosen.tsv): price the chosen settings")
    p.add_argument("--rf-cap", type=int, default=FULL_TREES, help="--plan: the forest's trees (default 500)")
    p.add_argument("--best", action="store_true", help="--chosen: price each ranker's best candidate, not its chosen")
    p.add_argument("--panel", help="--plan: a config whose dataset: lists the screens, or NAME,NAME,...")
    p.add_argument("--features", type=int, default=1, help="--plan: feature sets per ranker but RANDOM (default 1)")
    args = p.parse_args()
    if args.plan:
        if not args.measured:
            sys.exit("--plan prices a design from measured fold seconds: give --measured TABLE.md")
        try:
            folds, repeats, grouped = (int(x) for x in args.plan.split(","))
        except ValueError:
            sys.exit(f"--plan: F,R,G (three whole numbers); got {args.plan!r}")
        dev_folds = folds if args.dev_folds is None else args.dev_folds
        if not 1 <= dev_folds <= folds:
            sys.exit(f"--dev-folds: between 1 and the plan's {folds} folds; got {dev_folds}")
        sizes, rows = read_measured(args.measured)
        rows = {m: r for m, r in rows.items() if m in args.models}
        chosen = None
        if args.chosen:
            import pandas as pd

            table = pd.read_csv(args.chosen, sep="\t")
            picked = table["best" if args.best else "chosen"]
            chosen = dict(zip(table.loc[picked, "ranker"], table.loc[picked, "seconds"]))
        if args.features < 1:
            sys.exit(f"--features: 1 or more; got {args.features}")
        return plan(
            sizes, rows, folds, repeats, grouped, args.budget, args.dev_screens, args.rf_cap, dev_folds, chosen,
            panel=args.panel, features=args.features,
        )  # fmt: skip
    if args.measured:
        sizes, rows = read_measured(args.measured)
        return estimate(sizes, rows, args.seeds)
    if any("=" not in s for s in args.screens):
        sys.exit(f"--screens: each is NAME=RESULTS; got {' '.join(args.screens)}")
    screens = dict(s.split("=", 1) for s in args.screens)
    if len({_size(f) for f in screens.values() if (Path(f) / "folds.tsv").is_file()}) < 2:
        sys.exit("--screens: at least two screens of different sizes (the estimate interpolates between them)")
    for name, folder in screens.items():
        if not (Path(folder) / "folds.tsv").is_file():
            sys.exit(f"{name}: {folder} holds no folds.tsv (name a finished screen's results folder)")
    print("## Seconds per fold at full settings (fold 0, each job alone on the machine, its own threads)\n")
    print(
        "| ranker | threads | " + " | ".join(f"{n} ({_size(f):,}) s" for n, f in screens.items()) + " | peak RSS GB |"
    )
    print("|---|---:|" + "---:|" * len(screens) + "---:|")
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        trees = Path(tmp) / "rf_trees.yaml"
        trees.write_text(f"models: {{rf: {{n_estimators: {args.rf_trees}}}}}\n")
        for model in args.models:
            cells, rss = [], 0.0
            for name, folder in screens.items():
                files = configs(name) + ([trees] if model == "rf" else [])
                r = measure(str(FOLD_JOB), "fold", folder, model, 0, ",".join(map(str, files)))
                seconds = r["seconds"] * (FULL_TREES / args.rf_trees if model == "rf" else 1)
                cells.append(seconds)
                rss = max(rss, r["peak_rss_gb"])
            rows[model] = {"threads": r["threads"], "seconds": cells}
            mark = f" (timed at {args.rf_trees} trees)" if model == "rf" else ""
            print(
                f"| {model}{mark} | {r['threads']} | " + " | ".join(f"{c:,.1f}" for c in cells) + f" | {rss:.2f} |",
                flush=True,
            )
    estimate([_size(f) for f in screens.values()], rows, args.seeds)


def estimate(sizes, rows, seeds: int) -> None:
    """Print the hours of the confirmed panel's runs from each ranker's fold seconds at ``sizes``."""
    panel = confirmed_sizes()
    print(
        f"\n## The confirmed panel ({len(panel)} screens, {sum(panel.values()):,} compounds), 10 folds, "
        f"{seeds} seeds of the stochastic rankers\n"
    )
    largest = max(panel.values())
    print(
        f"| ranker | seeds | fold s at {largest:,} | hours of jobs, one split | hours of wall on 2 cores, one split |"
    )
    print("|---|---:|---:|---:|---:|")
    total_jobs = total_wall = 0.0
    for model, row in rows.items():
        runs = seeds if model in STOCHASTIC else 1
        jobs = sum(fold_seconds(sizes, row["seconds"], n) for n in panel.values()) * 10 * runs / 3600
        wall = jobs * row["threads"] / 2
        total_jobs, total_wall = total_jobs + jobs, total_wall + wall
        at = fold_seconds(sizes, row["seconds"], largest)
        print(f"| {model} | {runs} | {at:,.1f} | {jobs:.2f} | {wall:.2f} |")
    print(f"| all | | | {total_jobs:.2f} | {total_wall:.2f} |")
    print(
        f"\nBoth splits (random and grouped): {2 * total_jobs:.1f} hours of jobs, {2 * total_wall:.1f} hours of wall "
        "on 2 cores (the fold jobs only; features, neighbours and tables come on top)."
    )


UNTUNED = ("random", "maxsim")  # no setting to tune


def development_sizes(count: int) -> dict:
    """The ``count`` smallest campaigns the confirmed panel does not hold, by their primary screens' compounds."""
    import pandas as pd

    confirmed = {n.rsplit("_", 1)[0] for n in confirmed_sizes()}
    counts = pd.read_csv(ROOT / "config" / "panels" / "pubchem_hts_counts.tsv", sep="\t")
    primary = counts[counts["dataset"].str.endswith("_primary")]
    others = primary[~primary["dataset"].str.rsplit("_", n=1).str[0].isin(confirmed)].sort_values("kept")
    return dict(zip(others["dataset"].head(count), others["kept"].head(count).astype(int)))


def plan(
    sizes,
    rows,
    folds: int,
    repeats: int,
    grouped: int,
    budget: int,
    dev_screens: int,
    rf_cap: int,
    dev_folds=None,
    chosen=None,
    panel=None,
    features: int = 1,
) -> None:
    """Print the hours of wall on 2 cores of a design of the fair re-run (see the module's ``--plan``)."""
    from crocbench.models import BUILTIN

    share = (folds - 1) / folds / 0.9  # a fold's training set against the measured 10-fold one
    dev_folds = folds if dev_folds is None else dev_folds
    one_job = {cls.name for cls in BUILTIN if getattr(cls, "fold_jobs", None) == 1}
    panel, development = confirmed_sizes(panel), development_sizes(dev_screens)
    print(
        f"## A design: {len(panel)} screens ({', '.join(panel)}), {folds}-fold CV, {repeats} repeat(s) of the random split and "
        f"{grouped} of the grouped split; tuning on {len(development)} development screens ({dev_folds} of {folds} "
        f"folds each), {budget} configurations per tuned ranker; the forest at {rf_cap} trees"
        + (f"; every ranker but RANDOM on {features} sets of features" if features > 1 else "")
        + "\n"
    )
    chosen = chosen or {}
    print(
        "| ranker | tuning h | random split h | grouped split h | all h |" + (" chosen / default |" if chosen else "")
    )
    print("|---|---:|---:|---:|---:|" + ("---:|" if chosen else ""))
    totals = np.zeros(3)
    for model, row in rows.items():
        trees = rf_cap / FULL_TREES if model == "rf" else 1.0
        weight = row["threads"] / 2 * trees * folds / 3600
        arms = 1 if model == "random" else features  # the ranker on each set of features, its twin's seconds

        def hours(screens: dict) -> float:
            return weight * sum(fold_seconds(sizes, row["seconds"], n * share) for n in screens.values())  # noqa: B023

        share_run = 1.0 if model in one_job else dev_folds / folds  # a one-job ranker scores every fold
        tuning = 0.0 if model in UNTUNED else budget * hours(development) * share_run
        ratio = 1.0
        if model in chosen:  # the chosen candidate's seconds a development fold against its priced default's
            default = hours(development) * 3600 / (row["threads"] / 2 * folds) / len(development)
            ratio = float(chosen[model]) / default
        parts = arms * np.array([tuning, ratio * repeats * hours(panel), ratio * grouped * hours(panel)])
        totals += parts
        mark = (f" {ratio:.2f} |" if model in chosen else " |") if chosen else ""
        print(f"| {model} | " + " | ".join(f"{h:.2f}" for h in parts) + f" | {parts.sum():.2f} |" + mark)
    print("| all | " + " | ".join(f"{h:.2f}" for h in totals) + f" | {totals.sum():.2f} |" + (" |" if chosen else ""))
    print(
        f"\nThe headline runs (both splits): {totals[1:].sum():.1f} hours of wall on 2 cores; with the tuning "
        f"{totals.sum():.1f} (the fold jobs only; features, neighbours and tables come on top)."
    )


def _size(folder: str) -> int:
    with open(Path(folder) / "folds.tsv") as fh:
        return sum(1 for _ in fh) - 1


if __name__ == "__main__":
    main()

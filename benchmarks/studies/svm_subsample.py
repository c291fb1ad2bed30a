"""How much of the SVM's gap at the top comes from its subsample: a finished panel screen's SVM refitted fold by fold
on a smaller and a larger subsample, or on Nystroem features of every training compound.

    python benchmarks/studies/svm_subsample.py RUN_FOLDER [SCREEN ...] [--variants half double [seed1 seed2] [nystroem]]
        [--out results/reference/svm_subsample.tsv]

RUN_FOLDER is the folder where the panel ran (``config/panels/pubchem_hts.yaml``, with the ECFP rankers or not);
each SCREEN (default: GPCR_3_primary, hsf1_primary, transcription_5_primary: 64,000, 301,000 and 642,000
compounds) must be finished there. The panel's SVM fits exact LIBSVM on all of a fold's training actives and the
seeded negatives whose float64 kernel fits in 4 GB (22,360 compounds). Each variant is that SVM with one setting
changed (``VARIANTS``): ``seed1`` and ``seed2`` the panel's 4 GB subsample drawn again (``subsample_seed``: the
subsample's own spread), ``half`` a 1 GB kernel (11,180 compounds), ``double`` a 16 GB kernel (44,721 compounds,
about twice the negatives; its fold job needs about 19 GB, over the panel's 8 GB cap: this study runs one fold at a
time), ``nystroem`` a linear SVM on Nystroem features of all the training compounds (up to 4,000 landmarks, fewer
where the features would exceed 8 GB; not run by default: its inner CV fits 18 linear SVMs on 4,000 dense features,
and one fold of the smallest screen, 57,000 training compounds, took over 13 CPU-minutes without finishing).
The panel's own fits (``panel``) are read from the run, not refitted.

Each fold is replayed by ``benchmarks/accounting/fold_job.py`` in a process of its own (same seeds, same library
calls as the workflow's fold job) and its scores are kept under ``RUN_FOLDER/results/SCREEN/svm_subsample/`` (a
rerun skips the folds done, so the study resumes where it stopped). Once a screen's folds are all done, its pooled
out-of-fold ranking is scored on the summary's metrics, beside the best of the panel's own rankers there; the gap
closed is ``(variant - panel) / (best - panel)``. Prints a Markdown table and writes it as TSV (``--out``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _harness import measure  # noqa: E402

FOLD_JOB = ROOT / "benchmarks" / "accounting" / "fold_job.py"
PANEL = ROOT / "config" / "panels" / "pubchem_hts.yaml"
SCREENS = ("GPCR_3_primary", "hsf1_primary", "transcription_5_primary")
#: Each variant: the panel's ``svm`` entry with these settings changed.
VARIANTS = {
    "half": {"max_kernel_gb": 1},
    "double": {"max_kernel_gb": 16},
    "seed1": {"subsample_seed": 1},  # the panel's 4 GB subsample, another draw of its negatives
    "seed2": {"subsample_seed": 2},
    "nystroem": {"large": "nystroem", "landmarks": 4000, "max_kernel_gb": 8},
}


def variant_settings() -> dict:
    """Each variant's SVM entry: the panel's ``svm`` as the workflow reads it (``config.yaml``'s entry updated by the
    panel's: its C grid, class weights and halving too), with the variant's settings changed."""
    from snakemake.utils import update_config

    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    update_config(config, yaml.safe_load(PANEL.read_text()))
    svm = {k: v for k, v in config["models"]["svm"].items() if k != "label"}
    return {v: {**svm, **change, "class": "svm"} for v, change in VARIANTS.items()}


def variants_config(folder: Path, settings: dict) -> Path:
    """The panel's config with one ``svm_<variant>`` entry per variant."""
    panel = yaml.safe_load(PANEL.read_text())
    models = {**panel["models"], **{f"svm_{v}": entry for v, entry in settings.items()}}
    path = folder / "svm_subsample.yaml"
    path.write_text(yaml.safe_dump({**panel, "models": models}, sort_keys=False))
    return path


def fold_files(results: Path, variant: str, settings: dict) -> list[Path]:
    """The variant's fold score files of a screen (the panel's own for ``panel``), one per fold; a variant's folder
    is named by its settings' signature, so folds of other settings are never read as this variant's."""
    from crocbench._workflow import signature

    n_folds = int(pd.read_csv(results / "folds.tsv", sep="\t", usecols=["fold"])["fold"].max()) + 1
    if variant == "panel":
        where = results / "scores" / "svm"
    else:
        where = results / "svm_subsample" / f"{variant}-{signature(**settings[variant])}"
    return [where / f"fold_{k}.parquet" for k in range(n_folds)]


def run_folds(results: Path, variant: str, config: Path, settings: dict) -> dict:
    """Replay the variant's folds not done yet, one at a time (each fold's seconds and peak RSS kept beside its
    scores); the variant's seconds, largest peak RSS (GB) and folds, summed over every fold done, now or before."""
    for path in fold_files(results, variant, settings):
        if path.with_suffix(".cost.json").is_file():  # written last: the fold is done
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        fold = int(path.stem.split("_")[1])
        r = measure(str(FOLD_JOB), "fold", results, f"svm_{variant}", fold, config, path)
        cost = {"seconds": r["seconds"], "peak_rss_gb": r["peak_rss_gb"]}
        path.with_suffix(".cost.json").write_text(json.dumps(cost))
        print(
            f"{results.name} {variant} fold {fold}: {cost['seconds']:.1f} s, peak {cost['peak_rss_gb']:.2f} GB",
            file=sys.stderr,
            flush=True,
        )
    costs = [json.loads(p.with_suffix(".cost.json").read_text()) for p in fold_files(results, variant, settings)]
    return {"seconds": sum(c["seconds"] for c in costs), "peak_rss_gb": max(c["peak_rss_gb"] for c in costs)}


def pooled_values(results: Path, parts: list[Path], metrics) -> dict:
    """The metrics of the pooled out-of-fold ranking of these fold score files."""
    from crocbench.cv import pool_scores
    from crocbench.metrics import Ranking, parse_metric

    folds = pd.read_csv(results / "folds.tsv", sep="\t", dtype={"id": str})
    pooled = pool_scores((pd.read_parquet(p).astype({"id": str}) for p in parts), folds)
    ranking = Ranking(pooled["label"].to_numpy(), pooled["score"].to_numpy())
    return {key: parse_metric(key).value(ranking) for key in metrics}


def best_rankers(results: Path, metrics) -> dict:
    """Per metric, the best of the panel's own rankers on the screen (their pooled scores): ``(value, run)``."""
    from crocbench.metrics import Ranking, parse_metric

    best = {}
    for path in sorted((results / "scores").glob("*.parquet")):
        if path.stem in ("random", "primary_score"):
            continue
        pooled = pd.read_parquet(path)
        ranking = Ranking(pooled["label"].to_numpy(), pooled["score"].to_numpy())
        for key in metrics:
            value = parse_metric(key).value(ranking)
            if key not in best or value > best[key][0]:
                best[key] = (value, path.stem)
    return best


def main() -> None:
    from crocbench.report import SUMMARY_RANK_METRICS

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path, help="the folder where the panel ran")
    p.add_argument("screens", nargs="*", default=list(SCREENS))
    p.add_argument("--variants", nargs="*", default=["half", "double"], choices=list(VARIANTS))
    p.add_argument("--out", type=Path, help="the table as TSV")
    args = p.parse_args()
    metrics = list(SUMMARY_RANK_METRICS)
    rows = []
    settings = variant_settings()
    with tempfile.TemporaryDirectory() as tmp:
        config = variants_config(Path(tmp), settings)
        for screen in args.screens:
            results = args.run / "results" / screen
            if not (results / "scores" / "svm.parquet").is_file():
                sys.exit(f"{results}: no scores/svm.parquet (not a finished screen of the panel)")
            best = best_rankers(results, metrics)
            for variant in ["panel", *args.variants]:
                cost = run_folds(results, variant, config, settings) if variant != "panel" else {}
                parts = fold_files(results, variant, settings)
                infos = [json.loads(p.with_suffix(".json").read_text()) for p in parts]
                values = pooled_values(results, parts, metrics)
                row = {
                    "screen": screen,
                    "variant": variant,
                    "fit_compounds": int(sum(i.get("fit_compounds", 0) for i in infos) / len(infos)),
                    "landmarks": int(sum(i.get("landmarks", 0) for i in infos) / len(infos)),
                    **cost,
                }
                for key in metrics:
                    row[key] = values[key]
                    row[f"best_{key}"], row[f"best_run_{key}"] = best[key]
                rows.append(row)
    table = pd.DataFrame(rows)
    panel = table[table["variant"] == "panel"].set_index("screen")
    for key in metrics:
        gap = table["screen"].map(panel[f"best_{key}"] - panel[key])
        table[f"closed_{key}"] = (table[key] - table["screen"].map(panel[key])) / gap.where(gap > 0)
    if args.out is not None:
        table.to_csv(args.out, sep="\t", index=False, float_format="%.6g")
    print(markdown(table))


def markdown(table: pd.DataFrame, key: str = "croc_exp_80") -> str:
    """The study's table as the docs show it (docs/studies/ecfp_panel.md, question (d)): per screen and variant,
    what the SVM was fit on, its pooled value of ``key``, the best of the panel's rankers there and the share of the
    SVM's gap to it that the variant closes (negative: it widens), and the variant's job time and largest peak."""
    lines = [
        "| screen | SVM | fit on | AUC[CROC(exp)] a=80 | best ranker | gap closed | fold jobs s | peak RSS GB |",
        "|---|---|---|---:|---|---:|---:|---:|",
    ]
    for r in table.to_dict("records"):
        fit = f"{r['landmarks']:,} landmarks" if r["landmarks"] else f"{r['fit_compounds']:,} compounds"
        cost = "" if pd.isna(r.get("seconds")) else f"{r['seconds']:.0f} | {r['peak_rss_gb']:.2f}"
        closed = "" if r["variant"] == "panel" else f"{r[f'closed_{key}']:+.2f}"
        lines.append(
            f"| {r['screen']} | {r['variant']} | {fit} | {r[key]:.4f} | {r[f'best_run_{key}']} "
            f"{r[f'best_{key}']:.4f} | {closed} | {cost or ' | '} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()

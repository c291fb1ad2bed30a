"""What the forest's cap of trees costs: the chosen forest of a development panel refitted with more trees on fold 0
of each development screen, against the capped forest's own fold-0 scores.

    python benchmarks/studies/rf_cap.py DEV_RUN --chosen config/studies/fair_chosen.yaml \
        [--config config/panels/pubchem_hts.yaml,config/studies/fair_development.yaml] [--trees 500] \
        [--screens GPCR_2_primary ...] [--out results/reference/rf_cap.tsv]

DEV_RUN is the folder where the development panel ran (``tuning: design: development``; ``--config`` its config
files, comma-separated, over ``config.yaml``). ``--chosen`` is ``crocbench tuning choose``'s output: its ``rf`` is
the chosen candidate, and its ``.tsv`` beside it names the candidate run (``rf.c3``) whose fold-0 scores, at the
capped trees, the workflow wrote. Each screen's fold 0 is replayed by ``benchmarks/accounting/fold_job.py`` in a
process of its own, as the workflow's fold job scores it, with ``--trees`` trees and every other setting the
chosen one's; scikit-learn draws a forest's trees from its seed in order, so the capped forest's trees are the
first of the larger one. Its scores are kept under ``DEV_RUN/results/SCREEN/rf_cap/`` (named by the settings'
signature, so a rerun skips a screen done). Prints, per screen and over the screens, the metrics of both forests
on fold 0 (a fold's own values) and their difference, and writes them as TSV (``--out``).
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
CONFIGS = (ROOT / "config" / "panels" / "pubchem_hts.yaml", ROOT / "config" / "studies" / "fair_development.yaml")
METRICS = ("croc_exp_80", "ef_1pct", "roc")


def chosen_forest(chosen: Path) -> tuple[dict, str]:
    """The chosen forest's settings (``--chosen``'s ``models: rf``) and its candidate run (its table's row)."""
    models = (yaml.safe_load(chosen.read_text()) or {}).get("models") or {}
    if "rf" not in models:
        sys.exit(f"{chosen}: no chosen rf under models:")
    table = pd.read_csv(chosen.with_suffix(".tsv"), sep="\t")
    row = table[(table["ranker"] == "rf") & table["chosen"]]
    if len(row) != 1:
        sys.exit(f"{chosen.with_suffix('.tsv')}: no chosen rf candidate")
    return dict(models["rf"]), str(row["candidate"].iloc[0])


def fold_values(path: Path) -> dict:
    """The metrics of one fold's scores (its own ranking)."""
    from crocbench.metrics import Ranking, parse_metric

    scores = pd.read_parquet(path)
    ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
    return {key: parse_metric(key).value(ranking) for key in METRICS}


def main() -> None:
    from crocbench._workflow import signature

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path, help="the folder where the development panel ran")
    p.add_argument("--chosen", type=Path, required=True, help="crocbench tuning choose's output (with its .tsv)")
    p.add_argument("--config", default=",".join(map(str, CONFIGS)), help="the development run's config files")
    p.add_argument("--trees", type=int, default=500, help="the uncapped forest's trees (default 500, the class's)")
    p.add_argument("--screens", nargs="+", help="default: the development panel's (the chosen file's chosen_on)")
    p.add_argument("--out", type=Path, help="the table as TSV")
    args = p.parse_args()
    settings, candidate = chosen_forest(args.chosen)
    screens = args.screens or (yaml.safe_load(args.chosen.read_text())["tuning"]["chosen_on"])
    full = {**settings, "class": "rf", "n_estimators": args.trees, "label": "RF-full"}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        extra = Path(tmp) / "rf_cap.yaml"
        extra.write_text(yaml.safe_dump({"models": {"rf_full": full}}))
        config = f"{args.config},{extra}"
        for screen in screens:
            results = args.run / "results" / screen
            capped = results / "scores" / candidate / "fold_0.parquet"
            if not capped.is_file():
                sys.exit(f"{capped}: missing (the development panel's fold 0 of {candidate} on {screen})")
            saved = results / "rf_cap" / f"trees{args.trees}-{signature(**full)}" / "fold_0.parquet"
            cost = saved.with_suffix(".cost.json")
            if not cost.is_file():  # written last: the fold is done
                saved.parent.mkdir(parents=True, exist_ok=True)
                r = measure(str(FOLD_JOB), "fold", results, "rf_full", 0, config, saved)
                cost.write_text(json.dumps({"seconds": r["seconds"], "peak_rss_gb": r["peak_rss_gb"]}))
            spent = json.loads(cost.read_text())
            small, large = fold_values(capped), fold_values(saved)
            row = {"screen": screen, "capped_trees": int(settings.get("n_estimators", 500)), "trees": args.trees}
            row.update({f"capped_{k}": v for k, v in small.items()})
            row.update({f"full_{k}": v for k, v in large.items()})
            row.update({f"difference_{k}": large[k] - small[k] for k in METRICS})
            rows.append({**row, **spent})
            print(f"{screen}: {spent['seconds']:.0f} s; " + ", ".join(f"{k} {row[f'difference_{k}']:+.4f}" for k in METRICS),
                  file=sys.stderr, flush=True)  # fmt: skip
    table = pd.DataFrame(rows)
    if args.out is not None:
        table.to_csv(args.out, sep="\t", index=False, float_format="%.6g")
    print(markdown(table, candidate))


def markdown(table: pd.DataFrame, candidate: str) -> str:
    """Per screen, each metric at the capped and at the full trees and their difference; then their means."""
    first = table.iloc[0]
    head = " | ".join(f"{k} {first.capped_trees} / {first.trees} trees (difference)" for k in METRICS)
    lines = [f"| screen | {head} | fold job s |", "|---|" + "---:|" * (len(METRICS) + 1)]
    for r in table.itertuples():
        cells = " | ".join(
            f"{getattr(r, f'capped_{k}'):.4f} / {getattr(r, f'full_{k}'):.4f} ({getattr(r, f'difference_{k}'):+.4f})"
            for k in METRICS
        )
        lines.append(f"| {r.screen} | {cells} | {r.seconds:.0f} |")
    means = " | ".join(f"({table[f'difference_{k}'].mean():+.4f})" for k in METRICS)
    lines.append(f"| mean over {len(table)} screens | {means} | {table['seconds'].sum():.0f} |")
    return f"Fold 0 of each screen; the capped forest is the chosen candidate {candidate}.\n\n" + "\n".join(lines)


if __name__ == "__main__":
    main()

"""What a chosen ranker's capped setting costs: the configuration a development panel chose, refitted with a setting
changed on fold 0 of each development screen, against the chosen candidate's own fold-0 scores.

    python benchmarks/studies/caps.py DEV_RUN --chosen config/studies/fair_chosen.yaml --ranker rf \
        --variant trees500:n_estimators=500 [--variant NAME:KEY=VALUE[,KEY=VALUE] ...] \
        [--config config/panels/pubchem_hts.yaml,config/studies/fair_development.yaml] [--screens ...] [--out T.tsv]

DEV_RUN is the folder where the development panel ran (``tuning: design: development``; ``--config`` its config
files, comma-separated, over ``config.yaml``). ``--chosen`` is ``crocbench tuning choose``'s output: its
``models:`` entry of ``--ranker`` is the chosen configuration, and its ``.tsv`` beside it names the candidate run
(``rf.c3``) whose fold-0 scores the workflow wrote. Each variant is that configuration with its settings changed
(values read as YAML: ``n_estimators=500``, ``subsample_seed=1``, ``max_kernel_gb=16``). Each screen's fold 0 is
replayed by ``benchmarks/accounting/fold_job.py`` in a process of its own, as the workflow's fold job scores it
(the same seeds), with the variant's settings; so a variant that changes nothing gives back the candidate's scores
bit for bit, and scikit-learn's forest at more trees holds the capped forest's trees first. The scores are kept
under ``DEV_RUN/results/SCREEN/caps/`` (named by the settings' signature: a rerun skips what is done). Prints, per
screen and variant, the metrics of the chosen candidate and of the variant on fold 0 (a fold's own values), their
difference, the variant's fold job seconds and peak RSS, and the mean difference over the screens; writes them as
TSV (``--out``).
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


def chosen_entry(chosen: Path, ranker: str) -> tuple[dict, str]:
    """The chosen configuration of ``ranker`` (``--chosen``'s ``models:``) and its candidate run (its table's row)."""
    models = (yaml.safe_load(chosen.read_text()) or {}).get("models") or {}
    if ranker not in models:
        sys.exit(f"{chosen}: no chosen {ranker} under models:")
    table = pd.read_csv(chosen.with_suffix(".tsv"), sep="\t")
    row = table[(table["ranker"] == ranker) & table["chosen"]]
    if len(row) != 1:
        sys.exit(f"{chosen.with_suffix('.tsv')}: no chosen {ranker} candidate")
    return {"class": ranker, **models[ranker]}, str(row["candidate"].iloc[0])


def parse_variant(text: str) -> tuple[str, dict]:
    """``NAME:KEY=VALUE[,KEY=VALUE]`` as ``(name, {key: value})``, each value read as YAML."""
    name, _, settings = text.partition(":")
    pairs = [p.partition("=") for p in settings.split(",") if p]
    if not name or not pairs or any(not key or not sep for key, sep, _ in pairs):
        sys.exit(f"--variant: NAME:KEY=VALUE[,KEY=VALUE]; got {text!r}")
    return name, {key: yaml.safe_load(value) for key, _, value in pairs}


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
    p.add_argument("--ranker", required=True, help="the ranker whose chosen configuration is varied (rf, svm, ...)")
    p.add_argument("--variant", action="append", required=True, help="NAME:KEY=VALUE[,KEY=VALUE] (repeatable)")
    p.add_argument("--config", default=",".join(map(str, CONFIGS)), help="the development run's config files")
    p.add_argument("--screens", nargs="+", help="default: the development panel's (the chosen file's chosen_on)")
    p.add_argument("--out", type=Path, help="the table as TSV")
    args = p.parse_args()
    entry, candidate = chosen_entry(args.chosen, args.ranker)
    variants = dict(parse_variant(v) for v in args.variant)
    screens = args.screens or yaml.safe_load(args.chosen.read_text())["tuning"]["chosen_on"]
    runs = {name: {**entry, **change, "label": f"{args.ranker}-{name}"} for name, change in variants.items()}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        extra = Path(tmp) / "caps.yaml"
        extra.write_text(yaml.safe_dump({"models": {f"{args.ranker}_{n}": e for n, e in runs.items()}}))
        config = f"{args.config},{extra}"
        for screen in screens:
            results = args.run / "results" / screen
            own = results / "scores" / candidate / "fold_0.parquet"
            if not own.is_file():
                sys.exit(f"{own}: missing (the development panel's fold 0 of {candidate} on {screen})")
            base = fold_values(own)
            for name, settings in runs.items():
                run = f"{args.ranker}_{name}"
                saved = results / "caps" / f"{run}-{signature(**settings)}" / "fold_0.parquet"
                cost = saved.with_suffix(".cost.json")
                if not cost.is_file():  # written last: the fold is done
                    saved.parent.mkdir(parents=True, exist_ok=True)
                    r = measure(str(FOLD_JOB), "fold", results, run, 0, config, saved)
                    cost.write_text(json.dumps({"seconds": r["seconds"], "peak_rss_gb": r["peak_rss_gb"]}))
                spent, values = json.loads(cost.read_text()), fold_values(saved)
                row = {"screen": screen, "candidate": candidate, "variant": name}
                row.update({f"chosen_{k}": base[k] for k in METRICS})
                row.update({f"variant_{k}": values[k] for k in METRICS})
                row.update({f"difference_{k}": values[k] - base[k] for k in METRICS})
                rows.append({**row, **spent})
                print(
                    f"{screen} {name}: {spent['seconds']:.0f} s; "
                    + ", ".join(f"{k} {row[f'difference_{k}']:+.4f}" for k in METRICS),
                    file=sys.stderr,
                    flush=True,
                )
    table = pd.DataFrame(rows)
    if args.out is not None:
        table.to_csv(args.out, sep="\t", index=False, float_format="%.6g")
    print(markdown(table, variants))


def markdown(table: pd.DataFrame, variants: dict) -> str:
    """Per screen and variant, each metric of the chosen candidate and of the variant (their difference), the
    variant's fold job seconds and peak RSS; then each variant's mean difference over the screens."""
    head = " | ".join(f"{k}: chosen / variant (difference)" for k in METRICS)
    lines = [f"| screen | variant | {head} | fold job s | peak RSS GB |", "|---|---|" + "---:|" * (len(METRICS) + 2)]
    for r in table.itertuples():
        cells = " | ".join(
            f"{getattr(r, f'chosen_{k}'):.4f} / {getattr(r, f'variant_{k}'):.4f} ({getattr(r, f'difference_{k}'):+.4f})"
            for k in METRICS
        )
        lines.append(f"| {r.screen} | {r.variant} | {cells} | {r.seconds:.0f} | {r.peak_rss_gb:.2f} |")
    for name, part in table.groupby("variant", sort=False):
        means = " | ".join(f"({part[f'difference_{k}'].mean():+.4f})" for k in METRICS)
        lines.append(f"| mean over {len(part)} screens | {name} | {means} | {part['seconds'].mean():.0f} | |")
    settings = "; ".join(f"{n}: {', '.join(f'{k}={v}' for k, v in c.items())}" for n, c in variants.items())
    return f"Fold 0 of each screen; the chosen candidate {table['candidate'].iloc[0]}; {settings}.\n\n" + "\n".join(
        lines
    )


if __name__ == "__main__":
    main()

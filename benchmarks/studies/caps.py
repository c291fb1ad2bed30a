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
TSV (``--out``, each row's settings with it, so ``markdown`` renders the table from the file alone).

A variant that changes only a seed (``subsample_seed``, ``seed``) is a redraw: the chosen candidate and its redraws
give each screen's spread of the metric of record (the range of their values), and the reading under the table
says whether each other variant's values leave that spread.
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
METRICS = ("croc_exp_80", "ef_1pct", "roc")  # the first is the metric of record of the reading
SEED_KEYS = {"subsample_seed", "seed"}  # a variant that changes only these is a redraw


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
                row = {"screen": screen, "candidate": candidate, "variant": name, "settings": described(variants[name])}
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
        table.to_csv(args.out, sep="\t", index=False, float_format="%.10g")
    print(markdown(table))


def described(settings: dict) -> str:
    """A variant's settings as ``key=value, key=value`` (the file's and the page's)."""
    return ", ".join(f"{key}={value}" for key, value in settings.items())


def markdown(table: pd.DataFrame) -> str:
    """Per screen and variant, each metric of the chosen candidate and of the variant (their difference), the
    variant's fold job seconds and peak RSS; then each variant's mean difference over the screens, and the
    reading (:func:`reading`)."""
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
    settings = "; ".join(f"{n}: {s}" for n, s in table.drop_duplicates("variant")[["variant", "settings"]].values)
    first = f"Fold 0 of each screen; the chosen candidate {table['candidate'].iloc[0]}; {settings}."
    return first + "\n\n" + "\n".join(lines) + "\n\n" + reading(table)


def reading(table: pd.DataFrame) -> str:
    """What the table says on the metric of record (``METRICS[0]``), as sentences: where there are redraws (variants
    that change only a seed), each screen's spread over the chosen candidate and its redraws (the range of their
    values), its mean and largest over the screens; and for each other variant its mean difference from the chosen
    candidate (smallest and largest over the screens) and on how many screens its value lies outside the spread."""
    from crocbench.metrics import parse_metric

    key = METRICS[0]
    label = parse_metric(key).label
    redraw = table["settings"].map(lambda s: {p.partition("=")[0] for p in s.split(", ")} <= SEED_KEYS)
    screens = list(dict.fromkeys(table["screen"]))
    out = []
    spread = {}
    if redraw.any():
        for screen in screens:
            part = table[(table["screen"] == screen) & redraw]
            values = [part[f"chosen_{key}"].iloc[0], *part[f"variant_{key}"]]
            spread[screen] = (min(values), max(values))
        ranges = pd.Series({s: high - low for s, (low, high) in spread.items()})
        names = ", ".join(dict.fromkeys(table.loc[redraw, "variant"]))
        out.append(
            f"- Redraws ({names}, with the chosen candidate: {1 + redraw.groupby(table['screen']).sum().min()} draws a "
            f"screen): {label} spans {ranges.mean():.4f} on mean over {len(screens)} screens, at most "
            f"{ranges.max():.4f} ({ranges.idxmax()})."
        )
    for name, part in table[~redraw].groupby("variant", sort=False):
        d = part[f"difference_{key}"]
        line = (
            f"- {name}: {label} moves by {d.mean():+.4f} on mean over {len(part)} screens "
            f"(from {d.min():+.4f} to {d.max():+.4f})"
        )
        if spread:
            outside = sum(
                not spread[r.screen][0] <= getattr(r, f"variant_{key}") <= spread[r.screen][1]
                for r in part.itertuples()
            )
            line += f"; outside the redraws' spread on {outside} of {len(part)} screens"
        out.append(line + ".")
    return "\n".join(out)


if __name__ == "__main__":
    main()

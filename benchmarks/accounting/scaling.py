"""How each stage's cost grows with the screen's size: wall time and peak RSS per stage, fitted exponents, 1M.

    python benchmarks/accounting/scaling.py [DATASET[=LOGS] ...] [--plot FILE.png] [--chunks-1m N]

Reads the workflow's own ``benchmark:`` files (``logs/{dataset}/benchmark/``, or the
folder LOGS given for a dataset, e.g. a CI clone's) for each dataset (default:
``synthetic_10k dtp_aids synthetic_100k synthetic_250k``; the synthetic ones are
declared in ``config/examples/scaling.yaml``) and its size (``results/{dataset}/
standardize_summary.json``, next to LOGS), and prints a Markdown table per stage:

- parse + fingerprint (``standardize``, ``fingerprints``);
- neighbours (the ``neighbours_chunk`` jobs and their merge); a stage of equal chunk
  jobs may have been measured on a seeded sample of them (``--sample`` below): its
  time is then the sampled jobs' mean times the chunk count, marked ``*``;
- the N x N matrix (only when the SVM's folds fit exactly);
- each model's folds (the sum of its ``score_fold`` jobs; a sample of folds is
  scaled the same way);
- significance, power, report (``areas_table`` and ``figures``).

Time is the sum of a stage's job times (what 2 cores spend on it), peak RSS the
largest job's.  For each stage measured at two sizes or more, the exponent b of
``time ~ N^b`` (least squares on log-log over all sizes, and between the two
largest), and the time at 1,000,000 compounds extrapolated from the largest
measured size with the two largest sizes' b (a fit over all sizes is flattened
by the start-up of small jobs).  A model whose folds used a large-screen strategy
(``large: subsample``) is a row of its own.  ``--plot`` writes the log-log plot.

    python benchmarks/accounting/scaling.py --sample DATASET CHUNKS FOLDS [--seed S]

prints the Snakemake targets of a seeded uniform sample of a dataset's chunk jobs
(CHUNKS of them) and fold jobs (FOLDS per model), for stage-by-stage measurement.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ["synthetic_10k", "dtp_aids", "synthetic_100k", "synthetic_250k"]
TARGET = 1_000_000


def _config() -> dict:
    """config.yaml, with config/examples/scaling.yaml's datasets merged in."""
    import yaml

    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    extra = yaml.safe_load((ROOT / "config" / "examples" / "scaling.yaml").read_text())
    config["datasets"].update(extra.get("datasets", {}))
    return config


def _read(path: Path) -> tuple[float, float]:
    """(seconds, max RSS in MB) of one benchmark file (its last row: the last attempt)."""
    lines = path.read_text().strip().splitlines()
    head, last = lines[0].split("\t"), lines[-1].split("\t")
    row = dict(zip(head, last))
    return float(row["s"]), float(row["max_rss"]) if row["max_rss"] not in ("NA", "-") else math.nan


def _stage(files: list[Path], expected: int | None = None) -> dict | None:
    """Sum of times and largest RSS of a stage's jobs; scaled up by expected / measured if only a sample ran."""
    if not files:
        return None
    runs = [_read(f) for f in files]
    seconds = sum(s for s, _ in runs)
    sampled = expected is not None and len(runs) < expected
    if sampled:
        seconds *= expected / len(runs)
    return {"seconds": seconds, "rss_mb": max(r for _, r in runs), "sampled": sampled, "jobs": len(runs)}


def measure(dataset: str, logs: Path, config: dict) -> dict:
    """{"n": compounds, "stages": {stage: {...}}} from one dataset's benchmark folder."""
    from crocbench.similarity import default_chunks

    results = logs.parent.parent / "results" / dataset
    n = json.loads((results / "standardize_summary.json").read_text())["kept"]
    bench = logs / "benchmark"
    k, folds = config["similarity"]["k"], config["cv"]["folds"]
    chunks = config["similarity"].get("chunks") or default_chunks(n, tile=config["similarity"]["tile"])
    stages = {
        "parse + fingerprint": _stage(
            [p for p in (bench / "standardize.tsv", bench / "fingerprints.tsv") if p.exists()]
        ),
        "neighbours (chunks)": _stage(sorted((bench / f"neighbours_k{k}").glob("chunk_*.tsv")), chunks),
        "neighbours (merge)": _stage([p for p in [bench / f"neighbours_k{k}.tsv"] if p.exists()]),
        "N x N matrix": _stage([p for p in [bench / "similarity_matrix.tsv"] if p.exists()]),
    }
    order = list(config["models"])
    runs = (
        sorted(
            (bench / "scores").iterdir(), key=lambda p: (order.index(p.name) if p.name in order else len(order), p.name)
        )
        if (bench / "scores").is_dir()
        else []
    )
    for folder in runs:  # the models of the comparison first, then the IRV's training variants
        per_fold = sorted(folder.glob("fold_*.tsv"))  # a job per fold (a sample of folds is scaled up), or the
        shared = sorted(folder.glob("folds*.tsv"))  # run's jobs of several folds each (fold_jobs), all of them
        stages[f"{folder.name} ({folds} folds{_strategy(results / 'scores' / folder.name)})"] = (
            _stage(per_fold, folds) if per_fold else _stage(shared)
        )
    stages["significance"] = _stage([p for p in [bench / "significance_table.tsv"] if p.exists()])
    stages["power"] = _stage([p for p in [bench / "power_study.tsv"] if p.exists()])
    stages["report (tables, figures)"] = _stage(
        [p for p in (bench / "areas_table.tsv", bench / "figures.tsv") if p.exists()]
    )
    return {"n": n, "chunks": chunks, "stages": {s: v for s, v in stages.items() if v is not None}}


def _strategy(scores: Path) -> str:
    """ ", subsample" when a model's folds were fitted by a declared large-screen strategy (their JSON's ``large``):
    a different algorithm from the exact fit, so a row of its own."""
    large = {json.loads(f.read_text()).get("large") for f in scores.glob("fold_*.json")} - {None}
    return f", {'/'.join(sorted(large))}" if large else ""


def exponent(ns, values) -> float | None:
    """b of ``value ~ N^b``, least squares on log-log; None below two sizes."""
    ns, values = np.asarray(ns, dtype=float), np.asarray(values, dtype=float)
    keep = values > 0
    if np.unique(ns[keep]).size < 2:
        return None
    return float(np.polyfit(np.log(ns[keep]), np.log(values[keep]), 1)[0])


def _time(seconds: float) -> str:
    return f"{seconds:,.0f} s" if seconds < 5400 else f"{seconds / 3600:,.1f} h"


def extrapolate(ns, values) -> tuple[float | None, float | None]:
    """(b over the two largest sizes, the time at 1M from the largest size with that b); Nones below two sizes.

    The slope at the large end: a fit over all sizes is flattened by the fixed start-up of small jobs.
    """
    pts = sorted(zip(ns, values))
    if len(pts) < 2 or pts[-1][0] >= TARGET:
        return None, None
    b = exponent(*zip(*pts[-2:]))
    return b, None if b is None else pts[-1][1] * (TARGET / pts[-1][0]) ** b


def _stages(measured: dict) -> list[str]:
    """Every stage once, in the order of first appearance; a strategy's row ("svm (10 folds, subsample)") after
    its model's exact row."""
    stages = list(dict.fromkeys(s for m in measured.values() for s in m["stages"]))
    base = [re.sub(r", [\w/]+\)$", ")", s) for s in stages]
    return [s for _, s in sorted(zip(base, stages), key=lambda pair: (base.index(pair[0]), stages.index(pair[1])))]


def fits(measured: dict) -> dict:
    """Per stage: its points [(N, seconds)], b over all sizes and between the two largest, and its 1M figure
    (seconds, "measured", "not run at N" or None)."""
    # a stage absent from a larger end-to-end run (the exact SVM, its matrix) does not run at that size: no 1M figure
    largest_run = max((m["n"] for m in measured.values() if "report (tables, figures)" in m["stages"]), default=0)
    out = {}
    for stage in _stages(measured):
        pts = sorted((m["n"], m["stages"][stage]["seconds"]) for m in measured.values() if stage in m["stages"])
        ns, ts = [n for n, _ in pts], [t for _, t in pts]
        b_top, at = extrapolate(ns, ts)
        if max(ns) >= TARGET:
            at = "measured"
        elif max(ns) < largest_run:
            at = f"not run at {largest_run:,}"
        out[stage] = {"points": pts, "b_all": exponent(ns, ts), "b_top": b_top, "at": at}
    return out


def table(measured: dict) -> str:
    names = list(measured)
    head = [
        "stage",
        *[f"{d} (N={measured[d]['n']:,})" for d in names],
        "b (all sizes)",
        "b (two largest)",
        "at 1M (extrapolated)",
    ]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for stage, fit in fits(measured).items():
        cells = []
        for d in names:
            v = measured[d]["stages"].get(stage)
            rss = "" if v is None or math.isnan(v["rss_mb"]) else f", {v['rss_mb'] / 1024:.1f} GB"
            cells.append("" if v is None else f"{_time(v['seconds'])}{'*' if v['sampled'] else ''}{rss}")
        b_all, b_top = (f"{b:.2f}" if b is not None else "" for b in (fit["b_all"], fit["b_top"]))
        at = _time(fit["at"]) if isinstance(fit["at"], float) else fit["at"] or ""
        lines.append(f"| {stage} | " + " | ".join(cells) + f" | {b_all} | {b_top} | {at} |")
    return "\n".join(lines)


def plot(measured: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 5.5))
    colours = plt.get_cmap("tab20").colors
    for i, (stage, fit) in enumerate(fits(measured).items()):
        if len(fit["points"]) < 2:
            continue
        ns, ts = np.array(fit["points"]).T
        colour, marker = colours[i % len(colours)], "os^Dv"[i % 5]
        label = (
            f"{stage}: measured at {ns[-1]:,.0f}"
            if fit["at"] == "measured"
            else stage
            if fit["b_top"] is None
            else f"{stage}: b = {fit['b_top']:.2f} at the top"
        )
        ax.plot(ns, ts, "-", marker=marker, color=colour, label=label)
        if isinstance(fit["at"], float):
            ax.plot([ns[-1], TARGET], [ts[-1], fit["at"]], ":", color=colour)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("compounds N")
    ax.set_ylabel("job time, seconds (sum over the stage's jobs)")
    ax.set_title("Cost per stage on 2 cores; dotted: extrapolated to 1,000,000")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def sample_targets(dataset: str, n_chunks: int, n_folds: int, seed: int = 0) -> list[str]:
    """Snakemake targets of a seeded uniform sample of a dataset's neighbour chunk jobs and of each model's folds."""
    from crocbench.similarity import default_chunks

    config = _config()
    declared = config["datasets"][dataset]
    n = declared.get("expected", {}).get("kept")
    if n is None:
        sys.exit(f"dataset {dataset!r} declares no expected: kept, so its chunk count is unknown before it runs")
    chunks = config["similarity"].get("chunks") or default_chunks(n, tile=config["similarity"]["tile"])
    rng = np.random.default_rng(seed)
    k, folds = config["similarity"]["k"], config["cv"]["folds"]
    targets = [
        f"results/{dataset}/neighbours_k{k}.chunks/{c}.npz"
        for c in sorted(rng.choice(chunks, min(n_chunks, chunks), replace=False))
    ]
    for name in config["models"]:  # the comparison's models (not the IRV's training variants)
        targets += [
            f"results/{dataset}/scores/{name}/fold_{f}.parquet"
            for f in sorted(rng.choice(folds, min(n_folds, folds), replace=False))
        ]
    return targets


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", help="DATASET or DATASET=LOGS (default: %(default)s)", default=DEFAULT)
    parser.add_argument("--plot", help="write the log-log plot here")
    parser.add_argument(
        "--sample",
        nargs=3,
        metavar=("DATASET", "CHUNKS", "FOLDS"),
        help="print the targets of a seeded sample of chunk and fold jobs instead",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.sample:
        print(" ".join(sample_targets(args.sample[0], int(args.sample[1]), int(args.sample[2]), args.seed)))
        return
    config = _config()
    measured = {}
    for spec in args.datasets:
        name, _, logs = spec.partition("=")
        folder = Path(logs) if logs else ROOT / "logs" / name
        if not (folder / "benchmark").is_dir():
            print(f"{name}: no benchmark files under {folder}, skipped", file=sys.stderr)
            continue
        measured[name] = measure(name, folder, config)
    if not measured:
        sys.exit("no dataset has benchmark files; run the workflow first")
    print(table(measured))
    print(
        "\n`*`: measured on a seeded sample of the stage's equal jobs, scaled by their count. Time: the sum of the "
        "stage's job times; GB: its largest job's peak RSS."
    )
    if args.plot:
        plot(measured, args.plot)


if __name__ == "__main__":
    main()

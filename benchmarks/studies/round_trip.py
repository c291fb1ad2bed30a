"""A benchmark's round trip on the workflow run its reference came from: the export equals the run's compounds
and folds, and each reference ranker's own out-of-fold scores, entered as a submission, give back its committed
values.

    python benchmarks/studies/round_trip.py SPEC RUN [--screens S1,S2] [--rankers knn,irv] [--export DIR]

SPEC is a spec file (``src/crocbench/benchmark/specs/<name>.json``, or a draft frozen elsewhere); RUN the folder the
workflow ran the reference's screens in (``RUN/results/<screen>/``; a repeated split's repeat r > 0 under
``repeats/<r>/``). The export goes to ``--export`` (default: a temporary folder; an interrupted export resumes).
For every screen and repeat it checks the exported ids, labels and fold column against the run's ``folds.tsv``;
then for each ranker (default: every one the spec names) it writes the run's scores as a
submission (``id, score``, and ``repeat`` where the split repeats), evaluates it, and compares each metric with
the values the benchmark places it among (its reference's; where the split repeats, each one's mean over the
repeats) within the reference's tolerance. Prints one row per ranker: the largest
difference over screens and metrics, and whether every value is within tolerance. Exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

import crocbench.benchmark as bm

ROOT = Path(__file__).resolve().parents[2]


def _repeat_dir(run: Path, screen: str, repeat: int) -> Path:
    base = run / "results" / screen
    return base if repeat == 0 else base / "repeats" / str(repeat)


def check_folds(export: Path, run: Path, screens, repeats: int) -> None:
    """The export's ids, labels and folds are the run's, repeat by repeat; raises one line naming the first
    difference."""
    for screen in screens:
        table = pd.read_csv(export / bm.screen_file(screen), dtype={"id": str}, keep_default_na=False)
        for r in range(repeats):
            folds = pd.read_csv(_repeat_dir(run, screen, r) / "folds.tsv", sep="\t", dtype={"id": str})
            column = "fold" if repeats == 1 else f"fold_{r}"
            if table["id"].tolist() != folds["id"].tolist():
                raise SystemExit(f"round_trip: {screen}, repeat {r}: the export's ids are not the run's")
            if not (np.array_equal(table[column], folds["fold"]) and np.array_equal(table["label"], folds["label"])):
                raise SystemExit(f"round_trip: {screen}, repeat {r}: the export's folds or labels are not the run's")


def submission(run: Path, key: str, screens, repeats: int, spec_file: Path, out: Path) -> Path:
    """The run's scores of ranker ``key`` as a submission folder: ``<screen>.csv`` (``id, score[, repeat]``)."""
    out.mkdir(parents=True, exist_ok=True)
    for screen in screens:
        parts = []
        for r in range(repeats):
            path = _repeat_dir(run, screen, r) / "scores" / f"{key}.parquet"
            if not path.is_file():
                raise SystemExit(f"round_trip: {path}: no scores of {key} (did the run score it?)")
            scores = pd.read_parquet(path, columns=["id", "score"])
            parts.append(scores.assign(repeat=r) if repeats > 1 else scores)
        pd.concat(parts).to_csv(out / f"{screen}.csv", index=False)
    (out / "benchmark.json").write_bytes(spec_file.read_bytes())
    return out


def main(argv=None) -> int:
    from crocbench.config import load_config, study_runs
    from crocbench.reference import ABSOLUTE_FLOOR, RELATIVE_TOLERANCE

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", help="the spec file")
    parser.add_argument("run", help="the folder the workflow ran the reference's screens in")
    parser.add_argument("--screens", help="comma-separated subset of the spec's screens (default: all)")
    parser.add_argument("--rankers", help="comma-separated model keys (default: each the spec names)")
    parser.add_argument("--export", help="the export folder (default: a temporary one)")
    args = parser.parse_args(argv)

    spec = bm.read_spec(args.spec)
    run = Path(args.run)
    screens = args.screens.split(",") if args.screens else list(spec.screens)
    unknown = [s for s in screens if s not in spec.screens]
    if unknown:
        raise SystemExit(f"round_trip: {unknown[0]!r} is not a screen of {spec.name} ({', '.join(spec.screens)})")
    labels = {k: r.label for k, r in study_runs(load_config(spec.config, ROOT)).items()}
    keys = args.rankers.split(",") if args.rankers else [k for k, v in labels.items() if v in spec.rankers]
    missing = [k for k in keys if k not in labels]
    if missing:
        raise SystemExit(f"round_trip: {missing[0]!r} is no model of {spec.name}'s config ({', '.join(labels)})")

    with tempfile.TemporaryDirectory(prefix="round-trip-") as tmp:
        export = Path(args.export or Path(tmp) / "export")
        bm.export(spec, export, ROOT, screens, progress=sys.stderr)
        check_folds(export, run, screens, spec.repeats)
        print(f"{spec.name}: the export's ids, labels and folds are the run's on {len(screens)} screen(s), "
              f"{spec.repeats} repeat(s) each")  # fmt: skip
        bench = bm.load(export, screens=screens, progress=None, unregistered=True)  # SPEC may be a draft
        # the values the benchmark places an entry among (a repeated split's: each one's mean over the repeats)
        committed = bench.reference.set_index(["dataset", "model"])
        rows, bad = [], 0
        for key in keys:
            sub = submission(run, key, screens, spec.repeats, export / bm.SPEC_FILE, Path(tmp) / key)
            result = bench.evaluate(sub, name=f"{labels[key]} again")
            values = result.values.set_index("dataset")
            worst, ok = 0.0, True
            for screen in screens:
                for metric in spec.metrics:
                    got, want = values.loc[screen, metric], committed.loc[(screen, labels[key]), metric]
                    worst = max(worst, abs(got - want))
                    ok &= abs(got - want) <= max(RELATIVE_TOLERANCE * abs(want), ABSOLUTE_FLOOR)
            bad += not ok
            rows.append({"ranker": labels[key], "screens": len(screens), "largest difference": f"{worst:.2g}",
                         "within tolerance": "yes" if ok else "NO"})  # fmt: skip
    print(pd.DataFrame(rows).to_string(index=False))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

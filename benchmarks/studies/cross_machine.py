"""How far a finished run's numbers move under another CPU's BLAS and SIMD kernels; prints a table.

    python benchmarks/studies/cross_machine.py [results/dtp_aids] [--fold 0]

OpenBLAS picks its kernels per CPU and numpy its SIMD loops; ``OPENBLAS_CORETYPE`` and
``NPY_DISABLE_CPU_FEATURES`` make this machine run another CPU's.  Under each setting (this
machine's own; Sandybridge kernels with numpy's AVX2 loops off) it recomputes, from the run's
pooled scores and fingerprints, the significance table (table 2) and one SVM fold as the workflow
configures it (inner CV included), then prints the largest difference per quantity.  These are
the spreads behind the tolerances of ``crocbench.reference``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {
    "this CPU": {},
    "Sandybridge, no AVX2": {"OPENBLAS_CORETYPE": "Sandybridge", "NPY_DISABLE_CPU_FEATURES": "AVX2 FMA3"},
}


def _run(results: str, fold: int, out: str) -> None:
    import yaml

    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.cv import cross_validate
    from crocbench.models import LABELS, make_model
    from crocbench.report import metric_set_for, significance_table
    from crocbench.similarity import SimilarityIndex, load_neighbours
    from crocbench.stats import TESTS

    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    folder = Path(results)
    pooled = {LABELS[m]: pd.read_parquet(folder / "scores" / f"{m}.parquet") for m in config["models"]}
    table = significance_table(
        pooled,
        metric_set_for(next(iter(pooled.values()))),
        TESTS,
        n_samples=config["significance"]["samples"],
        seed=config["cv"]["seed"],
    )
    table.to_csv(out + ".significance.tsv", sep="\t", index=False, float_format="%.17g")
    folds = pd.read_csv(folder / "folds.tsv", sep="\t", dtype={"id": str})
    sim = SimilarityIndex(
        load_fingerprints(folder / "fingerprints.npz"), load_neighbours(sorted(folder.glob("neighbours_k*.npz"))[-1])
    )
    done = cross_validate(
        lambda k: make_model("svm", config["models"]["svm"], seed=(config["cv"]["seed"], k), n_jobs=2),
        sim,
        folds,
        only=[fold],
    )
    model = done.models[fold]
    done.scores[fold].to_parquet(out + ".svm.parquet")
    Path(out + ".svm.json").write_text(json.dumps(model.info()))


def main() -> None:
    if sys.argv[1:2] == ["--step"]:
        _run(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", nargs="?", default=str(ROOT / "results" / "dtp_aids"), help="a finished run's results")
    p.add_argument("--fold", type=int, default=0, help="the SVM fold recomputed (default: 0)")
    args = p.parse_args()
    results, fold = args.results, args.fold
    with tempfile.TemporaryDirectory() as tmp:
        outs = {}
        for name, env in SETTINGS.items():
            out = str(Path(tmp) / name.replace(" ", "_").replace(",", ""))
            done = subprocess.run(
                [sys.executable, __file__, "--step", results, str(fold), out],
                env={**os.environ, **env},
                capture_output=True,
                text=True,
            )
            if done.returncode:
                sys.exit(f"{name} failed:\n{done.stderr[-3000:]}")
            outs[name] = out
            print(f"{name}: done", file=sys.stderr, flush=True)
        a, b = outs.values()
        sig = [pd.read_csv(o + ".significance.tsv", sep="\t") for o in (a, b)]
        svm = [pd.read_parquet(o + ".svm.parquet")["score"].to_numpy() for o in (a, b)]
        info = [json.loads(Path(o + ".svm.json").read_text()) for o in (a, b)]
    rows = []
    numeric = [c for c in sig[0].columns if pd.api.types.is_float_dtype(sig[0][c])]
    for column in numeric:
        x, y = sig[0][column].to_numpy(), sig[1][column].to_numpy()
        rows.append((f"table 2: {column}", float(np.max(np.abs(x - y) / np.maximum(np.abs(y), 1e-300)))))
    rows.append(
        (
            f"SVM fold {fold}: decision values (relative)",
            float(np.max(np.abs(svm[0] - svm[1]) / np.maximum(np.abs(svm[1]), 1e-300))),
        )
    )
    inner = [{(c["C"], c["class_weight"]): c["value"] for c in i.get("inner_cv", [])} for i in info]
    if inner[0]:
        rows.append(
            (f"SVM fold {fold}: inner-CV values (absolute)", max(abs(inner[0][k] - inner[1][k]) for k in inner[0]))
        )
    same = (info[0]["C"], info[0]["class_weight"]) == (info[1]["C"], info[1]["class_weight"])
    width = max(len(r[0]) for r in rows)
    print(f"{'quantity':<{width}}  largest difference between '{a.split('/')[-1]}' and '{b.split('/')[-1]}'")
    for name, value in rows:
        print(f"{name:<{width}}  {value:.3g}")
    print(
        f"SVM fold {fold}: chosen (C, class weight) {'the same' if same else 'DIFFERENT'}: "
        f"{info[0]['C']:g}, {info[0]['class_weight']} / {info[1]['C']:g}, {info[1]['class_weight']}"
    )


if __name__ == "__main__":
    main()

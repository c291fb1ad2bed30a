"""Speed and memory of the five models over the shared 10 folds on the DTP AIDS set; prints a table.

    python benchmarks/speed/models.py [results/dtp_aids]

Reads ``fingerprints.npz`` and ``compounds.parquet`` from the results folder
(run ``snakemake --cores 2 results/dtp_aids/fingerprints.npz`` first).  Each
model is set up as ``config.yaml`` configures it for the workflow (the SVM: inner-CV
selection of C and class weight, fitted on working sets, with the threads its class asks for; where its class says ``uses_matrix``, e.g. with
``working_set: null``, its kernels are read from the all-pairs similarity matrix, computed first as the
workflow's ``similarity_matrix`` rule does) and runs all folds in its own process, so its peak RSS is its own.
Targets (2 cores): SVM all folds <= 4 min; IRV <= 2 min; kNN + MAX-SIM + RANDOM <= 30 s; peak RSS of any job
<= 8 GB.  The quality columns are on the pooled
out-of-fold ranking.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from crocbench._bench import measure, print_result, step_args

ROOT = Path(__file__).resolve().parents[2]


def _svm_uses_matrix(folder: str) -> bool:
    """Whether the SVM as ``config.yaml`` sets it up reads the all-pairs matrix on this dataset."""
    import yaml

    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.models import declared_runs

    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    n = load_fingerprints(Path(folder) / "fingerprints.npz").n
    return declared_runs({"svm": config["models"]["svm"]})["svm"].uses_matrix(n, config["cv"]["folds"])


def _step(name: str, folder: str, cache: str, matrix: str) -> dict:
    import numpy as np
    import pandas as pd
    import yaml

    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.cv import cross_validate, fold_table
    from crocbench.metrics import croc_auc, hits_at_k, roc_auc
    from crocbench.models import declared_runs, make_model
    from crocbench.similarity import (
        MatrixFile,
        SimilarityIndex,
        all_pairs_top_k,
        load_neighbours,
        save_neighbours,
        tanimoto_matrix,
    )

    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    t = time.perf_counter()
    fp = load_fingerprints(Path(folder) / "fingerprints.npz")
    if name == "neighbours":
        save_neighbours(cache, all_pairs_top_k(fp, 50))
        return {"seconds": time.perf_counter() - t}
    if name == "matrix":
        tanimoto_matrix(fp, out=matrix)
        return {"seconds": time.perf_counter() - t}
    compounds = pd.read_parquet(Path(folder) / "compounds.parquet")
    n_folds, seed = config["cv"]["folds"], config["cv"]["seed"]
    folds = fold_table(compounds["id"], compounds["label"], n_folds, seed)
    run = declared_runs({name: config["models"][name]})[name]
    uses_matrix, threads = run.uses_matrix(fp.n, n_folds), run.resources(fp.n, n_folds)["threads"]
    sim = SimilarityIndex(fp, load_neighbours(cache), matrix=MatrixFile(matrix, threads=2) if uses_matrix else None)
    # as the workflow's fold jobs: the threads the model's class asks for
    done = cross_validate(
        lambda f: make_model(name, config["models"][name], seed=(seed, f), n_jobs=threads), sim, folds
    )
    epochs = [getattr(model, "n_epochs_", 0) for model in done.models.values()]
    pooled = done.pooled(folds)
    y, s = pooled["label"].to_numpy(), pooled["score"].to_numpy()
    return {
        "seconds": time.perf_counter() - t,
        "roc": roc_auc(y, s),
        "croc80": croc_auc(y, s, alpha=80),
        "top1000": hits_at_k(y, s, k=1000),
        "epochs": float(np.mean(epochs)),
    }


def main() -> None:
    if (args := step_args()) is not None:
        print_result(_step(*args))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", nargs="?", default=str(ROOT / "results" / "dtp_aids"), help="a run's results folder")
    folder = p.parse_args().results
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cache, matrix = str(Path(tmp) / "nb.npz"), str(Path(tmp) / "matrix.npy")
        for step in ("neighbours", "random", "maxsim", "knn", "irv", "matrix", "svm"):
            if step == "matrix" and not _svm_uses_matrix(folder):
                continue
            rows.append((step, measure(__file__, step, folder, cache, matrix)))
            print(f"{step}: done", file=sys.stderr, flush=True)
    print(
        f"{'step (10 folds)':<16} {'seconds':>8} {'peak RSS GB':>11} {'AUC[ROC]':>9} {'CROC a=80':>9} "
        f"{'top 1000':>8} {'epochs':>6}"
    )
    for step, r in rows:
        label = {"neighbours": "top-50 neighbours", "matrix": "N x N matrix"}.get(step, step)
        quality = f"{r['roc']:>9.4f} {r['croc80']:>9.4f} {r['top1000']:>8.1f} {r['epochs']:>6.0f}" if "roc" in r else ""
        print(f"{label:<16} {r['seconds']:>8.1f} {r['peak_rss_gb']:>11.2f} {quality}")
    simple = sum(r["seconds"] for s, r in rows if s in ("random", "maxsim", "knn"))
    print(f"kNN + MAX-SIM + RANDOM: {simple:.1f} s (target <= 30 s); IRV <= 120 s; SVM <= 240 s; RSS <= 8 GB")


if __name__ == "__main__":
    main()

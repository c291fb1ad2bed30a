"""What the SVM's large-data strategies cost in accuracy: exact LIBSVM vs subsampled and Nystroem folds on DTP AIDS.

    python benchmarks/studies/svm_large.py [results/dtp_aids] [STRATEGY:MAX_KERNEL_GB[:LANDMARKS] ...]

A screen whose training kernel exceeds ``models.svm.max_kernel_gb`` is fitted by its
``large:`` strategy: ``subsample`` (exact LIBSVM, with the inner CV, on all training
positives and a seeded subset of negatives whose kernel fits) or ``nystroem`` (a
linear SVM, with the inner CV, on Nystroem features of seeded landmark compounds, as
many as fit, at most LANDMARKS).  Here the DTP AIDS folds (37,715 training compounds,
11.4 GB kernels) are forced under smaller lines (default: subsample at 1, 2 and 4 GB;
Nystroem at 1 GB with config.yaml's landmarks) with the SVM
otherwise as ``config.yaml`` configures it, and compared with the exact SVM's pooled
out-of-fold scores from the workflow's run (``scores/svm.parquet`` in the results folder).  Each setting runs its 10 folds in
its own process (2 threads, as a fold job), so its peak RSS is its own.  Prints a
Markdown table: AUC[ROC], AUC[CROC(exp)] a=80, actives in the top 1,000.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from crocbench._bench import measure, print_result, step_args

ROOT = Path(__file__).resolve().parents[2]


def _metrics(y, s) -> dict:
    from crocbench.metrics import croc_auc, hits_at_k, roc_auc

    return {"roc": roc_auc(y, s), "croc80": croc_auc(y, s, alpha=80), "top1000": hits_at_k(y, s, k=1000)}


def _step(folder: str, setting: str) -> dict:
    import pandas as pd
    import yaml

    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.cv import cross_validate, fold_table
    from crocbench.models import make_model
    from crocbench.similarity import SimilarityIndex

    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    t = time.perf_counter()
    fp = load_fingerprints(Path(folder) / "fingerprints.npz")
    compounds = pd.read_parquet(Path(folder) / "compounds.parquet")
    n_folds, seed = config["cv"]["folds"], config["cv"]["seed"]
    folds = fold_table(compounds["id"], compounds["label"], n_folds, seed)
    sim = SimilarityIndex(fp)
    strategy, limit, *landmarks = setting.split(":")
    params = {**config["models"]["svm"], "large": strategy, "max_kernel_gb": float(limit)}
    if landmarks:
        params["landmarks"] = int(landmarks[0])
    done = cross_validate(lambda f: make_model("svm", params, seed=(seed, f), n_jobs=2), sim, folds)  # 2 threads
    fitted = [m.info().get("landmarks", m.info().get("fit_compounds", m.train_.size)) for m in done.models.values()]
    pooled = done.pooled(folds)
    return {
        "seconds": time.perf_counter() - t,
        "fit_compounds": sum(fitted) / len(fitted),
        **_metrics(pooled["label"].to_numpy(), pooled["score"].to_numpy()),
    }


def main() -> None:
    if (args := step_args()) is not None:
        print_result(_step(*args))
        return
    import pandas as pd

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", nargs="?", default=str(ROOT / "results" / "dtp_aids"), help="a finished run's results")
    p.add_argument(
        "settings",
        nargs="*",
        default=["subsample:1", "subsample:2", "subsample:4", "nystroem:1"],
        metavar="STRATEGY:MAX_KERNEL_GB[:LANDMARKS]",
        help="the settings compared (default: subsample at 1, 2 and 4 GB, nystroem at 1 GB)",
    )
    args = p.parse_args()
    folder, settings = args.results, args.settings
    exact = pd.read_parquet(Path(folder) / "scores" / "svm.parquet")
    rows = [
        (
            "exact (the workflow's run)",
            "37,715 compounds",
            None,
            _metrics(exact["label"].to_numpy(), exact["score"].to_numpy()),
        )
    ]
    for setting in settings:
        r = measure(__file__, folder, setting)
        strategy, limit, *_ = setting.split(":")
        what = "compounds" if strategy == "subsample" else "landmarks"
        rows.append((f"{strategy}, max_kernel_gb {limit}", f"{r['fit_compounds']:,.0f} {what}", r, r))
        print(f"{setting}: done in {r['seconds']:.0f} s", file=sys.stderr, flush=True)
    base = rows[0][3]
    print(
        "| SVM folds | fitted per fold | AUC[ROC] | AUC[CROC(exp)] a=80 | actives in top 1,000 "
        "| seconds (10 folds) | peak RSS GB |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, fitted, run, m in rows:
        delta = (
            ""
            if run is None
            else (
                f" ({m['roc'] - base['roc']:+.4f})",
                f" ({m['croc80'] - base['croc80']:+.4f})",
                f" ({m['top1000'] - base['top1000']:+.0f})",
            )
        )
        d = delta or ("", "", "")
        cost = ("", "") if run is None else (f"{run['seconds']:.0f}", f"{run['peak_rss_gb']:.1f}")
        print(
            f"| {label} | {fitted} | {m['roc']:.4f}{d[0]} | {m['croc80']:.4f}{d[1]} | {m['top1000']:.0f}{d[2]} "
            f"| {cost[0]} | {cost[1]} |"
        )


if __name__ == "__main__":
    main()

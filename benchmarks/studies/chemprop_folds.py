"""Chemprop's out-of-fold scores of a finished run's folds, the folds trained side by side on one GPU.

    python benchmarks/studies/chemprop_folds.py results/dtp_aids --out chemprop_scores.tsv [--workers 10]

Reads ``compounds.parquet`` (id, smiles) and ``folds.tsv`` (id, label, fold) from a run's results folder, trains
:class:`crocbench.models.Chemprop` with its defaults on each fold's training compounds, seeded as the workflow's fold
job seeds it (``(repeat_seed(seed, 0), fold)``), and writes ``id, fold, score`` for every compound: the file that a
config imports as ``models: chemprop: {scores: chemprop_scores.tsv, label: Chemprop}`` (the ``import_scores`` rule
checks it against ``folds.tsv``). Each fold is a process of its own with one CPU thread; on a machine with a GPU they
share it. Prints a line per fold (seconds, device, peak RSS). The way to run the GNN where a GPU is lent and the
workflow where it is not; on the CPU the workflow's own fold jobs are the same model.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd


def fold_scores(smiles: np.ndarray, folds: pd.DataFrame, fold: int, seed: int, options: dict) -> tuple:
    """Train on every other fold, score this one: ``(fold, scores frame, seconds, device, peak RSS in MB)``."""
    from crocbench.cv import score_fold
    from crocbench.models import Chemprop

    start = time.perf_counter()
    model = Chemprop(seed=(seed, fold), n_jobs=1, **options)
    scores = score_fold(model, SimpleNamespace(n=len(smiles), smiles=smiles), folds, fold)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return fold, scores[["id", "fold", "score"]], time.perf_counter() - start, model.info()["device"], peak


def main() -> None:
    from crocbench.cv import repeat_seed

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a finished run's results folder (compounds.parquet, folds.tsv)")
    parser.add_argument("--out", type=Path, required=True, help="the scores file (TSV: id, fold, score)")
    parser.add_argument("--seed", type=int, default=0, help="the run's cv seed (config cv.seed)")
    parser.add_argument("--workers", type=int, default=10, help="folds trained at once")
    parser.add_argument("--folds", type=int, nargs="*", help="only these folds (default: every fold)")
    parser.add_argument("--epochs", type=int, help="a smoke test's fewer epochs (default: the model's)")
    args = parser.parse_args()

    compounds = pd.read_parquet(args.results / "compounds.parquet", columns=["id", "smiles"])
    folds = pd.read_csv(args.results / "folds.tsv", sep="\t", dtype={"id": str})
    if not compounds["id"].astype(str).equals(folds["id"]):
        raise SystemExit(f"{args.results}: compounds.parquet and folds.tsv list different compounds")
    smiles = compounds["smiles"].to_numpy()
    wanted = sorted(set(folds["fold"])) if args.folds is None else args.folds
    seed, options = repeat_seed(args.seed, 0), {} if args.epochs is None else {"epochs": args.epochs}
    parts = []
    with ProcessPoolExecutor(max_workers=args.workers, mp_context=get_context("spawn")) as pool:
        jobs = [pool.submit(fold_scores, smiles, folds, k, seed, options) for k in wanted]
        for job in as_completed(jobs):
            fold, scores, seconds, device, peak = job.result()
            parts.append(scores)
            print(f"fold {fold}: {len(scores)} compounds in {seconds:.1f} s on {device}, peak RSS {peak:.0f} MB")
            sys.stdout.flush()
            table = pd.concat(parts).sort_values("fold", kind="stable")  # the folds done so far, kept if stopped
            tmp = args.out.with_name(args.out.name + ".part")
            table.to_csv(tmp, sep="\t", index=False, float_format="%.10g")
            tmp.replace(args.out)
    print(f"wrote {args.out}: {len(table)} compounds, folds {sorted(set(table['fold']))}")


if __name__ == "__main__":
    main()

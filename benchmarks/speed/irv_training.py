"""Cost of the IRV's reweighting schemes on the DTP AIDS set, over the shared 10 folds; prints a table.

    python benchmarks/speed/irv_training.py [results/dtp_aids]

Reads ``fingerprints.npz``, ``neighbours_k50.npz`` and ``folds.tsv`` from the
results folder (run the workflow first).  For each scheme: the cost of one
epoch (all folds trained for exactly 100 epochs, the neighbour lists already
built, divided by the epoch count; the faster of two repeats, after a warm-up) against the unweighted IRV's, and the time
to train all 10 folds to convergence.  Targets (2 cores): per epoch no more
than the baseline + 10%; all schemes over 10 folds <= 5 min.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "results", type=Path, nargs="?", default=ROOT / "results" / "dtp_aids", help="a finished run's results folder"
    )
    args = p.parse_args()
    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.cv import split
    from crocbench.models import IRV, SCHEMES
    from crocbench.similarity import SimilarityIndex, load_neighbours

    folder = args.results
    folds = pd.read_csv(folder / "folds.tsv", sep="\t", dtype={"id": str})
    sim = SimilarityIndex(
        load_fingerprints(folder / "fingerprints.npz"), load_neighbours(sorted(folder.glob("neighbours_k*.npz"))[-1])
    )
    y, fold = folds["label"].to_numpy(), folds["fold"].to_numpy()
    splits = [split(fold, f) for f in np.unique(fold)]

    def fit_all(**params):
        epochs, seconds = 0, 0.0
        for train, _ in splits:
            model = IRV(**params)
            model.train_, model.y_ = train, y[train].astype(np.int8)
            _, s, c = model._inputs(sim, train)  # the neighbour lists, outside the timed loop
            start = time.perf_counter()
            model._train(s, c, model.y_)
            seconds += time.perf_counter() - start
            epochs += model.n_epochs_
        return epochs, seconds

    fit_all(reweight="none", max_epochs=30, tol=0.0)  # warm-up: thread pools, first-touch memory
    rows = []
    for scheme in SCHEMES:
        e, s = min((fit_all(reweight=scheme, max_epochs=100, tol=0.0) for _ in range(2)), key=lambda r: r[1])
        ce, cs = fit_all(reweight=scheme)
        rows.append((scheme, 1000 * s / e, ce / len(splits), cs))
    base = rows[0][1]
    print(f"{'scheme':<14} {'ms/epoch':>8} {'vs none':>8} {'epochs to converge':>19} {'10 folds, s':>11}")
    for scheme, ms, epochs, seconds in rows:
        print(f"{scheme:<14} {ms:>8.2f} {ms / base:>7.2f}x {epochs:>19.1f} {seconds:>11.1f}")
    print(
        f"all schemes to convergence: {sum(r[3] for r in rows):.1f} s (target <= 300 s); "
        f"per-epoch target: <= 1.10x the unweighted IRV"
    )


if __name__ == "__main__":
    main()

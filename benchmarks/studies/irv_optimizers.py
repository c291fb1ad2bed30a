"""How reweighting changes the IRV's epochs to convergence under each optimizer, on one fold; prints a table.

    python benchmarks/studies/irv_optimizers.py [results/synthetic_10k] [--fold 0]

Reads ``fingerprints.npz``, ``neighbours_k*.npz`` and ``folds.tsv`` from the results folder (a finished run),
trains the IRV (k = 20) on the fold's training compounds under each optimizer set-up of ``config.yaml``'s
``irv_sensitivity`` and each reweighting scheme, and prints the epoch at which each stop rule fires (``-`` if it
did not within ``max_epochs``), with the test fold's AUC[CROC(exp)] a=80 under the default (loss) rule. A
measurement, not a test: it asserts nothing about which way reweighting moves the counts.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.metrics import croc_auc
    from crocbench.paper._irv_study import run_study_fold
    from crocbench.similarity import SimilarityIndex, load_neighbours

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "results", type=Path, nargs="?", default=ROOT / "results" / "synthetic_10k", help="a finished run's results"
    )
    p.add_argument("--fold", type=int, default=0, help="the fold trained (default: 0)")
    args = p.parse_args()
    folder, fold = args.results, args.fold
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    study, training = config["irv_sensitivity"], {k: v for k, v in config["irv_training"].items() if k != "schemes"}
    folds = pd.read_csv(folder / "folds.tsv", sep="\t", dtype={"id": str})
    sim = SimilarityIndex(
        load_fingerprints(folder / "fingerprints.npz"), load_neighbours(sorted(folder.glob("neighbours_k*.npz"))[-1])
    )
    start = time.perf_counter()
    runs, _, rows = run_study_fold(sim, folds, fold, study, config["models"]["irv"], training)
    seconds = time.perf_counter() - start
    table = pd.DataFrame(
        [
            {
                **{k: r[k] for k in ("setting", "scheme", "stop")},
                "epochs": r["epochs"] if r["converged"] else "-",
                "croc80": croc_auc(rows["label"].to_numpy(), r["scores"], alpha=80.0),
            }
            for r in runs
        ]
    )
    wide = table.pivot_table(index=["setting", "scheme"], columns="stop", values="epochs", aggfunc="first", sort=False)
    wide["test AUC[CROC(exp)] a=80 (loss rule)"] = table[table["stop"] == "loss"].set_index(["setting", "scheme"])[
        "croc80"
    ]
    print(
        f"{folder.name}, fold {fold}: {int((folds['fold'] != fold).sum()):,} training and {len(rows):,} test compounds; "
        f"epochs at which each stop rule fires (max {study['max_epochs']}); {seconds:.0f} s"
    )
    print(wide.to_string(float_format=lambda v: f"{v:.4f}"))


if __name__ == "__main__":
    main()

"""Today's rankers on one fold of a large screen, each change side by side with the code before it, in one run.

    python benchmarks/speed/ecfp_rankers.py RESULTS [--fold 0] [--epochs 2] [--hidden 1024] [--batch 128]
        [--rounds 200] [--trees 20] [--only mlp gbm rf]

RESULTS is a screen's results folder holding ``folds.tsv``, ``fingerprints.npz`` and ``ecfp.npz`` (for example
``results/hsf1_primary`` of a panel run: ``snakemake --cores 2 results/hsf1_primary/ecfp.npz
results/hsf1_primary/fingerprints.npz results/hsf1_primary/folds.tsv --configfile config/panels/pubchem_hts.yaml --config 'dataset=[hsf1_primary]'``).
Each row is the fold's fit and scoring in a process of its own, on 2 threads; the variants of a ranker differ only
where the row says:

- **MLP**: the first layer dense (``torch.nn.Linear`` on the densified batch, the layer before commit 44423cf)
  against the sparse first layer (the rows of W at the set bits), at equal epochs (``--epochs``), width
  (``--hidden``) and batch size (``--batch``), no early stopping; the largest score difference between them is printed (float32 summation order).
- **GBM**: the features sampled per tree (LightGBM's ``feature_fraction``, the parameter before this change)
  against per split (``feature_fraction_bynode``), at equal rounds (``--rounds``, no early stopping). The scores
  differ: another sampling of the features; the fold's metrics are printed beside the time.
- **stop** (with ``--only stop``): the MLP at its defaults, its 20 epochs on every training compound
  (``patience: null``, the default before) against early stopping (the default: at most 20 epochs, patience 3);
  no seconds per unit, as early stopping runs fewer.
- **RF**: scikit-learn's forest against LightGBM's ``rf`` boosting, on all training compounds with the
  defaults' leaf size and features, ``--trees`` trees each: the seconds per tree, and 500 trees extrapolated.

Targets (2 cores): the sparse MLP >= 10x the dense one per epoch; GBM per split >= 3x per tree per round; a forest
of 500 trees on all compounds of a 300,000-compound screen in <= 10 minutes and <= 8 GB.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, measure, print_result, step_args  # noqa: E402

METRICS = ("roc", "croc_exp_80", "ef_1pct")


def _dense_mlp(params):
    """The MLP with the dense first layer: ``Linear(2048, h)`` on each batch densified to float32."""
    import torch

    from crocbench.models import MLP

    class Dense(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            return self.net(torch.from_numpy(x.toarray()))

    class DenseMLP(MLP):
        def network(self, n_features):
            torch.manual_seed(self.random_state)
            layers, width = [], n_features
            for h in self.hidden:
                layers += [torch.nn.Linear(width, h), torch.nn.ReLU(), torch.nn.Dropout(self.dropout)]
                width = h
            return Dense(torch.nn.Sequential(*layers, torch.nn.Linear(width, 1)))

    return DenseMLP(**params)


def _per_tree_gbm(params):
    """GBM with the features sampled per tree (``feature_fraction``), as before this change."""
    from crocbench.models import GBM

    class PerTree(GBM):
        def params(self):
            out = super().params()
            out["feature_fraction"] = out.pop("feature_fraction_bynode")
            return out

    return PerTree(**params)


def _step(results: str, fold: int, variant: str, size: int, save: str, hidden: int, batch: int) -> None:
    import time

    import numpy as np
    import pandas as pd

    from crocbench.chem.ecfp import load_ecfp
    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.metrics import Ranking, parse_metric
    from crocbench.models import make_model
    from crocbench.similarity import SimilarityIndex

    folds = pd.read_csv(Path(results) / "folds.tsv", sep="\t", dtype={"id": str})
    ecfp = load_ecfp(Path(results) / "ecfp.npz")
    sim = SimilarityIndex(load_fingerprints(Path(results) / "fingerprints.npz"), None, ids=folds["id"], ecfp=ecfp)
    y, f = folds["label"].to_numpy(), folds["fold"].to_numpy()
    train, test = np.flatnonzero(f != fold), np.flatnonzero(f == fold)
    common = {"seed": (0, fold), "n_jobs": 2, "threads": 2}
    net = {"epochs": size, "patience": None, "hidden": [hidden], "batch_size": batch}
    model = {
        "mlp_dense": lambda: _dense_mlp({**net, **common}),
        "mlp_sparse": lambda: make_model("mlp", net, **_kw(common)),
        "mlp_all_epochs": lambda: make_model("mlp", {"epochs": size, "patience": None}, **_kw(common)),
        "mlp_early_stopping": lambda: make_model("mlp", {"epochs": size}, **_kw(common)),
        "gbm_per_tree": lambda: _per_tree_gbm({"max_rounds": size, "patience": size, **common}),
        "gbm_per_split": lambda: make_model("gbm", {"max_rounds": size, "patience": size}, **_kw(common)),
        "rf_sklearn": lambda: make_model("rf", {"n_estimators": size}, **_kw(common)),
        "rf_lightgbm": lambda: make_model("rf", {"n_estimators": size, "engine": "lightgbm"}, **_kw(common)),
    }[variant]()
    start, cpu = time.perf_counter(), cpu_seconds()
    scores = model.fit(sim, train, y[train]).score(sim, test)
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    np.save(save, scores)
    ranking = Ranking(y[test], scores)
    print_result(
        {"seconds": wall, "cpu_seconds": cpu, "train": int(train.size)}
        | {key: parse_metric(key).value(ranking) for key in METRICS}
    )


def _kw(common: dict) -> dict:
    return {"seed": common["seed"], "n_jobs": common["n_jobs"]}


def main() -> None:
    import tempfile

    import numpy as np

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results")
    p.add_argument("--fold", type=int, default=0)
    p.add_argument("--epochs", type=int, default=2, help="the MLPs' epochs (default 2)")
    p.add_argument("--hidden", type=int, default=1024, help="the MLPs' hidden units (default 1024, the default's)")
    p.add_argument("--batch", type=int, default=128, help="the MLPs' batch size (default 128, the default's)")
    p.add_argument("--rounds", type=int, default=200, help="the GBMs' rounds (default 200)")
    p.add_argument("--trees", type=int, default=20, help="the forests' trees (default 20)")
    p.add_argument(
        "--only",
        nargs="+",
        default=["mlp", "gbm", "rf"],
        choices=["mlp", "gbm", "rf", "stop"],
        help="pairs to run: mlp gbm rf (default) and stop",
    )
    args = p.parse_args()
    if not (Path(args.results) / "ecfp.npz").is_file():
        sys.exit(f"{args.results}: no ecfp.npz (name a screen's results folder with its ECFP4 built)")
    pairs = {
        "mlp": (("mlp_dense", "mlp_sparse"), args.epochs, "epoch"),
        "gbm": (("gbm_per_tree", "gbm_per_split"), args.rounds, "round"),
        "rf": (("rf_sklearn", "rf_lightgbm"), args.trees, "tree"),
        "stop": (("mlp_all_epochs", "mlp_early_stopping"), 20, "epoch"),
    }
    print(f"## Fold {args.fold} of {Path(args.results).name}: before and after, side by side (2 threads)\n")
    print("| variant | units | wall s | s per unit | CPU s | peak RSS GB | AUC[ROC] | CROC a=80 | EF 1% |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only:
            variants, size, unit = pairs[name]
            rows = {}
            for v in variants:
                rows[v] = measure(__file__, args.results, args.fold, v, size, f"{tmp}/{v}.npy", args.hidden, args.batch)
                r = rows[v]
                per = "" if name == "stop" else f"{r['seconds'] / size:.3f}"  # early stopping: fewer epochs ran
                print(
                    f"| {v} | {size} {unit}s | {r['seconds']:.1f} | {per} | {r['cpu_seconds']:.1f} "
                    f"| {r['peak_rss_gb']:.2f} | {r['roc']:.4f} | {r['croc_exp_80']:.4f} | {r['ef_1pct']:.2f} |",
                    flush=True,
                )
            before, after = (rows[v]["seconds"] for v in variants)
            diff = np.abs(np.load(f"{tmp}/{variants[0]}.npy") - np.load(f"{tmp}/{variants[1]}.npy")).max()
            line = (
                f"- {name}: {variants[1]} is {before / after:.2f}x {variants[0]}; largest score difference {diff:.3g}"
            )
            if name == "rf":
                line += "; 500 trees: " + ", ".join(
                    f"{v} {rows[v]['seconds'] / size * 500 / 60:.1f} min" for v in variants
                )
            notes.append(line)
    print("\n" + "\n".join(notes))


if __name__ == "__main__":
    args = step_args()
    if args is None:
        main()
    else:
        _step(args[0], int(args[1]), args[2], int(args[3]), args[4], int(args[5]), int(args[6]))

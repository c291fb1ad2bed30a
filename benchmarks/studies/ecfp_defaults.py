"""The defaults of the ECFP rankers, chosen on inner folds of DTP AIDS: prints a table (and writes it with --out).

    python benchmarks/studies/ecfp_defaults.py results/dtp_aids [--fold 0] [--out study.tsv]

Reads ``fingerprints.npz``, ``ecfp.npz`` and ``folds.tsv`` from a finished run's results folder (for example of
``config/examples/ecfp_rankers.yaml``). Only the outer fold's *training* compounds are used: they are split into 3
stratified inner folds (seed 0), each candidate set-up is trained on two and scores the third, and the pooled
inner out-of-fold scores are measured by AUC[ROC], AUC[CROC(exp)] a=80, BEDROC(20) and EF 1%. The outer fold's test
compounds are never seen, so the choice does not leak into the study's numbers. Candidates: the random forest's
``max_features`` (sqrt, log2, 0.1) x ``class_weight`` (none, balanced_subsample), with 200 trees, and logistic
regression's ``C`` (0.01, 0.1, 1). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

CANDIDATES = [
    *(
        ("rf", {"n_estimators": 200, "max_features": mf, "class_weight": cw})
        for mf in ("sqrt", "log2", 0.1)
        for cw in (None, "balanced_subsample")
    ),
    *(("logreg", {"C": c}) for c in (0.01, 0.1, 1.0)),
]
METRICS = ("roc_auc", "croc_exp_80", "bedroc_20", "ef_1pct")


def main() -> None:
    from crocbench.chem.ecfp import load_ecfp
    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.cv import stratified_folds
    from crocbench.metrics import Ranking, parse_metric
    from crocbench.models import make_model
    from crocbench.similarity import SimilarityIndex

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", type=Path, help="a finished run's results folder (with ecfp.npz)")
    p.add_argument("--fold", type=int, default=0, help="the outer fold whose training compounds are used")
    p.add_argument("--out", type=Path, help="also write the table here (TSV)")
    args = p.parse_args()
    folds = pd.read_csv(args.results / "folds.tsv", sep="\t", dtype={"id": str})
    data = SimilarityIndex(
        load_fingerprints(args.results / "fingerprints.npz"), ecfp=load_ecfp(args.results / "ecfp.npz")
    )
    train = np.flatnonzero(folds["fold"].to_numpy() != args.fold)
    y = folds["label"].to_numpy()[train]
    inner = stratified_folds(y, 3, 0)
    calls = [parse_metric(m) for m in METRICS]
    rows = []
    for name, params in CANDIDATES:
        start, scores = time.perf_counter(), np.empty(train.size)
        for k in range(3):
            fit, test = np.flatnonzero(inner != k), np.flatnonzero(inner == k)
            model = make_model(name, params, seed=(0, k), n_jobs=2).fit(data, train[fit], y[fit])
            scores[test] = model.score(data, train[test])
        ranking = Ranking(y, scores)
        row = {"model": name, **{k: ("none" if v is None else v) for k, v in params.items()}}
        row.update({c.label: round(c.value(ranking), 4) for c in calls})
        row["seconds"] = round(time.perf_counter() - start, 1)
        rows.append(row)
        print(pd.DataFrame([row]).to_string(index=False, header=len(rows) == 1), flush=True)
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    if args.out:
        table.to_csv(args.out, sep="\t", index=False)


if __name__ == "__main__":
    main()

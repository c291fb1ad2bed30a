"""A model written outside crocbench, entered on a benchmark: logistic regression on RDKit Morgan bits.

Reads a benchmark export (``crocbench benchmark export NAME EXPORT``: per screen ``<screen>.csv`` with ``id``,
``smiles``, ``label`` and ``fold`` or ``fold_0``, ``fold_1``, ...; and ``benchmark.json``) and writes a submission:
per screen ``<screen>.csv`` with ``id``, ``repeat`` and ``score`` (each compound's out-of-fold score on each repeat
of the split) and the export's ``benchmark.json``. Only RDKit, NumPy, SciPy, pandas and scikit-learn are used::

    python docs/examples/logreg_morgan.py EXPORT SUBMISSION [--screens A,B]
    crocbench benchmark evaluate SUBMISSION --benchmark EXPORT --name logreg-morgan

A screen's file is written whole (a ``.part`` file renamed when done), and a screen whose file is already in
SUBMISSION is kept, so a run that was stopped goes on where it stopped. ``extratrees_morgan.py`` enters another
model with the same features and loop.
"""

import argparse
import json
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
from rdkit import Chem, RDLogger
from rdkit.Chem import rdFingerprintGenerator
from scipy import sparse
from sklearn.linear_model import LogisticRegression

BITS, RADIUS, C = 2048, 2, 0.1


def morgan_bits(smiles) -> sparse.csr_matrix:
    """Morgan bits (ECFP4: radius 2, 2,048 bits) of each SMILES, a sparse 0/1 matrix (a row of zeros where RDKit
    cannot parse one)."""
    RDLogger.DisableLog("rdApp.*")
    generator = rdFingerprintGenerator.GetMorganGenerator(radius=RADIUS, fpSize=BITS)
    bits = []
    for s in smiles:
        mol = Chem.MolFromSmiles(s)
        bits.append(sorted(generator.GetFingerprint(mol).GetOnBits()) if mol is not None else [])
    indptr = np.cumsum([0] + [len(b) for b in bits])
    indices = np.concatenate([np.asarray(b, dtype=np.int32) for b in bits]) if indptr[-1] else np.zeros(0, np.int32)
    return sparse.csr_matrix((np.ones(indptr[-1], np.float32), indices, indptr), shape=(len(bits), BITS))


def logistic_regression() -> LogisticRegression:
    """The model: L2-regularized logistic regression at a fixed C, tuned on no screen."""
    return LogisticRegression(C=C, solver="liblinear", max_iter=1000)


def out_of_fold(x, labels, folds, make_model) -> np.ndarray:
    """Each compound's score from a new ``make_model()`` trained on the other folds."""
    scores = np.zeros(len(labels))
    for fold in np.unique(folds):
        test = folds == fold
        scores[test] = make_model().fit(x[~test], labels[~test]).predict_proba(x[test])[:, 1]
    return scores


def main(make_model=logistic_regression, description: str = __doc__.splitlines()[0]) -> None:
    """Score every screen of an export (or ``--screens``) out of fold with ``make_model()``'s models."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("export", type=Path)
    parser.add_argument("submission", type=Path)
    parser.add_argument("--screens", help="comma-separated subset (default: every screen of the export)")
    args = parser.parse_args()
    spec = json.loads((args.export / "benchmark.json").read_text())
    screens = (
        args.screens.split(",")
        if args.screens
        else [s for s in spec["screens"] if (args.export / f"{s}.csv").is_file()]
    )
    args.submission.mkdir(parents=True, exist_ok=True)
    for screen in screens:
        done = args.submission / f"{screen}.csv"
        if done.is_file():
            print(f"{screen}: kept from an earlier run ({done})")
            continue
        start = time.perf_counter()
        table = pd.read_csv(args.export / f"{screen}.csv", dtype={"id": str, "smiles": str}, keep_default_na=False)
        x, labels = morgan_bits(table["smiles"]), table["label"].to_numpy()
        columns = sorted(c for c in table.columns if c == "fold" or c.startswith("fold_"))
        parts = [
            pd.DataFrame(
                {"id": table["id"], "repeat": r, "score": out_of_fold(x, labels, table[c].to_numpy(), make_model)}
            )
            for r, c in enumerate(columns)
        ]
        part = done.with_name(done.name + ".part")
        pd.concat(parts).to_csv(part, index=False)
        part.replace(done)
        print(f"{screen}: {len(table):,} compounds, {len(columns)} repeats ({time.perf_counter() - start:.0f} s)")
    shutil.copyfile(args.export / "benchmark.json", args.submission / "benchmark.json")


if __name__ == "__main__":
    main()

"""The ECFP rankers through the workflow (``pytest -m workflow``): each runs on the .test screen beside kNN, reads
the ECFP stage that only they make the workflow build, and rf's fold scores are an independent fit's.

The .test screen (96 compounds: 24 nucleosides, 72 benzenes, 20 actives) is declared as in
tests/test_protocol_workflow.py.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _snakemake import run_workflow as _run

from crocbench.chem.ecfp import ecfp_counts, load_ecfp
from crocbench.models import seed_state

pytestmark = pytest.mark.workflow
ROOT = Path(__file__).resolve().parents[1]
SCREEN = ROOT / ".test" / "data" / "screen.csv"
SMALL_GBM = {"max_rounds": 30, "patience": 5, "min_child_samples": 3, "stop_fraction": 0.25}
ECFP_RANKERS = {  # few trees, few rounds, few epochs: seconds each
    "rf": {"n_estimators": 20},
    "gbm": SMALL_GBM,
    "gbm_rank": {**SMALL_GBM, "group_size": 12, "truncation": 3},
    "logreg": {},
    "mlp": {"hidden": [16], "epochs": 2},
    "mlp_exp": {"class": "mlp", "hidden": [16], "epochs": 2, "reweight": "exp", "label": "MLP-exp"},
    "logreg_tuned": {"class": "logreg", "tune": "declared", "label": "LogReg-tuned"},  # 8 set-ups in each fold
}
LABELS = ["RF", "GBM", "GBM-rank", "LogReg", "MLP", "MLP-exp", "LogReg-tuned"]
try:  # the gnn extra: CI installs it (envs/gnn.txt) before the workflow tests
    import chemprop  # noqa: F401

    ECFP_RANKERS["chemprop"] = {"epochs": 2, "hidden": 32, "ffn_hidden": 16, "batch_size": 16}
    LABELS.append("Chemprop")
except ImportError:
    pass


def _config(models) -> dict:
    return {
        "dataset": "scr",
        "mirror": "mir",
        "similarity": {"k": 5},
        "cv": {"folds": 2, "seed": 3},
        "models": {"knn": {"k": 5}} | models,
        "irv_training": {"schemes": ["none"]},
        "significance": {"samples": 200},
        "intervals": {"resamples": 200},
        "power": {"pairs": []},
        "datasets": {
            "scr": {
                "description": "the .test screen",
                "files": [{"name": "screen.csv", "url": "http://127.0.0.1:9/screen.csv", "sha256": None}],
                "structures": {"file": "screen.csv", "smiles": "smiles", "id": "id", "label": "activity"},
                "positive": ["CA", "CM"],
                "negative": ["CI"],
            }
        },
    }


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "mir").mkdir()
    shutil.copy(SCREEN, tmp_path / "mir" / "screen.csv")
    return tmp_path


def test_the_ecfp_stage_is_planned_only_for_a_model_or_a_cluster_split_that_reads_it(workdir):
    """A run without a cluster split to compare (memorization: splits) and without an ECFP model plans no ECFP;
    an ECFP model, or the cluster split in the splits compared, plans it."""
    no_cluster = {"memorization": {"splits": ["random", "scaffold"]}}
    plain = _run(workdir, _config({}) | no_cluster, "-n")
    ecfp = _run(workdir, _config({"logreg": {}}) | no_cluster, "-n")
    compared = _run(workdir, _config({}), "-n")
    assert plain.returncode == ecfp.returncode == compared.returncode == 0, plain.stderr[-2000:] + ecfp.stderr[-2000:]
    assert "rule ecfp:" not in plain.stdout and "rule ecfp:" in ecfp.stdout and "rule ecfp:" in compared.stdout
    assert "rule clusters:" not in plain.stdout and "rule clusters:" in compared.stdout


def test_every_ecfp_ranker_runs_beside_knn_and_rf_is_a_direct_forest(workdir):
    from sklearn.ensemble import RandomForestClassifier

    config = _config(ECFP_RANKERS)
    done = _run(workdir, config, "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    res = workdir / "results" / "scr"
    compounds = pd.read_parquet(res / "compounds.parquet")
    ecfp = load_ecfp(res / "ecfp.npz")
    assert (ecfp != ecfp_counts(compounds["smiles"])[1]).nnz == 0 and ecfp.shape == (96, 2048)
    folds = pd.read_csv(res / "folds.tsv", sep="\t", dtype={"id": str})
    for model in ECFP_RANKERS:
        scores = pd.read_parquet(res / "scores" / f"{model}.parquet")
        assert scores["id"].tolist() == folds["id"].tolist() and np.isfinite(scores["score"]).all(), model
        # a real ranking in every fold; a booster whose first round already ranks the held-out share perfectly
        # (average precision 1 on this easy screen) keeps that round: one small tree, a few values a fold
        assert all(part["score"].nunique() > 1 for _, part in scores.groupby(folds["fold"].to_numpy())), model
        assert scores["score"].nunique() > (3 if model in ("gbm", "gbm_rank") else 5), model
    infos = {m: json.loads((res / "scores" / m / "fold_0.json").read_text()) for m in ECFP_RANKERS}
    assert infos["gbm_rank"]["model"] == "gbm_rank" and 1 <= infos["gbm"]["best_round"] <= 30
    assert infos["mlp_exp"]["reweight"] == "exp" and len(infos["mlp"]["loss"]) == 2
    # the tuned run: logreg's declared space (8 set-ups), each fitted on 80% of fold 0's training compounds and
    # scored on the other 20% by the metric of record; the chosen one is the best of them
    tuning = infos["logreg_tuned"]["tuning"]
    assert (tuning["budget"], tuning["metric"], len(tuning["candidates"])) == (8, "croc_exp_80", 8)
    assert tuning["fit_compounds"] + tuning["validation_compounds"] == (folds["fold"] != 0).sum()
    values = [c["validation"] for c in tuning["candidates"]]
    assert tuning["chosen"] == tuning["candidates"][int(np.argmax(values))]["params"]
    areas = pd.read_csv(res / "tables" / "areas.tsv", sep="\t")
    assert areas["model"].tolist() == ["kNN", *LABELS, "random (expected)"]
    significance = pd.read_csv(res / "tables" / "significance.tsv", sep="\t")
    assert set(LABELS) <= set(significance["a"]) | set(significance["b"])
    # fold 0's rf scores: a forest fitted here on the workflow's ECFP, seeded (cv seed, fold) as documented
    fold = folds["fold"].to_numpy()
    train, test = np.flatnonzero(fold != 0), np.flatnonzero(fold == 0)
    bits = ecfp.astype(np.float32)
    bits.data[:] = 1
    forest = RandomForestClassifier(
        n_estimators=20, class_weight="balanced_subsample", random_state=seed_state((3, 0)), n_jobs=1
    )
    forest.fit(bits[train], folds["label"].to_numpy()[train])
    rf = pd.read_parquet(res / "scores" / "rf" / "fold_0.parquet")
    assert rf["id"].tolist() == folds["id"][test].tolist()
    assert np.array_equal(rf["score"].to_numpy(), forest.predict_proba(bits[test])[:, 1])
    # benchmarks/accounting/fold_job.py replays an ECFP model's fold job as the workflow ran it (it reads ecfp.npz)
    replay = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "accounting" / "fold_job.py"), str(res), "logreg_tuned", "mlp"]
        + ["--fold", "1", "--config", str(workdir / "cfg.yaml")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert replay.returncode == 0, replay.stderr[-2000:]
    rows = [line.split(" | ") for line in replay.stdout.splitlines() if line.startswith(("| logreg", "| mlp"))]
    assert [(r[0], r[1], r[5]) for r in rows] == [("| logreg_tuned", "1", "yes"), ("| mlp", "2", "yes")]
    for row, model in zip(rows, ("logreg_tuned", "mlp")):  # the fold's own AUC[ROC] and CROC a=80: the per-fold table's
        per_fold = pd.read_csv(res / "scores" / f"{model}.per_fold.tsv", sep="\t")
        want = per_fold[per_fold["fold"].astype(str) == "1"].iloc[0]  # folds are text: the pooled row is "all"
        assert abs(float(row[6]) - want["roc"]) < 1e-4 and abs(float(row[7]) - want["croc_exp_80"]) < 1e-4, model
    # nothing left to do, and the finished run plans nothing
    again = _run(workdir, config, "-n")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr

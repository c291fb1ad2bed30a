"""Two arms through the workflow (``pytest -m workflow``) on the .test screen (96 compounds, declared as in
tests/test_ecfp_workflow.py): kNN on ECFP4 and RF on the paper's fingerprints beside the default kNN and RF.

The dry run plans the ECFP4 fingerprints and neighbour lists only for the arm that asks for them; the real run's
fold infos and design.yaml record each arm's feature sha256, which must be the sha256 of the declared features
computed here (ECFP4: RDKit's Morgan bit generator; the paper's: the fingerprints file as numpy reads it).
"""

import hashlib
import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml
from _snakemake import run_workflow as _run
from test_arms import assert_brute_force_knn, bits_sha256, rdkit_bits
from test_ecfp_workflow import ROOT, SCREEN, _config

pytestmark = pytest.mark.workflow
ARMS = {
    "knn_ecfp4": {"class": "knn", "k": 5, "features": "ecfp4"},
    "rf": {"n_estimators": 20},
    "rf_paper": {"class": "rf", "n_estimators": 20, "features": "paper"},
}
NO_CLUSTER = {"memorization": {"splits": ["random"]}}


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "mir").mkdir()
    shutil.copy(SCREEN, tmp_path / "mir" / "screen.csv")
    return tmp_path


def _jobs(stdout: str) -> list[tuple[str, str, str]]:
    """``(rule, input, output)`` of each job a dry run prints."""
    jobs = []
    for block in stdout.split("\nrule ")[1:] + stdout.split("\ncheckpoint ")[1:]:
        lines = block.splitlines()
        field = {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if ":" in line)}
        jobs.append((lines[0].rstrip(":"), field.get("input", ""), field.get("output", "")))
    return jobs


def test_the_dry_run_plans_each_arms_inputs_and_the_ecfp4_files_only_for_an_arm(workdir):
    plain = _run(workdir, _config({}) | NO_CLUSTER, "-n")
    arms = _run(workdir, _config(ARMS) | NO_CLUSTER, "-n")
    assert plain.returncode == arms.returncode == 0, plain.stderr[-2000:] + arms.stderr[-2000:]
    assert "fingerprints_ecfp4" not in plain.stdout and "_ecfp4" not in plain.stdout
    jobs = _jobs(arms.stdout)
    folds = {o.split("/scores/")[1].split("/")[0]: i for r, i, o in jobs if r.startswith("score_fold")}
    d = "results/scr"
    assert folds["knn_ecfp4"] == f"{d}/compounds.parquet, {d}/fingerprints_ecfp4.npz, {d}/folds.tsv, " + (
        f"{d}/neighbours_ecfp4_k5.npz"
    )
    assert folds["knn"] == f"{d}/compounds.parquet, {d}/fingerprints.npz, {d}/folds.tsv, {d}/neighbours_k5.npz"
    assert folds["rf_paper"] == f"{d}/compounds.parquet, {d}/fingerprints.npz, {d}/folds.tsv"
    assert folds["rf"] == f"{d}/compounds.parquet, {d}/fingerprints.npz, {d}/folds.tsv, {d}/ecfp.npz"
    assert ("bit_fingerprints", f"{d}/ecfp.npz", f"{d}/fingerprints_ecfp4.npz") in jobs


def test_each_arm_records_the_sha256_of_the_features_it_declares(workdir):
    targets = [f"results/scr/scores/{m}.parquet" for m in ("knn", *ARMS)] + ["results/screens/tables/design.yaml"]
    done = _run(workdir, _config(ARMS) | NO_CLUSTER, "--cores", "2", *targets)
    assert done.returncode == 0, done.stderr[-3000:]
    res = workdir / "results" / "scr"
    compounds = pd.read_parquet(res / "compounds.parquet")
    ecfp4 = bits_sha256(rdkit_bits(compounds["smiles"]))  # the declared ECFP4, from RDKit's bit generator
    with np.load(res / "fingerprints.npz") as f:  # the paper's fingerprints, as numpy reads the file
        paper = hashlib.sha256(f["indptr"].astype("<i8").tobytes() + f["ids"].astype("<u8").tobytes()).hexdigest()
    assert ecfp4 != paper
    declared = {"knn": ("paper", paper), "knn_ecfp4": ("ecfp4", ecfp4), "rf": ("ecfp4", ecfp4)}
    declared["rf_paper"] = ("paper", paper)
    for model, (features, digest) in declared.items():
        for fold in (0, 1):
            info = json.loads((res / "scores" / model / f"fold_{fold}.json").read_text())
            assert (info["features"], info["features_sha256"]) == (features, digest), (model, fold)
    folds = pd.read_csv(res / "folds.tsv", sep="\t", dtype={"id": str})  # the kNN/ECFP4 fold job's scores
    train, test = np.flatnonzero(folds["fold"] != 0), np.flatnonzero(folds["fold"] == 0)
    scores = pd.read_parquet(res / "scores" / "knn_ecfp4" / "fold_0.parquet")
    assert scores["id"].tolist() == folds["id"][test].tolist()
    y = folds["label"].to_numpy()
    assert_brute_force_knn(compounds["smiles"], y, train, test, 5, scores["score"].to_numpy())
    # benchmarks/accounting/fold_job.py replays an arm's fold job on the files its arm read: the fold's own values
    replay = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "accounting" / "fold_job.py"), str(res), "knn_ecfp4", "rf_paper"]
        + ["--fold", "1", "--config", str(workdir / "cfg.yaml")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert replay.returncode == 0, replay.stderr[-2000:]
    rows = [line.split(" | ") for line in replay.stdout.splitlines() if line.startswith(("| knn", "| rf"))]
    assert [r[0] for r in rows] == ["| knn_ecfp4", "| rf_paper"]
    for row, model in zip(rows, ("knn_ecfp4", "rf_paper")):
        per_fold = pd.read_csv(res / "scores" / f"{model}.per_fold.tsv", sep="\t")
        want = per_fold[per_fold["fold"].astype(str) == "1"].iloc[0]
        assert abs(float(row[6]) - want["roc"]) < 1e-4 and abs(float(row[7]) - want["croc_exp_80"]) < 1e-4, model
    design = yaml.safe_load((workdir / "results" / "screens" / "tables" / "design.yaml").read_text())
    assert design["features"] == {
        "kNN": {"features": "paper", "sha256": {"scr": paper}},
        "kNN/ECFP4": {"features": "ecfp4", "sha256": {"scr": ecfp4}},
        "RF": {"features": "ecfp4", "sha256": {"scr": ecfp4}},
        "RF/paper": {"features": "paper", "sha256": {"scr": paper}},
    }
    assert design["models"]["kNN/ECFP4"] == {"class": "knn", "k": 5, "features": "ecfp4"}

"""The Snakemake workflow on a user's own tiny dataset, declared in a config file only."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from crocbench.fingerprints import load_fingerprints, molecule_features
from crocbench.similarity import load_neighbours, top_k

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = shutil.which("snakemake") or str(Path(sys.executable).with_name("snakemake"))


def _run(workdir: Path, config: dict, *extra: str) -> subprocess.CompletedProcess:
    (workdir / "cfg.yaml").write_text(yaml.safe_dump(config))
    env = {k: v for k, v in __import__("os").environ.items() if k != "CROCBENCH_MIRROR"}
    return subprocess.run(
        [SNAKEMAKE, "--snakefile", str(ROOT / "Snakefile"), "--directory", str(workdir),
         "--configfile", str(workdir / "cfg.yaml"), "--cores", "1", *extra],
        capture_output=True, text=True, env=env, timeout=300,
    )


def _config(sha=None):
    return {
        "dataset": "tiny",
        "mirror": "mir",
        "similarity": {"k": 5},
        "datasets": {"tiny": {
            "files": [{"name": "few.sdf", "url": "http://127.0.0.1:9/few.sdf", "sha256": sha}],
            "structures": {"file": "few.sdf", "id": "NSC", "label": "NCI_AIDS_Antiviral_Screen_Conclusion"},
            "positive": ["CA", "CM"], "negative": ["CI"],
        }},
    }


@pytest.fixture
def workdir(tmp_path, mirror):
    (tmp_path / "mir").mkdir()
    shutil.copy(mirror / "fixtures" / "NCI_aids_few.sdf", tmp_path / "mir" / "few.sdf")
    return tmp_path


FEATURES = ["results/tiny/compounds.parquet", "results/tiny/fingerprints.npz", "results/tiny/neighbours_k5.npz"]


def test_own_sd_dataset_end_to_end(workdir):
    done = _run(workdir, _config(), *FEATURES)
    assert done.returncode == 0, done.stderr[-3000:]
    res = workdir / "results" / "tiny"
    compounds = pd.read_parquet(res / "compounds.parquet")
    assert list(compounds.columns) == ["id", "smiles", "label", "class"]
    assert len(compounds) == 16 and compounds.set_index("id").loc["211", "label"] == 1
    summary = json.loads((res / "standardize_summary.json").read_text())
    assert summary["kept"] == 16 and summary["rejected"] == 0
    fp = load_fingerprints(res / "fingerprints.npz")
    assert fp.row(3).tolist() == molecule_features(compounds["smiles"][3]).tolist()
    nb = load_neighbours(res / "neighbours_k5.npz")
    expected = top_k(fp, 5)
    assert np.array_equal(nb.index, expected.index) and np.array_equal(nb.similarity, expected.similarity)
    # the unknown sha256 was recorded (trust on first use)
    assert json.loads((workdir / "checksums.lock.json").read_text())["tiny/few.sdf"]
    for log in ("download/few.sdf.log", "standardize.log", "fingerprints.log", "neighbours_k5.log"):
        assert "done in" in (workdir / "logs" / "tiny" / log).read_text()


def test_wrong_checksum_stops_the_run_and_says_why(workdir):
    done = _run(workdir, _config(sha="0" * 64), *FEATURES)
    assert done.returncode != 0
    log = (workdir / "logs" / "tiny" / "download" / "few.sdf.log").read_text()
    assert "sha256 mismatch" in log and "0" * 64 in log and "CROCBENCH_MIRROR" in log
    assert not (workdir / "data" / "tiny" / "few.sdf").exists()


def test_unknown_dataset_is_named(workdir):
    config = _config()
    config["dataset"] = "nope"
    done = _run(workdir, config, "-n")
    assert done.returncode != 0 and "dataset 'nope' is not declared" in done.stdout + done.stderr


def test_own_csv_dataset_through_every_model(tmp_path, mirror):
    """A CSV with its own column names and class values, 3 folds, all five models; then a rerun
    from scratch gives byte-identical results files."""
    data = pd.read_csv(mirror / "HIV_41913.csv")
    sample = pd.concat([data[data["HIV_active"] == 1].head(24), data[data["HIV_active"] == 0].head(96)])
    (tmp_path / "mir").mkdir()
    sample.rename(columns={"smiles": "Structure", "activity": "Outcome"}).assign(
        compound=[f"c{i}" for i in range(len(sample))]
    ).to_csv(tmp_path / "mir" / "mine.csv", index=False)
    config = {
        "dataset": "mine", "mirror": "mir", "similarity": {"k": 12}, "cv": {"folds": 3, "seed": 7},
        "models": {"random": {}, "maxsim": {}, "knn": {"k": 5}, "svm": {"C": 1.0}, "irv": {"k": 5}},
        "datasets": {"mine": {
            "files": [{"name": "mine.csv", "url": "http://127.0.0.1:9/mine.csv", "sha256": None}],
            "structures": {"file": "mine.csv", "smiles": "Structure", "id": "compound", "label": "Outcome"},
            "positive": ["CA", "CM"], "negative": ["CI"],
        }},
    }
    done = _run(tmp_path, config, "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    res = tmp_path / "results" / "mine"
    folds = pd.read_csv(res / "folds.tsv", sep="\t")
    assert len(folds) == 120 and folds.groupby("fold")["label"].sum().tolist() == [8, 8, 8]
    digests = {}
    for model in config["models"]:
        scores = pd.read_parquet(res / "scores" / f"{model}.parquet")
        assert scores["id"].tolist() == folds["id"].tolist() and scores["score"].notna().all()
        per_fold = pd.read_csv(res / "scores" / f"{model}.per_fold.tsv", sep="\t")
        assert per_fold["fold"].astype(str).tolist() == ["0", "1", "2", "all"]
    for path in sorted(res.rglob("*")):
        if path.is_file():
            digests[path.relative_to(res)] = path.read_bytes()
    shutil.rmtree(tmp_path / "results")
    again = _run(tmp_path, config, "--cores", "2")
    assert again.returncode == 0, again.stderr[-3000:]
    for rel, content in digests.items():
        assert (res / rel).read_bytes() == content, rel

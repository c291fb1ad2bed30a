"""The evaluation protocol through the workflow (``pytest -m workflow``): repeats add files and move none, a
scaffold split keeps every scaffold in one fold, and an impossible split or a bad setting stops in one line.

The .test screen (96 compounds: 24 nucleosides, 72 benzenes) is declared as in tests/test_rerun.py.
"""

import hashlib
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from _snakemake import run_workflow as _run

pytestmark = pytest.mark.workflow
ROOT = Path(__file__).resolve().parents[1]
SCREEN = ROOT / ".test" / "data" / "screen.csv"


def _config(**cv) -> dict:
    return {
        "dataset": "scr",
        "mirror": "mir",
        "similarity": {"k": 5},
        "cv": {"folds": 2, **cv},
        "models": {"knn": {"k": 5}, "svm": {"C_grid": [1], "class_weight_grid": [None]}, "irv": {"max_epochs": 50}},
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


def _hashes(folder: Path) -> dict:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def test_repeats_add_files_and_leave_the_single_run_byte_identical(workdir):
    done = _run(workdir, _config())
    assert done.returncode == 0, done.stderr[-3000:]
    single = _hashes(workdir / "results" / "scr")
    assert "tables/intervals.md" in single and "tables/folds.md" in single and not any("repeats" in f for f in single)
    done = _run(workdir, _config(repeats=3))
    assert done.returncode == 0, done.stderr[-3000:]
    repeated = _hashes(workdir / "results" / "scr")
    kept = {f: h for f, h in single.items() if f not in ("tables/folds.md", "tables/folds.html")}  # every repeat's
    assert {f: repeated[f] for f in kept} == kept  # every other file of the single run, byte for byte
    for r in (1, 2):
        assert f"repeats/{r}/tables/significance.md" in repeated and f"repeats/{r}/scores/svm.parquet" in repeated
        folds = pd.read_csv(workdir / f"results/scr/repeats/{r}/folds.tsv", sep="\t")
        first = pd.read_csv(workdir / "results/scr/folds.tsv", sep="\t")
        assert not folds["fold"].equals(first["fold"])  # its own seed
    table = pd.read_csv(workdir / "results/scr/tables/repeats.tsv", sep="\t")
    # the pooled AUC[ROC] of repeat 0 in the repeats table is table 1's
    areas = pd.read_csv(workdir / "results/scr/tables/areas.tsv", sep="\t").set_index("model")
    row = table[(table["model"] == "SVM") & (table["key"] == "roc")].iloc[0]
    assert row["repeat_0"] == pytest.approx(areas.at["SVM", "roc"], abs=1e-9)
    assert row["mean"] == pytest.approx(row[["repeat_0", "repeat_1", "repeat_2"]].mean(), abs=1e-9)
    tests = pd.read_csv(workdir / "results/scr/tables/repeats_tests.tsv", sep="\t")
    assert set(tests["df"]) == {5}  # 3 repeats x 2 folds - 1
    text = (workdir / "results/scr/tables/repeats.md").read_text()
    assert "Corrected resampled t-test" in text and "± " in text


def test_a_scaffold_split_keeps_each_scaffold_in_one_fold(workdir):
    from rdkit.Chem.Scaffolds import MurckoScaffold

    targets = ["results/scr/folds.tsv", "results/scr/repeats/1/folds.tsv", "results/scr/tables/folds.md"]
    done = _run(workdir, _config(split="scaffold", repeats=2), *targets, "results/scr/repeats/1/scores/knn.parquet")
    assert done.returncode == 0, done.stderr[-3000:]
    compounds = pd.read_parquet(workdir / "results/scr/compounds.parquet")
    theirs = [MurckoScaffold.MurckoScaffoldSmiles(smiles=s) for s in compounds["smiles"]]
    for folder in ("results/scr", "results/scr/repeats/1"):
        folds = pd.read_csv(workdir / folder / "folds.tsv", sep="\t", dtype={"id": str})
        assert folds["id"].tolist() == compounds["id"].tolist() and folds["scaffold"].tolist() == theirs
        assert pd.DataFrame({"s": theirs, "f": folds["fold"]}).groupby("s")["f"].nunique().max() == 1
        assert folds.groupby("fold")["label"].sum().min() >= 1
    text = (workdir / "results/scr/tables/folds.md").read_text()
    assert "Scaffolds: 2 distinct (murcko)" in text and "72 compounds (`c1ccccc1`)" in text


def test_an_impossible_scaffold_split_stops_before_any_model_in_one_line(workdir):
    done = _run(workdir, _config(split="scaffold", folds=3))
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.startswith("crocbench:")]
    assert lines == [
        "crocbench: folds[dataset=scr]: scaffold split: the 20 positives lie in only 2 of the 2 groups: "
        "3 folds need positives in at least 3 groups (traceback: logs/scr/folds.log)"
    ], done.stderr[-3000:]
    assert not (workdir / "results/scr/scores").exists()  # no model ran


def test_a_novelty_split_drops_compounds_from_every_fold_and_certifies_its_folds(workdir):
    """Through the workflow: the folds job writes the fold table and its certificate, ``crocbench split verify``
    accepts them, the pooled scores of a ranker hold the kept compounds alone, and tables/folds.md counts the
    dropped ones."""
    from _cli import _cli

    novelty = {"tau": 0.4, "fingerprint": "ecfp4", "max_dropped": 0.9}
    targets = ["results/scr/folds.tsv", "results/scr/folds_certificate.json", "results/scr/tables/folds.md"]
    done = _run(workdir, _config(split="novelty", novelty=novelty), *targets, "results/scr/scores/knn.parquet")
    assert done.returncode == 0, done.stderr[-3000:]
    compounds = pd.read_parquet(workdir / "results/scr/compounds.parquet")
    compounds["label"] = compounds["label"].astype(int)
    compounds[["id", "smiles", "label"]].to_csv(workdir / "compounds.csv", index=False)
    folder = workdir / "results/scr"
    verified = _cli(
        "split", "verify", folder / "folds_certificate.json", "--folds", folder / "folds.tsv",
        "--compounds", workdir / "compounds.csv",
    )  # fmt: skip
    assert verified.returncode == 0, verified.stderr
    folds = pd.read_csv(folder / "folds.tsv", sep="\t", dtype={"id": str})
    kept = folds[folds["fold"] != -1]
    assert pd.read_parquet(folder / "scores/knn.parquet")["id"].astype(str).tolist() == kept["id"].tolist()
    dropped = folds[folds["fold"] == -1]
    text = (folder / "tables/folds.md").read_text()
    assert f"repeat 0: {len(dropped):,} compounds, {int(dropped['label'].sum()):,} of the " in text


def test_a_novelty_split_above_max_dropped_stops_before_any_model_in_one_line(workdir):
    done = _run(workdir, _config(split="novelty", novelty={"max_dropped": 0.05}))
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.startswith("crocbench:")]
    assert len(lines) == 1 and re.fullmatch(
        r"crocbench: folds\[dataset=scr\]: the novelty split at tau 0\.4 drops \d+\.\d% of the compounds \(\d+ of 96\), "
        r"above max_dropped 0\.05; (tau 0\.\d+ drops \d+\.\d%, within it|no tau up to 1 fits) "
        r"\(traceback: logs/scr/folds\.log\)",
        lines[0],
    ), done.stderr[-3000:]
    assert not (workdir / "results/scr/scores").exists() and not (workdir / "results/scr/folds.tsv").exists()


@pytest.mark.parametrize(
    "cv, message",
    [
        ({"split": "kmeans"}, "config: cv.split: 'kmeans' is not one of ['random', 'scaffold', 'cluster', 'novelty']"),
        ({"cluster_threshold": 0}, "config: cv.cluster_threshold: 0 is less than or equal to the minimum of 0"),
        ({"novelty": {"tau": 0}}, "config: cv.novelty.tau: 0 is less than or equal to the minimum of 0"),
        ({"novelty": {"tau": 1.5}}, "config: cv.novelty.tau: 1.5 is greater than the maximum of 1"),
        ({"novelty": {"fingerprint": "maccs"}}, "config: cv.novelty.fingerprint: 'maccs' is not one of ['ecfp4']"),
        ({"repeats": 0}, "config: cv.repeats: 0 is less than the minimum of 1"),
        ({"scaffold": "bemis"}, "config: cv.scaffold: 'bemis' is not one of ['murcko', 'generic']"),
    ],
)
def test_bad_protocol_settings_stop_before_any_job_in_one_line(workdir, cv, message):
    done = _run(workdir, _config(**cv))
    assert done.returncode != 0 and message in done.stderr, done.stderr[-2000:]
    assert not (workdir / "results").exists() and not (workdir / "logs").exists()


def test_intervals_below_100_resamples_stop_before_any_job(workdir):
    done = _run(workdir, {**_config(), "intervals": {"resamples": 99}})
    assert done.returncode != 0 and "config: intervals.resamples: 99 is less than the minimum of 100" in done.stderr
    assert not (workdir / "results").exists()


def test_imported_scores_on_one_split_cannot_be_repeated(workdir):
    config = _config(repeats=2)
    config["models"]["gnn"] = {"scores": "gnn.csv", "id": "id", "score": "p", "fold": "fold"}
    done = _run(workdir, config, "-n")
    assert done.returncode != 0
    assert (
        "models: gnn import scores with their folds (fold: column), computed on one split" in done.stdout + done.stderr
    )

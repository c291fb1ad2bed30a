"""A result always follows from its current inputs, and a bad input is one console line (``pytest -m workflow``).

Each test runs the real workflow on a small screen (the .test CSV) declared in a config file the test writes:
an edit of the declaration plans exactly what it changes, a file fixed in the mirror is fetched again, a copy
changed by hand is never read, and every input error reaches the console as one line with no Python traceback.
"""

import gzip
import json
import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from _snakemake import run_workflow as _run

pytestmark = pytest.mark.workflow
ROOT = Path(__file__).resolve().parents[1]
SCREEN = ROOT / ".test" / "data" / "screen.csv"
COMPOUNDS = "results/scr/compounds.parquet"


def _config(**dataset) -> dict:
    """One CSV dataset ``scr`` read from the test's mirror folder ``mir`` (no sha256: trusted on first use)."""
    entry = {
        "description": "the .test screen",
        "files": [{"name": "screen.csv", "url": "http://127.0.0.1:9/screen.csv", "sha256": None}],
        "structures": {"file": "screen.csv", "smiles": "smiles", "id": "id", "label": "activity"},
        "positive": ["CA", "CM"],
        "negative": ["CI"],
    }
    return {
        "dataset": "scr",
        "mirror": "mir",
        "similarity": {"k": 5},
        "cv": {"folds": 2},
        "datasets": {"scr": {**entry, **dataset}},
    }


def _planned(done: subprocess.CompletedProcess) -> set:
    """The rules a dry run (``-n``) plans, from its job-count table."""
    assert done.returncode == 0, done.stderr[-3000:]
    if "Nothing to be done" in done.stdout + done.stderr:
        return set()
    rules, table = set(), False
    for line in done.stdout.splitlines():
        parts = line.split()
        if parts[:2] == ["job", "count"]:
            table = True
        elif table and len(parts) == 2 and parts[1].isdigit() and parts[0] != "total":
            rules.add(parts[0])
        elif table and parts[:1] == ["total"]:
            break
    return rules


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "mir").mkdir()
    shutil.copy(SCREEN, tmp_path / "mir" / "screen.csv")
    return tmp_path


def test_declaration_edits_rebuild_exactly_what_they_change(workdir):
    config = _config()
    done = _run(workdir, config, COMPOUNDS, "results/scr/folds.tsv")
    assert done.returncode == 0, done.stderr[-3000:]
    labels = pd.read_csv(SCREEN)["activity"]
    compounds = pd.read_parquet(workdir / COMPOUNDS)
    assert compounds["label"].sum() == labels.isin(["CA", "CM"]).sum()
    # the description, the expected counts, the paper it reproduces: no compound changes, nothing reruns
    for edit in ({"description": "another text"}, {"expected": {"kept": 96}}, {"top": 5}):
        assert _planned(_run(workdir, _config(**edit), COMPOUNDS, "results/scr/folds.tsv", "-n")) == set(), edit
    # the positive class, a dropped value, swapped classes, a column: standardize and everything downstream
    for edit in (
        {"positive": ["CA"], "drop": ["CM"]},
        {"positive": ["CI"], "negative": ["CA", "CM"]},
        {"structures": {"file": "screen.csv", "smiles": "smiles", "label": "activity"}},
        {"files": [{"name": "screen.csv", "url": "http://127.0.0.1:9/screen.csv", "sha256": "0" * 64}]},
    ):
        assert {"standardize", "folds"} <= _planned(
            _run(workdir, _config(**edit), COMPOUNDS, "results/scr/folds.tsv", "-n")
        ), edit
    done = _run(workdir, _config(positive=["CI"], negative=["CA", "CM"]), COMPOUNDS)
    assert done.returncode == 0, done.stderr[-3000:]
    swapped = pd.read_parquet(workdir / COMPOUNDS)
    assert swapped["label"].sum() == (labels == "CI").sum()  # the classes swapped, as declared
    # settings downstream: the folds' seed plans the folds, the fingerprints' depth the fingerprints
    assert "folds" in _planned(
        _run(
            workdir,
            {**_config(positive=["CI"], negative=["CA", "CM"]), "cv": {"folds": 2, "seed": 1}},
            "results/scr/folds.tsv",
            "-n",
        )
    )


def test_a_file_fixed_in_the_mirror_is_fetched_again_and_a_copy_changed_by_hand_is_not_read(workdir):
    table = pd.read_csv(SCREEN)
    broken = table.assign(activity=["CA"] + ["CI"] * (len(table) - 1))  # one positive: too few for 2 folds
    broken.to_csv(workdir / "mir" / "screen.csv", index=False)
    done = _run(workdir, _config(), COMPOUNDS)
    assert done.returncode != 0
    assert "dataset scr: 1 positives and 95 negatives" in done.stderr and "Traceback" not in done.stdout + done.stderr
    shutil.copy(SCREEN, workdir / "mir" / "screen.csv")  # fixed in the mirror, nothing deleted by hand
    done = _run(workdir, _config(), COMPOUNDS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert pd.read_parquet(workdir / COMPOUNDS)["label"].sum() == table["activity"].isin(["CA", "CM"]).sum()
    lock = json.loads((workdir / "checksums.lock.json").read_text())
    assert lock["scr/screen.csv"]  # trusted once read
    # touched in the mirror, the same bytes: nothing to fetch
    os.utime(workdir / "mir" / "screen.csv")
    assert _planned(_run(workdir, _config(), COMPOUNDS, "-n")) == set()
    # the copy under data/ edited by hand: standardize runs again, and refuses to read it
    copy = workdir / "data" / "scr" / "screen.csv"
    copy.write_text(copy.read_text().replace(",CI\n", ",CA\n", 3))
    done = _run(workdir, _config(), COMPOUNDS)
    assert done.returncode != 0
    assert "data/scr/screen.csv: sha256" in done.stderr and "recorded in checksums.lock.json" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def _console_errors(done: subprocess.CompletedProcess) -> list:
    """The crocbench lines of a failed run's console."""
    return [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("crocbench: ")]


@pytest.mark.parametrize(
    "case",
    ["column", "sd field", "no smiles", "label values", "truncated gzip", "sha256", "unreachable", "too few positives"],
)
def test_every_input_error_is_one_console_line(workdir, case):
    config = _config()
    entry = config["datasets"]["scr"]
    table = pd.read_csv(SCREEN)
    if case == "column":
        entry["structures"]["label"] = "activty"
        want = "column(s) 'activty' not found; columns are: id, smiles, activity"
    elif case == "sd field":
        shutil.copy(
            Path(os.environ.get("CROCBENCH_MIRROR", ROOT.parent / "shared" / "mirror"))
            / "fixtures"
            / "NCI_aids_few.sdf",
            workdir / "mir" / "few.sdf",
        )
        entry.update(
            files=[{"name": "few.sdf", "url": "http://127.0.0.1:9/few.sdf", "sha256": None}],
            structures={"file": "few.sdf", "id": "NSC", "label": "Conclusion"},
        )
        want = "field(s) 'Conclusion' not found; fields are:"
    elif case == "no smiles":
        table.assign(smiles="").to_csv(workdir / "mir" / "screen.csv", index=False)
        want = "(96 of 96 records rejected, 96 empty SMILES)"
    elif case == "label values":
        entry["positive"] = ["active"]
        want = "'CA'"
    elif case == "truncated gzip":
        data = gzip.compress(SCREEN.read_bytes())
        (workdir / "mir" / "screen.csv.gz").write_bytes(data[: len(data) // 2])
        entry.update(
            files=[{"name": "screen.csv.gz", "url": "http://127.0.0.1:9/screen.csv.gz", "sha256": None}],
            structures={**entry["structures"], "file": "screen.csv.gz"},
        )
        want = "screen.csv.gz"
    elif case == "sha256":
        entry["files"][0]["sha256"] = "0" * 64
        want = "screen.csv: sha256 mismatch for mirror file"
    elif case == "unreachable":
        (workdir / "mir" / "screen.csv").unlink()
        want = "screen.csv: cannot download http://127.0.0.1:9/screen.csv"
        config["download"] = {"retries": 1, "timeout_s": 5}
    else:
        config["cv"] = {"folds": 30}
        want = "dataset scr: 20 positives and 76 negatives"
    done = _run(workdir, config, COMPOUNDS)
    assert done.returncode != 0
    lines = _console_errors(done)
    assert len(lines) == 1 and want in lines[0], (lines, done.stderr[-3000:])
    print(lines[0])  # the console line, for the record (pytest -rP)
    assert "Traceback" not in done.stdout + done.stderr
    assert "(traceback: logs/scr/" in lines[0]
    log = lines[0].rsplit("(traceback: ", 1)[1].rstrip(")")
    assert "Traceback (most recent call last)" in (workdir / log).read_text()  # the full story stays in the log
    assert not (workdir / COMPOUNDS).exists()

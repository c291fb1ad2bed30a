"""Screens read from members of a zip archive (a wheel), labelled from several columns (``pytest -m workflow``).

The test builds a small wheel shaped like DataValuationPlatform's (members ``<name>_train.csv`` and
``<name>_val.csv``, header ``,SMILES,Primary,Score,Confirmatory``) from the .test screen, declares the two label
definitions of a PubChem campaign in a config (primary; confirmed, with untested hits unknown) and checks the
workflow's compounds tables against pandas, then each broken input: one line, a non-zero exit, nothing written.
"""

import hashlib
import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _snakemake import run_workflow

pytestmark = pytest.mark.workflow
ROOT = Path(__file__).resolve().parents[1]
WHEEL = "panel-1.0-py3-none-any.whl"
MEMBER = "panel/Datasets/scr/scr_{part}.csv"


def _members() -> dict:
    """The two members' tables: the .test screen's CA/CM as primary hits, CA confirmed, CM not, a few untested."""
    screen = pd.read_csv(ROOT / ".test" / "data" / "screen.csv")
    hit = screen["activity"].isin(["CA", "CM"]).to_numpy()
    confirmatory = np.where(screen["activity"] == "CA", "1.0", np.where(hit, "0.0", ""))
    confirmatory[np.flatnonzero(hit)[::5]] = ""  # every fifth hit never re-tested
    table = pd.DataFrame(
        {
            "": np.arange(len(screen)) * 7,
            "SMILES": screen["smiles"],
            "Primary": hit.astype(int),
            "Score": np.round(np.linspace(0, 100, len(screen)), 3),
            "Confirmatory": confirmatory,
        }
    )
    val = np.flatnonzero(hit)[1::3]  # some hits go to the validation member, as in the wheel
    return {"train": table.drop(index=val), "val": table.loc[val]}


def _wheel(path: Path, members: dict, drop_column: str | None = None) -> str:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for part, table in members.items():
            if drop_column and part == "val":
                table = table.drop(columns=[drop_column])
            z.writestr(MEMBER.format(part=part), table.to_csv(index=False))
        z.writestr("panel/__init__.py", "")
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _config(archive_sha: str) -> dict:
    archive = {"name": WHEEL, "sha256": archive_sha, "url": f"http://127.0.0.1:9/{WHEEL}"}
    files = [
        {"name": f"scr_{p}.csv", "member": MEMBER.format(part=p), "archive": archive, "sha256": None}
        for p in ("train", "val")
    ]
    structures = {
        "file": ["scr_train.csv", "scr_val.csv"],
        "smiles": "SMILES",
        "id": None,
        "label": ["Primary", "Confirmatory"],
        "keep": ["Score"],
    }
    return {
        "dataset": ["scr_primary", "scr_confirmed"],
        "mirror": "mir",
        "similarity": {"k": 5},
        "cv": {"folds": 2},
        "datasets": {
            "scr_primary": {
                "files": files,
                "structures": {**structures, "label": "Primary"},
                "positive": [1],
                "negative": [0],
            },
            "scr_confirmed": {
                "files": files,
                "structures": structures,
                "positive": [[1, 1.0], [0, 1.0]],
                "negative": [[0, None], [0, 0.0], [1, 0.0]],
                "unknown": [[1, None]],
            },
        },
    }


TARGETS = ["results/scr_primary/compounds.parquet", "results/scr_confirmed/compounds.parquet"]


def test_two_label_definitions_from_archive_members(tmp_path):
    (tmp_path / "mir").mkdir()
    members = _members()
    sha = _wheel(tmp_path / "mir" / WHEEL, members)
    done = run_workflow(tmp_path, _config(sha), *TARGETS)
    assert done.returncode == 0, done.stderr[-3000:]
    logs = "".join(p.read_text() for p in sorted((tmp_path / "logs").glob("*/download/*.log")))
    assert logs.count(f"{WHEEL}: copying from the mirror") == 1  # one archive for the four members of both screens
    assert logs.count(f"{WHEEL}: already in data/archives") == 3
    assert (tmp_path / "data" / "archives" / WHEEL).read_bytes() == (tmp_path / "mir" / WHEEL).read_bytes()
    both = pd.concat([members["train"], members["val"]], ignore_index=True)  # the member order of `file`
    primary = pd.read_parquet(tmp_path / TARGETS[0])
    assert primary["id"].tolist() == [str(i) for i in range(len(both))]
    assert primary["label"].tolist() == both["Primary"].tolist()
    assert primary["Score"].astype(float).tolist() == both["Score"].tolist()
    confirmed = pd.read_parquet(tmp_path / TARGETS[1])
    tested = (both["Primary"] == 0) | (both["Confirmatory"] != "")
    assert confirmed["id"].tolist() == [str(i) for i in np.flatnonzero(tested)]
    assert confirmed["label"].tolist() == (both["Confirmatory"][tested] == "1.0").astype(int).tolist()
    summary = json.loads((tmp_path / "results" / "scr_confirmed" / "standardize_summary.json").read_text())
    untested = int((~tested).sum())
    assert summary["rejected_by_reason"] == {"unknown label": untested} and untested > 0
    rejected = pd.read_csv(tmp_path / "results" / "scr_confirmed" / "rejected.tsv", sep="\t")
    assert set(rejected["reason"]) == {"unknown label: 1| (config 'unknown')"} and len(rejected) == untested
    # each member is recorded by its own sha256 once read
    lock = json.loads((tmp_path / "checksums.lock.json").read_text())
    for part in ("train", "val"):
        member = (tmp_path / "data" / "scr_primary" / f"scr_{part}.csv").read_bytes()
        assert lock[f"scr_primary/scr_{part}.csv"] == hashlib.sha256(member).hexdigest()


def test_a_new_screen_is_built_in_one_run_after_the_mirror_moved(tmp_path):
    """Moving the mirror rebuilds nothing, and a screen asked for afterwards is built in that same run: the archive
    is no rule output that a changed setting can mark out of date (Snakemake 9.27 then ran only the archive's job
    and exited 0, the screen not built: an `ancient` input's producer rerun for provenance, snakemake#4166)."""
    (tmp_path / "mir").mkdir()
    config = _config(_wheel(tmp_path / "mir" / WHEEL, _members()))
    first = run_workflow(tmp_path, config, TARGETS[0])
    assert first.returncode == 0, first.stderr[-3000:]
    built = (tmp_path / TARGETS[0]).stat().st_mtime_ns
    (tmp_path / "mir").rename(tmp_path / "mirror2")
    second = run_workflow(tmp_path, {**config, "mirror": "mirror2"}, *TARGETS)
    assert second.returncode == 0, second.stderr[-3000:]
    assert (tmp_path / TARGETS[1]).is_file()
    assert (tmp_path / TARGETS[0]).stat().st_mtime_ns == built  # the first screen untouched
    assert "dataset=scr_primary" not in second.stdout + second.stderr  # no job of it ran
    assert "dataset=scr_confirmed" in second.stdout + second.stderr


@pytest.mark.parametrize(
    "case",
    [
        "corrupt archive",
        "missing member",
        "wrong archive sha256",
        "wrong member sha256",
        "label column absent from one member",
    ],
)
def test_a_broken_archive_is_one_line_and_writes_nothing(tmp_path, case):
    (tmp_path / "mir").mkdir()
    wheel = tmp_path / "mir" / WHEEL
    sha = _wheel(wheel, _members(), drop_column="Confirmatory" if case.startswith("label") else None)
    config = _config(sha)
    confirmed = config["datasets"]["scr_confirmed"]
    if case == "corrupt archive":
        data = wheel.read_bytes()
        wheel.write_bytes(data[: len(data) // 2])
        sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
        for f in confirmed["files"]:
            f["archive"]["sha256"] = sha
        want = ": the archive is not a readable zip"  # named with the member its job reads, train or val
    elif case == "missing member":
        confirmed["files"][1] = {**confirmed["files"][1], "member": "panel/Datasets/scr/scr_test.csv"}
        want = f"{WHEEL}: no member 'panel/Datasets/scr/scr_test.csv' (panel/Datasets/scr/ holds: scr_train.csv, scr_val.csv)"
    elif case == "wrong archive sha256":
        for f in confirmed["files"]:
            f["archive"]["sha256"] = "0" * 64
        want = f"{WHEEL}: sha256 mismatch for mirror file"
    elif case == "wrong member sha256":
        confirmed["files"][0] = {**confirmed["files"][0], "sha256": "1" * 64}
        want = f"{WHEEL}:{MEMBER.format(part='train')}: sha256 mismatch"
    else:
        want = "scr_val.csv: column(s) 'Confirmatory' not found"
    config["dataset"] = "scr_confirmed"
    config["datasets"].pop("scr_primary")
    done = run_workflow(tmp_path, config, TARGETS[1])
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("crocbench: ")]
    assert len(lines) == 1 and want in lines[0], (lines, done.stderr[-2000:])
    assert WHEEL in lines[0] or case.startswith("label"), lines  # the archive's errors name it
    assert "Traceback" not in done.stdout + done.stderr
    assert not (tmp_path / TARGETS[1]).exists()
    written = {str(p.relative_to(tmp_path)) for p in tmp_path.joinpath("data").rglob("*") if p.is_file()}
    assert not any(Path(p).name.startswith(".") for p in written), written  # no partial file left behind
    archive, train, val = f"data/archives/{WHEEL}", "data/scr_confirmed/scr_train.csv", "data/scr_confirmed/scr_val.csv"
    absent = {
        "corrupt archive": [train, val],
        "missing member": [val],
        "wrong archive sha256": [archive, train, val],
        "wrong member sha256": [train],
        "label column absent from one member": [],
    }[case]
    assert not written & set(absent), written


def test_a_seeded_sample_of_a_panel_campaign_through_the_workflow(tmp_path, mirror):
    """GPCR_3 as config/panels/pubchem_hts.yaml declares it (both definitions, the panel's models with the primary
    Score as a ranker), on a seeded sample of its real members (declared as such: a small wheel of 300 training
    and 40 validation rows, made here), through every model to the cross-screen summary."""
    import yaml

    from crocbench.data import pubchem as P

    wheel = mirror / P.WHEEL["name"]
    if not wheel.is_file():
        pytest.skip("no DataValuationPlatform wheel in the mirror")
    panel = yaml.safe_load((ROOT / "config" / "panels" / "pubchem_hts.yaml").read_text())
    plan = run_workflow(tmp_path, {**panel, "mirror": str(mirror)}, "-n", "-q")  # the panel as written plans
    assert plan.returncode == 0, plan.stderr[-3000:]
    few = {**panel, "mirror": str(mirror), "dataset": ["RNA_binding_confirmed"], "cv": {"folds": 20, "seed": 0}}
    refused = run_workflow(tmp_path, few, "-n")  # 11 confirmed actives: refused before any job, in one line
    assert refused.returncode != 0 and "dataset RNA_binding_confirmed: 11 positives (config 'expected')" in (
        refused.stdout + refused.stderr
    )
    (tmp_path / "mir").mkdir()
    rng = np.random.default_rng(0)
    sample = tmp_path / "mir" / "gpcr3-sample.whl"
    with zipfile.ZipFile(wheel) as z, zipfile.ZipFile(sample, "w") as out:
        for member, n in zip(P.members("GPCR_3"), (300, 40)):
            table = pd.read_csv(z.open(member), dtype=str, keep_default_na=False)
            hits = np.flatnonzero(table["Confirmatory"] != "")[: n // 3]  # tested hits first, then seeded rows
            rest = rng.choice(np.setdiff1d(np.arange(len(table)), hits), n - hits.size, replace=False)
            out.writestr(member, table.iloc[np.sort(np.r_[hits, rest])].to_csv(index=False))
    archive = {
        "name": sample.name,
        "sha256": hashlib.sha256(sample.read_bytes()).hexdigest(),
        "url": "http://127.0.0.1:9/x",
    }
    datasets = {}
    for definition in P.DEFINITIONS:
        entry = panel["datasets"][f"GPCR_3_{definition}"]
        files = [{**f, "archive": archive, "sha256": None} for f in entry["files"]]
        datasets[f"GPCR_3_{definition}"] = {**{k: v for k, v in entry.items() if k != "expected"}, "files": files}
    models = {
        **panel["models"],
        "svm": {**panel["models"]["svm"], "C_grid": [1], "class_weight_grid": [None]},
        "irv": {"k": 5, "max_epochs": 50},
        "knn": {"k": 5},
    }
    config = {
        **panel,
        "mirror": "mir",
        "dataset": list(datasets),
        "datasets": datasets,
        "models": models,
        "cv": {"folds": 3, "seed": 0},
        "similarity": {"k": 10},
        "significance": {"samples": 200},
    }
    done = run_workflow(tmp_path, config, "--cores", "2", "summary")
    assert done.returncode == 0, done.stderr[-3000:]
    for name in datasets:  # the primary Score is a ranker of its own: its scores are the compounds' Score
        compounds = pd.read_parquet(tmp_path / "results" / name / "compounds.parquet").set_index("id")
        imported = pd.read_parquet(tmp_path / "results" / name / "scores" / "primary_score.parquet").set_index("id")
        assert imported["score"].tolist() == compounds.loc[imported.index, "Score"].astype(float).tolist()
    # the datasets table has the primary score; the ranks compare the paper's five, as the panel declares
    ranks = (tmp_path / "results" / "summary" / "tables" / "ranks.md").read_text()
    summary = pd.read_csv(tmp_path / "results" / "summary" / "tables" / "datasets.tsv", sep="\t")
    assert "primary score" in set(summary["model"]) and "primary score" not in ranks and "IRV" in ranks

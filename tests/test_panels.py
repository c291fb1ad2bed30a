"""The PubChem HTS panel (config/panels/pubchem_hts.yaml): every declared screen's counts are what crocbench's
standardization finds in the wheel's members, and what pandas and RDKit count there on their own.

The unit suite checks the panel's shape. GPCR_3's confirmed definition (~64,000 compounds; unknown labels
rejected, so every count branch; 25 s of RDKit parsing) is marked ``fulldata`` and run by CI on its own
(``pytest -m fulldata tests/test_panels.py -k gpcr_3``); ``pytest -m fulldata`` checks all 25 campaigns x 2
definitions (7.8 million records, minutes).
"""

import hashlib
import io
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import yaml
from _configs import merged_config
from _waits import start, stop, until

from crocbench.data import Dataset, Fetching, obtain, standardize
from crocbench.data import pubchem as P

ROOT = Path(__file__).resolve().parents[1]
PANEL = ROOT / "config" / "panels" / "pubchem_hts.yaml"
COUNTS = ROOT / "config" / "panels" / "pubchem_hts_counts.tsv"


@pytest.fixture(scope="module")
def panel():
    return yaml.safe_load(PANEL.read_text())


@pytest.fixture(scope="module")
def wheel(mirror):
    path = mirror / P.WHEEL["name"]
    if not path.is_file():
        pytest.skip(f"no {P.WHEEL['name']} in the mirror")
    return path


def _independent_counts(wheel: Path, campaign: str) -> dict:
    """pandas + RDKit, written here apart from crocbench: the two definitions' counts of one campaign."""
    from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    with zipfile.ZipFile(wheel) as z:
        parts = [pd.read_csv(io.BytesIO(z.read(m)), dtype=str, keep_default_na=False) for m in P.members(campaign)]
    t = pd.concat(parts, ignore_index=True)
    ok = t["SMILES"].map(lambda s: Chem.MolFromSmiles(s) is not None)
    out = {}
    for name, pos, neg in (
        ("primary", t["Primary"] == "1", t["Primary"] == "0"),
        (
            "confirmed",
            t["Confirmatory"] == "1.0",
            (t["Confirmatory"] == "0.0") | ((t["Primary"] == "0") & (t["Confirmatory"] == "")),
        ),
    ):
        out[name] = {
            "rows_in": len(t),
            "positives": int((pos & ok).sum()),
            "negatives": int((neg & ok).sum()),
            "unknown": int((~pos & ~neg).sum()),
        }
    return out


def _standardized(wheel: Path, name: str, entry: dict, folder: Path) -> dict:
    """crocbench's own path: each member extracted as the workflow does, then standardize."""
    how = Fetching(archives=wheel.parent, progress=None)  # the mirror's wheel is the kept archive
    for f in entry["files"]:
        obtain(f, folder / f["name"], how=how)
    return standardize(Dataset.from_config(name, entry), folder, n_jobs=2)[2]


def _check(wheel, panel, campaign, tmp_path, definitions=P.DEFINITIONS):
    independent = _independent_counts(wheel, campaign)
    for definition in definitions:
        name = f"{campaign}_{definition}"
        entry = panel["datasets"][name]
        summary = _standardized(wheel, name, entry, tmp_path / name)  # standardize also checks `expected`
        want = independent[definition]
        assert summary["rows_in"] == want["rows_in"], name
        assert (summary["positives"], summary["negatives"]) == (want["positives"], want["negatives"]), name
        assert summary["rejected_by_reason"].get("unknown label", 0) == want["unknown"], name
        assert summary["rejected"] == want["rows_in"] - want["positives"] - want["negatives"], name
        assert entry["expected"] == {k: summary[k] for k in entry["expected"]}, name


@pytest.mark.fulldata
def test_gpcr_3_confirmed_counts_are_the_independent_ones(wheel, panel, tmp_path):
    _check(wheel, panel, "GPCR_3", tmp_path, definitions=("confirmed",))


@pytest.mark.fulldata
@pytest.mark.parametrize(
    "campaign", sorted({n.rsplit("_", 1)[0] for n in yaml.safe_load(PANEL.read_text())["datasets"]})
)
def test_every_campaign_counts_are_the_independent_ones(wheel, panel, tmp_path, campaign):
    _check(wheel, panel, campaign, tmp_path)


def test_the_panel_declares_25_campaigns_twice_with_pinned_members(panel, wheel):
    datasets = panel["datasets"]
    assert len(datasets) == 50 and sorted(panel["dataset"]) == sorted(n for n in datasets if n.endswith("_primary"))
    with zipfile.ZipFile(wheel) as z:
        for name, entry in datasets.items():
            for f in entry["files"]:  # every member's sha256 is its own, and the archive the pinned wheel
                assert f["sha256"] == hashlib.sha256(z.read(f["member"])).hexdigest(), (name, f["member"])
                assert f["archive"] == P.WHEEL
    assert panel["models"]["primary_score"]["scores"] == "results/{dataset}/compounds.parquet"
    # the SVM subsamples to a 4 GB kernel fitted in one LIBSVM call: config.yaml's working sets are turned off
    assert panel["models"]["svm"] == {"large": "subsample", "max_kernel_gb": 4, "working_set": None}
    # the primary score ranks the actives first by construction: the ranks across screens leave it out
    assert panel["summary"]["models"] == ["random", "maxsim", "knn", "svm", "irv"]
    counts = pd.read_csv(COUNTS, sep="\t").set_index("dataset")
    for name, entry in datasets.items():
        assert entry["expected"] == {k: int(counts.loc[name, k]) for k in entry["expected"]}, name


def test_a_definition_with_too_few_actives_is_refused_before_any_job(panel):
    entry = panel["datasets"]["RNA_binding_confirmed"]  # 11 confirmed actives (2 in training, 9 in validation)
    Dataset.from_config("RNA_binding_confirmed", entry).check_folds(10)
    with pytest.raises(
        ValueError,
        match=r"dataset RNA_binding_confirmed: 11 positives \(config 'expected'\): its 20-fold cross-validation needs at least 20",
    ):
        Dataset.from_config("RNA_binding_confirmed", entry).check_folds(20)


def test_the_confirmed_and_scaffold_overlays_select_what_they_say():
    """pubchem_hts_confirmed.yaml: the confirmed definitions with at least 700 actives; pubchem_hts_scaffold.yaml:
    the 9 smallest primary screens, as many as a Wilcoxon-Holm claim among five rankers needs (counted from the
    counts table here, not from the overlays)."""
    from crocbench.stats import screens_needed

    counts = pd.read_csv(COUNTS, sep="\t")
    confirmed = yaml.safe_load((PANEL.parent / "pubchem_hts_confirmed.yaml").read_text())
    scaffold = yaml.safe_load((PANEL.parent / "pubchem_hts_scaffold.yaml").read_text())
    want = counts[counts["dataset"].str.endswith("_confirmed") & (counts["positives"] >= 700)]
    assert sorted(confirmed["dataset"]) == sorted(want["dataset"]) and len(want) > screens_needed(5)
    primary = counts[counts["dataset"].str.endswith("_primary")].sort_values("kept")
    assert len(scaffold["dataset"]) == screens_needed(5) == 9
    assert sorted(scaffold["dataset"]) == sorted(primary["dataset"].head(9))
    assert (
        scaffold["cv"] == {"split": "scaffold"} and set(scaffold) == {"cv", "dataset"} and set(confirmed) == {"dataset"}
    )


@pytest.mark.parametrize("overlay", [None, "pubchem_hts_scaffold.yaml", "pubchem_hts_confirmed.yaml"])
def test_the_ecfp_overlay_adds_the_ecfp_rankers_within_8_gb_a_job(panel, overlay, tmp_path):
    """pubchem_hts_ecfp.yaml over the panel (and over either overlay, listed last): the schema and the cross-field
    checks pass; the runs are the panel's six and the six ECFP rankers; the ranks across screens compare all but the
    primary score; every fold job of the largest screen declares at most 8 GB."""
    from crocbench.config import check_config

    parts = [PANEL.name, overlay, "pubchem_hts_ecfp.yaml"]
    config, runs = merged_config(*(PANEL.parent / part for part in parts if part is not None))
    assert check_config(config, runs, root=tmp_path) == config["dataset"]
    ecfp = ["rf", "gbm", "gbm_rank", "logreg", "mlp", "mlp_exp"]
    assert list(runs) == [*panel["models"], *ecfp]
    assert config["summary"]["models"] == [*panel["summary"]["models"], *ecfp]
    largest = int(pd.read_csv(COUNTS, sep="\t")["kept"].max())
    for name in ecfp:
        assert runs[name].resources(largest, 10)["mem_mb"] <= 8000, name
        assert runs[name].resources(largest, 10)["threads"] == 1, name  # two folds at a time on 2 cores
    same = ["learning_rate", "patience", "max_rounds", "num_leaves", "feature_fraction_bynode", "stop_metric"]
    assert [vars(runs["gbm"].model)[k] for k in same] == [vars(runs["gbm_rank"].model)[k] for k in same]
    mlp, mlp_exp = vars(runs["mlp"].model), vars(runs["mlp_exp"].model)
    assert {k: v for k, v in mlp.items() if k != "reweighting"} == {
        k: v for k, v in mlp_exp.items() if k != "reweighting"
    }


@pytest.mark.parametrize("overlay", [None, "pubchem_hts_confirmed.yaml"])
def test_the_full_strength_overlay_runs_todays_rankers_at_their_defaults(panel, overlay, tmp_path):
    """pubchem_hts_full.yaml over the panel (or the confirmed overlay): the checks pass; the ECFP rankers are added
    with every parameter at its class's default (500 trees on every compound, early stopping), MLP-exp as the MLP
    but for its reweighting."""
    from crocbench.config import check_config
    from crocbench.models import GBM, MLP, GBMRank, LogReg, RandomForest

    parts = [PANEL.name, overlay, "pubchem_hts_full.yaml"]
    config, runs = merged_config(*(PANEL.parent / part for part in parts if part is not None))
    assert check_config(config, runs, root=tmp_path) == config["dataset"]
    classes = {"rf": RandomForest, "gbm": GBM, "gbm_rank": GBMRank, "logreg": LogReg, "mlp": MLP}
    assert list(runs) == [*panel["models"], *classes, "mlp_exp"]
    for name, cls in classes.items():
        assert vars(runs[name].model) == vars(cls()), name
    forest, mlp = runs["rf"].model, runs["mlp"].model
    assert (forest.n_estimators, forest.max_samples, mlp.patience) == (500, None, 3)
    assert runs["mlp_exp"].model.reweighting.scheme == "exp"


def _study_script():
    import importlib.util

    path = ROOT / "benchmarks" / "studies" / "ecfp_panel.py"
    spec = importlib.util.spec_from_file_location("ecfp_panel_study", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def test_the_ecfp_panel_study_runs_each_panel_with_todays_rankers_listed_last():
    """benchmarks/studies/ecfp_panel.py: each run is the panel, its overlay (if any) and the ECFP rankers last
    (the order the overlay's own comment asks for), each kept in a reference folder of its own."""
    study, _ = _study_script()
    for part, (reference, configs) in study.RUNS.items():
        assert configs[0] == "pubchem_hts.yaml" and configs[-1] == "pubchem_hts_ecfp.yaml", part
        assert all((ROOT / study.PANELS / name).is_file() for name in configs), part
        assert reference.startswith("pubchem_hts_ecfp")
    assert study.RUNS["scaffold"][1][1] == "pubchem_hts_scaffold.yaml"
    assert study.RUNS["confirmed"][1][1] == "pubchem_hts_confirmed.yaml"
    assert len({reference for reference, _ in study.RUNS.values()}) == 3


def test_the_ecfp_panel_study_keeps_its_runs_outside_the_checkout_in_worktrees_at_its_commit(tmp_path):
    """A run folder inside the checkout is refused with one line; a missing one becomes a worktree at this commit."""
    import subprocess
    import sys

    study, path = _study_script()
    command = [sys.executable, str(path), str(ROOT / "runs"), "--parts", "references"]  # nothing to run, refused or not
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1 and done.stderr.strip() == f"{ROOT / 'runs'}: put the runs outside this checkout"
    folder = tmp_path / "primary"
    try:
        assert study.worktree(folder) == folder
        assert study.git("rev-parse", "HEAD", cwd=folder) == study.git("rev-parse", "HEAD")
        assert (folder / "config" / "panels" / "pubchem_hts_ecfp.yaml").is_file()
        study.worktree(folder)  # already there, at this commit: left as it is
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False, timeout=60)


SMALLEST_TWO = ["GPCR_3_primary", "ion_channel2_primary"]  # a summary compares two screens or more


def _job_started(pid, psutil) -> bool:
    """Whether a process under snakemake (a job, below the study command's snakemake) runs."""
    try:
        return any(child.children(recursive=True) for child in psutil.Process(pid).children())
    except psutil.NoSuchProcess:
        return False


@pytest.mark.timeout(1500)  # the guards below: 900 s for a job to start, 300 s to stop, 120 s to reap
def test_an_interrupted_ecfp_panel_study_stops_snakemake_and_its_jobs_and_exits_130(tmp_path, mirror):
    """A real SIGINT to the study command while snakemake runs the smallest screens' first job: the command lets
    snakemake stop its jobs, says so in two lines (no traceback) and exits 130; no process it started lives on."""
    import os
    import signal
    import subprocess
    import sys

    import psutil

    _, path = _study_script()
    root = tmp_path / "runs"
    command = [sys.executable, str(path), str(root), "--parts", "primary", "--screens", *SMALLEST_TWO, "--cores", "1"]
    env = {**os.environ, "CROCBENCH_MIRROR": str(mirror)}
    # The command gets SIGINT's default action, whatever this process inherited (a background job ignores it).
    proc = start(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    log = root / "primary.log"
    started = []
    try:
        # snakemake has logged a job and the job's process is under it
        until(
            lambda: log.is_file() and "jobid: " in log.read_text() and _job_started(proc.pid, psutil),
            "snakemake's first job to run",
            proc,
            guard=900,
        )
        started = psutil.Process(proc.pid).children(recursive=True)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 130, err
        assert "Traceback" not in err and err.splitlines() == [
            "primary: interrupted; waiting for snakemake to stop its jobs",
            f"primary: stopped; the same command resumes the run (see {log})",
        ]
        # The command has exited 130 only after snakemake did; its jobs' processes may still be being reaped.
        _, alive = psutil.wait_procs(started, timeout=120)
        assert [p.pid for p in alive if p.status() != psutil.STATUS_ZOMBIE] == []
    finally:  # a failed test leaves nothing running
        stop(proc)
        for process in started:
            if process.is_running():
                process.kill()
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(root / "primary")], cwd=ROOT, check=False, timeout=60
        )

"""The Snakemake workflow on a user's own tiny dataset, declared in a config file only (``pytest -m workflow``)."""

import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from _snakemake import SNAKEMAKE
from _snakemake import run_workflow as _run

from crocbench.chem.fingerprints import load_fingerprints, molecule_features
from crocbench.similarity import load_neighbours, top_k

pytestmark = pytest.mark.workflow  # `pytest -m workflow`: end to end, minutes; not in the unit suite
ROOT = Path(__file__).resolve().parents[1]


def _config(sha=None):
    return {
        "dataset": "tiny",
        "mirror": "mir",
        "similarity": {"k": 5},
        "datasets": {
            "tiny": {
                "files": [{"name": "few.sdf", "url": "http://127.0.0.1:9/few.sdf", "sha256": sha}],
                "structures": {"file": "few.sdf", "id": "NSC", "label": "NCI_AIDS_Antiviral_Screen_Conclusion"},
                "positive": ["CA", "CM"],
                "negative": ["CI"],
            }
        },
    }


@pytest.fixture
def workdir(tmp_path, mirror):
    (tmp_path / "mir").mkdir()
    shutil.copy(mirror / "fixtures" / "NCI_aids_few.sdf", tmp_path / "mir" / "few.sdf")
    return tmp_path


FEATURES = ["results/tiny/compounds.parquet", "results/tiny/fingerprints.npz", "results/tiny/neighbours_k5.npz"]


def test_own_sd_dataset_end_to_end(workdir):
    # 1 positive among 16 records: no 10-fold CV is possible, and standardize says so before any fingerprint
    done = _run(workdir, _config(), *FEATURES)
    assert done.returncode != 0
    assert "dataset tiny: 1 positives and 15 negatives" in done.stdout + done.stderr
    res = workdir / "results" / "tiny"
    assert not (res / "fingerprints.npz").exists()
    sdf = workdir / "mir" / "few.sdf"  # three more positives (CM), and a 2-fold CV
    sdf.write_text(sdf.read_text().replace("Conclusion>\nCI\n", "Conclusion>\nCM\n", 3))
    assert not (workdir / "data" / "tiny" / "few.sdf").exists()  # not trusted yet: removed with the error
    # the neighbour search in 7 jobs of 4 x 4 tiles: the gathered lists equal one search over all pairs
    done = _run(workdir, {**_config(), "cv": {"folds": 2}, "similarity": {"k": 5, "tile": 4, "chunks": 7}}, *FEATURES)
    assert done.returncode == 0, done.stderr[-3000:]
    compounds = pd.read_parquet(res / "compounds.parquet")
    assert list(compounds.columns) == ["id", "smiles", "label", "class"]
    assert len(compounds) == 16 and compounds.set_index("id").loc["211", "label"] == 1
    summary = json.loads((res / "standardize_summary.json").read_text())
    assert summary["kept"] == 16 and summary["rejected"] == 0 and summary["positives"] == 4
    fp = load_fingerprints(res / "fingerprints.npz")
    assert fp.row(3).tolist() == molecule_features(compounds["smiles"][3]).tolist()
    nb = load_neighbours(res / "neighbours_k5.npz")
    expected = top_k(fp, 5)
    assert np.array_equal(nb.index, expected.index) and np.array_equal(nb.similarity, expected.similarity)
    # the unknown sha256 was recorded (trust on first use)
    assert json.loads((workdir / "checksums.lock.json").read_text())["tiny/few.sdf"]
    assert not (res / "neighbours_k5.chunks").exists() or not any((res / "neighbours_k5.chunks").iterdir())  # temp
    assert "from 7 chunk(s)" in (workdir / "logs" / "tiny" / "neighbours_k5.log").read_text()
    for log in (
        "download/few.sdf.log",
        "standardize.log",
        "fingerprints.log",
        "neighbours_k5.log",
        *(f"neighbours_k5/chunk_{c}.log" for c in range(7)),
    ):
        assert "done in" in (workdir / "logs" / "tiny" / log).read_text()


def test_wrong_checksum_stops_the_run_and_says_why(workdir):
    done = _run(workdir, _config(sha="0" * 64), *FEATURES)
    assert done.returncode != 0
    log = (workdir / "logs" / "tiny" / "download" / "few.sdf.log").read_text()
    # the file came from the mirror: the advice is to replace it there, not to "use a mirror"
    assert "sha256 mismatch for mirror file" in log and "0" * 64 in log and "with the published file" in log
    assert "CROCBENCH_MIRROR" not in log
    assert not (workdir / "data" / "tiny" / "few.sdf").exists()


def test_unknown_dataset_is_named(workdir):
    config = _config()
    config["dataset"] = "nope"
    done = _run(workdir, config, "-n")
    assert done.returncode != 0 and "dataset 'nope' is not declared" in done.stdout + done.stderr


def test_an_svm_kernel_that_cannot_fit_stops_before_any_job(workdir):
    # 16 compounds expected, 2 folds: 8 training compounds, a kernel of 8 x 8^2 = 512 bytes, above a 1e-9 GB line
    config = {**_config(), "cv": {"folds": 2}, "models": {"svm": {"max_kernel_gb": 1e-9}}}
    config["datasets"]["tiny"]["expected"] = {"kept": 16}
    done = _run(workdir, config)
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert "model svm: the SVM's training kernel of 8 compounds needs 5.12e-07 GB" in out
    assert "above max_kernel_gb = 1e-09; set the svm's 'large: subsample'" in out
    assert not (workdir / "results").exists() and not (workdir / "data").exists()


def _small_config(name, file, structures, models, **extra):
    """A config declaring one dataset (a file in the test's mirror folder ``mir``, labels CA/CM vs CI)."""
    return {
        "dataset": name,
        "mirror": "mir",
        "models": models,
        **extra,
        "datasets": {
            name: {
                "files": [{"name": file, "url": f"http://127.0.0.1:9/{file}", "sha256": None}],
                "structures": {"file": file, **structures},
                "positive": ["CA", "CM"],
                "negative": ["CI"],
            }
        },
    }


def _check_html_report(workdir, config, figures):
    """``snakemake --report`` embeds every figure; each decodes, and renders in a headless browser if one is here."""
    import base64
    import io
    import re

    from matplotlib.image import imread

    done = _run(workdir, config, "--report", str(workdir / "report.html"))
    assert done.returncode == 0, done.stderr[-3000:]
    html = (workdir / "report.html").read_text()
    uris = {}
    for name in figures:
        match = re.search(rf'"results/mine/figures/{name}\.png": \{{.*?"data_uri": "(data:image/png[^"]*)"', html)
        assert match, f"{name}.png is not embedded in the report"
        uris[name] = match.group(1)
        pixels = imread(io.BytesIO(base64.b64decode(uris[name].split(",", 1)[1])), format="png")
        assert pixels.shape[0] > 300 and pixels.std() > 0.01, name
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        if os.environ.get("CI") == "true":  # CI installs Debian's chromium: the report is opened there, always
            pytest.fail("no Chromium to open the HTML report in (apt-get install chromium)")
        warnings.warn("no Chromium: the HTML report was checked as a file, not opened in a browser", stacklevel=2)
        return
    page = workdir / "images.html"
    page.write_text(
        "<html><body>"
        + "".join(f'<img src="{u}">' for u in uris.values())
        + "<script>window.onload = () => document.body.setAttribute('data-widths', "
        "[...document.images].map(i => i.naturalWidth).join(','));</script></body></html>"
    )
    dom = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    widths = re.search(r'data-widths="([0-9,]+)"', dom)
    assert widths and all(int(w) > 300 for w in widths.group(1).split(",")), dom[-500:]
    app = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            (workdir / "report.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "Figures" in app and "Tables" in app


def test_own_csv_dataset_through_every_model(tmp_path, mirror):
    """A CSV with its own column names and class values, 2 folds, all five models; a forced rerun
    gives byte-identical results files."""
    data = pd.read_csv(mirror / "HIV_41913.csv")
    sample = pd.concat([data[data["HIV_active"] == 1].head(24), data[data["HIV_active"] == 0].head(96)])
    (tmp_path / "mir").mkdir()
    sample.rename(columns={"smiles": "Structure", "activity": "Outcome"}).assign(
        compound=[f"c{i}" for i in range(len(sample))]
    ).to_csv(tmp_path / "mir" / "mine.csv", index=False)
    config = _small_config(
        "mine",
        "mine.csv",
        {"smiles": "Structure", "id": "compound", "label": "Outcome"},
        {"random": {}, "maxsim": {}, "knn": {"k": 5}, "svm": {"C": 1.0}, "irv": {"k": 5, "max_epochs": 100}},
        similarity={"k": 12},
        cv={"folds": 2, "seed": 7},
        irv_training={"schemes": ["none", "power"]},
    )
    config["datasets"]["mine"]["reproduces"] = "swamidass2010"  # a sample of the paper's screen: its claims apply
    done = _run(tmp_path, config, "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    res = tmp_path / "results" / "mine"
    folds = pd.read_csv(res / "folds.tsv", sep="\t")
    assert len(folds) == 120 and folds.groupby("fold")["label"].sum().tolist() == [12, 12]
    for model in config["models"]:
        scores = pd.read_parquet(res / "scores" / f"{model}.parquet")
        assert scores["id"].tolist() == folds["id"].tolist() and scores["score"].notna().all()
        per_fold = pd.read_csv(res / "scores" / f"{model}.per_fold.tsv", sep="\t")
        assert per_fold["fold"].astype(str).tolist() == ["0", "1", "all"]
    table = pd.read_csv(res / "tables" / "irv_training.tsv", sep="\t")
    assert table["scheme"].tolist() == ["none", "power"] and (table["converged_folds"] <= 2).all()
    assert "## The paper's claims on this run" in (res / "tables" / "irv_training.md").read_text()
    assert (res / "figures" / "irv_training.png").stat().st_size > 10_000
    tables = ["areas", "significance", "published", "irv_training"]
    figures = ["magnification", "roc", "croc", "ac_cac", "proc", "irv_training"]
    for name in tables:
        assert (res / "tables" / f"{name}.tsv").stat().st_size and (res / "tables" / f"{name}.md").stat().st_size
    for name in figures:
        assert all((res / "figures" / f"{name}.{ext}").stat().st_size > 10_000 for ext in ("png", "pdf"))
    assert "RANDOM" in (res / "tables" / "areas.md").read_text()
    # the configured permutation samples (default 10,000) reach table 2: p = (1 + hits) / 10,001
    significance = pd.read_csv(res / "tables" / "significance.tsv", sep="\t")
    for test in ("paired_permutation", "unpaired_permutation"):
        hits = significance[test].to_numpy() * 10_001 - 1
        assert np.allclose(hits, np.round(hits), atol=1e-3) and (significance[test] < 0.99).any(), test
    assert "10,000 permutation samples" in (res / "tables" / "significance.md").read_text()
    _check_html_report(tmp_path, config, figures)

    # the optional SVM sensitivity target: every (fingerprint, C, class weight, score), pooled and per fold
    config["svm_sensitivity"] = {"C": [0.1, 1.0], "class_weight": [None, "balanced"]}
    done = _run(tmp_path, config, "--cores", "2", "svm_sensitivity")
    assert done.returncode == 0, done.stderr[-3000:]
    grid = pd.read_csv(res / "tables" / "svm_sensitivity.tsv", sep="\t")
    assert len(grid) == 3 * 2 * 2 * 2 and set(grid["fingerprint"]) == {"paper", "folded_1024", "rdkit_morgan"}
    svm = pd.read_csv(res / "scores" / "svm.per_fold.tsv", sep="\t").set_index("fold")
    same = grid[(grid["fingerprint"] == "paper") & (grid["C"] == 1.0) & (grid["class_weight"] == "none")]
    decision = same[same["score"] == "decision"].iloc[0]
    assert decision["roc"] == pytest.approx(
        svm.loc["all", "roc"], abs=1e-6
    )  # the workflow's own SVM run (TSV: 6 digits)
    platt = same[same["score"] == "platt"].iloc[0]  # same per-fold rankings, another pooled one
    assert platt["roc_mean"] == pytest.approx(decision["roc_mean"], abs=1e-12)
    markdown = (res / "tables" / "svm_sensitivity.md").read_text()
    assert "Pooled ranking vs per-fold mean" in markdown and "| 1 | none | 0, 1 | 2 |" in markdown  # C = 1 fixed
    assert (res / "figures" / "svm_sensitivity.png").stat().st_size > 10_000

    # the optional IRV training study: Rprop with no reweighting and the loss stop rule is the workflow's own IRV
    config["irv_sensitivity"] = {
        "optimizers": [{"optimizer": "rprop"}, {"optimizer": "gd", "lr": [5]}],
        "schemes": ["none", "power"],
        "max_epochs": 100,
    }
    done = _run(tmp_path, config, "--cores", "2", "irv_sensitivity")
    assert done.returncode == 0, done.stderr[-3000:]
    study = pd.read_csv(res / "tables" / "irv_sensitivity.tsv", sep="\t")
    assert len(study) == 2 * 2 * 3 and (study["folds"] == 2).all()
    own = study[(study["setting"] == "rprop") & (study["scheme"] == "none") & (study["stop"] == "loss")].iloc[0]
    infos = [json.loads((res / "scores" / "irv" / f"fold_{k}.json").read_text()) for k in range(2)]
    assert own["epochs_mean"] == np.mean([i["epochs"] for i in infos])
    irv = pd.read_csv(res / "scores" / "irv.per_fold.tsv", sep="\t").set_index("fold")
    assert own["roc"] == pytest.approx(irv.loc["all", "roc"], abs=1e-6)
    assert "Closest to the paper's epoch counts" in (res / "tables" / "irv_sensitivity.md").read_text()
    assert (res / "figures" / "irv_sensitivity.png").stat().st_size > 10_000

    # determinism: rerun the whole chain to three models' fold-0 scores; the same bytes come out
    again = [
        "compounds.parquet",
        "fingerprints.npz",
        "neighbours_k12.npz",
        "folds.tsv",
        *(f"scores/{m}/fold_0.{ext}" for m in ("random", "irv_power") for ext in ("parquet", "json")),
    ]
    before = {rel: (res / rel).read_bytes() for rel in again}
    rerun = _run(
        tmp_path,
        config,
        "--cores",
        "2",
        "--forcerun",
        "standardize",
        "fingerprints",
        "neighbours",
        "folds",
        "score_fold",
        "score_folds",
        "--",
        *(f"results/mine/{rel}" for rel in again if rel.endswith(".parquet")),
    )
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert rerun.stdout.count("Finished jobid") + rerun.stderr.count("Finished jobid") >= 6
    for rel, content in before.items():
        assert (res / rel).read_bytes() == content, rel


def test_own_sd_dataset_through_the_report(tmp_path, mirror):
    """An SD file (gzipped, labels in an SD field, some records without `M  END`) through the whole workflow."""
    import gzip

    from rdkit import Chem

    data = pd.read_csv(mirror / "HIV_41913.csv")
    sample = pd.concat([data[data["HIV_active"] == 1].head(20), data[data["HIV_active"] == 0].head(60)])
    blocks = []
    for i, (smiles, label) in enumerate(zip(sample["smiles"], sample["activity"])):
        block = Chem.MolToMolBlock(Chem.MolFromSmiles(smiles))
        if i % 2:
            block = block.replace("M  END\n", "")
        blocks.append(f"NSC{i}{block[block.index(chr(10)) :]}>  <Screen>\n{label}\n\n$$$$\n")
    (tmp_path / "mir").mkdir()
    (tmp_path / "mir" / "lib.sdf.gz").write_bytes(gzip.compress("".join(blocks).encode()))
    config = _small_config(
        "lib",
        "lib.sdf.gz",
        {"format": "sdf", "id": "_title", "label": "Screen"},
        {"random": {}, "knn": {"k": 5}, "svm": {"C_grid": [0.1, 1], "class_weight_grid": [None, "balanced"]}},
        similarity={"k": 10},
        cv={"folds": 2, "seed": 1},
    )
    config["datasets"]["lib"]["top"] = 0.05  # "actives in the top k" as a share of the list (default 1%)
    done = _run(tmp_path, config, "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    res = tmp_path / "results" / "lib"
    compounds = pd.read_parquet(res / "compounds.parquet")
    assert len(compounds) == 80 and compounds["label"].sum() == 20 and compounds["id"].iloc[3] == "NSC3"
    for name in ("areas", "significance"):
        assert (res / "tables" / f"{name}.md").stat().st_size
    assert not (res / "tables" / "published.md").exists()  # not a reproduction of the paper: no published table
    for name in ("magnification", "roc", "croc", "ac_cac", "proc"):
        assert (res / "figures" / f"{name}.png").stat().st_size > 10_000
    report = _run(tmp_path, config, "--report", str(tmp_path / "report.html"))
    assert report.returncode == 0, report.stderr[-3000:]
    html = (tmp_path / "report.html").read_text()
    assert "crocbench on <strong>lib</strong>" in html and "are not compared here" in html
    assert "published." not in html and "NCI DTP AIDS antiviral screen: five" not in html
    areas = pd.read_csv(res / "tables" / "areas.tsv", sep="\t")
    assert areas["model"].tolist() == ["RANDOM", "kNN", "SVM", "random (expected)"]
    # 5% of 80 = the top 4, not the paper's 1,000 (capped at 80, every model's 20 actives): said in the header
    assert "top4" in areas and "top80" not in areas and areas["top4"].iloc[-1] == pytest.approx(4 * 20 / 80)
    assert "| actives in top 4 (5% of 80) |" in (res / "tables" / "areas.md").read_text()
    assert "pooled 2-fold ranking" in (res / "tables" / "areas.md").read_text()
    for fold in (0, 1):  # the SVM chose its set-up by an inner CV among the grid's four
        info = json.loads((res / "scores" / "svm" / f"fold_{fold}.json").read_text())
        assert len(info["inner_cv"]) == 4 and (info["C"], info["class_weight"]) in [
            (c["C"], c["class_weight"]) for c in info["inner_cv"]
        ]
        best = max(c["value"] for c in info["inner_cv"])
        assert [
            c["value"] for c in info["inner_cv"] if (c["C"], c["class_weight"]) == (info["C"], info["class_weight"])
        ] == [best]
    assert not (res / "tables" / "irv_training.md").exists()  # no IRV, no reweighting table


def test_a_file_without_checksum_is_trusted_only_once_read_and_rejections_are_told(tmp_path):
    """sha256: null and a truncated .gz in the mirror: the run stops at standardize and records nothing; with the
    good file the checksum is recorded, conflicting duplicate ids are rejected and the console says so."""
    import gzip
    import hashlib

    rows = ["id,smiles,outcome"] + [
        f"m{i},{'C' * (i % 9 + 1)}O,{'active' if i % 4 == 0 else 'inactive'}" for i in range(40)
    ]
    rows += ["dup,CCN,active", "dup,CCN,inactive", "bad1,C1CC,inactive", "bad2,xyz,inactive"]
    good = gzip.compress(("\n".join(rows) + "\n").encode())
    (tmp_path / "mir").mkdir()
    (tmp_path / "mir" / "lib.csv.gz").write_bytes(good[: len(good) // 2])
    config = _small_config(
        "lib", "lib.csv.gz", {"smiles": "smiles", "id": "id", "label": "outcome"}, {"random": {}}, cv={"folds": 2}
    )
    config["datasets"]["lib"].update(positive=["active"], negative=["inactive"], duplicates="keep")
    target = "results/lib/compounds.parquet"
    done = _run(tmp_path, config, target)
    assert done.returncode != 0 and "lib.csv.gz" in done.stdout + done.stderr
    lock = tmp_path / "checksums.lock.json"
    assert not lock.exists() or "lib/lib.csv.gz" not in json.loads(lock.read_text())  # nothing locked in
    # the untrusted copy was removed with the error (and the line says so): the fixed mirror file is fetched again
    assert not (tmp_path / "data" / "lib" / "lib.csv.gz").exists()
    assert "data/lib/lib.csv.gz: not trusted yet, removed; the next run fetches it again" in done.stderr
    (tmp_path / "mir" / "lib.csv.gz").write_bytes(good)
    done = _run(tmp_path, config, target)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(lock.read_text()) == {"lib/lib.csv.gz": hashlib.sha256(good).hexdigest()}
    rejected = pd.read_csv(tmp_path / "results" / "lib" / "rejected.tsv", sep="\t")
    assert rejected.groupby("reason")["id"].apply(list).to_dict() == {
        "duplicate id with conflicting labels": ["dup", "dup"],
        "SMILES syntax error": ["bad1", "bad2"],
    }
    assert (
        "lib: 4 of 44 records rejected (2 SMILES syntax error, 2 duplicate id with conflicting labels); "
        "each is listed with its reason in results/lib/rejected.tsv"
    ) in done.stderr


def test_own_ranker_and_imported_scores_beside_built_in_models(tmp_path, write_plugin):
    """The .test screen (as `snakemake --cores 2 --configfile .test/config.yaml` runs it, with the example forest
    plug-in) plus a plug-in class written here (declared in this test's config only, found in plugins/ beside it)
    and scores computed elsewhere (plain pandas, from folds.tsv): all go through every table, figure and the HTML
    report; a bad score file (a missing, a duplicated, a NaN score, a wrong fold) stops the run with one line and
    no table."""
    shutil.copytree(ROOT / ".test", tmp_path / ".test")
    shutil.copytree(ROOT / "plugins", tmp_path / "plugins")
    write_plugin(tmp_path / "plugins")
    config = {
        "models": {
            "size": {"class": "size_ranker:SizeRanker", "weight": 2.0},
            "gnn": {"scores": "gnn.csv", "id": "compound", "score": "p_active", "fold": "fold", "label": "GNN"},
        },
        "power": {"pairs": [["gnn", "knn"]], "subsets": 20, "fractions": [0.5], "samples": 200},
    }

    def run(*extra):
        (tmp_path / "cfg.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
        return subprocess.run(
            [
                SNAKEMAKE,
                "--snakefile",
                str(ROOT / "Snakefile"),
                "--directory",
                str(tmp_path),
                "--configfile",
                str(tmp_path / ".test" / "config.yaml"),
                str(tmp_path / "cfg.yaml"),
                "--cores",
                "2",
                *extra,
            ],
            capture_output=True,
            text=True,
            timeout=600,
            env={k: v for k, v in os.environ.items() if k != "CROCBENCH_MIRROR"},
        )

    done = run("results/test_screen/folds.tsv", "results/test_screen/compounds.parquet")
    assert done.returncode == 0, done.stderr[-3000:]
    res = tmp_path / "results" / "test_screen"
    folds = pd.read_csv(res / "folds.tsv", sep="\t", dtype={"id": str})
    smiles = pd.read_parquet(res / "compounds.parquet").set_index("id")["smiles"]
    # "trained elsewhere": a score from the SMILES alone (count of ring-closure digits), one per compound, with its fold
    good = pd.DataFrame(
        {
            "compound": folds["id"],
            "fold": folds["fold"],
            "p_active": [sum(c.isdigit() for c in smiles[i]) / 10 for i in folds["id"]],
        }
    )
    bad = {
        "missing": (good.drop(index=5), f"1 compound(s) of the dataset have no score, e.g. '{folds['id'][5]}'"),
        "duplicated": (
            pd.concat([good, good.iloc[[7]]]),
            f"1 compound(s) scored more than once, e.g. '{folds['id'][7]}'",
        ),
        "nan": (good.assign(p_active=good["p_active"].where(good.index != 9)), "1 score(s) are not finite numbers"),
        "wrong fold": (
            good.assign(fold=np.where(good.index == 11, 1 - good["fold"], good["fold"])),
            f"1 compound(s) have a fold other than folds.tsv's, e.g. '{folds['id'][11]}'",
        ),
    }
    for name, (table, message) in bad.items():
        table.to_csv(tmp_path / "gnn.csv", index=False)
        done = run()
        assert done.returncode != 0, name
        assert f"gnn.csv: {message}" in done.stdout + done.stderr, (name, done.stderr[-2000:])
        # no table that reads scores (folds.md, the split described, reads only folds.tsv; split_similarity, the
        # splits compared, only the fingerprints)
        unscored = ("folds.", "split_similarity")
        assert not [t.name for t in (res / "tables").glob("*") if not t.name.startswith(unscored)], name
        assert not (res / "scores" / "gnn.parquet").exists()
    good.sample(frac=1.0, random_state=1).to_csv(tmp_path / "gnn.csv", index=False)  # any row order
    done = run()
    assert done.returncode == 0, done.stderr[-3000:]
    imported = pd.read_parquet(res / "scores" / "gnn.parquet")
    assert imported["id"].tolist() == folds["id"].tolist()
    assert imported["score"].tolist() == good["p_active"].tolist()
    fp_sizes = np.diff(load_fingerprints(res / "fingerprints.npz").indptr)
    size = pd.read_parquet(res / "scores" / "size.parquet")  # the plug-in's scores, by hand
    assert np.allclose(size["score"], fp_sizes + 2.0 * np.array([len(smiles[i]) for i in size["id"]]) / 1000)
    areas = pd.read_csv(res / "tables" / "areas.tsv", sep="\t")
    assert areas["model"].tolist() == [
        "RANDOM",
        "MAX-SIM",
        "kNN",
        "SVM",
        "IRV",
        "RF",
        "SIZE",
        "GNN",
        "random (expected)",
    ]
    significance = pd.read_csv(res / "tables" / "significance.tsv", sep="\t")
    assert {"RF", "SIZE", "GNN"} <= set(significance["a"]) | set(significance["b"])
    other = pd.read_csv(res / "tables" / "other_metrics.tsv", sep="\t")
    assert {"RF", "SIZE", "GNN"} <= set(other["model"])
    assert "GNN" in (res / "tables" / "power.md").read_text()
    info = json.loads((res / "scores" / "size" / "fold_0.json").read_text())
    assert info["model"] == "size_ranker:SizeRanker" and info["run"] == "size"
    assert "| RF |" in (res / "tables" / "areas.md").read_text() and not (res / "tables" / "published.md").exists()
    done = run("--report", str(tmp_path / "report.html"))
    assert done.returncode == 0, done.stderr[-3000:]
    html = (tmp_path / "report.html").read_text()
    assert "results/test_screen/figures/roc.png" in html and "results/test_screen/tables/areas.html" in html
    # the tables are shown on the page: HTML (which the report displays), not Markdown (a download)
    import base64
    import re

    entry = re.search(r'"results/test_screen/tables/areas.html": (\{.*?\}), "results/', html).group(1)
    assert '"mime_type": "text/html"' in entry
    page = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", entry).group(1)).decode()
    assert "<table>" in page and "<td>RF</td>" in page and "results/test_screen/tables/areas.md" not in html
    # every figure has one curve per model, the plug-ins' and the import's too
    assert (
        "curves: RANDOM, MAX-SIM, kNN, SVM, IRV, RF, SIZE, GNN"
        in (tmp_path / "logs" / "test_screen" / "figures.log").read_text()
    )
    # the finished project moved elsewhere (the plug-ins' folder with it): nothing to plan, no absolute path in params
    moved = tmp_path.with_name(tmp_path.name + "_moved")
    shutil.copytree(tmp_path, moved, symlinks=True)
    done = subprocess.run(
        [
            SNAKEMAKE,
            "--snakefile",
            str(ROOT / "Snakefile"),
            "--directory",
            str(moved),
            "--configfile",
            str(moved / ".test" / "config.yaml"),
            str(moved / "cfg.yaml"),
            "-n",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "CROCBENCH_MIRROR"},
    )
    assert done.returncode == 0 and "Nothing to be done" in done.stdout + done.stderr, done.stdout[-3000:]
    shutil.rmtree(moved)
    # a bad declaration stops before any job, in one line
    config["models"]["size"]["wieght"] = 1
    done = run("-n")
    assert (
        done.returncode != 0
        and "model size: unknown parameter 'wieght'; SizeRanker takes weight" in done.stdout + done.stderr
    )


def _two_screens(tmp_path, second_sha=None):
    """The .test screen twice in one run: CA + CM vs CI, and CA vs CI with CM dropped; small model settings."""
    shutil.copytree(ROOT / ".test" / "data", tmp_path / ".test" / "data")
    screen = yaml.safe_load((ROOT / ".test" / "config.yaml").read_text())["datasets"]["test_screen"]
    strict = {
        **screen,
        "positive": ["CA"],
        "negative": ["CI"],
        "drop": ["CM"],
        "expected": {"kept": 92, "positives": 16},
    }
    if second_sha:
        strict["files"] = [{**screen["files"][0], "sha256": second_sha}]
    return {
        "dataset": ["screen", "screen_ca"],
        "similarity": {"k": 10},
        "cv": {"folds": 2, "seed": 0},
        "models": {
            "random": {},
            "maxsim": {},
            "knn": {"k": 5},
            "svm": {"C_grid": [0.1, 1], "class_weight_grid": [None, "balanced"], "inner_folds": 2},
            "irv": {"k": 5, "max_epochs": 100},
        },
        "significance": {"samples": 1000},
        "datasets": {"screen": screen, "screen_ca": strict},
    }


def _choose(tmp_path, config_file, out):
    """`crocbench tuning choose` on the development run in ``tmp_path`` (its results/tuning/values.tsv)."""
    values = tmp_path / "results" / "tuning" / "values.tsv"
    command = [sys.executable, "-m", "crocbench.cli", "tuning", "choose", str(values), "--config", str(config_file)]
    return subprocess.run(
        [*command, "--out", str(out), "--root", str(ROOT)], capture_output=True, text=True, timeout=600
    )


def test_a_development_panel_chooses_each_rankers_configuration_by_its_mean_over_the_screens(tmp_path):
    """tuning: design: development: kNN's four candidates are runs of their own on both screens, validated on fold 0
    alone (tuning: folds: 1); `crocbench tuning choose` picks the one of best mean AUC[ROC] over the screens
    (computed here by scikit-learn from each candidate's fold-0 scores), and its models: merge into a test config
    that passes the schema. The SVM's candidates (a job per fold) train on fold 0 alone."""
    from sklearn.metrics import roc_auc_score

    from crocbench.config import check_config, load_config, study_runs

    config = _two_screens(tmp_path)
    config["models"] = {"random": {}, "knn": {"tune": {"k": [1, 3, 5, 9]}}}
    config["tuning"] = {"budget": 4, "metric": "roc", "design": "development", "folds": 1}
    (tmp_path / "dev.yaml").write_text(yaml.safe_dump(config))
    svm = {**config, "models": {"svm": {"C_grid": None, "class_weight_grid": None, "tune": {"C": [0.1, 1]}}}}
    svm["tuning"] = {**config["tuning"], "budget": 2}
    plan = _run(tmp_path, svm, "-n", "tuning_values")
    assert plan.returncode == 0, plan.stderr[-3000:]
    planned = re.findall(r"scores/svm\.c[12]/fold_(\d+)\.parquet", plan.stdout)
    assert planned and set(planned) == {"0"}  # the other fold of each screen is never trained
    done = _run(tmp_path, config, "--cores", "2", "tuning_values")
    assert done.returncode == 0, done.stderr[-3000:]
    values = pd.read_csv(tmp_path / "results" / "tuning" / "values.tsv", sep="\t")
    assert list(dict.fromkeys(values["model"])) == ["RANDOM", "kNN.c1", "kNN.c2", "kNN.c3", "kNN.c4"]
    assert not (tmp_path / "results" / "summary").exists()
    means = {}
    for i, k in enumerate((1, 3, 5, 9), 1):
        aucs = []
        for dataset in ("screen", "screen_ca"):
            folds = pd.read_csv(tmp_path / "results" / dataset / "folds.tsv", sep="\t", dtype={"id": str})
            scores = pd.read_parquet(tmp_path / "results" / dataset / "scores" / f"knn.c{i}" / "fold_0.parquet")
            assert sorted(scores["id"]) == sorted(folds.loc[folds["fold"] == 0, "id"])
            aucs.append(roc_auc_score(scores["label"], scores["score"]))
            row = values[(values["dataset"] == dataset) & (values["model"] == f"kNN.c{i}")]
            assert row["compounds"].item() == len(scores) < len(folds)
            bench = tmp_path / "logs" / dataset / "benchmark" / "scores" / f"knn.c{i}" / "folds.tsv"  # both folds' job
            timed = pd.read_csv(bench, sep="\t").iloc[-1]
            assert row["seconds"].item() == pytest.approx(timed["s"] / 2, rel=1e-6)
            assert row["cpu_seconds"].item() == pytest.approx(timed["cpu_time"] / 2, rel=1e-6)
        means[k] = np.mean(aucs)
    assert len(set(np.round(list(means.values()), 9))) > 1  # the candidates differ: the choice is a real one
    best = max(means, key=lambda k: (means[k], -k))  # the earlier (smaller k) on a tie
    out = tmp_path / "chosen.yaml"
    chose = _choose(tmp_path, tmp_path / "dev.yaml", out)
    assert chose.returncode == 0, chose.stderr
    chosen = yaml.safe_load(out.read_text())["models"]  # with config.yaml's other knn settings (--root's)
    assert list(chosen) == ["knn"] and chosen["knn"]["k"] == best and "class" not in chosen["knn"]
    table = pd.read_csv(tmp_path / "chosen.tsv", sep="\t")
    assert table["mean"].tolist() == pytest.approx(list(means.values()), abs=1e-9)
    assert table["chosen"].tolist() == [k == best for k in means]
    test_config = {k: v for k, v in config.items() if k not in ("tuning", "models")}
    test_config["models"] = {"random": {}}
    (tmp_path / "test.yaml").write_text(yaml.safe_dump(test_config))
    merged = load_config([tmp_path / "test.yaml", out], ROOT)
    assert merged["models"]["knn"]["k"] == best
    assert merged["tuning"]["chosen_on"] == ["screen", "screen_ca"]  # chosen there: testing there is refused
    assert merged["tuning"]["chosen_by"] == {"design": "development", "budget": 4, "metric": "roc", "share": 0.2,
                                             "seed": 0, "folds": 1, "cost_margin": None}  # fmt: skip
    assert merged["tuning"].get("design", "nested") == "nested"  # the test config's own tuning
    with pytest.raises(ValueError, match="chosen on screen, a campaign this run tests"):
        check_config(merged, study_runs(merged), root=tmp_path)
    # a nested config is refused, in one line
    (tmp_path / "nested.yaml").write_text(yaml.safe_dump({**config, "tuning": {"budget": 4, "metric": "roc"}}))
    refused = _choose(tmp_path, tmp_path / "nested.yaml", tmp_path / "x.yaml")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "design is not development" in refused.stderr
    assert not (tmp_path / "x.yaml").exists()


def test_a_cap_is_priced_by_the_chosen_candidate_refitted_with_the_setting_changed(tmp_path):
    """benchmarks/studies/caps.py on a development panel of both screens (the forest tuned at 10 trees, fold 0):
    refitted at the capped 10 trees the chosen forest gives back the workflow's fold-0 scores bit for bit (same
    seeds, same trees: the replay is the fold job), so every difference is 0; at 40 trees they move."""
    config = _two_screens(tmp_path)
    config["models"] = {"knn": {}, "rf": {"n_estimators": 10, "tune": {"min_samples_leaf": [1, 3]}}}  # kNN: neighbours
    config["tuning"] = {"budget": 2, "metric": "roc", "design": "development", "folds": 1}
    (tmp_path / "dev.yaml").write_text(yaml.safe_dump(config))
    done = _run(tmp_path, config, "--cores", "2", "tuning_values")
    assert done.returncode == 0, done.stderr[-3000:]
    chosen = tmp_path / "chosen.yaml"
    assert _choose(tmp_path, tmp_path / "dev.yaml", chosen).returncode == 0
    script = ROOT / "benchmarks" / "studies" / "caps.py"
    out = tmp_path / "caps.tsv"
    args = ["--chosen", str(chosen), "--config", str(tmp_path / "dev.yaml"), "--ranker", "rf", "--out", str(out)]
    variants = ["--variant", "same:n_estimators=10", "--variant", "more:n_estimators=40"]
    cap = subprocess.run(
        [sys.executable, str(script), str(tmp_path), *args, *variants], capture_output=True, text=True, timeout=600
    )
    assert cap.returncode == 0, cap.stderr[-3000:]
    table = pd.read_csv(out, sep="\t")
    same, more = table[table["variant"] == "same"], table[table["variant"] == "more"]
    assert list(same["screen"]) == list(more["screen"]) == ["screen", "screen_ca"]
    for k in ("croc_exp_80", "ef_1pct", "roc"):
        assert (same[f"difference_{k}"] == 0).all(), k
        assert same[f"variant_{k}"].tolist() == same[f"chosen_{k}"].tolist() == more[f"chosen_{k}"].tolist()
    assert (more["difference_roc"] != 0).any()
    bad = subprocess.run(
        [sys.executable, str(script), str(tmp_path), *args, "--variant", "trees"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert bad.returncode != 0 and bad.stderr.strip() == "--variant: NAME:KEY=VALUE[,KEY=VALUE]; got 'trees'"


def test_two_datasets_in_one_run_and_the_summary_from_their_own_scores(tmp_path):
    """Both screens through every model in one run, then results/summary/ checked against values computed here
    from each screen's pooled scores: AUC[ROC] by scikit-learn, the top 1% by counting, the Friedman statistic
    by its formula, the Wilcoxon p by enumerating the signs."""
    from scipy.stats import rankdata
    from sklearn.metrics import roc_auc_score

    from crocbench.report import SUMMARY_RANK_METRICS, SUMMARY_TESTS
    from crocbench.stats import conover_friedman

    config = _two_screens(tmp_path)
    questions = {"declared": "before the run", "metric_of_record": "croc_exp_80", "pairs": [["IRV", "SVM"]],
                 "metrics": ["croc_exp_80", "roc"], "thresholds": {"croc_exp_80": 0.01, "roc": 0.01}}  # fmt: skip
    wrong = _run(tmp_path, {**config, "summary": {"questions": {**questions, "pairs": [["IRV", "GBM"]]}}}, "-n")
    assert (
        wrong.returncode != 0
        and "summary: questions: 'GBM' is not a compared model's label" in wrong.stdout + wrong.stderr
    )
    config["summary"] = {"questions": questions, "pains": True}
    plan = _run(tmp_path, config, "-n")  # the default target: both screens' tables and the summary
    assert plan.returncode == 0, plan.stderr[-3000:]
    for job in (
        "summary_tables",
        "summary_figures",
        "significance_table",
        "summary_pains",
        "pains",
        "summary_novel",
        "summary_shared",
    ):
        assert f"rule {job}:" in plan.stdout, job
    one = _run(tmp_path, {**config, "dataset": "screen"}, "-n")  # one dataset: no summary
    assert one.returncode == 0 and "summary_tables" not in one.stdout
    alone = _run(tmp_path, {**config, "dataset": "screen"}, "-n", "summary")  # and asking for it says why not
    assert alone.returncode != 0
    assert "the summary compares two or more datasets; dataset: names one (screen)" in alone.stdout + alone.stderr
    plan = _run(tmp_path, config, "-n", "summary")  # the target builds only what the summary reads
    assert plan.returncode == 0, plan.stderr[-3000:]
    assert "rule summary_figures:" in plan.stdout and "rule summary_claims:" in plan.stdout
    assert "rule summary_pains:" in plan.stdout
    assert "rule significance_table:" in plan.stdout and "rule figures:" not in plan.stdout  # tables 2: the claims
    done = _run(tmp_path, config, "--cores", "2", "summary")
    assert done.returncode == 0, done.stderr[-3000:]
    summary = tmp_path / "results" / "summary"
    table = pd.read_csv(summary / "tables" / "datasets.tsv", sep="\t")
    labels = ["RANDOM", "MAX-SIM", "kNN", "SVM", "IRV"]
    assert table["dataset"].tolist() == ["screen"] * 5 + ["screen_ca"] * 5 and table["model"].tolist() == labels * 2
    roc = np.empty((2, 5))
    for d, dataset in enumerate(("screen", "screen_ca")):
        for m, model in enumerate(("random", "maxsim", "knn", "svm", "irv")):
            scores = pd.read_parquet(tmp_path / "results" / dataset / "scores" / f"{model}.parquet")
            row = table[(table["dataset"] == dataset) & (table["model"] == labels[m])].iloc[0]
            y, s = scores["label"].to_numpy(), scores["score"].to_numpy()
            assert (row["compounds"], row["actives"]) == ((96, 20) if dataset == "screen" else (92, 16))
            roc[d, m] = roc_auc_score(y, s)
            assert row["roc"] == pytest.approx(roc[d, m], abs=1e-9)
            # top 1% of 96 or 92 compounds: the single top-ranked compound (ties share it: expected count)
            top = s == s.max()
            assert row["top_k"] == 1 and row["top_1pct"] == pytest.approx(y[top].mean())
    # without the PAINS compounds: flagged here by RDKit's catalog itself, AUC[ROC] by scikit-learn
    from rdkit import Chem
    from rdkit.Chem import FilterCatalog

    params = FilterCatalog.FilterCatalogParams()
    params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.PAINS)
    catalog = FilterCatalog.FilterCatalog(params)
    counts = pd.read_csv(summary / "tables" / "pains.tsv", sep="\t").set_index("dataset")
    without = pd.read_csv(summary / "tables" / "datasets_without_pains.tsv", sep="\t")
    for dataset in ("screen", "screen_ca"):
        compounds = pd.read_parquet(tmp_path / "results" / dataset / "compounds.parquet")
        flagged = set(compounds["id"][[catalog.HasMatch(Chem.MolFromSmiles(s)) for s in compounds["smiles"]]])
        scores = pd.read_parquet(tmp_path / "results" / dataset / "scores" / "irv.parquet")
        keep = ~scores["id"].isin(flagged)
        assert 0 < len(flagged) < len(scores)
        assert counts.loc[dataset, ["compounds", "flagged", "actives", "flagged_actives"]].tolist() == [
            len(scores),
            len(flagged),
            scores["label"].sum(),
            scores["label"][~keep].sum(),
        ]
        row = without[(without["dataset"] == dataset) & (without["model"] == "IRV")].iloc[0]
        assert row["compounds"] == keep.sum()
        assert row["roc"] == pytest.approx(roc_auc_score(scores["label"][keep], scores["score"][keep]), abs=1e-9)
    # the novel actives across the screens: each screen's memorization.tsv rows of that stratum, side by side
    novel = pd.read_csv(summary / "tables" / "novel.tsv", sep="\t")
    for dataset in ("screen", "screen_ca"):
        own = pd.read_csv(tmp_path / "results" / dataset / "tables" / "memorization.tsv", sep="\t")
        own = own[(own["stratum"] == "novel") & (own["key"] == "croc_exp_80")].set_index("model")["value"]
        got = novel[novel["dataset"] == dataset].set_index("model")
        assert list(got.index) == labels
        if own.empty:  # no test active below the novel threshold on this small screen: none, and no values
            assert got["actives"].eq(0).all() and got["croc_exp_80"].isna().all()
        else:
            assert got["croc_exp_80"].to_dict() == pytest.approx(own.to_dict(), abs=1e-9)
    assert "Novel actives" in (summary / "tables" / "novel.md").read_text()
    # the structures both screens hold: screen_ca is screen without its CM compounds
    smiles = {
        d: set(pd.read_parquet(tmp_path / "results" / d / "compounds.parquet")["smiles"])
        for d in ("screen", "screen_ca")
    }
    shared = pd.read_csv(summary / "tables" / "shared.tsv", sep="\t").set_index("screens")["structures"]
    assert shared.to_dict() == {
        1: len(smiles["screen"] ^ smiles["screen_ca"]),
        2: len(smiles["screen"] & smiles["screen_ca"]),
    }
    assert "sharing compounds, they are not" in (summary / "tables" / "shared.md").read_text()
    pains_md = (summary / "tables" / "pains.md").read_text()
    assert "| IRV vs SVM | AUC[CROC(exp)] a=80 |" in pains_md and "before the run" in pains_md
    ranks = pd.read_csv(summary / "tables" / "ranks.tsv", sep="\t")
    by_roc = ranks[ranks["metric"] == "roc"]
    r = rankdata(-roc, axis=1)
    assert by_roc["mean_rank"].tolist() == pytest.approx(r.mean(axis=0).tolist())
    ties = sum(((c := np.unique(row, return_counts=True)[1]) ** 3 - c).sum() for row in r)
    chi2 = (12 / (2 * 5 * 6) * (r.sum(axis=0) ** 2).sum() - 3 * 2 * 6) / (1 - ties / (2 * (5**3 - 5)))
    assert by_roc["friedman_chi2"].iloc[0] == pytest.approx(chi2)
    assert by_roc["nemenyi_cd"].iloc[0] == pytest.approx(2.728 * np.sqrt(5 * 6 / 12), abs=2e-3)  # q_0.05, k = 5
    pairs = pd.read_csv(summary / "tables" / "wilcoxon.tsv", sep="\t")
    assert len(pairs) == len(SUMMARY_RANK_METRICS) * 10 and pairs["p_holm"].ge(pairs["p_value"] - 1e-12).all()
    rs = pairs[(pairs["metric"] == "roc") & (pairs["a"] == "RANDOM") & (pairs["b"] == "SVM")].iloc[0]
    d = roc[:, 0] - roc[:, 3]
    assert (rs["wins"], rs["losses"]) == ((d > 0).sum(), (d < 0).sum())
    assert rs["p_value"] == pytest.approx(0.5 if (d != 0).all() else 1.0)  # 2 datasets: 2 of 4 sign patterns
    # its interval: a resample of 2 screens has mean d0, (d0 + d1) / 2 or d1 (1/4, 1/2, 1/4): the 2.5% and 97.5%
    # bounds are the two differences themselves
    assert (rs["low"], rs["high"]) == pytest.approx((d.min(), d.max()), rel=1e-9)
    for name in ("critical_difference", "datasets"):
        assert all((summary / "figures" / f"{name}.{ext}").stat().st_size > 10_000 for ext in ("png", "pdf"))
    ranks_md = (summary / "tables" / "ranks.md").read_text()
    assert "Friedman chi2" in ranks_md and f"\n\n{SUMMARY_TESTS}.\n\n" in ranks_md  # the summary names its tests
    assert yaml.safe_load((summary / "tables" / "questions.yaml").read_text()) == questions  # declared, kept
    design = yaml.safe_load((summary / "tables" / "design.yaml").read_text())  # what the results rest on
    assert design["cv"] == {"split": "random", "folds": 2, "repeats": 1, "seed": 0}
    assert design["tuning"] is None  # no model is tuned here and none was chosen elsewhere: no setting recorded
    assert list(design["models"]) == ["RANDOM", "MAX-SIM", "kNN", "SVM", "IRV"]
    assert design["models"]["kNN"]["k"] == 5 and design["models"]["SVM"]["C_grid"] == [0.1, 1]
    conover = pd.read_csv(summary / "tables" / "conover.tsv", sep="\t")
    want = conover_friedman(roc, labels)
    for row in conover[conover["metric"] == "roc"].itertuples():
        assert row.p_value == pytest.approx(want.at[row.a, row.b], abs=1e-9)
    assert conover[["metric", "a", "b"]].equals(pairs[["metric", "a", "b"]])
    # the paper's claims: each screen's order at a=80 as the datasets table's values give it; across 2 screens
    # no Wilcoxon p can be below 0.5, so no claim is supported across them
    claims = pd.read_csv(summary / "tables" / "claims.tsv", sep="\t").set_index("id")
    per_screen = pd.read_csv(summary / "tables" / "claims_per_screen.tsv", sep="\t")
    assert list(claims.index) == [
        "svm_best_roc_irv_best_croc",
        "croc_order",
        "croc_significant_roc_not",
        "paired_more_powerful",
    ]
    assert claims["screens"].tolist() == [2] * 4
    assert not claims.loc[
        ["svm_best_roc_irv_best_croc", "croc_order", "croc_significant_roc_not"], "supported_across"
    ].any()
    cases = pd.concat(
        [
            pd.read_csv(tmp_path / "results" / d / "tables" / "significance.tsv", sep="\t")
            for d in ("screen", "screen_ca")
        ]
    )
    share = (cases["paired_permutation"] <= cases["unpaired_permutation"]).mean()  # pooled over both screens
    assert claims.loc["paired_more_powerful", "supported_across"] == (share >= 0.8)
    assert claims.loc["paired_more_powerful", "evidence"].startswith(f"{100 * share:.0f}% of {len(cases)}")
    for dataset in ("screen", "screen_ca"):
        v = table[table["dataset"] == dataset].set_index("model")["croc_exp_80"]
        order = v["IRV"] > max(v["kNN"], v["SVM"]) and min(v["kNN"], v["SVM"]) > v["MAX-SIM"] > v["RANDOM"]
        row = per_screen[(per_screen["dataset"] == dataset) & (per_screen["id"] == "croc_order")].iloc[0]
        assert bool(row["holds"]) == order
    assert claims.loc["croc_order", "holds_in"] == per_screen[per_screen["id"] == "croc_order"]["holds"].sum()
    text = (summary / "tables" / "claims.md").read_text()
    assert "of 2" in text and "critical difference of mean ranks is 4.31" in text  # 2.728 sqrt(5 6 / 12)
    assert "from 9 screens on" in text  # 10 pairs x 2 / 2^9 < 0.05 <= 10 x 2 / 2^8
    # the target screen_tables, one screen a run (into results/screens/, never beside the summary's tables across
    # the screens), grows a panel's reference screen by screen into the reference of this two-screen run: each
    # screen's rows are the summary's, and the tables across the screens, recomputed from them, its own (but the
    # paired tests' claim, which pools each screen's table 2, and a reference does not keep it)
    from crocbench.cli import main
    from crocbench.reference import SUMMARY_FILES, compare

    whole, grown, screens = tmp_path / "whole", tmp_path / "grown", tmp_path / "results" / "screens"
    assert main(["reference", str(summary), "--out", str(whole)]) == 0
    for n, dataset in enumerate(("screen", "screen_ca")):
        done = _run(tmp_path, {**config, "dataset": dataset}, "--cores", "2", "screen_tables")
        assert done.returncode == 0, done.stderr[-3000:]
        assert (
            "rule screen_datasets:" in done.stdout + done.stderr and "rule score_fold" not in done.stdout + done.stderr
        )
        assert pd.read_csv(screens / "tables" / "datasets.tsv", sep="\t")["dataset"].eq(dataset).all()
        assert not (screens / "tables" / "ranks.tsv").exists()
        assert main(["reference", str(screens), "--out", str(grown), *(["--add"] if n else [])]) == 0
    for name in (*SUMMARY_FILES, "pains.tsv", "datasets_without_pains.tsv", "novel.tsv"):
        got, want = (pd.read_csv(folder / name, sep="\t") for folder in (grown, whole))
        if name == "claims.tsv":
            got, want = (t[t["id"] != "paired_more_powerful"] for t in (got, want))
        assert compare(got, want, name) == [], name
    # summary: pains switched off: the next run of screen_tables removes the PAINS tables the earlier one left, and a
    # reference of its tables keeps none
    off = {**config, "dataset": "screen_ca", "summary": {**config["summary"], "pains": False}}
    done = _run(tmp_path, off, "--cores", "2", "screen_tables")
    assert done.returncode == 0, done.stderr[-3000:]
    assert not any((screens / "tables" / n).exists() for n in ("pains.tsv", "datasets_without_pains.tsv"))
    assert main(["reference", str(screens), "--out", str(tmp_path / "without")]) == 0
    assert not (tmp_path / "without" / "pains.tsv").exists() and (tmp_path / "without" / "datasets.tsv").is_file()
    # benchmarks/accounting/fold_job.py replays a fold job as the workflow ran it: the same scores, with the job's own threads
    replay = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "accounting" / "fold_job.py"),
            str(tmp_path / "results" / "screen"),
            "svm",
            "irv",
        ]
        + ["--fold", "1", "--config", str(tmp_path / "cfg.yaml")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert replay.returncode == 0, replay.stderr[-2000:]
    rows = [line.split(" | ") for line in replay.stdout.splitlines() if line.startswith(("| svm", "| irv"))]
    assert [(r[0], r[1], r[5]) for r in rows] == [("| svm", "2", "yes"), ("| irv", "1", "yes")]
    for row, model in zip(rows, ("svm", "irv")):  # the fold's own AUC[ROC] and CROC a=80: the workflow's per-fold table
        per_fold = pd.read_csv(tmp_path / "results" / "screen" / "scores" / f"{model}.per_fold.tsv", sep="\t")
        want = per_fold[per_fold["fold"].astype(str) == "1"].iloc[0]  # folds are text: the pooled row is "all"
        assert abs(float(row[6]) - want["roc"]) < 1e-4 and abs(float(row[7]) - want["croc_exp_80"]) < 1e-4, model
    # summary: models: the ranks and tests of three of the five (the datasets table keeps all five); a model not
    # declared is refused in one line
    three = {**config, "summary": {"models": ["knn", "svm", "irv"]}}
    done = _run(tmp_path, three, "--cores", "2", "summary")
    assert done.returncode == 0, done.stderr[-3000:]
    ranks = pd.read_csv(summary / "tables" / "ranks.tsv", sep="\t")
    assert set(ranks["model"]) == {"kNN", "SVM", "IRV"} and len(ranks) == len(SUMMARY_RANK_METRICS) * 3
    r3 = rankdata(-roc[:, 2:], axis=1).mean(axis=0)
    assert ranks[ranks["metric"] == "roc"]["mean_rank"].tolist() == pytest.approx(r3.tolist())
    assert ranks["nemenyi_cd"].iloc[0] == pytest.approx(2.343 * np.sqrt(3 * 4 / 12), abs=2e-3)  # q_0.05, k = 3
    assert len(pd.read_csv(summary / "tables" / "wilcoxon.tsv", sep="\t")) == len(SUMMARY_RANK_METRICS) * 3
    assert len(pd.read_csv(summary / "tables" / "datasets.tsv", sep="\t")) == 10
    bad = _run(tmp_path, {**config, "summary": {"models": ["knn", "gnn"]}}, "-n", "summary")
    assert bad.returncode != 0 and "summary: models names 'gnn', not under models" in bad.stdout + bad.stderr
    # cv: repeats: the ranks and tests read each model's mean over the repeats; the datasets table stays repeat 0's
    done = _run(tmp_path, {**config, "cv": {**config["cv"], "repeats": 2}}, "--cores", "2", "summary")
    assert done.returncode == 0, done.stderr[-3000:]
    mean_roc = np.empty((2, 5))
    for d, dataset in enumerate(("screen", "screen_ca")):
        for m, model in enumerate(("random", "maxsim", "knn", "svm", "irv")):
            again = pd.read_parquet(tmp_path / "results" / dataset / "repeats" / "1" / "scores" / f"{model}.parquet")
            mean_roc[d, m] = (roc[d, m] + roc_auc_score(again["label"], again["score"])) / 2
    ranks = pd.read_csv(summary / "tables" / "ranks.tsv", sep="\t")
    assert ranks[ranks["metric"] == "roc"]["mean_rank"].tolist() == pytest.approx(
        rankdata(-mean_roc, axis=1).mean(axis=0).tolist()
    )
    conover = pd.read_csv(summary / "tables" / "conover.tsv", sep="\t")
    want = conover_friedman(mean_roc, labels)
    for row in conover[conover["metric"] == "roc"].itertuples():
        assert row.p_value == pytest.approx(want.at[row.a, row.b], abs=1e-9)
    assert pd.read_csv(summary / "tables" / "datasets.tsv", sep="\t")["roc"].to_numpy() == pytest.approx(roc.ravel())
    assert "each screen's value the mean over the 2 repeats" in (summary / "tables" / "ranks.md").read_text()


def test_a_failing_dataset_is_named_and_the_others_outputs_are_kept(tmp_path):
    config = _two_screens(tmp_path, second_sha="0" * 64)  # screen_ca's file does not match its checksum
    done = _run(tmp_path, config, "--cores", "2", "--keep-going", "results/summary/tables/ranks.md")
    assert done.returncode != 0
    assert "screen_ca" in done.stderr and "sha256" in done.stderr
    assert (tmp_path / "results" / "screen" / "scores" / "irv.parquet").exists()  # the other screen finished
    assert not (tmp_path / "results" / "summary").exists()

"""The novelty split on a small real run (a sample of the DTP AIDS screen): its memorization reference records the
split, and the strata agree with it (every test active novel at tau)."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from _hiv import hiv_sample
from test_chem_graph import brute_tanimoto

from crocbench.chem.graph import named_fingerprints, tau_graph
from crocbench.cli import main
from crocbench.cv import DROPPED, certificate, cross_validate, novelty_table, strata, train_test_similarity
from crocbench.similarity import SimilarityIndex

TAU, N_FOLDS, MAX_DROPPED = 0.3, 5, 0.2


@pytest.fixture(scope="module")
def sample(mirror):
    """2,619 real compounds of the DTP AIDS screen (every 16th row), their ECFP4 bits and a novelty split (at tau 0.3
    it drops actives and inactives)."""
    table = hiv_sample(mirror, 16)
    fp = named_fingerprints(table["smiles"], "ecfp4")
    folds = novelty_table(table["id"], table["label"], tau_graph(fp, TAU), TAU, N_FOLDS, 0, MAX_DROPPED)
    return table, fp, folds


def _novelty_run(folder, sample, tau: float = TAU):
    """A run folder as the workflow writes it under ``cv: split: novelty``: folds.tsv, folds_certificate.json and
    the memorization tables of two rankers (MaxSim, cross-validated on the split; and noise)."""
    from crocbench.metrics import parse_metric
    from crocbench.models import MaxSim
    from crocbench.report import memorization_table, stratum_tests
    from crocbench.stats import TESTS

    _, fp, folds = sample
    tables = folder / "tables"
    tables.mkdir(parents=True)
    folds.to_csv(folder / "folds.tsv", sep="\t", index=False)
    (folder / "folds_certificate.json").write_text(json.dumps(certificate(folds, fp, tau, "ecfp4"), indent=1) + "\n")
    index = SimilarityIndex(fp)
    overlap = train_test_similarity(index, folds)
    maxsim = cross_validate(lambda fold: MaxSim(), index, folds).pooled(folds)
    noise = maxsim.assign(score=np.random.default_rng(0).random(len(maxsim)))
    pooled = {"MaxSim": maxsim, "noise": noise}
    calls = [parse_metric("croc_auc:alpha=80"), parse_metric("enrichment_factor:fraction=0.05")]
    memorization_table(pooled, overlap, calls, TAU, 0.7).to_csv(tables / "memorization.tsv", sep="\t", index=False)
    stratum_tests(pooled, overlap, calls, TESTS, TAU, 0.7, n_samples=100).to_csv(
        tables / "memorization_tests.tsv", sep="\t", index=False
    )
    declared = {
        "split": "novelty",
        "novel": TAU,
        "analog": 0.7,
        "metrics": [c.key for c in calls],
        "novelty": {"tau": TAU, "fingerprint": "ecfp4", "max_dropped": MAX_DROPPED},
    }
    (tables / "memorization.yaml").write_text(yaml.safe_dump(declared))
    return folder, overlap


def test_a_novelty_runs_reference_records_its_split(sample, tmp_path, capsys):
    """The manifest of a novelty run's memorization reference: split novelty, the declared tau, fingerprint and
    max_dropped, the dropped compounds counted from the fold table, and the sha256 of the run's certificate file."""
    from crocbench.reference import read_manifest

    _, _, folds = sample
    run, _ = _novelty_run(tmp_path / "run", sample)
    out = tmp_path / "memorization_novelty"
    assert main(["reference", str(run), "--memorization", "--out", str(out)]) == 0, capsys.readouterr().err
    manifest = read_manifest(out)
    gone = folds[folds["fold"] == DROPPED]
    assert 0 < gone["label"].sum() < len(gone)
    assert (manifest.kind, manifest.split) == ("memorization", "novelty")
    assert manifest.novelty == {
        "tau": TAU,
        "fingerprint": "ecfp4",
        "max_dropped": MAX_DROPPED,
        "dropped": {"actives": int(gone["label"].sum()), "inactives": int((gone["label"] == 0).sum())},
        "certificate_sha256": hashlib.sha256((run / "folds_certificate.json").read_bytes()).hexdigest(),
    }
    assert main(["reference", str(run), "--check", "--out", str(out)]) == 0


def test_a_novelty_run_whose_certificate_is_not_its_split_is_one_line(sample, tmp_path, capsys):
    """A certificate of another tau than the run declares, or none: one line, exit 2, no reference written."""
    run, _ = _novelty_run(tmp_path / "run", sample, tau=0.5)  # a certificate whose tau is not the split's
    out = tmp_path / "memorization_novelty"
    assert main(["reference", str(run), "--memorization", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "certifies tau 0.5 with ecfp4; the run declares tau 0.3 with ecfp4" in err, err
    (run / "folds_certificate.json").unlink()
    assert main(["reference", str(run), "--memorization", "--out", str(out)]) == 2
    assert "no such file; a novelty run writes its certificate beside folds.tsv" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda m: m.pop("novelty"), "a novelty split's reference records novelty: tau, fingerprint"),
        (lambda m: m["novelty"].pop("tau"), "a novelty split's reference records novelty: tau, fingerprint"),
        (lambda m: m["novelty"].update(dropped=3), "novelty.dropped counts the dropped compounds by class"),
        (lambda m: m["novelty"].update(certificate_sha256="abc"), "novelty.certificate_sha256 is 64 hexadecimal"),
        (lambda m: m.update(split="cluster"), "novelty: is a novelty split's record; the split is cluster"),
    ],
)
def test_a_bad_novelty_record_is_one_line(sample, tmp_path, edit, words):
    from crocbench.reference import read_manifest

    run, _ = _novelty_run(tmp_path / "run", sample)
    out = tmp_path / "memorization_novelty"
    assert main(["reference", str(run), "--memorization", "--out", str(out)]) == 0
    spec = yaml.safe_load((out / "manifest.yaml").read_text())
    edit(spec)
    (out / "manifest.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(ValueError, match=words):
        read_manifest(out)


def test_every_test_active_of_the_real_run_is_novel_at_tau(sample):
    """Under the novelty split every test active's nearest training active (ECFP4, brute force over all pairs) is
    below tau: the strata at novel = tau hold every test active in ``novel``; a dropped compound is in no stratum."""
    table, fp, folds = sample
    overlap = train_test_similarity(SimilarityIndex(fp), folds)
    fold, label = folds["fold"].to_numpy(), folds["label"].to_numpy()
    sets = [set(fp.ids[fp.indptr[i] : fp.indptr[i + 1]].tolist()) for i in range(len(folds))]
    kept = fold != DROPPED
    actives = np.flatnonzero(kept & (label == 1))
    assert actives.size >= N_FOLDS
    for i in actives.tolist():
        train = np.flatnonzero(kept & (fold != fold[i]) & (label == 1))
        nearest = max(brute_tanimoto(sets[i], sets[j]) for j in train.tolist())
        assert nearest < np.float32(TAU)
        assert overlap.loc[overlap["id"] == folds["id"][i], "to_train_actives"].item() == nearest
    tested = overlap[overlap["label"] == 1]
    assert len(tested) == actives.size
    assert (strata(tested["to_train_actives"], novel=TAU, analog=0.7) == "novel").all()
    assert not set(folds["id"][~kept]) & set(overlap["id"])
    pd.testing.assert_series_equal(overlap["id"].reset_index(drop=True), folds["id"][kept].reset_index(drop=True))


def test_the_novelty_split_compared_with_the_others_has_only_novel_test_actives(sample):
    """``memorization: splits`` with novelty (crocbench.cv.split_overlaps), the others measured on the paper's
    fingerprints: the novelty split, made and measured on its ECFP4 bits, leaves no test active at or above tau; the
    random split of the same compounds does."""
    from crocbench.chem.fingerprints import fingerprints_from_graphs, graphs_from_smiles
    from crocbench.cv import split_overlaps

    table, fp, folds = sample
    paper = SimilarityIndex(fingerprints_from_graphs(graphs_from_smiles(table["smiles"].tolist())[1]))
    novelty = {"fingerprints": fp, "tau": TAU, "max_dropped": MAX_DROPPED}
    overlaps, notes = split_overlaps(
        paper, table["id"], table["label"], ["random", "novelty"], N_FOLDS, 0, {"novelty": novelty}
    )
    assert notes == {}
    pd.testing.assert_frame_equal(overlaps["novelty"], train_test_similarity(SimilarityIndex(fp), folds))
    tested = overlaps["novelty"][overlaps["novelty"]["label"] == 1]
    assert (strata(tested["to_train_actives"], novel=TAU, analog=0.7) == "novel").all()
    random = overlaps["random"][overlaps["random"]["label"] == 1]
    assert (random["to_train_actives"] >= np.float32(TAU)).any()
    with pytest.raises(ValueError, match=r"a novelty split needs its groups \(novelty\)"):
        split_overlaps(SimilarityIndex(fp), table["id"], table["label"], ["novelty"], N_FOLDS, 0, {})


def test_the_config_takes_novelty_among_the_splits_compared():
    from crocbench.config import load_config

    root = Path(__file__).resolve().parents[1]
    config = load_config([{"memorization": {"splits": ["random", "novelty"]}}], root)
    assert config["memorization"]["splits"] == ["random", "novelty"]
    with pytest.raises(ValueError, match="memorization"):
        load_config([{"memorization": {"splits": ["novel"]}}], root)


def test_the_protocol_pages_table_of_the_splits_is_the_references_leak():
    """The table of the splits (crocbench.pages._splits): each measured share is the one the random run's split
    comparison (split_similarity.tsv, computed apart from the strata) gives for that split's test actives; the
    novelty split has none by construction; the page holds the block as generated."""
    from crocbench.cv import PROMISES
    from crocbench.pages import reference_blocks
    from crocbench.pages._splits import BLOCK, split_tables

    root = Path(__file__).resolve().parents[1]
    text = split_tables(root)[BLOCK]
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in text.splitlines() if line.startswith("| ")}
    compared = pd.read_csv(root / "results/reference/memorization_random/split_similarity.tsv", sep="\t")
    compared = compared[compared["measure"] == "to_train_actives"].set_index("split")
    for split in ("random", "scaffold", "cluster"):
        assert rows[split][1] == PROMISES[split]
        for cell, level in ((rows[split][2], "ge0.7"), (rows[split][3], "ge0.4")):
            count, total = (int(x.replace(",", "")) for x in cell.split("(")[1].split(")")[0].split(" of "))
            assert total == compared.loc[split, "compounds"] and count / total == pytest.approx(
                compared.loc[split, level], abs=1e-9
            ), (split, level, cell)
    assert rows["novelty"][2].startswith("none, by construction") and rows["novelty"][3].startswith("none")
    assert "does not keep neighbours apart across clusters" in rows["cluster"][1]
    page = (root / "docs/user_guide/protocol.md").read_text()
    assert reference_blocks(page)[BLOCK] == text


def test_two_references_of_one_split_are_one_line(tmp_path):
    import shutil

    from crocbench.pages._splits import split_tables

    root = Path(__file__).resolve().parents[1] / "results" / "reference"
    for name in ("memorization_random", "memorization_cluster"):
        shutil.copytree(root / name, tmp_path / "results" / "reference" / name)
    manifest = tmp_path / "results" / "reference" / "memorization_cluster" / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("split: cluster", "split: random"))
    with pytest.raises(ValueError, match="^two memorization references of the random split"):
        split_tables(tmp_path)


@pytest.mark.workflow
def test_a_novelty_run_of_the_workflow_has_only_novel_test_actives_and_a_reference(tmp_path):
    """The workflow on the .test screen (96 compounds) under ``cv: split: novelty`` at tau 0.4, with the novelty
    split among the splits compared: every test active's nearest training active (ECFP4 bits, recomputed here by
    brute force from the SMILES) is below tau, the strata hold only novel actives, the compared novelty split has no
    test active at or above tau, and the run's memorization reference records the split."""
    import shutil

    from _snakemake import run_workflow
    from test_ecfp_workflow import SCREEN, _config

    from crocbench.reference import read_manifest

    (tmp_path / "mir").mkdir()
    shutil.copy(SCREEN, tmp_path / "mir" / "screen.csv")
    config = _config({})
    config["cv"] |= {"split": "novelty", "novelty": {"tau": 0.4}}
    config["memorization"] = {"splits": ["random", "novelty"], "novel": 0.4}
    res = tmp_path / "results" / "scr"
    targets = [f"results/scr/tables/{t}" for t in ("memorization.tsv", "split_similarity.tsv")]
    done = run_workflow(tmp_path, config, *targets, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    folds = pd.read_csv(res / "folds.tsv", sep="\t", dtype={"id": str})
    overlap = pd.read_parquet(res / "train_test_similarity.parquet")
    smiles = pd.read_parquet(res / "compounds.parquet").set_index("id").loc[folds["id"], "smiles"]
    fp = named_fingerprints(smiles.tolist(), "ecfp4")
    sets = [set(fp.ids[fp.indptr[i] : fp.indptr[i + 1]].tolist()) for i in range(len(folds))]
    fold, label = folds["fold"].to_numpy(), folds["label"].to_numpy()
    assert (fold == DROPPED).any()
    for row in overlap[overlap["label"] == 1].itertuples():
        i = int(np.flatnonzero(folds["id"].to_numpy() == row.id)[0])
        train = np.flatnonzero((fold != DROPPED) & (fold != fold[i]) & (label == 1))
        assert row.to_train_actives == max(brute_tanimoto(sets[i], sets[j]) for j in train.tolist()) < np.float32(0.4)
    table = pd.read_csv(res / "tables" / "memorization.tsv", sep="\t")
    assert set(table["stratum"]) == {"all", "novel"}
    split = pd.read_csv(res / "tables" / "split_similarity.tsv", sep="\t").set_index(["split", "measure"])
    assert split.loc[("novelty", "to_train_actives"), "ge0.4"] == 0
    assert split.loc[("random", "to_train_actives"), "ge0.4"] > 0
    out = tmp_path / "memorization_novelty"
    assert main(["reference", str(res), "--memorization", "--out", str(out)]) == 0
    record = read_manifest(out).novelty
    assert record["tau"] == 0.4 and record["dropped"]["actives"] + record["dropped"]["inactives"] == (fold == -1).sum()

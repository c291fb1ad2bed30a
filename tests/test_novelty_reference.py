"""The novelty split on a small real run (a sample of the DTP AIDS screen): its memorization reference records the
split, and the strata agree with it (every test active novel at tau)."""

import hashlib
import json

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
    """2,094 real compounds of the DTP AIDS screen (every 20th row), their ECFP4 bits and a novelty split (at tau 0.3
    it drops actives and inactives)."""
    table = hiv_sample(mirror, 20)
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

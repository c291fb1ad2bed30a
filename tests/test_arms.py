"""The arms of issue 94: every ranker on either fingerprint (a ``models:`` entry's ``features``), on the .test
screen's 96 compounds (24 nucleosides, 72 benzenes).

Each ranker's own fingerprint is its default, so nothing existing moves; ``features: ecfp4`` gives a similarity
ranker Tanimoto on RDKit's Morgan radius-2 bits folded to 2,048 (recomputed here with RDKit's bit generator and
numpy), and ``features: paper`` gives an ECFP ranker the paper's fingerprints, ``data.fingerprints[rows]``.
"""

import hashlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from _configs import ROOT

from crocbench._workflow import features_read
from crocbench._workflow._files import Files
from crocbench._workflow._plan import Plan
from crocbench.chem.clusters import bit_fingerprints
from crocbench.chem.ecfp import ecfp_counts
from crocbench.chem.fingerprints import Fingerprints, fingerprints_from_smiles
from crocbench.config import check_features, load_config
from crocbench.models import declared_runs, make_model, seed_state
from crocbench.similarity import SimilarityIndex

SCREEN = Path(__file__).resolve().parents[1] / ".test" / "data" / "screen.csv"
ARMS = {
    "knn": {"k": 5},
    "knn_ecfp4": {"class": "knn", "k": 5, "features": "ecfp4"},
    "svm_ecfp4": {"class": "svm", "features": "ecfp4", "C_grid": None, "class_weight_grid": None},
    "rf": {"n_estimators": 20},
    "rf_paper": {"class": "rf", "n_estimators": 20, "features": "paper"},
}


@pytest.fixture(scope="module")
def screen():
    """The .test screen: its SMILES (as written) and 0/1 labels (CA and CM active)."""
    table = pd.read_csv(SCREEN)
    return table["smiles"].tolist(), table["activity"].isin(["CA", "CM"]).to_numpy().astype(int)


def rdkit_bits(smiles) -> np.ndarray:
    """ECFP4 as bits, from RDKit's own bit generator (not the counts the library folds): (n, 2048) of 0/1."""
    from rdkit import Chem
    from rdkit.Chem import rdFingerprintGenerator

    generator = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)
    return np.array([generator.GetFingerprintAsNumPy(Chem.MolFromSmiles(s)) for s in smiles], dtype=np.uint8)


def bits_sha256(bits: np.ndarray) -> str:
    """The canonical digest of a 0/1 matrix, written out here: row offsets as <i8, then set columns as <u8."""
    rows, cols = np.nonzero(bits)
    indptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=bits.shape[0]))]
    return hashlib.sha256(indptr.astype("<i8").tobytes() + cols.astype("<u8").tobytes()).hexdigest()


def assert_brute_force_knn(smiles, y, train, test, k: int, got) -> None:
    """``got`` (the scores of ``test``) is the fraction of actives among each compound's ``k`` most
    Tanimoto-similar ``train`` compounds on RDKit's ECFP4 bits, computed here with numpy; where the k-th place
    is tied, within the fractions the tied compounds allow."""
    bits = rdkit_bits(smiles).astype(np.float64)
    inter = bits[test] @ bits[train].T
    union = bits[test].sum(1)[:, None] + bits[train].sum(1)[None, :] - inter
    sim = inter / union
    order = np.argsort(-sim, axis=1, kind="stable")
    ranked_sim = np.take_along_axis(sim, order, axis=1)
    ranked_y = y[train][order]
    exact = ranked_sim[:, k - 1] > ranked_sim[:, k]  # no tie across the k-th place: one answer
    assert exact.sum() >= len(test) // 3  # analog series: many ties
    assert np.array_equal(got[exact], ranked_y[exact, :k].mean(axis=1))
    for i in np.flatnonzero(~exact):  # a tie at the k-th place: the sure neighbours, then any of the tied ones
        sure = ranked_sim[i] > ranked_sim[i, k - 1]
        tied = ranked_sim[i] == ranked_sim[i, k - 1]
        low = ranked_y[i][sure].sum() + np.sort(ranked_y[i][tied])[: k - sure.sum()].sum()
        high = ranked_y[i][sure].sum() + np.sort(ranked_y[i][tied])[::-1][: k - sure.sum()].sum()
        assert low / k <= got[i] <= high / k, i


def test_a_features_entry_is_checked_and_each_class_keeps_its_own_fingerprint():
    runs = declared_runs(ARMS)
    assert {n: (r.features, r.label, r.uses_ecfp) for n, r in runs.items()} == {
        "knn": ("paper", "kNN", False),
        "knn_ecfp4": ("ecfp4", "kNN/ECFP4", False),
        "svm_ecfp4": ("ecfp4", "SVM/ECFP4", False),
        "rf": ("ecfp4", "RF", True),
        "rf_paper": ("paper", "RF/paper", False),
    }
    config = load_config([{"models": {"svm": {"features": "ecfp4"}}}], ROOT)  # the schema takes it on a built-in
    assert config["models"]["svm"]["features"] == "ecfp4"
    with pytest.raises(ValueError, match="features"):
        load_config([{"models": {"knn": {"features": "ecfp6"}}}], ROOT)
    with pytest.raises(ValueError, match=r"model knn_x: features is one of paper, ecfp4; got 'ECFP4'"):
        make_model("knn_x", {"class": "knn", "features": "ECFP4"})
    folded = load_config([{"ecfp": {"n_bits": 1024}}], ROOT)  # ECFP rankers may read 1,024 columns; an arm may not
    check_features(folded, declared_runs({"rf": {}, "knn_ecfp4": {"class": "knn", "features": "paper"}}))
    with pytest.raises(ValueError, match=r"^models: knn_ecfp4 reads ECFP4 \(radius 2 on 2048 bits\); ecfp: is radius"):
        check_features(folded, runs)


def test_a_fold_job_reads_the_files_of_its_arms_fingerprint():
    config = load_config([{"cv": {"folds": 4}}], ROOT)
    config["models"] = ARMS
    files = Files(Plan(config))
    d = "results/dtp_aids"
    job = SimpleNamespace(dataset="dtp_aids", repeat="")
    common = {"compounds": f"{d}/compounds.parquet", "folds": f"{d}/folds.tsv"}
    want = {
        "knn": {"fingerprints": f"{d}/fingerprints.npz", "neighbours": f"{d}/neighbours_k50.npz"},
        "knn_ecfp4": {"fingerprints": f"{d}/fingerprints_ecfp4.npz", "neighbours": f"{d}/neighbours_ecfp4_k50.npz"},
        "svm_ecfp4": {"fingerprints": f"{d}/fingerprints_ecfp4.npz", "matrix": f"{d}/similarity_matrix_ecfp4.npy"},
        "rf": {"fingerprints": f"{d}/fingerprints.npz", "ecfp": f"{d}/ecfp.npz"},
        "rf_paper": {"fingerprints": f"{d}/fingerprints.npz"},
    }
    for model, inputs in want.items():
        job.model = model
        assert files.fold_inputs(job) == {**common, **inputs}, model


def test_an_ecfp4_knn_arm_is_brute_force_tanimoto_on_rdkit_bits(screen):
    smiles, y = screen
    counts = ecfp_counts(smiles)[1]
    data = SimilarityIndex(bit_fingerprints(counts))  # as the fold job reads fingerprints_ecfp4.npz
    train, test = np.arange(0, 96, 2), np.arange(1, 96, 2)
    k = 5
    knn = make_model("knn_ecfp4", ARMS["knn_ecfp4"]).fit(data, train, y[train])
    got = knn.score(data, test)
    assert_brute_force_knn(smiles, y, train, test, k, got)
    paper = SimilarityIndex(fingerprints_from_smiles(smiles)[1])
    other = make_model("knn", ARMS["knn"]).fit(paper, train, y[train]).score(paper, test)
    assert not np.array_equal(other, got)  # the paper's fingerprints rank these compounds otherwise


def test_rf_on_the_papers_fingerprints_reads_exactly_data_fingerprints_of_its_rows(screen):
    from sklearn.ensemble import RandomForestClassifier

    smiles, y = screen
    fp = fingerprints_from_smiles(smiles)[1]
    data = SimilarityIndex(fp)  # no ECFP: an RF/paper arm needs none
    ids = np.unique(fp.ids)  # one column per feature id of the screen, written out here
    dense = np.zeros((fp.n, ids.size), dtype=np.float32)
    for i in range(fp.n):
        dense[i, np.searchsorted(ids, fp.row(i))] = 1
    train, test = np.arange(0, 96, 2), np.arange(1, 96, 2)
    rf = make_model("rf_paper", ARMS["rf_paper"], seed=(3, 0), n_jobs=1)
    assert np.array_equal(rf.features(data, test).toarray(), dense[test])
    got = rf.fit(data, train, y[train]).score(data, test)
    forest = RandomForestClassifier(
        n_estimators=20, class_weight="balanced_subsample", random_state=seed_state((3, 0)), n_jobs=1
    )
    forest.fit(sp.csr_matrix(dense[train]), y[train])  # sparse, as the model reads it: the same splitter
    assert np.allclose(got, forest.predict_proba(sp.csr_matrix(dense[test]))[:, 1], rtol=0, atol=1e-12)


def test_the_features_sha256_is_of_the_fingerprint_whichever_file_holds_it(screen):
    smiles, _ = screen
    counts = ecfp_counts(smiles)[1]
    paper = fingerprints_from_smiles(smiles)[1]
    want = bits_sha256(rdkit_bits(smiles))
    knn = make_model("knn_ecfp4", ARMS["knn_ecfp4"])  # reads the ECFP4 bits as its fingerprints
    rf = make_model("rf", ARMS["rf"])  # reads the bits of the ECFP counts, beside the paper's fingerprints
    assert features_read(knn, bit_fingerprints(counts)) == {"features": "ecfp4", "features_sha256": want}
    assert features_read(rf, paper, counts) == {"features": "ecfp4", "features_sha256": want}
    digest = hashlib.sha256(paper.indptr.astype("<i8").tobytes() + paper.ids.astype("<u8").tobytes()).hexdigest()
    assert digest != want  # the paper's fingerprints are another set
    rf_paper = make_model("rf_paper", ARMS["rf_paper"])
    assert features_read(rf_paper, paper) == {"features": "paper", "features_sha256": digest}
    narrow = Fingerprints(paper.indptr.astype(np.int32), paper.ids)  # the canonical form: any index width
    assert features_read(make_model("knn", ARMS["knn"]), narrow)["features_sha256"] == digest


def test_screens_added_to_a_panel_bring_their_arms_digests_and_no_other_fingerprint(tmp_path):
    """A panel's screens run apart share its design but for the features' digests, one per screen: --add keeps
    the panel's and adds theirs; screens whose arm read another fingerprint are refused, and nothing is written."""
    import yaml
    from test_reference import _panel_summary

    from crocbench.reference import read_manifest, write_reference

    def design(features, digests):
        return {"cv": {"split": "random"}, "features": {"kNN/ECFP4": {"features": features, "sha256": digests}}}

    first = _panel_summary(tmp_path / "a" / "summary", ["s1", "s2"])
    rest = _panel_summary(tmp_path / "b" / "summary", ["s3", "s4"])
    ref = tmp_path / "ref"
    (first / "tables" / "design.yaml").write_text(yaml.safe_dump(design("ecfp4", {"s1": "a1", "s2": "a2"})))
    write_reference(first, ref)
    (rest / "tables" / "design.yaml").write_text(yaml.safe_dump(design("paper", {"s3": "p3", "s4": "p4"})))
    with pytest.raises(ValueError, match=r"is not the panel's \(.*\): features differ$"):
        write_reference(rest, ref, add=True)
    assert read_manifest(ref).design == design("ecfp4", {"s1": "a1", "s2": "a2"})
    (rest / "tables" / "design.yaml").write_text(yaml.safe_dump(design("ecfp4", {"s3": "a3", "s4": "a4"})))
    written = write_reference(rest, ref, add=True)
    assert read_manifest(ref).design == design("ecfp4", {"s1": "a1", "s2": "a2", "s3": "a3", "s4": "a4"})
    assert "manifest.yaml: design: features: the added screens' sha256" in [x for v in written.values() for x in v]


def test_the_models_guides_arms_are_declared_runs_with_the_labels_it_gives():
    import re

    import yaml

    text = (Path(ROOT) / "docs" / "user_guide" / "models.md").read_text()
    block = re.search(r"```yaml\n(models:\n  knn_ecfp4: .*?)```", text, flags=re.S).group(1)
    said = dict(re.findall(r"^  (\w+): .*# (\S+)$", block, flags=re.M))
    runs = declared_runs(yaml.safe_load(block)["models"])
    assert {name: run.label for name, run in runs.items()} == said and len(said) == 3


def test_an_arm_and_its_twin_tuned_on_a_development_panel_keep_apart_labels():
    from crocbench.models import expand_runs

    tuning = {"budget": 8, "metric": "roc", "share": 0.2, "seed": 0, "design": "development"}
    models = {"knn": {"tune": "declared"}, "knn_ecfp4": {"class": "knn", "features": "ecfp4", "tune": "declared"}}
    runs = declared_runs(expand_runs(models, tuning=tuning))
    assert len(runs) == 16
    assert (runs["knn.c1"].label, runs["knn.c1"].features) == ("kNN.c1", "paper")
    assert (runs["knn_ecfp4.c8"].label, runs["knn_ecfp4.c8"].features) == ("kNN/ECFP4.c8", "ecfp4")

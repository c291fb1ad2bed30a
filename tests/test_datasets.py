"""SD reading, dataset declarations (config.yaml + schema) and standardization."""

import gzip
import shutil
from pathlib import Path

import jsonschema
import pandas as pd
import pytest
import yaml

from crocbench.data import Dataset, read_sdf, standardize

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def fixtures(mirror) -> Path:
    return mirror / "fixtures"


def _csv_dataset(tmp_path, text, **entry):
    (tmp_path / "d.csv").write_text(text)
    spec = {"files": [{"name": "d.csv", "url": "u"}], "structures": {"file": "d.csv", "smiles": "smi", "label": "y"}}
    spec.update(entry)
    return Dataset.from_config("t", spec)


# --- SD files ---------------------------------------------------------------------------


def test_read_sdf_on_nci_fixtures(fixtures):
    few = read_sdf(fixtures / "NCI_aids_few.sdf")
    assert len(few) == 16 and len(read_sdf(fixtures / "NCI_aids.10.sdf")) == 10
    assert few["_title"].tolist() == few["NSC"].tolist()
    assert few["NSC"].iloc[0] == "48" and few["CAS_RN"].iloc[0] == "15716-70-8"
    conclusion = few.set_index("NSC")["NCI_AIDS_Antiviral_Screen_Conclusion"]
    assert conclusion["211"] == "CM" and (conclusion.drop("211") == "CI").all()
    assert all(block.rstrip().endswith("M  END") for block in few["_molblock"])


def test_records_without_m_end_and_gzip_give_the_same_molecules(fixtures, tmp_path):
    from rdkit import Chem

    text = (fixtures / "NCI_aids_few.sdf").read_text()
    stripped = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("M  END"))
    assert "M  END" not in stripped
    (tmp_path / "no_end.sdf").write_text(stripped)
    (tmp_path / "x.BIN").write_bytes(gzip.compress(stripped.encode()))
    ref = read_sdf(fixtures / "NCI_aids_few.sdf")
    for path in (tmp_path / "no_end.sdf", tmp_path / "x.BIN"):
        got = read_sdf(path)
        assert got["NSC"].tolist() == ref["NSC"].tolist()
        for a, b in zip(got["_molblock"], ref["_molblock"]):
            ma, mb = Chem.MolFromMolBlock(a), Chem.MolFromMolBlock(b)
            assert ma is not None and Chem.MolToSmiles(ma) == Chem.MolToSmiles(mb)


def test_read_sdf_bad_files(tmp_path, fixtures):
    (tmp_path / "empty.sdf").write_text("")
    with pytest.raises(ValueError, match="empty"):
        read_sdf(tmp_path / "empty.sdf")
    packed = gzip.compress((fixtures / "NCI_aids_few.sdf").read_bytes())
    (tmp_path / "t.BIN").write_bytes(packed[: len(packed) // 2])
    with pytest.raises(ValueError, match="truncated or corrupt gzip"):
        read_sdf(tmp_path / "t.BIN")
    (tmp_path / "plain.sdf").write_text("just some text\n")
    with pytest.raises(ValueError, match="no SD records"):
        read_sdf(tmp_path / "plain.sdf")
    with pytest.raises(ValueError, match="no such file"):
        read_sdf(tmp_path / "absent.sdf")


# --- configuration ------------------------------------------------------------------------


def _config():
    return yaml.safe_load((ROOT / "config.yaml").read_text())


def _schema():
    return yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())


def test_config_is_valid_and_every_dataset_builds():
    config = _config()
    jsonschema.validate(config, _schema())
    assert config["dataset"] in config["datasets"]
    names = set()
    for name, entry in config["datasets"].items():
        ds = Dataset.from_config(name, entry)
        names.add(name)
        for source in filter(None, (ds.structures, ds.labels)):
            ds.file(source.file)  # every source names one of the dataset's files
            assert source.kind in ("csv", "tsv", "sdf")
    assert {"dtp_aids", "dtp_aids_ca", "moleculenet_hiv", "dtp_aids_nci"} <= names
    jsonschema.validate({**config, "dataset": ["dtp_aids", "dtp_aids_ca"]}, _schema())  # a list of datasets


def test_schema_rejects_bad_configs():
    schema = _schema()
    for mutate in (
        lambda c: c.pop("datasets"),
        lambda c: c["datasets"]["dtp_aids"]["files"][0].update(sha256="abc"),
        lambda c: c["datasets"]["dtp_aids"]["structures"].update(format="xlsx"),
        lambda c: c.update(similarity={"k": 0}),
        lambda c: c.update(unknown_key=1),
        lambda c: c.update(dataset=[]),
        lambda c: c.update(dataset=["dtp_aids", "dtp_aids"]),
        lambda c: c["datasets"].update(summary=c["datasets"]["dtp_aids"]),  # results/summary/ is the summary's
    ):
        config = _config()
        mutate(config)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(config, schema)


# --- standardization ---------------------------------------------------------------------------


def test_standardize_csv_counts_rejections_and_duplicates(tmp_path):
    ds = _csv_dataset(
        tmp_path,
        "smi,y\nCCO,A\nCCO,I\nOCC,I\nC1CC,I\n,I\nc1ccccc1,A\n[Na+].[Cl-],I\n",
        positive=["A"],
        negative=["I"],
        duplicates="keep",
    )
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert compounds["smiles"].tolist() == ["CCO", "CCO", "OCC", "c1ccccc1", "[Na+].[Cl-]"]
    assert compounds["label"].tolist() == [1, 0, 0, 1, 0]
    assert compounds["id"].tolist() == ["0", "1", "2", "5", "6"]  # row numbers
    assert rejected["row"].tolist() == [3, 4]
    assert rejected["reason"].tolist() == ["SMILES syntax error", "empty SMILES"]
    assert summary["rows_in"] == 7 and summary["rejected"] == 2 and summary["kept"] == 5
    assert summary["positives"] == 2 and summary["negatives"] == 3
    # CCO, CCO and OCC are one structure: one group of 3 rows with conflicting labels
    assert (summary["duplicate_groups"], summary["duplicate_rows"]) == (1, 3)
    assert summary["conflicting_class_groups"] == summary["conflicting_label_groups"] == 1


_DUPLICATES = "smi,y\nCCO,I\nc1ccccc1,I\nOCC,A\nCN,I\nCCO,I\nNC,I\nC1CC1,A\n"


def test_a_merged_record_names_its_structures_record_by_its_row_in_the_file(tmp_path):
    """Rows 0 and 1 are unusable: CCO (row 2) and OCC (row 4) merge into record 2, not into the usable subset's 0."""
    text = "smi,y\nC1CC,I\n,I\nCCO,I\nc1ccccc1,A\nOCC,A\n"
    compounds, rejected, _ = standardize(_csv_dataset(tmp_path, text, positive=["A"], negative=["I"]), tmp_path)
    assert compounds["id"].tolist() == ["2", "3"] and compounds["label"].tolist() == [1, 1]
    assert dict(zip(rejected["row"], rejected["reason"]))[4] == "duplicate structure: merged into record 2"


def test_merge_keeps_one_row_per_structure_positive_if_any_record_is(tmp_path):
    """CCO/OCC/CCO (rows 0, 2, 4: I, A, I) are one structure, CN/NC (rows 3, 5) another: merged into rows 0 and 3;
    row 0 takes the class of its first positive record (row 2)."""
    ds = _csv_dataset(tmp_path, _DUPLICATES, positive=["A"], negative=["I"])  # merge: the default
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert compounds["id"].tolist() == ["0", "1", "3", "6"]
    assert compounds["label"].tolist() == [1, 0, 0, 1] and compounds["class"].tolist() == ["A", "I", "I", "A"]
    assert rejected["row"].tolist() == [2, 4, 5]
    assert rejected["reason"].tolist() == [
        "duplicate structure: merged into record 0",
        "duplicate structure: merged into record 0",
        "duplicate structure: merged into record 3",
    ]
    assert (summary["duplicate_groups"], summary["duplicate_rows"], summary["merged_rows"]) == (2, 5, 3)
    assert (summary["conflicting_label_groups"], summary["conflicting_rows"]) == (1, 0)
    assert (summary["kept"], summary["positives"], summary["duplicates"]) == (4, 2, "merge")


def test_drop_conflicting_leaves_out_a_structure_whose_records_disagree(tmp_path):
    ds = _csv_dataset(tmp_path, _DUPLICATES, positive=["A"], negative=["I"], duplicates="drop_conflicting")
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert compounds["id"].tolist() == ["1", "3", "6"] and compounds["label"].tolist() == [0, 0, 1]
    assert dict(zip(rejected["row"], rejected["reason"])) == {
        0: "duplicate structure with conflicting labels: left out",
        2: "duplicate structure with conflicting labels: left out",
        4: "duplicate structure with conflicting labels: left out",
        5: "duplicate structure: merged into record 3",
    }
    assert (summary["merged_rows"], summary["conflicting_rows"], summary["kept"]) == (1, 3, 3)


def test_keep_is_a_row_per_record(tmp_path):
    ds = _csv_dataset(tmp_path, _DUPLICATES, positive=["A"], negative=["I"], duplicates="keep")
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert len(compounds) == 7 and rejected.empty and summary["merged_rows"] == 0
    assert compounds["label"].tolist() == [0, 0, 1, 0, 0, 0, 1]


def test_an_unknown_duplicates_policy_is_refused_in_one_line():
    from crocbench.data import resolve_duplicates

    with pytest.raises(ValueError, match="unknown duplicates policy 'first'; use one of merge, keep, drop_conflicting"):
        resolve_duplicates(["C"], [0], "first")


@pytest.mark.parametrize("split", ["random", "scaffold", "cluster"])
@pytest.mark.parametrize("seed", range(3))
def test_under_merge_no_structure_is_on_both_sides_of_any_fold(tmp_path, split, seed):
    """Property: a seeded screen of 60 records over 20 structures (every structure recorded 1 to 5 times, written
    differently), merged, then split: each structure lies in exactly one fold."""
    import numpy as np
    from rdkit import Chem

    from crocbench.chem.clusters import bit_fingerprints, leader_clusters
    from crocbench.chem.ecfp import ecfp_counts
    from crocbench.chem.scaffolds import scaffolds
    from crocbench.cv import fold_table

    rng = np.random.default_rng(seed)
    pool = [
        "c1ccccc1O",
        "c1ccncc1C",
        "C1CCCCC1N",
        "c1ccc2ccccc2c1",
        "CCOC(=O)c1ccccc1",
        "O=C(O)c1ccccn1",
        "CC(C)Cc1ccccc1",
        "c1ccoc1CC",
        "C1CCNCC1C",
        "c1cc(Cl)ccc1O",
        "CCN(CC)CC",
        "OCC(O)CO",
        "c1ccsc1",
        "CC1=CC(=O)C=CC1=O",
        "Nc1ncnc2[nH]cnc12",
        "C1CC2CCC1C2",
        "c1ccc(-c2ccccc2)cc1",
        "CCCCCCCC",
        "O=C1CCCN1",
        "c1cnc2ccccc2n1",
    ]
    records = []
    for i in rng.integers(0, len(pool), size=60):
        mol = Chem.MolFromSmiles(pool[i])
        records.append((Chem.MolToSmiles(mol, doRandom=True), int(rng.random() < 0.3)))
    text = "smi,y\n" + "".join(f"{smi},{y}\n" for smi, y in records)
    compounds, _, summary = standardize(_csv_dataset(tmp_path, text), tmp_path)
    canonical = [Chem.MolToSmiles(Chem.MolFromSmiles(s)) for s in compounds["smiles"]]
    assert len(set(canonical)) == len(canonical) == summary["kept"]
    groups = {}
    if split == "scaffold":
        groups["scaffolds"] = scaffolds(compounds["smiles"])
    if split == "cluster":
        groups["clusters"] = leader_clusters(bit_fingerprints(ecfp_counts(compounds["smiles"].tolist())[1]), 0.4)
    folds = fold_table(compounds["id"], compounds["label"], 2, seed, **groups)
    by_structure = pd.DataFrame({"c": canonical, "fold": folds["fold"]}).groupby("c")["fold"].nunique()
    assert (by_structure == 1).all()
    # the same records kept as they are: one structure does sit on both sides of some fold
    kept, _, _ = standardize(_csv_dataset(tmp_path, text, duplicates="keep"), tmp_path)
    canonical = [Chem.MolToSmiles(Chem.MolFromSmiles(s)) for s in kept["smiles"]]
    folds = fold_table(kept["id"], kept["label"], 2, seed)
    assert (pd.DataFrame({"c": canonical, "fold": folds["fold"]}).groupby("c")["fold"].nunique() > 1).any()


def test_dropped_labels_are_rejected_with_their_class_not_parsed(tmp_path):
    ds = _csv_dataset(
        tmp_path,
        "smi,y\nCCO,A\nCC(,M\nOCC,I\nc1ccccc1,M\nCN,I\n",
        positive=["A"],
        negative=["I"],
        drop=["M"],
        duplicates="keep",
    )
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert compounds["smiles"].tolist() == ["CCO", "OCC", "CN"] and compounds["label"].tolist() == [1, 0, 0]
    # the unparseable CC( is dropped by its label before its SMILES is read
    assert rejected["row"].tolist() == [1, 3] and set(rejected["reason"]) == {"dropped label: M (config 'drop')"}
    assert summary["rejected_by_reason"] == {"dropped label": 2} and summary["kept"] == 3
    with pytest.raises(ValueError, match=r"both dropped and positive or negative"):
        _csv_dataset(tmp_path, "smi,y\nCCO,A\n", positive=["A"], negative=["I"], drop=["A"])


def test_standardize_sd_joined_with_conclusions_matches_the_csv(fixtures, mirror, tmp_path):
    """Rows 0..15 of HIV_41913.csv are the 16 records of NCI_aids_few.sdf (mirror README)."""
    from crocbench.chem.fingerprints import molecule_features

    shutil.copy(fixtures / "NCI_aids_few.sdf", tmp_path / "few.sdf")
    shutil.copy(mirror / "aids_conc_may04.csv", tmp_path / "conc.csv")
    ds = Dataset.from_config(
        "nci",
        {
            "files": [{"name": "few.sdf", "url": "u"}, {"name": "conc.csv", "url": "u"}],
            "structures": {"file": "few.sdf", "id": "_title"},
            "labels": {"file": "conc.csv", "id": "NSC", "label": "Conclusion"},
            "positive": ["CA", "CM"],
            "negative": ["CI"],
        },
    )
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert len(rejected) == 0 and summary["kept"] == 16
    assert summary["labels_in"] == 43850 and summary["labels_without_structure"] == 43850 - 16
    csv = pd.read_csv(mirror / "HIV_41913.csv", nrows=16)
    # the same molecules (charges may be drawn differently: MoleculeNet writes [Cu-3], NCI's
    # SD file a neutral Cu), hence the same heavy-atom graphs and the same features
    for from_sd, from_csv in zip(compounds["smiles"], csv["smiles"]):
        assert molecule_features(from_sd).tolist() == molecule_features(from_csv).tolist()
    assert compounds["class"].tolist() == csv["activity"].tolist()
    assert compounds.set_index("id").loc["211", "label"] == 1 and compounds["label"].sum() == 1


def test_structures_without_labels_are_rejected_not_dropped(fixtures, tmp_path):
    shutil.copy(fixtures / "NCI_aids.10.sdf", tmp_path / "s.sdf")
    (tmp_path / "l.csv").write_text("NSC , Conclusion\n  48 , CI \n78,CM\n78000,CI\n")  # NCI pads with blanks
    ds = Dataset.from_config(
        "x",
        {
            "files": [{"name": "s.sdf", "url": "u"}, {"name": "l.csv", "url": "u"}],
            "structures": {"file": "s.sdf", "id": "NSC"},
            "labels": {"file": "l.csv", "id": "NSC", "label": "Conclusion"},
            "positive": ["CA", "CM"],
        },
    )
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert compounds["id"].tolist() == ["48", "78"] and compounds["label"].tolist() == [0, 1]
    assert len(rejected) == 8 and set(rejected["reason"]) == {"no label for this id"}
    assert summary["labels_without_structure"] == 1 and summary["rows_in"] == 10


def test_sd_label_field_and_missing_field(fixtures, tmp_path):
    shutil.copy(fixtures / "NCI_aids_few.sdf", tmp_path / "s.sdf")
    entry = {
        "files": [{"name": "s.sdf", "url": "u"}],
        "positive": ["CM", "CA"],
        "negative": ["CI"],
        "structures": {"file": "s.sdf", "id": "NSC", "label": "NCI_AIDS_Antiviral_Screen_Conclusion"},
    }
    compounds, _, _ = standardize(Dataset.from_config("x", entry), tmp_path)
    assert compounds["label"].sum() == 1 and len(compounds) == 16
    entry["structures"]["label"] = "Activity"
    with pytest.raises(ValueError, match="field\\(s\\) 'Activity' not found; fields are: _title, NSC, CAS_RN"):
        standardize(Dataset.from_config("x", entry), tmp_path)


def test_bad_input_gives_clear_errors(tmp_path):
    with pytest.raises(ValueError, match=r"column\(s\) 'y' not found; columns are: smi, label"):
        standardize(_csv_dataset(tmp_path, "smi,label\nCCO,1\n"), tmp_path)
    with pytest.raises(ValueError, match=r"neither positive \['A'\] nor negative \['I'\]: 'X' \(2\), 'Z' \(1\)"):
        standardize(
            _csv_dataset(tmp_path, "smi,y\nCCO,A\nCC,X\nCN,X\nCCC,Z\n", positive=["A"], negative=["I"]), tmp_path
        )
    with pytest.raises(ValueError, match="the file is empty"):
        standardize(_csv_dataset(tmp_path, ""), tmp_path)
    with pytest.raises(ValueError, match="cannot be read as a table"):
        standardize(_csv_dataset(tmp_path, "smi,y\nCCO,1\nCC,0,extra,fields\n"), tmp_path)
    with pytest.raises(ValueError, match="labels must be binary"):
        standardize(_csv_dataset(tmp_path, "smi,y\nCCO,active\nCC,maybe\n"), tmp_path)
    with pytest.raises(ValueError, match=r"kept = 1, expected in \[2, 5\]"):
        standardize(_csv_dataset(tmp_path, "smi,y\nCCO,1\n", expected={"kept": [2, 5]}), tmp_path)


def test_missing_labels_and_duplicate_ids_are_reported(tmp_path):
    ds = _csv_dataset(
        tmp_path,
        "id,smi,y\nc,CCO,1\nb,CC,\nc,CN,1\n,CCC,0\na,CCN,1\nd,CO,0\na,CCCC,0\n",
        structures={"file": "d.csv", "smiles": "smi", "label": "y", "id": "id"},
    )
    compounds, rejected, summary = standardize(ds, tmp_path)
    assert compounds["id"].tolist() == ["c", "d"]  # c twice with one label: the first is kept
    assert rejected["id"].tolist() == ["b", "c", "", "a", "a"]
    assert rejected["reason"].tolist() == [
        "missing label",
        "duplicate id (the first record is kept)",
        "missing id",
        "duplicate id with conflicting labels",
        "duplicate id with conflicting labels",
    ]
    assert summary["conflicting_label_ids"] == 1  # a: 1 and 0, neither record kept
    assert summary["rows_in"] == 7 and summary["kept"] + summary["rejected"] == 7


def test_tab_separated_txt_is_read_by_its_content(tmp_path):
    (tmp_path / "d.txt").write_text("compound id\tsmi\ty\nNSC 1, salt\tCCO\t1\nNSC 2\tCC\t0\n")
    ds = Dataset.from_config(
        "t",
        {
            "files": [{"name": "d.txt", "url": "u"}],
            "structures": {"file": "d.txt", "smiles": "smi", "label": "y", "id": "compound id"},
        },
    )
    compounds, _, _ = standardize(ds, tmp_path)
    assert compounds["id"].tolist() == ["NSC 1, salt", "NSC 2"] and compounds["label"].tolist() == [1, 0]


def test_too_few_positives_for_the_folds_stop_at_standardization(tmp_path):
    text = "smi,y\n" + "".join(f"{'C' * (i + 1)}O,{int(i < 3)}\n" for i in range(30))
    with pytest.raises(
        ValueError,
        match=r"dataset t: 3 positives and 27 negatives .* 10-fold cross-validation "
        r"needs at least 10 of each",
    ):
        standardize(_csv_dataset(tmp_path, text), tmp_path, n_folds=10)
    assert standardize(_csv_dataset(tmp_path, text), tmp_path, n_folds=3)[2]["positives"] == 3
    with pytest.raises(ValueError, match="dataset t: 0 positives and 30 negatives"):
        standardize(_csv_dataset(tmp_path, text.replace(",1\n", ",0\n")), tmp_path, n_folds=2)


@pytest.mark.fulldata
def test_dtp_aids_standardization_counts(mirror, tmp_path):
    ds = Dataset.from_config("dtp_aids", _config()["datasets"]["dtp_aids"])
    compounds, rejected, summary = standardize(ds, mirror, n_jobs=2)
    assert (summary["rows_in"], summary["rejected"], summary["kept"], summary["positives"]) == (41913, 7, 41906, 1487)
    assert summary["classes"] == {"CA": 421, "CI": 40419, "CM": 1066}
    assert all(r.startswith("sanitization failed: Explicit valence") for r in rejected["reason"])
    assert set("".join(rejected["structure"])) >= set("AlBGe") and summary["duplicate_groups"] == 712
    assert summary["duplicate_rows"] == 1498 and summary["conflicting_class_groups"] == 36
    assert summary["duplicates"] == "keep" and summary["merged_rows"] == 0  # as the paper counted the records
    merged = Dataset.from_config(
        "dtp_aids", {**_config()["datasets"]["dtp_aids"], "duplicates": "merge", "expected": {}}
    )
    compounds, _, summary = standardize(merged, mirror, n_jobs=2)
    assert (summary["kept"], summary["merged_rows"]) == (41906 - (1498 - 712), 1498 - 712)
    strict = Dataset.from_config("dtp_aids_ca", _config()["datasets"]["dtp_aids_ca"])  # CA vs CI, CM dropped
    _, rejected, summary = standardize(strict, mirror, n_jobs=2)
    assert (summary["kept"], summary["positives"], summary["negatives"]) == (41906 - 1066, 421, 40419)
    assert summary["rejected_by_reason"] == {"dropped label": 1066, "sanitization failed": 7}


def test_keep_cannot_replace_the_compounds_own_columns_and_labels_take_one_file():
    from crocbench.data import Dataset

    entry = {"files": [{"name": "a.csv", "url": "u"}], "structures": {"file": "a.csv", "smiles": "s", "label": "y"}}
    with pytest.raises(ValueError, match=r"dataset x: keep: \['label', 'reason'\] would overwrite"):
        Dataset.from_config("x", {**entry, "structures": {**entry["structures"], "keep": ["Score", "reason", "label"]}})
    with pytest.raises(ValueError, match="'labels' takes one file and one label column"):
        Dataset.from_config("x", {**entry, "labels": {"file": ["a.csv", "b.csv"], "id": "i", "label": "y"}})

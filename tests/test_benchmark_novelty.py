"""A benchmark frozen on the novelty split: its spec lists each screen's certificate, and an export recomputes and
checks it, refusing in one line folds that are not the ones certified. Two 30-compound screens exported from a
mirror the test writes (tests/_benchmark.py), at tau 0.7 (each drops five compounds)."""

import hashlib
import json

import numpy as np
import pandas as pd
import pytest
from _benchmark import _toy_project
from _cli import _cli, _one_line_error
from test_chem_graph import brute_matrix

from crocbench.benchmark import SPEC_FILE, read_spec
from crocbench.benchmark._spec import parse_spec, spec_bytes
from crocbench.cv import DROPPED, certificate, certificate_bytes

TAU = 0.7
SPLIT = {"kind": "novelty", "folds": 3, "repeats": 1, "seed": 0, "tau": TAU, "fingerprint": "ecfp4", "max_dropped": 0.2}


def _novelty_project(tmp_path, monkeypatch):
    """The toy project of tests/_benchmark.py under ``cv: split: novelty`` at tau 0.7, its draft spec the same."""
    project, path, mirror = _toy_project(tmp_path, monkeypatch)
    config = json.loads((project / "toy.yaml").read_text())
    config["cv"] = {"folds": 3, "split": "novelty", "novelty": {"tau": TAU, "max_dropped": 0.2}}
    (project / "toy.yaml").write_text(json.dumps(config))
    path.write_bytes(spec_bytes({**json.loads(path.read_text()), "split": SPLIT}))
    return project, path, mirror


def _ecfp_sets(smiles) -> list:
    from crocbench.chem.ecfp import ecfp_counts

    counts = ecfp_counts(list(smiles))[1]
    return [set(counts.indices[counts.indptr[i] : counts.indptr[i + 1]].tolist()) for i in range(counts.shape[0])]


def test_a_novelty_benchmark_is_frozen_with_its_certificates_and_exported_checked(tmp_path, monkeypatch, toy_registry):
    """The frozen spec lists each screen's certificate; the export writes it, byte for byte the certificate of the
    exported folds; no pair of two folds is at or above tau (brute force over the ECFP4 bits of the SMILES). The
    alkanes C6 to C20 are pairwise at or above tau, so one group holds at most ceil(30 / 3) = 10 of them: five
    compounds of each screen are dropped (fold -1), the fewest that can be."""
    from crocbench.benchmark import export, freeze

    project, path, _ = _novelty_project(tmp_path, monkeypatch)
    spec = freeze(path, project, progress=None)
    assert set(spec.files) == {f"toy_{s}{x}" for s in "ab" for x in (".csv", ".certificate.json")} | {"reference.csv"}
    out = tmp_path / "export"
    export(spec, out, project, progress=None)
    for name, entry in spec.files.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == entry["sha256"], name
    for screen in ("toy_a", "toy_b"):
        table = pd.read_csv(out / f"{screen}.csv", dtype={"id": str})
        cert = json.loads((out / f"{screen}.certificate.json").read_text())
        fold = table["fold"].to_numpy()
        brute, kept = brute_matrix(_ecfp_sets(table["smiles"])), fold != DROPPED
        assert (brute[5:20, 5:20] >= np.float32(TAU)).all() and table["smiles"][5:20].str.fullmatch("C{6,20}").all()
        assert (fold == DROPPED).sum() == 5 and cert["dropped"]["ids"] == table["id"][fold == DROPPED].tolist()
        crossing = kept[:, None] & kept[None, :] & (fold[:, None] != fold[None, :]) & (brute >= np.float32(TAU))
        assert not crossing.any()
        assert (cert["tau"], cert["fingerprint"], len(cert["folds"])) == (TAU, "ecfp4", 3)
    # through the command, from the registry: the same files
    (toy_registry / "toy.json").write_bytes(path.read_bytes())
    again = tmp_path / "again"
    done = _cli("benchmark", "export", "toy", again, "--root", project)
    assert done.returncode == 0, done.stderr
    assert all((again / n).read_bytes() == (out / n).read_bytes() for n in spec.files)
    assert (again / SPEC_FILE).read_bytes() == path.read_bytes()


def test_an_export_refuses_folds_that_are_not_the_ones_certified(tmp_path, monkeypatch, toy_registry):
    """A spec whose certificate is that of other folds of the same compounds (the split's seed 1): the export
    fails in one line, exit 2, and writes nothing of that screen; an exported certificate edited is rewritten by
    the next export."""
    from crocbench.benchmark import export, freeze

    project, path, _ = _novelty_project(tmp_path, monkeypatch)
    spec = freeze(path, project, progress=None)
    out = tmp_path / "export"
    export(spec, out, project, progress=None)
    table = pd.read_csv(out / "toy_a.csv", dtype={"id": str})
    other = table.assign(fold=np.roll(table["fold"].to_numpy(), 1))
    from crocbench.chem.graph import named_fingerprints

    forged = certificate_bytes(certificate(other, named_fingerprints(table["smiles"]), TAU, "ecfp4"))
    files = {**spec.files, "toy_a.certificate.json": {"sha256": hashlib.sha256(forged).hexdigest()}}
    (toy_registry / "toy.json").write_bytes(spec_bytes({**spec.as_dict(), "files": files}))
    fresh = tmp_path / "fresh"
    done = _cli("benchmark", "export", "toy", fresh, "--root", project)
    _one_line_error(done, "screen toy_a's certificate has sha256", "its folds are not the ones certified")
    assert not (fresh / "toy_a.csv").exists() and not (fresh / "toy_a.certificate.json").exists()
    # an edited certificate in an export is not kept: the export writes the certified one again
    (out / "toy_b.certificate.json").write_text("{}\n")
    export(read_spec(path), out, project, progress=None)
    assert (out / "toy_b.certificate.json").read_bytes() != b"{}\n"
    assert (
        hashlib.sha256((out / "toy_b.certificate.json").read_bytes()).hexdigest()
        == (spec.files["toy_b.certificate.json"]["sha256"])
    )


def test_a_config_of_another_tau_is_refused_before_anything_moves(tmp_path, monkeypatch):
    from crocbench.benchmark import freeze

    project, path, _ = _novelty_project(tmp_path, monkeypatch)
    config = project / "toy.yaml"
    config.write_text(config.read_text().replace('"tau": 0.7', '"tau": 0.6'))
    before = path.read_bytes()
    with pytest.raises(ValueError, match="its split.tau is 0.7 but its config gives 0.6"):
        freeze(path, project, progress=None)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tau": None}, "a novelty split names tau, fingerprint, max_dropped; no split.tau"),
        ({"tau": 1.5}, "split.tau is a Tanimoto similarity in (0, 1]; got 1.5"),
        ({"fingerprint": "maccs"}, "unknown fingerprint 'maccs'; known: ecfp4"),
        ({"max_dropped": 1}, "max_dropped is a share of the compounds in [0, 1); got 1"),
    ],
)
def test_a_novelty_spec_names_its_settings(change, message):
    split = {k: v for k, v in {**SPLIT, **change}.items() if v is not None}
    draft = {
        "name": "toy",
        "version": 1,
        "description": "d",
        "config": [],
        "split": split,
        "metric_of_record": "roc",
        "metrics": ["roc"],
        "reference": "r",
        "rankers": ["A"],
        "screens": ["s"],
        "files": {},
    }
    with pytest.raises(
        ValueError, match=f"^spec: {message}".replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
    ):
        parse_spec(spec_bytes(draft))
    ok = parse_spec(spec_bytes({**draft, "split": SPLIT}))
    assert ok.certificate_files("s") == {"fold": "s.certificate.json"} and ok.unhashed() == ["s"]

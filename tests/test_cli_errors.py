"""Every error a user can hit is one line, exit 2, names the file, and the command writes nothing (cli/_errors.py);
``--debug`` shows the traceback instead.

Each case runs the real command (``main``, through tests/_cli.py) on real files: a folder under a regular file and
an existing file where a folder is wanted give real ``OSError``s even as root (where a read-only mode stops
nothing); a mirror folder that is missing and a source at a closed local port give a real ``DownloadError``.
"""

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest
import yaml
from _cli import _cli, _no_traceback_error

from crocbench.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _files(folder: Path) -> list:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# --- benchmark export / evaluate: file system and downloads ------------------------------------------------------


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """A project with one frozen benchmark ``toy`` (one 30-compound screen, from a local mirror; its source
    otherwise a closed local port, tried once), committed (``CROCBENCH_SPECS``) while the module runs, its export,
    and a submission of scores for it."""
    from crocbench.benchmark import SPEC_FILE, export, freeze
    from crocbench.benchmark._spec import spec_bytes

    base = tmp_path_factory.mktemp("toy")
    project, mirror = base / "project", base / "mirror"
    (project / "workflow").mkdir(parents=True)
    (project / "workflow" / "schemas").symlink_to(ROOT / "workflow" / "schemas")
    (project / "config.yaml").write_bytes((ROOT / "config.yaml").read_bytes())
    mirror.mkdir()
    smiles = ["C" * (i + 1) for i in range(20)] + [f"c1ccccc1{'C' * i}O" for i in range(10)]
    labels = [int(i % 5 == 0) for i in range(30)]
    data = pd.DataFrame({"smiles": smiles, "active": labels}).to_csv(index=False, lineterminator="\n").encode()
    (mirror / "toy_a.csv").write_bytes(data)
    source = {"name": "toy_a.csv", "url": "http://127.0.0.1:9/toy_a.csv", "sha256": hashlib.sha256(data).hexdigest()}
    dataset = {"description": "30 hand-made compounds", "files": [source], "positive": [1], "negative": [0]}
    dataset["structures"] = {"file": "toy_a.csv", "smiles": "smiles", "label": "active"}
    config = {"dataset": ["toy_a"], "cv": {"folds": 3}, "download": {"retries": 1}, "datasets": {"toy_a": dataset}}
    (project / "toy.yaml").write_text(json.dumps(config))
    (project / "results" / "ref").mkdir(parents=True)
    (project / "results" / "ref" / "datasets.tsv").write_text(
        "dataset\tmodel\tcompounds\tactives\troc\ntoy_a\tA\t30\t6\t0.5\ntoy_a\tB\t30\t6\t0.875\n"
    )
    spec = {"name": "toy", "version": 1, "description": "one hand-made screen", "config": ["toy.yaml"]}
    spec |= {"split": {"kind": "random", "folds": 3, "repeats": 1, "seed": 0}, "metric_of_record": "roc"}
    spec |= {"metrics": ["roc"], "reference": "results/ref", "rankers": ["A", "B"], "screens": ["toy_a"], "files": {}}
    path = project / "results" / "benchmarks" / "toy.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(spec_bytes(spec))
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CROCBENCH_MIRROR", str(mirror))
        frozen = freeze(path, project, progress=None)
        export(frozen, base / "export", project, progress=None)
    submission = base / "submission"
    submission.mkdir()
    table = pd.read_csv(base / "export" / "toy_a.csv")
    table.assign(score=range(len(table)))[["id", "score"]].to_csv(submission / "toy_a.csv", index=False)
    (submission / SPEC_FILE).write_bytes((base / "export" / SPEC_FILE).read_bytes())
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CROCBENCH_SPECS", str(path.parent))  # toy is a committed spec in this module
        yield {"project": project, "export": base / "export", "submission": submission, "base": base}


def test_an_export_onto_a_file_or_under_one_is_one_line_naming_it(toy, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    for out, words in ((afile, "already exists"), (afile / "x", "a part of the path is a file")):
        done = _cli("benchmark", "export", "toy", out, "--root", toy["project"])
        _no_traceback_error(done, str(out), words)
    assert _files(tmp_path) == ["afile"] and afile.read_text() == "mine\n"


def test_an_evaluation_whose_out_is_a_file_or_under_one_is_one_line_naming_it(toy, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    before = _files(toy["submission"])
    for out in (afile, afile / "evaluation"):  # the file where the folder (or its folder) would be made
        done = _cli("benchmark", "evaluate", toy["submission"], "--benchmark", toy["export"], "--out", out)
        _no_traceback_error(done, f"{afile}: already exists: remove it or name another path")
    assert _files(tmp_path) == ["afile"] and afile.read_text() == "mine\n"
    assert _files(toy["submission"]) == before


def test_a_download_that_fails_is_one_line_naming_the_file_the_url_and_the_mirror(toy, tmp_path, monkeypatch):
    missing = tmp_path / "no_mirror"
    monkeypatch.setenv("CROCBENCH_MIRROR", str(missing))
    out = tmp_path / "new" / "export"
    done = _cli("benchmark", "export", "toy", out, "--root", toy["project"])
    line = _no_traceback_error(done, "toy_a.csv: cannot download http://127.0.0.1:9/toy_a.csv", "CROCBENCH_MIRROR")
    assert line.endswith(f"or check the network ($CROCBENCH_MIRROR is {missing}: no such folder)"), line
    # by name: the export the evaluation makes first fails the same way, and neither leaves a folder
    done = _cli("benchmark", "evaluate", toy["submission"], "--benchmark", "toy", "--root", toy["project"])
    _no_traceback_error(done, "toy_a.csv: cannot download http://127.0.0.1:9/toy_a.csv")
    assert _files(tmp_path) == [] and not (toy["project"] / "data").exists()
    assert not (toy["submission"] / "evaluation").exists()


def test_debug_shows_the_traceback_instead(toy, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    with pytest.raises(FileExistsError):
        main(["--debug", "benchmark", "export", "toy", str(afile), "--root", str(toy["project"])])
    with pytest.raises(ValueError, match="no benchmark 'nothing'"):
        main(["--debug", "benchmark", "export", "nothing", str(tmp_path / "x"), "--root", str(toy["project"])])


# --- reference --memorization: a user's file without its key, a folder written whole ----------------------------


def _memorization_run(folder: Path, declared: dict | None) -> Path:
    """A run's memorization tables, written by hand (two rankers, one stratum), and its declaration."""
    tables = folder / "tables"
    tables.mkdir(parents=True)
    (tables / "memorization.tsv").write_text(
        "model\tstratum\tkey\tvalue\nIRV\tnovel\troc\t0.75\nkNN\tnovel\troc\t0.5\n"
    )
    (tables / "memorization_tests.tsv").write_text("stratum\ta\tb\tmetric\tp\nnovel\tIRV\tkNN\troc\t0.03\n")
    if declared is not None:
        (tables / "memorization.yaml").write_text(yaml.safe_dump(declared))
    return folder


DECLARED = {"split": "cluster", "novel": 0.4, "analog": 0.7, "metrics": ["roc"]}


def test_a_memorization_declaration_without_a_key_or_missing_is_one_line_and_writes_nothing(tmp_path):
    lacking = _memorization_run(tmp_path / "lacking", {k: v for k, v in DECLARED.items() if k != "analog"})
    out = tmp_path / "ref" / "memorization"
    done = _cli("reference", lacking, "--memorization", "--out", out)
    _no_traceback_error(done, f"{lacking}/tables/memorization.yaml: no key analog (it has metrics, novel, split)")
    absent = _memorization_run(tmp_path / "absent", None)
    done = _cli("reference", absent, "--memorization", "--out", out)
    _no_traceback_error(done, f"{absent}/tables/memorization.yaml: no such file")
    broken = _memorization_run(tmp_path / "broken", None)
    (broken / "tables" / "memorization.yaml").write_text("split: [cluster\nnovel: 0.4\n")
    done = _cli("reference", broken, "--memorization", "--out", out)
    _no_traceback_error(done, f"{broken}/tables/memorization.yaml: not YAML: while parsing a flow sequence")
    assert not (tmp_path / "ref").exists()


def test_a_memorization_reference_is_written_whole_or_not_at_all(tmp_path):
    run = _memorization_run(tmp_path / "run", DECLARED)
    out = tmp_path / "memorization"
    assert _cli("reference", run, "--memorization", "--out", out).returncode == 0
    held = {name: (out / name).read_bytes() for name in _files(out)}
    assert sorted(held) == ["manifest.yaml", "memorization.tsv", "memorization_tests.tsv"]
    # the second table is corrupt: the first, already compared and rewritten, does not land either
    (run / "tables" / "memorization.tsv").write_text("model\tstratum\tkey\tvalue\nIRV\tnovel\troc\t0.8\n")
    (run / "tables" / "memorization_tests.tsv").write_bytes(
        b"stratum\ta\tb\tmetric\tp\nnovel\tIRV\tkN\xe9N\troc\t0.03\n"
    )
    done = _cli("reference", run, "--memorization", "--out", out)
    _no_traceback_error(done, f"{run}/tables/memorization_tests.tsv: not UTF-8 text: byte 0xe9 at offset 33 (line 2)")
    assert {name: (out / name).read_bytes() for name in _files(out)} == held
    fresh = tmp_path / "fresh"
    _no_traceback_error(_cli("reference", run, "--memorization", "--out", fresh), "memorization_tests.tsv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memorization", "run"]
    # --out under a file: one line naming the folder asked for
    under_a_file = run / "tables" / "memorization.tsv" / "x"
    done = _cli("reference", _memorization_run(tmp_path / "ok", DECLARED), "--memorization", "--out", under_a_file)
    _no_traceback_error(done, "memorization.tsv/x: a part of the path is a file")


def test_reference_check_on_a_corrupt_table_names_it(tmp_path):
    run = _memorization_run(tmp_path / "run", DECLARED)
    out = tmp_path / "memorization"
    assert _cli("reference", run, "--memorization", "--out", out).returncode == 0
    table = out / "memorization_tests.tsv"
    whole = table.read_text()
    table.write_bytes(whole.encode().replace(b"IRV", b"IR\xff"))
    _no_traceback_error(_cli("reference", run, "--check", "--out", out), f"{table}: not UTF-8 text: byte 0xff")
    table.write_text(whole[:-10].replace("\tIRV", '\t"IRV'))  # cut short inside a quoted field
    _no_traceback_error(_cli("reference", run, "--check", "--out", out), f"{table}: not a table:", "EOF inside string")
    table.write_text("")
    _no_traceback_error(_cli("reference", run, "--check", "--out", out), f"{table}: empty")


def test_regenerate_check_on_a_document_that_is_not_utf8_names_it(tmp_path):
    (tmp_path / "results" / "reference").mkdir(parents=True)
    (tmp_path / "README.md").write_bytes(b"# crocbench\n\nCaf\xe9 au lait\n")
    done = _cli("regenerate", "--check", "--root", tmp_path)
    _no_traceback_error(done, f"{tmp_path / 'README.md'}: not UTF-8 text: byte 0xe9 at offset 16 (line 3)", "Markdown")


@pytest.mark.parametrize(
    "data,fragment",
    [
        (b"model\troc\nIR\xffV\t0.75\n", "not UTF-8 text: byte 0xff at offset 12 (line 2)"),
        (b'model\troc\n"IRV\t0.7', "not a table:"),
        (b"", "empty"),
    ],
)
def test_regenerate_check_on_a_reference_table_that_cannot_be_read_names_it(tmp_path, data, fragment):
    folder = tmp_path / "results" / "reference" / "demo"
    folder.mkdir(parents=True)
    (folder / "manifest.yaml").write_text(yaml.safe_dump({"kind": "tables", "documents": ["README.md"]}))
    (folder / "a.tsv").write_text("model\troc\nkNN\t0.5\n")
    (folder / "b.tsv").write_bytes(data)
    (tmp_path / "README.md").write_text("<!-- reference:demo/a -->\n<!-- /reference:demo/a -->\n")
    done = _cli("regenerate", "--check", "--root", tmp_path)
    _no_traceback_error(done, f"{folder / 'b.tsv'}: {fragment}")


# --- tuning choose: the values table, and where its outputs go ---------------------------------------------------


@pytest.fixture
def development(tmp_path):
    """A development config (kNN's k tuned over two candidates) and its values table on two screens."""
    config = {"models": {"knn": {"tune": {"k": [1, 3]}}}}
    config["tuning"] = {"budget": 2, "metric": "roc", "design": "development", "folds": 1}
    (tmp_path / "dev.yaml").write_text(yaml.safe_dump(config))
    rows = "dataset\tmodel\troc\ns1\tkNN.c1\t0.7\ns1\tkNN.c2\t0.8\ns2\tkNN.c1\t0.6\ns2\tkNN.c2\t0.7\n"
    (tmp_path / "values.tsv").write_text(rows)
    return tmp_path


def _choose(folder: Path, values: Path, out: Path):
    return _cli("tuning", "choose", values, "--config", folder / "dev.yaml", "--out", out, "--root", ROOT)


def test_tuning_choose_chooses_on_a_good_table(development):
    done = _choose(development, development / "values.tsv", development / "chosen.yaml")
    assert done.returncode == 0, done.stderr
    assert yaml.safe_load((development / "chosen.yaml").read_text())["models"]["knn"]["k"] == 3  # mean 0.75 > 0.65


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty (not even a header row)"),
        ("dataset\tmodel\troc\n", "no rows (a header alone)"),
        ("model\troc\nkNN.c1\t0.7\n", "no dataset column (it has model, roc)"),
        ("dataset\tmodel\troc\ns1\tkNN.c1\t0.7\ns1\tkNN.c2\t0.8\ns1\tkNN.c1\t0.7\n", "kNN.c1 are given twice"),
        ("dataset\tmodel\troc\ns1\tkNN.c1\t0.7\ns1\tkNN.c2\t0.8\t9\t9\n", "Expected 3 fields in line 3, saw 5"),
    ],
)
def test_tuning_choose_on_a_bad_values_table_is_one_line_naming_it(development, text, fragment):
    bad = development / "bad.tsv"
    bad.write_text(text)
    done = _choose(development, bad, development / "chosen.yaml")
    _no_traceback_error(done, f"{bad}: ", fragment)
    assert sorted(p.name for p in development.iterdir()) == ["bad.tsv", "dev.yaml", "values.tsv"]


def test_tuning_choose_into_a_missing_folder_or_a_folder_writes_nothing(development):
    for out, words in (
        (development / "nodir" / "x.yaml", "does not exist; create it first"),
        (development, "is a folder"),
    ):
        done = _choose(development, development / "values.tsv", out)
        _no_traceback_error(done, f"--out {out}", words)
    assert sorted(p.name for p in development.iterdir()) == ["dev.yaml", "values.tsv"]

"""crocbench.benchmark from outside the project: specs checked against the committed ones (the registry), the
commands run from any folder, an export whose config moved its split refused, a killed export's scratch folder
removed, compressed submissions, subset exports.

The toy export and its submissions are tests/_benchmark.py's (``world``, ``_submission``); here its spec is
registered only where a test points ``CROCBENCH_SPECS`` at the folder ``world`` writes it to (``toy_registry``).
The committed specs are the package's own (``crocbench.benchmark.SPECS``), hashed here with hashlib.
"""

import gzip
import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import test_benchmark
from _benchmark import SCREENS, _submission, _toy_project
from _cli import _cli, _one_line_error
from _waits import line, start, stop

from crocbench.benchmark import SPEC_FILE, SPECS, load, read_spec
from crocbench.benchmark._recipe import recipe_path
from crocbench.benchmark._spec import spec_bytes

world = test_benchmark.world  # the toy export: a fixture
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def shipped_specs(monkeypatch, tmp_path):
    """Every test starts from the shipped specs, and with a cache of its own."""
    monkeypatch.delenv("CROCBENCH_SPECS", raising=False)
    monkeypatch.setenv("CROCBENCH_CACHE", str(tmp_path / "cache"))


# --- the registry ------------------------------------------------------------------------------------------------


def test_an_edited_committed_spec_is_refused_by_its_bytes_not_its_name(tmp_path):
    """The reviewer's case: dtp_aids's benchmark.json with its metric of record changed to roc keeps the name and
    version of a committed spec, and is refused all the same, in one line, nothing written."""
    spec = json.loads((SPECS / "dtp_aids.json").read_text())
    assert spec["metric_of_record"] != "roc" and "roc" in spec["metrics"]
    export = tmp_path / "export"
    export.mkdir()
    (export / SPEC_FILE).write_bytes(spec_bytes({**spec, "metric_of_record": "roc"}))
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / SPEC_FILE).write_bytes((export / SPEC_FILE).read_bytes())
    (sub / "dtp_aids.csv").write_text("id,score\n1,0.5\n")
    with pytest.raises(ValueError, match="benchmark dtp_aids v1 .* is an unregistered spec .*not the committed dtp"):
        load(export)
    done = _cli("benchmark", "evaluate", sub, "--benchmark", export)
    _one_line_error(done, "unregistered spec", "it is not the committed dtp_aids v1", "--unregistered")
    assert sorted(p.name for p in sub.iterdir()) == ["benchmark.json", "dtp_aids.csv"]


def test_an_unregistered_spec_is_evaluated_on_request_and_said_so(world, toy_registry, tmp_path, monkeypatch):
    sub = _submission(world, tmp_path / "sub", ranker="B")
    done = _cli("benchmark", "evaluate", sub, "--benchmark", world["export"], "--out", tmp_path / "refused")
    _one_line_error(done, "benchmark toy v1", "is an unregistered spec", "no committed spec has that name")
    assert not (tmp_path / "refused").exists()

    done = _cli(
        "benchmark", "evaluate", sub, "--benchmark", world["export"], "--out", tmp_path / "out", "--unregistered"
    )
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "out" / "result.json").read_text())
    assert record["registry"] == "unregistered spec"
    assert ", an unregistered spec (its sha256 is none of the committed specs')" in record["verdicts"][0]
    assert "unregistered spec" in done.stdout.splitlines()[0]
    assert "an unregistered spec" in (tmp_path / "out" / "result.md").read_text()

    # the same export, its spec registered: said to be a committed spec, and no sentence says otherwise
    monkeypatch.setenv("CROCBENCH_SPECS", str(toy_registry))
    done = _cli("benchmark", "evaluate", sub, "--benchmark", world["export"], "--out", tmp_path / "ok")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "ok" / "result.json").read_text())
    assert record["registry"] == "committed spec" and "unregistered" not in " ".join(record["verdicts"])


# --- from any folder ---------------------------------------------------------------------------------------------


def test_list_runs_from_any_folder_and_says_where_it_looked(tmp_path, monkeypatch):
    """Outside the project the shipped specs are listed, each with its file's sha256; with no specs where it
    looked, one line says where, and how to fix it."""
    monkeypatch.chdir(tmp_path)
    done = _cli("benchmark", "list")
    assert done.returncode == 0, done.stderr
    listed = {line.split("\t")[0]: line.split("\t")[-1] for line in done.stdout.splitlines()}
    files = sorted(SPECS.glob("*.json"))
    assert len(files) >= 6
    assert listed == {p.stem: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("CROCBENCH_SPECS", str(empty))
    done = _cli("benchmark", "list")
    _one_line_error(done, f"no benchmark specs in {empty} (CROCBENCH_SPECS)", "reinstall crocbench")
    assert done.stdout == ""


def test_evaluate_runs_from_any_folder_and_export_of_a_spec_without_recipe_needs_a_checkout(
    world, toy_registry, tmp_path, monkeypatch
):
    sub = _submission(world, tmp_path / "sub", ranker="A")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("CROCBENCH_SPECS", str(toy_registry))
    done = _cli("benchmark", "evaluate", sub, "--benchmark", world["export"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sub on 10 of the 10 screens of benchmark toy v1")

    # the toy spec has no recipe (a committed spec's is tested below), so its export reads a checkout
    done = _cli("benchmark", "export", "toy", tmp_path / "out", "--root", elsewhere)
    _one_line_error(done, f"{elsewhere} is not one (no config.yaml)", "--root CHECKOUT")
    assert not (tmp_path / "out").exists()


def test_an_export_reads_the_given_checkout_else_this_folder_else_the_one_crocbench_comes_from(tmp_path, monkeypatch):
    import crocbench
    from crocbench.benchmark import checkout

    monkeypatch.chdir(tmp_path)
    assert checkout(tmp_path / "given") == tmp_path / "given"
    if Path(crocbench.__file__).resolve().is_relative_to(ROOT):  # imported from this checkout (an editable install)
        assert checkout() == ROOT
    else:  # a wheel's: no checkout to fall back on
        assert checkout() == Path(".")
    (tmp_path / "config.yaml").write_text("{}\n")
    assert checkout() == Path(".")


def test_an_export_whose_config_disagrees_with_the_split_is_one_line_and_writes_nothing(tmp_path, monkeypatch):
    """The split is checked before anything is read or written, from a checkout's config (a spec without a recipe)
    or from the recipe's: a config whose folds moved since the freeze is refused in one line, exit 2, and the
    export folder is not made; the config put back, the same command exports."""
    from crocbench.benchmark import freeze

    project, path, _ = _toy_project(tmp_path, monkeypatch)
    freeze(path, project, progress=None)
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "toy.json").write_bytes(path.read_bytes())
    monkeypatch.setenv("CROCBENCH_SPECS", str(specs))
    out = tmp_path / "out"
    message = "benchmark toy: its split.folds is 3 but its config gives 4"

    config = project / "toy.yaml"  # the checkout's
    config.write_text(config.read_text().replace('"folds": 3', '"folds": 4'))
    _one_line_error(_cli("benchmark", "export", "toy", out, "--root", project), message)
    assert not out.exists()
    config.write_text(config.read_text().replace('"folds": 4', '"folds": 3'))

    recipe = json.loads(recipe_path(path).read_text())  # the recipe's, the checkout's config right
    recipe["config"]["cv"]["folds"] = 4
    (specs / "recipes").mkdir()
    (specs / "recipes" / "toy.json").write_text(json.dumps(recipe))
    _one_line_error(_cli("benchmark", "export", "toy", out, "--root", project), message)
    assert not out.exists()

    (specs / "recipes" / "toy.json").unlink()
    done = _cli("benchmark", "export", "toy", out, "--root", project)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["benchmark.json", "reference.csv", "toy_a.csv", "toy_b.csv"]


# --- a killed export -----------------------------------------------------------------------------------------------

_STALLED_EXPORT = """
import sys
from crocbench.benchmark import export, read_spec

class Stall:  # the export's progress stream: the first screen's line ("[1/2] ...": written) is passed on to the
    def write(self, text):  # test, then the export stalls (on standard input, which the test holds open) until
        if text.startswith("["):  # it is killed; the lines before it (the raw file fetched, standardized) pass
            print(text.strip(), flush=True)
            sys.stdin.read()

    def flush(self):
        pass

export(read_spec(sys.argv[1]), sys.argv[2], sys.argv[3], progress=Stall())
"""


def test_a_killed_exports_scratch_folder_is_removed_by_the_next_and_a_live_ones_kept(tmp_path, monkeypatch):
    from crocbench.benchmark import export, freeze

    project, path, _ = _toy_project(tmp_path, monkeypatch)
    spec = freeze(path, project, progress=None)
    out = tmp_path / "export"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    env["CROCBENCH_CACHE"] = str(tmp_path / "child-cache")  # not the freeze's: the child standardizes its screens
    child = start(
        [sys.executable, "-c", _STALLED_EXPORT, str(path), str(out), str(project)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert line(child, "the export's first screen").startswith("[1/2]")  # written, its scratch folder there
        scratch = sorted(out.glob(".export-*"))
        assert len(scratch) == 1 and any(scratch[0].rglob("toy_a.csv")), scratch

        # a second export into the same folder while the first lives: the first's scratch folder is kept
        export(spec, out, project, progress=None)
        assert sorted(out.glob(".export-*")) == scratch
    finally:
        stop(child)  # SIGKILL, as the OOM killer or a power cut would end it
    assert child.returncode == -signal.SIGKILL

    # the next export removes what the killed one left, and leaves nothing of its own
    (out / SPEC_FILE).unlink()
    export(spec, out, project, progress=None)
    assert sorted(p.name for p in out.iterdir()) == ["benchmark.json", "reference.csv", "toy_a.csv", "toy_b.csv"]
    assert (out / SPEC_FILE).read_bytes() == path.read_bytes()


# --- submissions: compressed files, a subset export -------------------------------------------------------------------


def test_a_gzipped_submission_is_read_as_its_text(world, toy_registry, tmp_path, monkeypatch):
    monkeypatch.setenv("CROCBENCH_SPECS", str(toy_registry))
    plain = _submission(world, tmp_path / "plain", ranker="B")
    packed = _submission(world, tmp_path / "packed", ranker="B")
    for screen in ("s0", "s7"):
        text = packed / f"{screen}.csv"
        (packed / f"{screen}.csv.gz").write_bytes(gzip.compress(text.read_bytes()))
        text.unlink()
    (packed / "s3.tsv.gz").write_bytes(gzip.compress(pd.read_csv(packed / "s3.csv").to_csv(sep="\t").encode()))
    (packed / "s3.csv").unlink()
    bench = load(world["export"])
    want, got = bench.evaluate(plain), bench.evaluate(packed)
    pd.testing.assert_frame_equal(want.values, got.values)
    assert got.submission["s0"] == hashlib.sha256((packed / "s0.csv.gz").read_bytes()).hexdigest()

    (packed / "s0.csv").write_bytes(gzip.decompress((packed / "s0.csv.gz").read_bytes()))  # two files, one screen
    done = _cli("benchmark", "evaluate", packed, "--benchmark", world["export"])
    _one_line_error(done, "screen s0: 2 files (s0.csv, s0.csv.gz); give one")
    (packed / "s0.csv").unlink()
    (packed / "extra.csv.gz").write_bytes(gzip.compress(b"id,score\nm1,1\n"))
    done = _cli("benchmark", "evaluate", packed, "--benchmark", world["export"])
    _one_line_error(done, "extra.csv.gz: no screen of benchmark toy is called 'extra'")


def test_an_export_of_a_subset_is_evaluated_as_that_subset_and_said_so(world, toy_registry, tmp_path, monkeypatch):
    import shutil

    monkeypatch.setenv("CROCBENCH_SPECS", str(toy_registry))
    subset = tmp_path / "export"
    shutil.copytree(world["export"], subset)
    for screen in SCREENS[3:]:
        (subset / f"{screen}.csv").unlink()
    sub = _submission(world, tmp_path / "sub", ranker="C", edit=lambda s, f: f if s in SCREENS[:3] else None)
    done = _cli("benchmark", "evaluate", sub, "--benchmark", subset, "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "out" / "result.json").read_text())
    assert record["subset"] is True and record["screens"] == SCREENS[:3]
    assert record["verdicts"][0] == (
        f"sub on 3 of the 10 screens of benchmark {read_spec(subset / SPEC_FILE).title}; a subset: s0, s1, s2."
    )


# --- recipes: what an export reads, frozen beside the spec -----------------------------------------------------------


@pytest.mark.parametrize("path", sorted(SPECS.glob("*.json")), ids=lambda p: p.stem)
def test_each_committed_specs_recipe_is_what_the_checkout_gives(path):
    from crocbench.benchmark._recipe import make_recipe, recipe_path

    assert recipe_path(path).read_bytes() == make_recipe(read_spec(path), ROOT), (
        f"{recipe_path(path)} drifted from the checkout's config files or reference: "
        f"crocbench benchmark freeze {path.relative_to(ROOT)} --recipe"
    )


def test_a_committed_spec_exports_from_its_recipe_with_no_checkout(tmp_path, monkeypatch):
    from crocbench.benchmark import export, freeze

    project, path, _ = _toy_project(tmp_path, monkeypatch)
    spec = freeze(path, project, progress=None)  # writes project/recipes/toy.json beside the spec
    first = export(spec, tmp_path / "first", project, progress=None)
    registry = tmp_path / "registry"
    (registry / "recipes").mkdir(parents=True)
    (registry / "toy.json").write_bytes(path.read_bytes())
    (registry / "recipes" / "toy.json").write_bytes((project / "recipes" / "toy.json").read_bytes())
    monkeypatch.setenv("CROCBENCH_SPECS", str(registry))
    monkeypatch.setenv("CROCBENCH_CACHE", str(tmp_path / "empty-cache"))  # standardized again, from the recipe
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    monkeypatch.chdir(nowhere)
    done = _cli("benchmark", "export", "toy", tmp_path / "bare", "--root", nowhere)
    assert done.returncode == 0, done.stderr
    for name in first:
        assert (tmp_path / "bare" / name).read_bytes() == (tmp_path / "first" / name).read_bytes(), name
    assert (tmp_path / "bare" / SPEC_FILE).read_bytes() == path.read_bytes()

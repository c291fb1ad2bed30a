"""Leaderboard entries on the toy benchmark (tests/_benchmark.py's export, its spec committed in ``toy_registry``):
``crocbench benchmark submit`` files an evaluation, ``crocbench benchmark verify`` recomputes its record from
the scores; every refusal is one line, exit 2, nothing written.

Expected bytes are made here independently: the score files gunzipped and hashed with hashlib, the record compared
with the evaluator's own ``result.json``.
"""

import gzip
import hashlib
import json
import shutil
from pathlib import Path

import pytest
import test_benchmark
import yaml
from _benchmark import SCREENS, _submission
from _cli import _cli, _one_line_error

from crocbench.benchmark._entries import ENTRY_FIELDS
from crocbench.benchmark._spec import spec_bytes

world = test_benchmark.world  # the toy export: a fixture

FIELDS = {
    "model": "B again",
    "description": "The toy's middling reference ranker's scores, entered as a model.",
    "features": "none (hand-made scores)",
    "tuning": "none",
    "training_cost": {"hardware": "a laptop", "hours": 0.01},
    "code": "none",
    "licence": "CC0-1.0",
}


def _evaluated(world, folder: Path, name="mine", ranker="B", fields=FIELDS) -> Path:
    """A submission evaluated as a user does, with its entry.yaml beside its scores: the evaluation folder."""
    sub = _submission(world, folder, ranker=ranker)
    (sub / "entry.yaml").write_text(yaml.safe_dump(fields))
    done = _cli("benchmark", "evaluate", sub, "--benchmark", world["export"], "--name", name)
    assert done.returncode == 0, done.stderr
    return sub / "evaluation"


def _files(folder: Path) -> list:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


@pytest.fixture(scope="module")
def filed(world, tmp_path_factory):
    """An entry filed by ``submit`` in a project of its own: (project, entry folder, evaluation folder)."""
    tmp = tmp_path_factory.mktemp("filed")
    evaluation = _evaluated(world, tmp / "sub")
    project = tmp / "project"
    done = _cli("benchmark", "submit", evaluation, "--entry", "mine", "--benchmark", "toy", "--root", project)
    assert done.returncode == 0, done.stderr
    return project, project / "results" / "entries" / "toy" / "mine", evaluation


def test_submit_files_the_record_the_fields_and_the_scores_compressed(filed):
    project, entry, evaluation = filed
    assert (entry / "result.json").read_bytes() == (evaluation / "result.json").read_bytes()
    fields = yaml.safe_load((entry / "entry.yaml").read_text())
    assert {k: fields[k] for k in FIELDS} == FIELDS
    record = json.loads((entry / "result.json").read_text())
    assert sorted(fields["scores"]) == sorted(SCREENS)
    for screen in SCREENS:
        packed = (entry / "scores" / f"{screen}.csv.gz").read_bytes()
        assert packed[4:8] == b"\0\0\0\0"  # gzip's mtime: 0, so the same file gives the same bytes
        assert fields["scores"][screen]["sha256"] == hashlib.sha256(packed).hexdigest()
        original = (evaluation.parent / f"{screen}.csv").read_bytes()
        assert gzip.decompress(packed) == original
        assert record["submission"]["sha256"][screen] == hashlib.sha256(original).hexdigest()
    assert [p.name for p in entry.parent.iterdir()] == ["mine"]


def test_verify_recomputes_the_record_from_committed_or_given_scores(filed, world):
    project, entry, evaluation = filed
    done = _cli("benchmark", "verify", entry, "--benchmark", world["export"])
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout
    done = _cli("benchmark", "verify", entry, "--benchmark", world["export"], "--scores", evaluation.parent)
    assert done.returncode == 0, done.stderr


def _copy(entry: Path, to: Path) -> Path:
    shutil.copytree(entry, to)
    return to


def test_a_record_edited_by_one_digit_fails_verify_in_one_line(filed, world, tmp_path):
    entry = _copy(filed[1], tmp_path / "mine")
    text = (entry / "result.json").read_text()
    at = text.index('"roc": 0.') + len('"roc": 0.')
    digit = text[at]
    (entry / "result.json").write_text(text[:at] + str((int(digit) + 1) % 10) + text[at + 1 :])
    done = _cli("benchmark", "verify", entry, "--benchmark", world["export"])
    line = _one_line_error(done, "result.json: line ", "the scores give")
    assert f'"roc": 0.{digit}' in line  # the recomputed value, beside the edited one


def test_a_score_file_changed_by_one_row_fails_verify_in_one_line(filed, world, tmp_path):
    project, entry, evaluation = filed
    given = shutil.copytree(evaluation.parent, tmp_path / "given", ignore=shutil.ignore_patterns("evaluation"))
    lines = (given / "s3.csv").read_text().splitlines()
    score = float(lines[5].split(",")[1])
    lines[5] = f"{lines[5].split(',')[0]},{score + 10}"
    (given / "s3.csv").write_text("\n".join(lines) + "\n")
    done = _cli("benchmark", "verify", entry, "--benchmark", world["export"], "--scores", given)
    _one_line_error(done, "s3.csv: sha256 ", "the record names")
    # the committed file changed by the same row, and its hashes forged in entry.yaml and the record: the values
    forged = _copy(entry, tmp_path / "forged")
    data = (given / "s3.csv").read_bytes()
    packed = gzip.compress(data, mtime=0)
    (forged / "scores" / "s3.csv.gz").write_bytes(packed)
    fields = yaml.safe_load((forged / "entry.yaml").read_text())
    fields["scores"]["s3"]["sha256"] = hashlib.sha256(packed).hexdigest()
    (forged / "entry.yaml").write_text(yaml.safe_dump(fields, sort_keys=False))
    record = (forged / "result.json").read_text()
    old = json.loads(record)["submission"]["sha256"]["s3"]
    (forged / "result.json").write_text(record.replace(old, hashlib.sha256(data).hexdigest()))
    done = _cli("benchmark", "verify", forged, "--benchmark", world["export"])
    _one_line_error(done, "result.json: line ", "the scores give")
    # and without the forged entry.yaml, the committed file's own hash fails first
    fields["scores"]["s3"]["sha256"] = "0" * 64
    (forged / "entry.yaml").write_text(yaml.safe_dump(fields, sort_keys=False))
    _one_line_error(_cli("benchmark", "verify", forged, "--benchmark", world["export"]), "s3.csv.gz: sha256 ")


def test_verify_checks_the_spec_the_record_names_by_its_sha256(filed, world, toy_registry):
    """The registry's toy spec edited (same name and version, other bytes): the record's spec is not held."""
    path = toy_registry / "toy.json"
    kept = path.read_bytes()
    try:
        path.write_bytes(spec_bytes({**world["spec"], "description": "ten hand-made screens, edited"}))
        done = _cli("benchmark", "verify", filed[1], "--benchmark", world["export"])
    finally:
        path.write_bytes(kept)
    _one_line_error(done, "result.json: benchmark toy v1 (sha256 ", "is a spec the repository does not hold")


def test_an_entry_without_its_scores_is_not_re_verifiable_without_them(filed, world, tmp_path):
    entry = _copy(filed[1], tmp_path / "bare")
    shutil.rmtree(entry / "scores")
    fields = yaml.safe_load((entry / "entry.yaml").read_text())
    (entry / "entry.yaml").write_text(yaml.safe_dump({**fields, "scores": None}, sort_keys=False))
    _one_line_error(_cli("benchmark", "verify", entry, "--benchmark", world["export"]), "not re-verifiable")
    given = ["--scores", filed[2].parent]
    assert _cli("benchmark", "verify", entry, "--benchmark", world["export"], *given).returncode == 0


def test_verify_writes_no_file_an_entry_yaml_names_outside_the_entry(filed, world, tmp_path):
    """A contributed entry.yaml whose scores name a path out of the entry (or are malformed) is refused in one
    line before any file is read or written; the target stays absent."""
    target = tmp_path / "elsewhere.csv"
    fields = yaml.safe_load((filed[1] / "entry.yaml").read_text())
    cases = {
        "bad": ({**fields["scores"]["s3"], "submitted": str(target)}, "is not a bare file name"),
        "up": ({**fields["scores"]["s3"], "file": "../../elsewhere.csv.gz"}, "is not scores/s3.csv[.gz]"),
        "short": ({"file": "scores/s3.csv.gz"}, "give file, sha256 and submitted"),
    }
    for name, (named, words) in cases.items():
        entry = _copy(filed[1], tmp_path / name)
        (entry / "entry.yaml").write_text(
            yaml.safe_dump({**fields, "scores": {**fields["scores"], "s3": named}}, sort_keys=False)
        )
        _one_line_error(_cli("benchmark", "verify", entry, "--benchmark", world["export"]), "entry.yaml: ", words)
    entry = _copy(filed[1], tmp_path / "odd")
    (entry / "entry.yaml").write_text(yaml.safe_dump({**fields, "scores": "yes"}, sort_keys=False))
    _one_line_error(_cli("benchmark", "verify", entry, "--benchmark", world["export"]), "scores is 'yes'")
    assert not target.exists()


def test_an_entry_whose_score_files_are_gone_is_not_re_verifiable(filed, tmp_path):
    from crocbench.benchmark._entries import read_entry

    entry = _copy(filed[1], tmp_path / "mine")
    assert read_entry(entry).verifiable
    (entry / "scores" / "s3.csv.gz").unlink()  # entry.yaml still names it: the page must not say "committed"
    assert not read_entry(entry).verifiable


def _refused(project: Path, done, *fragments) -> None:
    _one_line_error(done, *fragments)
    assert _files(project) == []  # nothing written, not even the folders


@pytest.mark.parametrize("field", list(ENTRY_FIELDS))
def test_submit_refuses_an_entry_yaml_missing_a_field(world, tmp_path, field):
    fields = {k: v for k, v in FIELDS.items() if k != field}
    evaluation = _evaluated(world, tmp_path / "sub", fields=fields)
    project = tmp_path / "project"
    done = _cli("benchmark", "submit", evaluation, "--entry", "mine", "--root", project)
    _refused(project, done, "entry.yaml: no field ", repr(field))


def test_submit_refuses_a_name_taken_by_an_entry_or_a_ranker(filed):
    project, entry, evaluation = filed
    before = _files(project)
    for name in ("mine", "A"):
        done = _cli("benchmark", "submit", evaluation, "--entry", name, "--root", project)
        _one_line_error(done, f"the name {name!r} is taken on benchmark toy")
    assert _files(project) == before


def test_submit_refuses_a_result_of_a_spec_not_held_or_of_another_benchmark(filed, tmp_path):
    evaluation = shutil.copytree(filed[2].parent, tmp_path / "sub") / "evaluation"
    project = tmp_path / "project"
    done = _cli("benchmark", "submit", evaluation, "--entry", "x", "--benchmark", "fair_random", "--root", project)
    _refused(project, done, "result.json: a result of benchmark toy, not fair_random")
    record = (evaluation / "result.json").read_text()
    sha = json.loads(record)["benchmark"]["sha256"]
    (evaluation / "result.json").write_text(record.replace(sha, "f" * 64))
    done = _cli("benchmark", "submit", evaluation, "--entry", "x", "--root", project)
    _refused(project, done, "benchmark toy v1 (sha256 ffffffffffff) is a spec the repository does not hold")


# --- the leaderboard page ----------------------------------------------------------------------------------------


def _rows(markdown: str) -> list:
    """The first table's rows of a leaderboard block, as lists of cells."""
    table = [line for line in markdown.split("\n\n")[1].splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip("|").split("|")] for line in table[2:]]  # under the header and its rule


def test_a_benchmark_without_entries_shows_its_reference_ordered_by_the_metric_of_record(tmp_path):
    """fair_random's page with no entry (a project holding the committed references and no entries): the rankers in
    the order of the committed reference's own mean ranks on the metric of record (ranks.tsv, written by the
    workflow), not on AUC[ROC] (where the SVM leads)."""
    import pandas as pd

    from crocbench.pages._leaderboard import leaderboard_tables

    root = Path(__file__).resolve().parents[1]
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "reference").symlink_to(root / "results" / "reference")
    block = leaderboard_tables(tmp_path)["leaderboard/fair_random"]
    committed = pd.read_csv(root / "results" / "reference" / "fair_random" / "ranks.tsv", sep="\t")
    mine = committed[committed["metric"] == "croc_exp_80"].sort_values("mean_rank", kind="stable")
    rows = _rows(block)
    assert [r[1] for r in rows] == list(mine["model"])
    assert [float(r[2]) for r in rows] == pytest.approx(list(mine["mean_rank"]), abs=0.005)
    assert [int(r[0]) for r in rows] == [1 + int((mine["mean_rank"] < m - 1e-9).sum()) for m in mine["mean_rank"]]
    assert len(rows[0]) == 3 and "No entry is filed yet" in block  # the reference alone


def test_the_page_holds_every_entry_beside_the_rankers_placed_by_mean_rank(filed, world, tmp_path):
    """Two entries: "mine" (B's scores) and "bare" (A's, its scores not committed). Each ties its ranker on every
    screen; mean ranks are recomputed here with scipy over the five models from the AUCs scikit-learn gave."""
    import numpy as np
    from scipy.stats import rankdata

    from crocbench.benchmark._entries import entries
    from crocbench.pages._leaderboard import leaderboard_markdown

    project = tmp_path / "project"
    shutil.copytree(filed[0], project)
    evaluation = _evaluated(world, tmp_path / "a", name="bare", ranker="A")
    done = _cli("benchmark", "submit", evaluation, "--entry", "bare", "--root", project)
    assert done.returncode == 0, done.stderr
    bare = project / "results" / "entries" / "toy" / "bare"
    fields = yaml.safe_load((bare / "entry.yaml").read_text())
    (bare / "entry.yaml").write_text(yaml.safe_dump({**fields, "scores": None}, sort_keys=False))
    shutil.rmtree(bare / "scores")
    from crocbench.benchmark import read_spec

    spec = read_spec(world["export"] / "benchmark.json")
    block = leaderboard_markdown(spec, world["reference"], entries(project, "toy"))
    wide = world["reference"].pivot(index="dataset", columns="model", values="roc")[["A", "B", "C"]]
    models = ["A", "B", "C", "bare", "mine"]
    values = np.column_stack([wide["A"], wide["B"], wide["C"], wide["A"], wide["B"]])
    means = dict(zip(models, rankdata(-values, axis=1).mean(axis=0)))
    order = sorted(models, key=lambda m: (means[m], m))
    rows = _rows(block)
    assert [r[1].split(" (")[0].strip("*") for r in rows] == order  # every row, in order
    assert [float(r[2]) for r in rows] == pytest.approx([means[m] for m in order], abs=0.005)
    by_model = {r[1].split(" (")[0].strip("*"): r for r in rows}
    assert by_model["mine"][1] == "**mine** (B again)"
    assert by_model["bare"][-1] == "not re-verifiable" and by_model["mine"][-1] == "scores committed"
    assert by_model["A"][-1] == "reference ranker" and by_model["A"][0] == by_model["bare"][0]  # tied: one place
    record = json.loads((filed[1] / "result.json").read_text())
    best = min(["A", "B", "C"], key=lambda m: (means[m], m))
    versus = next(v for v in record["placement"]["versus"] if v["ranker"] == best)
    assert by_model["mine"][3].startswith(f"{versus['wins']}-{versus['losses']}-{versus['ties']}; ")
    assert f"[{versus['low']:+.4f}, {versus['high']:+.4f}]" in by_model["mine"][3]
    assert by_model["mine"][4] == FIELDS["features"] and by_model["mine"][5] == "none"

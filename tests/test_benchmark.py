"""crocbench.benchmark: specs, exports read back, submissions checked, entries scored and placed.

The exports here are written by hand (files and sha256 computed in the test), and the freeze's tests export two
30-compound screens from a mirror the test writes, so these tests run without the data mirror; the export from
it, its equality with a workflow run's folds and the round trip of a workflow run's scores are in
tests/test_benchmark_workflow.py. Expected values come from scikit-learn, SciPy and scikit-posthocs, or by hand.
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _benchmark import N_POS, RANKERS, SCREENS, N, _submission, _toy_project, make_world, repeated_export
from _cli import _cli, _one_line_error
from scipy import stats as sps
from sklearn.metrics import roc_auc_score

from crocbench.benchmark import SPEC_FILE, load, read_spec
from crocbench.benchmark._spec import parse_spec, spec_bytes

#: The toy benchmark is a committed spec here (conftest.py's ``toy_registry``).
pytestmark = pytest.mark.usefixtures("toy_registry")


@pytest.fixture(scope="module")
def world(tmp_path_factory, toy_registry):
    """The hand-written export of ``tests/_benchmark.py``, its spec committed in ``toy_registry``."""
    made = make_world(tmp_path_factory.mktemp("export"))
    (toy_registry / "toy.json").write_bytes(spec_bytes(made["spec"]))
    return made


def test_spec_hash_is_the_sha256_of_its_bytes_and_the_bytes_are_canonical(world):
    path = world["export"] / SPEC_FILE
    spec = read_spec(path)
    assert spec.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert spec_bytes(spec.as_dict()) == path.read_bytes()  # sorted keys, two spaces, a final newline
    other = parse_spec(spec_bytes({**world["spec"], "version": 2}))
    assert other.sha256 != spec.sha256 and other.title.startswith("toy v2 (sha256 ")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"metric_of_record": "ef_1pct"}, "is not among its metrics"),
        ({"split": {"kind": "leave-one-out", "folds": 5, "repeats": 1, "seed": 0}}, "split.kind must be one of"),
        ({"screens": ["a", "a"]}, "each once"),
        ({"colour": "red"}, "unknown key 'colour'"),
    ],
)
def test_a_bad_spec_is_one_line(world, change, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(spec_bytes({**world["spec"], **change}), "bad.json")


def test_values_and_placement_agree_with_scipy_sklearn_and_posthocs(world, tmp_path):
    sp = pytest.importorskip("scikit_posthocs")
    import warnings

    bench = load(world["export"])
    result = bench.evaluate(_submission(world, tmp_path / "sub", ranker="B"), name="entry")
    # values: scikit-learn's AUC[ROC] (mean rank of tied scores = the expected value over tie orders), kept at the
    # references' 10 significant digits
    for screen, row in result.values.set_index("dataset").iterrows():
        labels = world["tables"][screen]["label"].to_numpy()
        assert row["roc"] == float(f"{roc_auc_score(labels, world['scores'][screen, 'B']):.10g}")
        assert row["roc_random_mean"] == pytest.approx(0.5)
        # Mann-Whitney's variance of the AUC under random orderings: (n + 1) / (12 n_pos n_neg)
        assert row["roc_random_sd"] == pytest.approx(np.sqrt((N + 1) / (12 * N_POS * (N - N_POS))))
    # placement: Friedman's mean ranks and statistic (SciPy), the entry tied with B
    ref = world["reference"].pivot(index="dataset", columns="model", values="roc").loc[SCREENS, RANKERS]
    matrix = np.column_stack([ref.to_numpy(), ref["B"].to_numpy()])
    ranks = result.ranks.set_index("model")["mean_rank"]
    want = sps.rankdata(-matrix, axis=1).mean(axis=0)
    assert ranks.loc[[*RANKERS, "entry"]].to_numpy() == pytest.approx(want)
    assert ranks["entry"] == ranks["B"]
    assert result.ranks["friedman_p"].iloc[0] == pytest.approx(sps.friedmanchisquare(*matrix.T).pvalue, rel=1e-9)
    # the entry against each ranker: SciPy's Wilcoxon, Holm over the three by hand, Conover-Holm by posthocs
    versus = result.versus.set_index("ranker")
    p = {r: (sps.wilcoxon(matrix[:, 3] - ref[r].to_numpy()).pvalue if r != "B" else 1.0) for r in RANKERS}
    order = sorted(RANKERS, key=lambda r: p[r])
    holm, running = {}, 0.0
    for i, r in enumerate(order):
        running = max(running, min(1.0, (len(order) - i) * p[r]))
        holm[r] = running
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # its 0/0 for the two equal columns
        conover = sp.posthoc_conover_friedman(matrix, p_adjust="holm").to_numpy()
    for j, r in enumerate(RANKERS):
        assert versus.loc[r, "p_value"] == pytest.approx(p[r], rel=1e-9)
        assert versus.loc[r, "p_holm"] == pytest.approx(holm[r], rel=1e-9)
        # equal columns have equal rank sums: t = 0 and p = 1 (scikit-posthocs divides 0 by 0 there)
        want_conover = 1.0 if r == "B" else conover[3, j]
        assert versus.loc[r, "conover_p_holm"] == pytest.approx(want_conover, rel=1e-6)
        diff = matrix[:, 3] - ref[r].to_numpy()
        assert versus.loc[r, "mean_difference"] == pytest.approx(diff.mean())
        assert (versus.loc[r, "wins"], versus.loc[r, "losses"]) == ((diff > 0).sum(), (diff < 0).sum())
        assert versus.loc[r, "low"] <= diff.mean() <= versus.loc[r, "high"]
    assert set(result.versus["family"]) == {"confirmatory"}
    assert versus.loc["A", "mean_difference"] < 0 < versus.loc["C", "mean_difference"]


def test_the_sentences_follow_the_tables(world, tmp_path):
    bench = load(world["export"])
    result = bench.evaluate(_submission(world, tmp_path / "sub", ranker="A"), name="strong")
    lines = result.verdicts()
    assert lines[0] == f"strong on 10 of the 10 screens of benchmark {bench.spec.title}."
    v = result.versus.set_index("ranker")
    # A's own scores: tied with A on every screen; better than B and C on all ten (p = 2/1024, Holm x 2 or x 3)
    assert list(v["wins"]) == [0, 10, 10] and list(v["ties"]) == [10, 0, 0]
    assert v.loc["B", "p_value"] == pytest.approx(2 / 1024) and v.loc["B", "p_holm"] == pytest.approx(3 * 2 / 1024)

    assert lines[1] == (
        "Confirmatory: On AUC[ROC], strong has mean rank 1.50, place 1 of 4 over 10 screens (Friedman p 1.4e-06, "
        "Nemenyi critical difference 1.48). It is better than B (10-0, +0.171 [+0.137, +0.201], Holm p 0.0059) and "
        "C (10-0, +0.324 [+0.291, +0.355], Holm p 0.0059). The tests do not separate it from A (Wilcoxon-Holm over "
        "its 3 comparisons, alpha 0.05)."
    )
    # the sentence's numbers, from scikit-learn's AUCs, SciPy's Friedman test and Demsar's q (2.569 for k = 4)
    ref = world["reference"].pivot(index="dataset", columns="model", values="roc").loc[SCREENS, RANKERS]
    assert f"{(ref['A'] - ref['B']).mean():.3g} {(ref['A'] - ref['C']).mean():.3g}" == "0.171 0.324"
    assert f"{sps.friedmanchisquare(ref['A'], *ref.T.to_numpy()).pvalue:.2g}" == "1.4e-06"
    assert f"{2.569 * np.sqrt(4 * 5 / (6 * 10)):.2f}" == "1.48"


def test_the_record_is_deterministic_and_names_everything(world, tmp_path):
    bench = load(world["export"])
    sub = _submission(world, tmp_path / "sub", ranker="C")
    first = bench.evaluate(sub, name="weak").write(tmp_path / "one")
    second = bench.evaluate(sub, name="weak").write(tmp_path / "two")
    assert [p.name for p in first] == ["result.json", "result.md", "critical_difference.png"]
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name
    record = json.loads(first[0].read_text())
    assert record["benchmark"] == {"name": "toy", "version": 1, "sha256": bench.spec.sha256}
    assert record["submission"]["sha256"]["s0"] == hashlib.sha256((sub / "s0.csv").read_bytes()).hexdigest()
    assert record["screens"] == SCREENS and record["subset"] is False
    assert {r["ranker"] for r in record["placement"]["versus"]} == set(RANKERS)


def test_a_subset_of_screens_is_said(world, tmp_path):
    bench = load(world["export"], screens=["s1", "s4"])
    result = bench.evaluate(_submission(world, tmp_path / "sub"), name="entry")
    assert result.subset and result.screens == ["s1", "s4"]
    assert result.verdicts()[0].endswith("; a subset: s1, s4.")
    assert set(result.ranks["screens"]) == {2}


def test_an_export_of_a_subset_loads_that_subset(world, tmp_path):
    import shutil

    copy = tmp_path / "export"
    shutil.copytree(world["export"], copy)
    for screen in SCREENS[2:]:
        (copy / f"{screen}.csv").unlink()
    assert list(load(copy).screens) == ["s0", "s1"]


def test_python_scores_give_what_the_files_give(world, tmp_path):
    bench = load(world["export"])
    frames = {s: pd.DataFrame({"id": world["tables"][s]["id"], "score": world["scores"][s, "B"]}) for s in SCREENS}
    from_frames = bench.evaluate(frames, name="entry")
    from_files = bench.evaluate(bench.write_submission(frames, tmp_path / "sub"), name="entry")
    pd.testing.assert_frame_equal(from_frames.values, from_files.values)
    pd.testing.assert_frame_equal(from_frames.versus, from_files.versus)


def _shift_ids(screen, frame):  # the planted bug: one screen's ids shifted by one row against its scores
    if screen == "s2":
        frame = frame.assign(id=frame["id"].shift(1).fillna("m-1"))
    return frame


BAD = {
    "missing screen": (lambda s, f: None if s == "s3" else f, ["screen s3", "s3.csv", "1 of the 10"]),
    "duplicate id": (
        lambda s, f: pd.concat([f, f.iloc[:2]]) if s == "s1" else f,
        ["screen s1", "s1.csv", "2 compound(s) scored more than once"],
    ),
    "unknown id": (
        lambda s, f: f.assign(id=f["id"].replace("m7", "zz")) if s == "s0" else f,
        ["screen s0", "1 scored id(s) are not in the dataset", "'zz'"],
    ),
    "NaN score": (
        lambda s, f: f.assign(score=f["score"].where(f["id"] != "m5", np.nan)) if s == "s5" else f,
        ["screen s5", "1 score(s) are not finite"],
    ),
    "infinite score": (
        lambda s, f: f.assign(score=f["score"].where(~f["id"].isin(["m5", "m6"]), np.inf)) if s == "s5" else f,
        ["screen s5", "2 score(s) are not finite"],
    ),
    "label column": (
        lambda s, f: f.rename(columns={"score": "label"}) if s == "s4" else f,
        ["screen s4", "a label column and no score column"],
    ),
    "shifted ids": (_shift_ids, ["screen s2", "s2.csv", "1 scored id(s) are not in the dataset"]),
    "unknown screen": (lambda s, f: f, ["extra.csv", "no screen of benchmark toy"]),
}


@pytest.mark.parametrize("case", [*BAD, "empty file", "other version", "no spec"])
def test_bad_submissions_are_one_line_exit_2_and_write_nothing(world, tmp_path, case):
    sub = tmp_path / "sub"
    edit, fragments = BAD.get(case, (None, []))
    _submission(world, sub, edit=edit)
    if case == "unknown screen":
        (sub / "extra.csv").write_text("id,score\nm1,1\n")
    if case == "empty file":
        (sub / "s1.csv").write_bytes(b"")
        fragments = ["screen s1", "s1.csv", "empty file"]
    if case == "other version":
        (sub / SPEC_FILE).write_bytes(spec_bytes({**world["spec"], "version": 0}))
        fragments = ["made for benchmark toy v0", "not toy v1"]
    if case == "no spec":
        (sub / SPEC_FILE).unlink()
        fragments = ["no benchmark.json"]
    done = _cli("benchmark", "evaluate", sub, "--benchmark", world["export"])
    _one_line_error(done, *fragments)
    assert not (sub / "evaluation").exists()


def test_a_tampered_export_is_refused(world, tmp_path):
    import shutil

    copy = tmp_path / "export"
    shutil.copytree(world["export"], copy)
    table = pd.read_csv(copy / "s0.csv", dtype={"id": str})
    table.loc[0, "label"] = 1 - table.loc[0, "label"]  # one label flipped
    table.to_csv(copy / "s0.csv", index=False, lineterminator="\n")
    with pytest.raises(ValueError, match=r"s0.csv: not the table benchmark toy v1 .* lists"):
        load(copy)


def test_an_entry_may_not_take_a_reference_rankers_name(world, tmp_path):
    done = _cli(
        "benchmark", "evaluate", _submission(world, tmp_path / "sub"), "--benchmark", world["export"], "--name", "A"
    )
    _one_line_error(done, "is a reference ranker's")


def test_the_command_prints_the_verdicts_and_writes_the_record(world, tmp_path):
    sub = _submission(world, tmp_path / "sub", ranker="A")
    done = _cli("benchmark", "evaluate", sub, "--benchmark", world["export"], "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("sub on 10 of the 10 screens of benchmark toy v1")
    assert json.loads((tmp_path / "out" / "result.json").read_text())["entry"] == "sub"


def test_the_committed_specs_are_canonical_name_their_files_and_match_their_reference():
    # a reference that moved (a screen added, a value recomputed) without its spec refrozen fails here, not in a
    # user's export
    from crocbench.benchmark import SPECS, committed_specs
    from crocbench.benchmark._recipe import reference_values, table_bytes

    root = Path(__file__).resolve().parents[1]
    specs = committed_specs(SPECS)
    assert {"dtp_aids", "pubchem_hts", "pubchem_hts_confirmed", "pubchem_hts_scaffold"} <= set(specs)
    for name, spec in specs.items():
        path = SPECS / f"{name}.json"
        assert spec_bytes(json.loads(path.read_text())) == path.read_bytes(), name
        assert set(spec.files) == {f"{s}.csv" for s in spec.screens} | {"reference.csv"}, name
        assert (root / spec.reference).is_dir(), name
        digest = hashlib.sha256(table_bytes(reference_values(spec, root))).hexdigest()
        assert digest == spec.files["reference.csv"]["sha256"], name


def test_one_screen_places_by_value_at_the_references_precision(world, tmp_path):
    bench = load(world["export"], screens=["s0"])
    result = bench.evaluate(_submission(world, tmp_path / "sub", ranker="B"), name="entry")
    assert result.versus.empty and result.ranks.empty
    row = result.order.set_index("metric").loc["roc"]
    ref = world["reference"].set_index(["dataset", "model"])["roc"]
    # the entry's AUC is crocbench's, B's row scikit-learn's: equal to 10 digits, so they tie and share the place
    assert row["place"] == 1 + sum(ref["s0", r] > ref["s0", "B"] for r in RANKERS) and row["of"] == 4
    assert row["below"] == "B"
    assert result.verdicts()[1] == "One screen: no test across screens applies; the entry is placed by its value."
    assert not (tmp_path / "out" / "critical_difference.png").exists()
    assert [p.name for p in result.write(tmp_path / "out")] == ["result.json", "result.md"]


def test_a_name_checks_the_submission_before_any_export(world, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    sub = _submission(world, tmp_path / "sub")
    (sub / SPEC_FILE).write_bytes(spec_bytes({**world["spec"], "version": 0}))
    done = _cli("benchmark", "evaluate", sub, "--benchmark", "toy", "--root", project)
    _one_line_error(done, "made for benchmark toy v0", "not toy v1")
    assert not (project / "data").exists() and not (sub / "evaluation").exists()


def test_repeated_splits_take_a_repeat_column_and_average_the_repeats(world, tmp_path):
    bench = load(repeated_export(world, tmp_path / "export"), unregistered=True)
    assert bench.spec.fold_columns() == ["fold_0", "fold_1"]
    frames, want = {}, {}
    for screen in bench.spec.screens:
        labels, ids = world["tables"][screen]["label"].to_numpy(), world["tables"][screen]["id"]
        a, b = world["scores"][screen, "A"], world["scores"][screen, "C"]
        frames[screen] = pd.concat(
            [pd.DataFrame({"id": ids, "repeat": r, "score": x}) for r, x in enumerate((a, b))], ignore_index=True
        )
        want[screen] = (roc_auc_score(labels, a) + roc_auc_score(labels, b)) / 2
    values = bench.evaluate(frames, name="entry").values.set_index("dataset")["roc"]
    assert values.to_dict() == pytest.approx(want)
    with pytest.raises(ValueError, match="screen s0 .*: no repeat column; the split repeats 2 times"):
        bench.evaluate({s: f.drop(columns="repeat") for s, f in frames.items()}, name="entry")


def test_a_repeated_splits_reference_values_are_each_rankers_mean_over_the_repeats(world, tmp_path):
    """A benchmark whose split repeats places an entry by its mean over the repeats, so its reference rows are the
    reference rankers' means over the repeats (datasets_repeats.tsv), not repeat 0's datasets.tsv; a reference
    without every repeat's values is refused in one line."""
    from crocbench.benchmark._recipe import reference_values

    folder = tmp_path / "results" / "reference" / "toy"
    folder.mkdir(parents=True)
    rows = [
        {
            "dataset": d,
            "model": m,
            "repeat": r,
            "compounds": N,
            "actives": N_POS,
            "roc": 0.5 + 0.1 * i + 0.01 * r + j / 100,
        }
        for j, d in enumerate(("s0", "s1"))
        for i, m in enumerate(RANKERS)
        for r in range(3)
    ]
    per_repeat = pd.DataFrame(rows)
    per_repeat[per_repeat["repeat"] == 0].drop(columns="repeat").to_csv(folder / "datasets.tsv", sep="\t", index=False)
    spec = parse_spec(
        spec_bytes(
            {
                **world["spec"],
                "split": {**world["spec"]["split"], "repeats": 3},
                "screens": ["s0", "s1"],
                "reference": "results/reference/toy",
            }
        )
    )
    with pytest.raises(ValueError, match="its split repeats 3 times and .* holds no datasets_repeats.tsv"):
        reference_values(spec, tmp_path)
    per_repeat[per_repeat["repeat"] < 2].to_csv(folder / "datasets_repeats.tsv", sep="\t", index=False)
    with pytest.raises(ValueError, match="holds 2 repeats; the split repeats 3 times"):
        reference_values(spec, tmp_path)
    per_repeat.to_csv(folder / "datasets_repeats.tsv", sep="\t", index=False)
    table = reference_values(spec, tmp_path).set_index(["dataset", "model"])
    for j, d in enumerate(("s0", "s1")):
        for i, m in enumerate(RANKERS):  # the mean of r = 0, 1, 2: + 0.01
            assert table.loc[(d, m), "roc"] == pytest.approx(0.5 + 0.1 * i + 0.01 + j / 100)
    assert table["compounds"].tolist() == [N] * 6 and table["compounds"].dtype.kind == "i"


def test_values_equal_to_ten_digits_tie_on_one_screen(world):
    from crocbench.benchmark._evaluate import value_order

    spec = load(world["export"], screens=["s0"]).spec
    values = pd.DataFrame({"dataset": ["s0"], "roc": [0.8]})
    reference = pd.DataFrame({"dataset": "s0", "model": RANKERS, "roc": [0.9, 0.8 + 1e-13, 0.7]})
    row = value_order(values, reference, spec, "entry").iloc[0]
    assert (row["place"], row["above"], row["below"]) == (2, "A", "B")


def test_a_freeze_hashes_screens_as_they_land_and_the_reference_last(tmp_path, monkeypatch):
    from crocbench.benchmark import export, freeze

    project, path, mirror = _toy_project(tmp_path, monkeypatch)
    # one screen: its hash is written, and the spec holds no reference hash, so no export takes it
    spec = freeze(path, project, screens=["toy_a"], progress=None)
    assert set(spec.files) == {"toy_a.csv"} and read_spec(path).files == spec.files
    assert spec.files["toy_a.csv"]["compounds"] == 30 and spec.files["toy_a.csv"]["actives"] == 6
    with pytest.raises(ValueError, match="benchmark toy is not frozen: 1 of 2 screens hashed, no reference hash"):
        export(spec, tmp_path / "early", project, progress=None)

    # the rest, with a reference that lacks a row: toy_b is hashed and kept, the reference is not; toy_a is not
    # exported again (its raw file is gone)
    raw = (mirror / "toy_a.csv").read_bytes()
    (mirror / "toy_a.csv").unlink()
    table = project / "results" / "ref" / "datasets.tsv"
    full = table.read_text()
    table.write_text(full.replace("toy_b\tA\t30\t6\t0.75\t1\n", ""))
    with pytest.raises(ValueError, match="has no row for toy_b / A: every screen is hashed and the reference is not"):
        freeze(path, project, missing=True, progress=None)
    assert set(read_spec(path).files) == {"toy_a.csv", "toy_b.csv"}

    # the reference whole: hashed last, as the rows of the spec's screens and rankers in order, its columns only
    table.write_text(full)
    spec = freeze(path, project, missing=True, progress=None)
    want = b"dataset,model,compounds,actives,roc\ntoy_a,A,30,6,0.5\ntoy_a,B,30,6,0.875\ntoy_b,A,30,6,0.75\ntoy_b,B,30,6,0.625\n"
    assert spec.files["reference.csv"] == {"sha256": hashlib.sha256(want).hexdigest()}

    # the frozen spec exports (which recomputes every table and refuses one whose hash differs): the hash taken of
    # toy_a alone is the one its export has
    (mirror / "toy_a.csv").write_bytes(raw)
    out = tmp_path / "export"
    export(spec, out, project, progress=None)
    for name, entry in spec.files.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == entry["sha256"], name
    assert (out / SPEC_FILE).read_bytes() == path.read_bytes()


def test_a_refreeze_drops_stale_hashes_first_resumes_and_moves_nothing_when_it_cannot_start(tmp_path, monkeypatch):
    from crocbench.benchmark import freeze

    project, path, mirror = _toy_project(tmp_path, monkeypatch)
    frozen = freeze(path, project, progress=None).files
    assert set(frozen) == {"toy_a.csv", "toy_b.csv", "reference.csv"}

    # a re-freeze that stops at toy_b (its raw file gone, no server): toy_a's new hash is kept, toy_b's old one and
    # the reference's are gone, and so is the hash of a file the spec no longer names
    path.write_bytes(spec_bytes({**json.loads(path.read_text()), "files": {**frozen, "old.csv": {"sha256": "0" * 64}}}))
    raw = (mirror / "toy_b.csv").read_bytes()
    (mirror / "toy_b.csv").unlink()
    with pytest.raises(RuntimeError, match="toy_b.csv"):  # crocbench.data.DownloadError
        freeze(path, project, progress=None)
    assert read_spec(path).files == {"toy_a.csv": frozen["toy_a.csv"]}

    # --missing resumes: toy_b, then the reference, the same bytes as the first freeze
    (mirror / "toy_b.csv").write_bytes(raw)
    assert freeze(path, project, missing=True, progress=None).files == frozen

    # a freeze that cannot start moves nothing: a config that disagrees with the split, a reference gone
    before = path.read_bytes()
    config = project / "toy.yaml"
    config.write_text(config.read_text().replace('"folds": 3', '"folds": 4'))
    with pytest.raises(ValueError, match="its split.folds is 3 but its config gives 4"):
        freeze(path, project, screens=["toy_a"], progress=None)
    config.write_text(config.read_text().replace('"folds": 4', '"folds": 3'))
    (project / "results" / "ref").rename(project / "results" / "moved")
    with pytest.raises(ValueError, match="holds no datasets.tsv"):
        freeze(path, project, missing=True, progress=None)
    assert path.read_bytes() == before


def test_a_spec_not_frozen_is_refused_before_an_earlier_export_is_touched(tmp_path, monkeypatch):
    project, path, _ = _toy_project(tmp_path, monkeypatch)
    (project / "specs").mkdir()
    (project / "specs" / "toy.json").write_bytes(path.read_bytes())
    monkeypatch.setenv("CROCBENCH_SPECS", str(project / "specs"))
    earlier = project / "data" / "benchmarks" / "toy"
    earlier.mkdir(parents=True)
    (earlier / SPEC_FILE).write_bytes(spec_bytes({**json.loads(path.read_text()), "version": 0}))
    with pytest.raises(ValueError, match="benchmark toy is not frozen: 0 of 2 screens hashed, no reference hash"):
        load("toy", project)
    assert (earlier / SPEC_FILE).is_file()
    done = _cli("benchmark", "export", "toy", tmp_path / "out", "--root", project)
    _one_line_error(done, "benchmark toy is not frozen")


def test_freeze_takes_screens_or_missing_not_both(tmp_path, monkeypatch):
    project, path, _ = _toy_project(tmp_path, monkeypatch)
    done = _cli("benchmark", "freeze", path, "--screens", "toy_a", "--missing", "--root", project)
    assert done.returncode == 2 and "not allowed with argument" in done.stderr
    done = _cli("benchmark", "freeze", path, "--screens", "toy_c", "--root", project)
    _one_line_error(done, "benchmark toy has no screen 'toy_c'")
    assert read_spec(path).files == {}


def test_a_freeze_of_a_fully_hashed_spec_with_missing_rehashes_its_reference_only(tmp_path, monkeypatch):
    # how a reference that moved is refrozen without exporting a screen: the raw files are gone, so any export fails
    from crocbench.benchmark import freeze

    project, path, mirror = _toy_project(tmp_path, monkeypatch)
    frozen = freeze(path, project, progress=None).files
    for raw in mirror.iterdir():
        raw.unlink()
    table = project / "results" / "ref" / "datasets.tsv"
    table.write_text(table.read_text().replace("toy_a\tA\t30\t6\t0.5\t", "toy_a\tA\t30\t6\t0.5000000001\t"))
    files = freeze(path, project, missing=True, progress=None).files
    assert {n: files[n] for n in ("toy_a.csv", "toy_b.csv")} == {n: frozen[n] for n in ("toy_a.csv", "toy_b.csv")}
    want = (
        b"dataset,model,compounds,actives,roc\ntoy_a,A,30,6,0.5000000001\ntoy_a,B,30,6,0.875\ntoy_b,A,30,6,0.75\n"
        b"toy_b,B,30,6,0.625\n"
    )
    assert files["reference.csv"] == {"sha256": hashlib.sha256(want).hexdigest()}

"""The command-line tool: values equal the library's, errors are one line with exit code 2."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from crocbench import metrics as M
from crocbench import stats as S
from crocbench.cli import main


@pytest.fixture
def ranked(tmp_path):
    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.1).astype(int)
    y[:2] = [1, 0]
    a = rng.normal(size=n) + 1.5 * y
    b = np.round(rng.normal(size=n) + 0.8 * y, 1)
    ids = [f"NSC{i}" for i in range(n)]
    fa, fb = tmp_path / "a.csv", tmp_path / "b.tsv"
    pd.DataFrame({"id": ids, "pred": a, "active": y}).to_csv(fa, index=False)
    # file B lists the compounds in another order, tab-separated, labels as words
    perm = rng.permutation(n)
    pd.DataFrame({"id": np.array(ids)[perm], "pred": b[perm], "active": np.where(y[perm] == 1, "CA", "CI")}).to_csv(
        fb, sep="\t", index=False
    )
    return y, a, b, fa, fb


def test_score_json_equals_library(ranked, capsys):
    y, a, _, fa, _ = ranked
    assert main(["score", str(fa), "--score-col", "pred", "--label-col", "active", "--json", "--top-k", "50"]) == 0
    out = json.loads(capsys.readouterr().out)
    values = {m["key"]: m["value"] for m in out["metrics"]}
    assert values["roc"] == pytest.approx(M.roc_auc(y, a), abs=1e-12)
    assert values["croc_exp_80"] == pytest.approx(M.croc_auc(y, a, 80.0), abs=1e-12)
    assert values["top50"] == M.hits_at_k(y, a, 50)
    assert out["n"] == 300 and out["n_pos"] == int(y.sum())
    assert [m["key"] for m in out["metrics"]] == [c.key for c in (*M.paper_panel(50), *M.benchmark_panel())]
    # the other benchmarks' metrics, each with its exact random baseline
    assert values["log_auc_0.001_0.1"] == pytest.approx(M.log_auc(y, a, upper=0.1), abs=1e-12)
    assert values["dcg_100"] == pytest.approx(M.dcg(y, a, k=100), abs=1e-12)
    assert values["ef_top100"] == pytest.approx(M.enrichment_factor(y, a, k=100), abs=1e-12)
    rows = {m["key"]: m for m in out["metrics"]}
    base = M.random_baseline("ndcg", 300, int(y.sum()), k=100)
    assert (rows["ndcg_100"]["random_mean"], rows["ndcg_100"]["random_sd"]) == pytest.approx(base, abs=1e-12)
    assert "log_auc" not in {m["key"] for m in out["other_metrics"]}  # shown once, with its baseline


def test_score_ci_is_the_library_bootstrap(ranked, capsys):
    """--ci B: every metric's interval, the library's bootstrap with the same seed; the table shows it too."""
    y, a, _, fa, _ = ranked
    argv = ["score", str(fa), "--score-col", "pred", "--label-col", "active", "--top-k", "50"]
    assert main([*argv, "--json", "--ci", "200", "--seed", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ci"] == {**out["ci"], "level": 0.95, "resamples": 200, "seed": 3}
    calls = [*M.paper_panel(50), *M.benchmark_panel()]
    want = {iv.key: iv for iv in S.bootstrap(y, a, calls, n_resamples=200, seed=3)}
    for m in out["metrics"]:
        assert (m["ci_low"], m["ci_high"], m["se"]) == pytest.approx(
            (want[m["key"]].low, want[m["key"]].high, want[m["key"]].se), abs=1e-12
        )
        assert m["ci_low"] <= m["value"] <= m["ci_high"]
    assert main([*argv, "--ci"]) == 0  # B defaults to 1000
    text = capsys.readouterr().out
    roc = want["roc"]
    assert "95% interval" in text and "1000 resamples, seed 0" in text
    assert re.search(r"AUC\[ROC\] +0\.\d{4} +\[0\.\d{4}, 0\.\d{4}\]", text)
    assert roc.low < roc.value < roc.high
    assert "ci_low" not in json.dumps(main([*argv, "--json"]) or json.loads(capsys.readouterr().out))


def test_score_ci_below_100_resamples_is_one_line_exit_2(ranked, capsys):
    _, _, _, fa, _ = ranked
    argv = ["score", str(fa), "--score-col", "pred", "--label-col", "active", "--ci"]
    assert "at least 100" in _error(capsys, [*argv, "99"])
    assert "'ten' is not a whole number" in _error(capsys, [*argv, "ten"])


def test_score_other_metrics_by_family_with_groups(ranked, tmp_path, capsys):
    y, a, _, _, _ = ranked
    q = np.repeat(["q1", "q2", "q3"], 100)
    f = tmp_path / "grouped.csv"
    pd.DataFrame({"pred": a, "active": y, "query": q}).to_csv(f, index=False)
    args = ["score", str(f), "--score-col", "pred", "--label-col", "active", "--top-k", "30", "--n-negatives", "10"]
    assert main([*args, "--group", "query", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    other = {m["key"]: m for m in out["other_metrics"]}
    assert out["queries"] == 3
    assert other["ap"]["value"] == pytest.approx(M.average_precision(y, a), abs=1e-12) and other["ap"]["in_tests"]
    assert other["precision_at_30"]["value"] == pytest.approx(M.hits_at_k(y, a, 30) / 30)
    assert other["tap_10"]["value"] == pytest.approx(M.tap_k(y, a, q, 10), abs=1e-12)
    assert other["roc10_per_query"]["value"] == pytest.approx(
        np.mean([M.roc_n(y[q == g], a[q == g], 10) for g in ("q1", "q2", "q3")])
    )
    assert other["roc10_pooled"]["value"] == pytest.approx(M.roc_n(y, a, 10))
    assert other["top1"]["value"] == pytest.approx(M.top1(y, a, q))
    # scores are not probabilities: perf's probability metrics say so instead of a number
    assert other["cross_entropy"]["value"] is None and "probabilities" in other["cross_entropy"]["note"]
    # the benchmarks' family is in the metrics table, with its random baselines
    assert {m["family"] for m in out["other_metrics"]} == set(M.FAMILIES) - {"virtual-screening benchmarks"}
    # without --group the per-query metrics are marked, and the table prints every family
    assert main(args) == 0
    text = capsys.readouterr().out
    for family in M.FAMILIES:
        assert f"\n{family}\n" in text
    assert "per query: needs query ids" in text and "average precision" in text
    assert main([*args, "--group", "missing"]) == 2
    assert "missing" in capsys.readouterr().err


def test_score_table_and_plot(ranked, tmp_path, capsys):
    _, _, _, _, fb = ranked
    png = tmp_path / "curves.png"
    code = main(
        [
            "score",
            str(fb),
            "--score-col",
            "pred",
            "--label-col",
            "active",
            "--positive",
            "CA",
            "--metric",
            "croc_auc:alpha=14",
            "--metric",
            "roc50",
            "--plot",
            str(png),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "croc_auc:alpha=14" in out and "ROC50" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_compare_matches_library_after_matching_ids(ranked, capsys):
    y, a, b, fa, fb = ranked
    code = main(
        [
            "compare",
            str(fa),
            str(fb),
            "--score-col",
            "pred",
            "--label-col",
            "active",
            "--positive",
            "1,CA",
            "--metric",
            "croc_exp_80",
            "--samples",
            "2000",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)["comparisons"][0]
    lib = S.compare(y, a, b, "croc_exp_80", n_samples=2000, seed=0)
    assert out["value_a"] == pytest.approx(lib.value_a) and out["value_b"] == pytest.approx(lib.value_b)
    for t in S.TESTS:
        assert out["p_values"][t] == pytest.approx(lib.results[t].p_value)


def _error(capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and err.startswith("crocbench: error:")
    return err


def test_errors_are_one_line_exit_2(ranked, tmp_path, capsys):
    _, _, _, fa, fb = ranked
    err = _error(capsys, ["score", str(fa)])
    assert "'score'" in err and "columns are: id, pred, active" in err
    err = _error(capsys, ["score", str(fb), "--score-col", "pred", "--label-col", "active"])
    assert "binary" in err and "ca" in err
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert "empty" in _error(capsys, ["score", str(empty)])
    assert "no such file" in _error(capsys, ["score", str(tmp_path / "missing.csv")])
    nan = tmp_path / "nan.csv"
    nan.write_text("score,label\n0.5,1\n,0\n0.2,0\n")
    assert f"{nan}: column 'score': 1 empty or NaN value(s), first at row 2" in _error(capsys, ["score", str(nan)])
    word = tmp_path / "word.csv"
    word.write_text("score,label\n0.5,1\nhigh,0\n")
    assert "'high' at row 2 is not a number" in _error(capsys, ["score", str(word)])  # rows count from 1
    only_pos = tmp_path / "pos.csv"
    only_pos.write_text("score,label\n0.5,1\n0.3,1\n")
    assert "no negatives" in _error(capsys, ["score", str(only_pos)])
    assert "unknown metric" in _error(capsys, ["score", str(nan), "--metric", "auprc"])
    assert "argument" in _error(capsys, ["score"])  # argparse's own errors too


def test_compare_errors(ranked, tmp_path, capsys):
    _, _, _, fa, _ = ranked
    df = pd.read_csv(fa)
    short = tmp_path / "short.csv"
    df.iloc[:-3].to_csv(short, index=False)
    cols = ["--score-col", "pred", "--label-col", "active"]
    assert "3 id(s) only in" in _error(capsys, ["compare", str(fa), str(short), *cols])
    dup = tmp_path / "dup.csv"
    pd.concat([df, df.iloc[:1]]).to_csv(dup, index=False)
    assert "duplicate id" in _error(capsys, ["compare", str(fa), str(dup), *cols])
    flipped = tmp_path / "flipped.csv"
    df.assign(active=1 - df.active).to_csv(flipped, index=False)
    assert "disagree on the label" in _error(capsys, ["compare", str(fa), str(flipped), *cols])


def test_module_entry_point_has_no_traceback(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("score,label\n1,0\n2,7\n")
    proc = subprocess.run([sys.executable, "-m", "crocbench", "score", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "binary" in proc.stderr


def test_explain_prints_the_irv_influences(tmp_path, capsys):
    from test_models import synthetic

    from crocbench.cv import fold_table, split
    from crocbench.fingerprints import save_fingerprints
    from crocbench.models import IRV
    from crocbench.similarity import SimilarityIndex

    fp, y = synthetic()
    save_fingerprints(tmp_path / "fingerprints.npz", fp)
    folds = fold_table([f"c{i}" for i in range(fp.n)], y, 10, 0)
    folds.to_csv(tmp_path / "folds.tsv", sep="\t", index=False)
    assert main(["explain", str(tmp_path), "c5", "--k", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    sim = SimilarityIndex(fp)
    train, _ = split(folds["fold"].to_numpy(), int(folds["fold"][5]))
    irv = IRV(k=5).fit(sim, train, y[train])
    assert f"logit {irv.score(sim, [5])[0]:.4f}" in out[0]
    rows = [line.split() for line in out[3:]]
    expected = irv.explain(sim, 5, ids=folds["id"].to_numpy())
    assert [r[1] for r in rows] == expected["neighbour"].tolist()
    assert [float(r[6]) for r in rows] == pytest.approx(expected["influence"].tolist(), abs=1e-4)
    assert main(["explain", str(tmp_path), "nope"]) == 2
    assert "compound 'nope' is not in" in capsys.readouterr().err
    assert main(["explain", str(tmp_path / "absent"), "c5"]) == 2
    assert "run the workflow first" in capsys.readouterr().err


def test_reference_refresh_prints_what_moved(tmp_path, capsys):
    from crocbench.reference import REFERENCE_FILES

    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    (run / "scores" / "svm").mkdir(parents=True)
    for name in REFERENCE_FILES:
        if name != "svm_folds.tsv":
            pd.DataFrame(
                {"model": ["IRV", "SVM"], "roc": [0.8443, 0.8532], "top1000": [641, 625], "train_seconds": [3.0, 4.0]}
            ).to_csv(run / "tables" / name, sep="\t", index=False)
    for fold in range(2):
        (run / "scores" / "svm" / f"fold_{fold}.json").write_text(
            json.dumps(
                {
                    "fold": fold,
                    "C": 1.0,
                    "class_weight": "balanced",
                    "support_vectors": 100 + fold,
                    "intercept": 0.1,
                    "select_metric": "roc",
                    "inner_cv": [
                        {"C": 1.0, "class_weight": None, "value": 0.8},
                        {"C": 1.0, "class_weight": "balanced", "value": 0.84},
                    ],
                }
            )
        )
    ref = tmp_path / "ref"
    assert main(["reference", str(run), "--out", str(ref)]) == 0
    out = capsys.readouterr().out
    assert out.count(": new\n") == len(REFERENCE_FILES) + 1 and "not in the reference" not in out  # + manifest
    assert "manifest.yaml: new" in out
    folds = pd.read_csv(ref / "svm_folds.tsv", sep="\t")
    assert folds.columns.tolist() == [
        "fold",
        "C",
        "class_weight",
        "support_vectors",
        "select_metric",
        "inner_1_none",
        "inner_1_balanced",
    ]
    assert "train_seconds" not in pd.read_csv(ref / "areas.tsv", sep="\t").columns  # wall clock: never compared
    assert main(["reference", str(run), "--out", str(ref)]) == 0
    assert capsys.readouterr().out.count(": unchanged") == len(REFERENCE_FILES)
    areas = pd.read_csv(run / "tables" / "areas.tsv", sep="\t")
    areas.loc[1, "roc"] = 0.86
    areas.to_csv(run / "tables" / "areas.tsv", sep="\t", index=False)
    assert main(["reference", str(run), "--out", str(ref)]) == 0
    out = capsys.readouterr().out
    assert "areas.tsv: roc moved in 1 of 2 rows\n  SVM: 0.8532 -> 0.86" in out
    assert main(["reference", str(tmp_path / "nothing")]) == 2  # no run there: one line, exit 2
    assert "run the workflow first" in capsys.readouterr().err


def test_reference_comparison_reports_a_one_in_a_million_change(tmp_path):
    from crocbench.reference import REFERENCE_FILES, compare_run

    run, ref = tmp_path / "run", tmp_path / "ref"
    for d in (run / "tables", run / "scores" / "svm", ref):
        d.mkdir(parents=True)
    table = pd.DataFrame({"model": ["IRV", "SVM"], "roc": [0.8443, 0.8532], "top1000": [641, 625]})
    for name in REFERENCE_FILES:
        if name != "svm_folds.tsv":
            table.to_csv(run / "tables" / name, sep="\t", index=False, float_format="%.17g")
            table.to_csv(ref / name, sep="\t", index=False, float_format="%.17g")
    (run / "scores" / "svm" / "fold_0.json").write_text(
        json.dumps(
            {
                "fold": 0,
                "C": 1.0,
                "class_weight": "balanced",
                "support_vectors": 100,
                "select_metric": "roc",
                "inner_cv": [{"C": 1.0, "class_weight": None, "value": 0.8}],
            }
        )
    )
    pd.DataFrame(
        {
            "fold": [0],
            "C": [1.0],
            "class_weight": ["balanced"],
            "support_vectors": [100],
            "select_metric": ["roc"],
            "inner_1_none": [0.8],
        }
    ).to_csv(ref / "svm_folds.tsv", sep="\t", index=False)
    assert compare_run(run, ref) == {name: [] for name in REFERENCE_FILES}

    def areas_after(relative_change):
        moved = table.copy()
        moved.loc[1, "roc"] = 0.8532 * (1 + relative_change)
        moved.to_csv(run / "tables" / "areas.tsv", sep="\t", index=False, float_format="%.17g")
        return compare_run(run, ref)

    out = areas_after(1e-6)  # 8.5e-7 apart: far beyond 1e-9 relative
    assert out["areas.tsv"][:1] == ["areas.tsv: roc moved in 1 of 2 rows"]
    assert out["areas.tsv"][1].startswith("  SVM: 0.8532 -> 0.85320085")
    assert all(not lines for name, lines in out.items() if name != "areas.tsv")
    assert areas_after(1e-12)["areas.tsv"] == []  # last-bit noise, far inside 1e-9 relative
    assert areas_after(-1e-6)["areas.tsv"][:1] == ["areas.tsv: roc moved in 1 of 2 rows"]


# --- what a new user hit (issue 17), through the installed `crocbench` command ----------------------------

CROCBENCH = shutil.which("crocbench") or str(Path(sys.executable).with_name("crocbench"))


def _cli(*args, installed: bool = False) -> subprocess.CompletedProcess:
    """``crocbench ARGS``: through the installed command (a process: entry point, exit status, streams), or
    in this process through ``main``, the function that command runs (the same code, without ~2 s of
    start-up per call, which keeps the unit suite within its budget)."""
    import contextlib
    import io

    if installed:
        return subprocess.run([CROCBENCH, *map(str, args)], capture_output=True, text=True, timeout=300)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(map(str, args)))
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def _one_line_error(done, *fragments):
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("crocbench: error: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.fixture
def small(tmp_path):
    """30 compounds, 6 positives: shorter than the default top 1,000, so some metrics are undefined."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(6, int), np.zeros(24, int)]
    f = tmp_path / "small.csv"
    pd.DataFrame({"id": [f"m{i}" for i in range(30)], "score": rng.random(30) + y, "label": y}).to_csv(f, index=False)
    return f, y


def test_score_json_is_strict_json_with_null_for_undefined(small):
    f, _ = small
    done = _cli("score", f, "--json")
    assert done.returncode == 0, done.stderr

    def no_constants(name):
        raise AssertionError(f"invalid JSON constant {name}")

    out = json.loads(done.stdout, parse_constant=no_constants)
    values = [m["value"] for m in out["metrics"]] + [m["value"] for m in out["other_metrics"]]
    assert None in values  # ROC50 needs 50 negatives: undefined, written as null
    top = next(m for m in out["metrics"] if m["key"] == "top30")
    assert top["value"] == 6 and top["random_sd"] == 0 and top["z"] is None  # k = N: no spread, no z


def test_plot_into_a_missing_folder_or_without_extension(small, tmp_path):
    f, _ = small
    _one_line_error(_cli("score", f, "--plot", tmp_path / "nope" / "curves.png"), "folder", "does not exist")
    _one_line_error(_cli("score", f, "--plot", tmp_path / "curves.xyz"), "cannot write .xyz images")
    done = _cli("score", f, "--plot", tmp_path / "noext")
    assert done.returncode == 0 and (tmp_path / "noext.png").stat().st_size > 10_000
    assert f"wrote {tmp_path / 'noext.png'}" in done.stderr


@pytest.mark.parametrize("spec", ["croc_auc:alpha=-1", "croc_auc:alpha=80,beta=2", "croc_auc", "nope"])
def test_bad_metric_exits_2_in_score_and_compare(small, spec):
    f, _ = small
    for command in (["score", f], ["compare", f, f]):
        _one_line_error(_cli(*command, "--metric", spec, installed=spec == "nope"), "metric")


def test_broken_pipe_is_quiet(small):
    f, _ = small
    done = subprocess.run(
        f"'{CROCBENCH}' score '{f}' | head -1",
        shell=True,
        capture_output=True,
        text=True,
        executable="/bin/bash",
        timeout=120,
    )
    assert done.stdout.count("\n") == 1 and done.stderr == ""


def test_separator_names_and_sniffing(small, tmp_path):
    f, y = small
    df = pd.read_csv(f)
    tsv = tmp_path / "tab_content.csv"  # tab-separated content behind a .csv name
    df.to_csv(tsv, sep="\t", index=False)
    want = json.loads(_cli("score", f, "--json").stdout)["metrics"]
    for extra in ([], ["--sep", "tab"], ["--sep", "\\t"], ["--sep", "\t"]):
        done = _cli("score", tsv, "--json", *extra)
        assert done.returncode == 0, (extra, done.stderr)
        assert json.loads(done.stdout)["metrics"] == want, extra
    _one_line_error(_cli("score", f, "--sep", "ab"), "one character")


def test_positive_values_are_checked(small, tmp_path):
    f, y = small
    words = tmp_path / "words.csv"
    pd.read_csv(f).assign(label=np.where(y == 1, "CA", "CI")).to_csv(words, index=False)
    _one_line_error(_cli("score", words, "--positive", "CA,XX"), "'XX'", "labels found: CA, CI")
    _one_line_error(_cli("score", words, "--positive", "XX"), "'XX'", "labels found: CA, CI")
    _one_line_error(_cli("compare", words, words, "--positive", "CA,XX"), "'XX'")
    assert _cli("score", words, "--positive", "CA").returncode == 0


def test_top_k_must_be_a_positive_whole_number(small, capsys):
    f, _ = small
    for k in ("-5", "0", "x"):
        assert main(["score", str(f), "--top-k", k]) == 2
        err = capsys.readouterr().err
        assert "--top-k" in err and err.count("\n") == 1, err


def test_table_formats(small):
    f, _ = small
    table = _cli("score", f).stdout
    row = next(line for line in table.splitlines() if line.startswith("actives in top 30"))
    assert row.split()[4:] == ["6", "6", "0.0000", "n/a"]  # a count as a count; no z without spread
    requested = _cli("score", f, "--metric", "roc_auc").stdout
    assert "Requested metrics" in requested and "CROC paper areas" not in requested
    compared = _cli("compare", f, f, "--metric", "croc_exp_80", "--samples", "500").stdout.splitlines()[-1]
    p_cells = compared.split()[-6:]
    assert all(re.fullmatch(r"\d\.\d\de[+-]\d\d", p) for p in p_cells), p_cells
    usage = _cli("score", "--help", installed=True).stdout
    assert all(name in usage for name in ("croc_auc", "bedroc", "hits_at_k", "croc_exp_80"))


# --- input-handling gaps: every bad input is one line naming the file or option, exit 2, no traceback ------


def _no_traceback_error(done, *fragments):
    assert "Traceback" not in done.stderr, done.stderr
    return _one_line_error(done, *fragments)


def test_missing_ids_are_an_input_error_naming_file_count_and_first_row(small, tmp_path):
    f, _ = small
    df = pd.read_csv(f)
    for cells, count, row in ((["m3"], 1, 4), (["m3", "m7"], 2, 4)):
        for marker in ("", "NA"):
            bad = tmp_path / f"ids_{count}_{marker or 'empty'}.csv"
            df.assign(id=df["id"].where(~df["id"].isin(cells), marker)).to_csv(bad, index=False)
            for files in ([bad, f], [f, bad]):
                _no_traceback_error(
                    _cli("compare", *files, "--samples", "10"),
                    f"{bad}: column 'id': {count} missing id(s)",
                    f"first at row {row}",
                )


def test_ids_are_matched_as_text(small, tmp_path):
    f, _ = small
    df = pd.read_csv(f)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    df.assign(id=[f"{i:02d}" for i in range(30)]).to_csv(a, index=False)  # 00, 01, ..., 29
    df.assign(id=[str(i) for i in range(30)]).to_csv(b, index=False)  # 0, 1, ..., 29: 10 ids differ
    _no_traceback_error(_cli("compare", a, b, "--samples", "10"), f"10 id(s) only in {a}, 10 only in {b}", "'00'")
    both = tmp_path / "both.csv"  # 01 and 1 are two compounds, not a duplicate
    df.assign(id=[f"0{i}" for i in range(1, 10)] + [str(i) for i in range(1, 22)]).to_csv(both, index=False)
    done = _cli("compare", both, both, "--samples", "10", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n"] == 30


@pytest.mark.parametrize("labels,lacking", [([1, 1, 1], "negatives"), ([0, 0, 0], "positives"), ([1], "negatives")])
def test_a_file_without_both_classes_is_named(tmp_path, labels, lacking):
    f = tmp_path / "one_class.csv"
    pd.DataFrame({"id": [f"c{i}" for i in range(len(labels))], "s": np.arange(len(labels)) / 3, "act": labels}).to_csv(
        f, index=False
    )
    fragments = (f"{f}: column 'act' has no {lacking}", f"all {len(labels)} row(s)")
    _no_traceback_error(_cli("score", f, "--score-col", "s", "--label-col", "act"), *fragments)
    _no_traceback_error(_cli("compare", f, f, "--score-col", "s", "--label-col", "act"), *fragments)


def test_unknown_metric_parameter_lists_the_valid_ones(small):
    f, _ = small
    _no_traceback_error(
        _cli("score", f, "--metric", "croc_auc:beta=3"),
        "metric croc_auc: unknown parameter 'beta' (valid: alpha, transform)",
    )
    _no_traceback_error(
        _cli("compare", f, f, "--metric", "roc_auc:alpha=3"), "metric roc_auc: unknown parameter 'alpha'"
    )
    _no_traceback_error(_cli("score", f, "--metric", "hits_at_k"), "metric hits_at_k: parameter 'k' is required")


def test_a_directory_is_not_a_table(small, tmp_path):
    f, _ = small
    _no_traceback_error(_cli("score", tmp_path), f"{tmp_path}: is a directory")
    _no_traceback_error(_cli("compare", f, tmp_path), f"{tmp_path}: is a directory")


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["compare", "{f}", "{f}", "--seed", "-1"], "argument --seed: must be a non-negative whole number; got -1"),
        (["compare", "{f}", "{f}", "--seed", "x"], "argument --seed:"),
        (["synthesize", "--n", "5", "--out", "{out}", "--seed", "-1"], "argument --seed: must be a non-negative"),
        (["score", "{f}", "--alpha", "-5"], "argument --alpha: must be a number > 0; got -5"),
        (["score", "{f}", "--alpha", "0"], "argument --alpha: must be a number > 0"),
        (["score", "{f}", "--alpha", "nan"], "argument --alpha: must be a number > 0"),
    ],
)
def test_seed_and_alpha_errors_name_the_option(small, tmp_path, argv, fragment):
    f, _ = small
    done = _cli(*[a.format(f=f, out=tmp_path / "out.csv") for a in argv])
    _no_traceback_error(done, fragment)
    assert done.stdout == ""  # refused before anything ran


def test_plot_into_an_existing_directory_is_refused(small, tmp_path):
    f, _ = small
    folder = tmp_path / "figures"
    folder.mkdir()
    done = _cli("score", f, "--plot", folder)
    _no_traceback_error(done, f"--plot {folder}: is a directory", "give an image file name")
    assert done.stdout == "" and not (tmp_path / "figures.png").exists()


def test_dash_reads_the_table_from_standard_input(small, tmp_path, monkeypatch):
    import io

    f, _ = small
    want = json.loads(_cli("score", f, "--json").stdout)
    done = subprocess.run(
        [CROCBENCH, "score", "-", "--json"], input=f.read_text(), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["file"] == "<stdin>" and got["metrics"] == want["metrics"]

    def stdin(text):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))

    stdin(f.read_text())
    done = _cli("compare", "-", f, "--samples", "50", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["file_a"] == "<stdin>"
    stdin("a,b\n1,2\n")
    _no_traceback_error(_cli("score", "-"), "<stdin>: column(s) 'score', 'label' not found")
    _no_traceback_error(_cli("compare", "-", "-"), "both -", "standard input")
    for command, files in (("score", 1), ("compare", 2)):
        usage = " ".join(_cli(command, "--help").stdout.split())  # argparse wraps the lines
        assert usage.count("- reads it from standard input") == files


def _panel_summary(folder: Path) -> pd.DataFrame:
    """A small panel's summary tables, written where the workflow writes them (``<folder>/tables``): 10 screens,
    the paper's five rankers scoring a seeded list each (the trained ones better, IRV at the top)."""
    from crocbench.models import LABELS
    from crocbench.paper import PAPER_MODELS, claims_across
    from crocbench.report import conover_table, datasets_table, ranks_table

    rng = np.random.default_rng(7)
    names = {m: LABELS[m] for m in PAPER_MODELS}
    runs = {}
    for d in range(10):
        n = 400 + 40 * d
        y = (np.arange(n) % 25 == 0).astype(int)
        lift = {"random": 0.0, "maxsim": 0.8, "knn": 1.2, "svm": 1.5, "irv": 1.9}
        runs[f"screen{d}"] = {
            names[m]: pd.DataFrame({"id": np.arange(n), "label": y, "score": rng.normal(size=n) + lift[m] * y})
            for m in PAPER_MODELS
        }
    table = datasets_table(runs, n_resamples=100, seed=1)
    ranks, pairs = ranks_table(table)
    claim_ids = ["svm_best_roc_irv_best_croc", "croc_order", "croc_significant_roc_not"]
    screens = pd.DataFrame(
        [
            {"dataset": d, "id": c, "text": c.replace("_", " "), "holds": (i + k) % 3 > 0, "evidence": ""}
            for i, d in enumerate(runs)
            for k, c in enumerate(claim_ids)
        ]
    )
    tables = folder / "tables"
    tables.mkdir(parents=True)
    for name, frame in {
        "datasets": table,
        "ranks": ranks,
        "wilcoxon": pairs,
        "conover": conover_table(table),
        "claims": claims_across(screens, table, names),
        "claims_per_screen": screens,
    }.items():
        frame.to_csv(tables / f"{name}.tsv", sep="\t", index=False, float_format="%.10g")
    return table


def test_a_panels_reference_its_check_and_its_docs_tables(tmp_path, capsys):
    """`crocbench reference results/summary --out <panel>` keeps the summary's tables; `--check` exits 1 on a
    moved number; the docs' panel tables are generated from the reference, beside the dtp_aids ones."""
    from crocbench.pages import reference_blocks, update_readme
    from crocbench.reference import SUMMARY_FILES

    summary, ref = tmp_path / "results" / "summary", tmp_path / "reference" / "mypanel"
    table = _panel_summary(summary)
    assert main(["reference", str(summary)]) == 2  # a panel's summary names its reference folder
    assert "name its reference folder with --out" in capsys.readouterr().err
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 2
    assert main(["reference", str(summary), "--out", str(ref)]) == 0
    assert sorted(p.name for p in ref.iterdir()) == sorted([*SUMMARY_FILES, "manifest.yaml"])
    assert (ref / "manifest.yaml").read_text().startswith("kind: panel\n")
    capsys.readouterr()
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 0
    assert "equals the reference" in capsys.readouterr().out
    moved = pd.read_csv(summary / "tables" / "datasets.tsv", sep="\t")
    moved.loc[3, "croc_exp_80"] *= 1 + 1e-6
    moved.to_csv(summary / "tables" / "datasets.tsv", sep="\t", index=False, float_format="%.10g")
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 1
    assert f"datasets.tsv: croc_exp_80 moved in 1 of {len(table)} rows" in capsys.readouterr().out
    assert main(["reference", str(summary), "--out", str(ref), "--check", "--readme", "README.md"]) == 2
    dtp = tmp_path / "dtp_reference"
    dtp.mkdir()
    (dtp / "areas.tsv").write_text("model\troc\n")  # a dataset's reference: a panel's summary may not go there
    assert main(["reference", str(summary), "--out", str(dtp)]) == 2
    assert "holds another kind of reference (areas.tsv)" in capsys.readouterr().err

    # the docs' tables: a page with the panel's blocks (stale) and the dtp_aids reference's (left alone)
    page = tmp_path / "page.md"
    names = ["roc", "croc_exp_80", "bedroc_20", "ef_1pct", "ranks", "pairs", "claims"]
    names += [f"conover_{m}" for m in ("roc", "croc_exp_80", "bedroc_20", "ef_1pct", "log_auc_0.001_0.1", "dcg_100")]
    page.write_text(
        "".join(f"<!-- reference:mypanel/{n} -->\n| stale |\n<!-- /reference:mypanel/{n} -->\n" for n in names)
        + "<!-- reference:pooled -->\n| dtp |\n<!-- /reference:pooled -->\n"
    )
    assert sorted(n for _, n in update_readme([page], ref)) == sorted(f"mypanel/{n}" for n in names)
    blocks = reference_blocks(page.read_text())
    assert blocks["pooled"] == "| dtp |"
    rows = [r.split(" | ") for r in blocks["mypanel/croc_exp_80"].splitlines()[2:]]
    assert len(rows) == 10 and rows[0][0] == "| screen0" and rows[0][1] == "400"
    irv = table[(table["dataset"] == "screen0") & (table["model"] == "IRV")].iloc[0]
    value, low, high = map(float, re.match(r"([\d.]+) \[([\d.]+), ([\d.]+)\]", rows[0][7].rstrip(" |")).groups())
    assert (value, low, high) == pytest.approx(
        (irv["croc_exp_80"], irv["croc_exp_80_low"], irv["croc_exp_80_high"]), abs=5e-4
    )
    conover = pd.read_csv(ref / "conover.tsv", sep="\t").query("metric == 'croc_exp_80'")
    matrix = [r.strip("| ").split(" | ") for r in blocks["mypanel/conover_croc_exp_80"].splitlines()[2:]]
    assert matrix[0][0] == "IRV"  # the best mean rank first (IRV's lift is the largest)
    order = [r[0] for r in matrix]
    for row in conover.itertuples():  # each pair's Holm p, both ways round, bold below 0.05
        for a, b in ((row.a, row.b), (row.b, row.a)):
            cell = matrix[order.index(a)][1 + order.index(b)]
            assert cell == (f"**{row.p_holm:.2g}**" if row.p_holm < 0.05 else f"{row.p_holm:.2g}")
    pairs = pd.read_csv(ref / "wilcoxon.tsv", sep="\t")
    lines = blocks["mypanel/pairs"].splitlines()[2:]
    assert len(lines) == 10  # the 10 pairs of five rankers
    roc = pairs[pairs["metric"] == "roc"].reset_index(drop=True)
    for line, row in zip(lines, roc.itertuples()):
        cell = line.split(" | ")[1]
        assert line.startswith(f"| {row.a} vs {row.b} |") and ("**p" in cell) == (row.p_holm < 0.05)
    claims = pd.read_csv(ref / "claims.tsv", sep="\t")
    cells = [line.split(" | ")[2] for line in blocks["mypanel/claims"].splitlines()[2:]]
    want = {True: "supported", False: "not supported"}
    assert cells == [want[bool(v)] for v in claims["supported_across"]] and len(cells) == 3
    page.write_text(page.read_text().replace("mypanel/ranks", "mypanel/nope"))
    with pytest.raises(ValueError, match="names no table"):
        update_readme([page], ref)


# --- rough input: duplicated names, one column for two options, encodings, workbooks, no header, one positive,
# --- too many samples, internal names in messages --------------------------------------------------------------


def _rows(df: pd.DataFrame) -> str:
    return "".join(f"{i},{s},{1 - s},{label}\n" for i, s, label in zip(df["id"], df["score"], df["label"]))


def test_a_duplicated_column_name_is_an_error_naming_it(small, tmp_path):
    f, _ = small
    df = pd.read_csv(f)
    dup = tmp_path / "dup.csv"
    dup.write_text("id,score,score,label\n" + _rows(df))
    want = f"crocbench: error: {dup}: column name 'score' appears 2 times in the header; rename one"
    assert _no_traceback_error(_cli("score", dup)) == want
    assert _no_traceback_error(_cli("compare", f, dup)) == want
    padded = tmp_path / "padded.csv"  # the same name once the blanks around it are stripped
    padded.write_text("id, label,score,label \n" + _rows(df))
    assert _no_traceback_error(_cli("score", padded)).endswith(
        f"{padded}: column name 'label' appears 2 times in the header; rename one"
    )
    two = tmp_path / "two.csv"
    two.write_text("score,label,score,label,score\n1,1,1,1,1\n0,0,0,0,0\n")
    assert _no_traceback_error(_cli("score", two)) == (
        f"crocbench: error: {two}: column names 'score' (3 times) and 'label' (2 times) appear more than once "
        "in the header; rename them"
    )
    real = tmp_path / "real.csv"  # pandas' own spelling of a renamed duplicate, really in the file: no error
    df.assign(**{"score.1": 1 - df["score"]}).to_csv(real, index=False)
    done = _cli("score", real, "--score-col", "score.1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n"] == 30


@pytest.mark.parametrize(
    "argv,want",
    [
        (["score", "{f}", "--score-col", "label"], "--score-col and --label-col name the same column 'label'"),
        (["score", "{f}", "--label-col", "score"], "--score-col and --label-col name the same column 'score'"),
        (["score", "{f}", "--group", "label"], "--label-col and --group name the same column 'label'"),
        (["compare", "{f}", "{f}", "--score-col", "label"], "--score-col and --label-col name the same column 'label'"),
        (["compare", "{f}", "{f}", "--id-col", "score"], "--score-col and --id-col name the same column 'score'"),
        (["compare", "{f}", "{f}", "--id-col", "label"], "--label-col and --id-col name the same column 'label'"),
    ],
)
def test_one_column_for_two_options_is_named(small, argv, want):
    f, _ = small
    done = _cli(*[a.format(f=f) for a in argv])
    assert _no_traceback_error(done) == f"crocbench: error: {want}"
    assert done.stdout == ""


def test_utf16_and_utf32_files_are_read(small, tmp_path):
    """A byte-order mark says how the text is encoded: such a file reads as its UTF-8 twin does."""
    f, _ = small
    want = json.loads(_cli("score", f, "--json").stdout)["metrics"]
    text = f.read_text().replace("\n", "\r\n")  # as Windows writes it
    for codec, name in (("utf-16", "u16.csv"), ("utf-16-be", "u16be.tsv"), ("utf-32", "u32.csv")):
        path = tmp_path / name
        body = text.replace(",", "\t") if name.endswith(".tsv") else text
        path.write_bytes(("\ufeff" + body).encode(codec) if codec.endswith("be") else body.encode(codec))
        assert path.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff")
        done = _cli("score", path, "--json")
        assert done.returncode == 0, (codec, done.stderr)
        assert json.loads(done.stdout)["metrics"] == want, codec
    done = _cli("compare", tmp_path / "u16.csv", f, "--samples", "50", "--json")
    assert done.returncode == 0, done.stderr
    broken = tmp_path / "broken16.csv"  # a mark, then an odd number of bytes
    broken.write_bytes(text.encode("utf-16") + b"x")
    _no_traceback_error(_cli("score", broken), f"{broken}: ", "UTF-16", "save it as UTF-8 CSV/TSV")


def test_a_workbook_is_named_as_one(small, tmp_path, monkeypatch):
    import io
    import zipfile

    f, _ = small
    book = tmp_path / "screen.xlsx"
    with zipfile.ZipFile(book, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        z.writestr("xl/workbook.xml", "<workbook/>")
    want = f"crocbench: error: {book}: looks like a spreadsheet workbook (xlsx); export it as CSV or TSV"
    assert _no_traceback_error(_cli("score", book)) == want
    assert _no_traceback_error(_cli("compare", f, book)) == want
    renamed = tmp_path / "screen.csv"  # the name does not matter, the bytes do
    renamed.write_bytes(book.read_bytes())
    assert _no_traceback_error(_cli("score", renamed)).endswith(
        "looks like a spreadsheet workbook (xlsx); export it as CSV or TSV"
    )
    ods = tmp_path / "screen.ods"
    with zipfile.ZipFile(ods, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    assert _no_traceback_error(_cli("score", ods)).endswith(
        f"{ods}: looks like a spreadsheet workbook (ods); export it as CSV or TSV"
    )
    xls = tmp_path / "old.xls"
    xls.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + bytes(504))
    assert _no_traceback_error(_cli("score", xls)) == (
        f"crocbench: error: {xls}: looks like a spreadsheet workbook (xls); export it as CSV or TSV"
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(book.read_bytes())))
    _no_traceback_error(_cli("score", "-"), "<stdin>: looks like a spreadsheet workbook (xlsx)")


def test_bytes_that_are_not_utf8_are_located(small, tmp_path):
    f, _ = small
    latin = tmp_path / "latin.csv"
    latin.write_bytes("id,score,label\ncaf\xe9,0.5,1\nb,0.2,0\n".encode("latin-1"))
    assert _no_traceback_error(_cli("score", latin)) == (
        f"crocbench: error: {latin}: not UTF-8 text: byte 0xe9 at offset 18 (line 2); "
        "save it as UTF-8 CSV/TSV (it may be in Windows-1252/Latin-1)"
    )
    deep = tmp_path / "deep.csv"  # far beyond the first lines, found when pandas stumbles on it
    body = "id,score,label\n" + "".join(f"m{i},{i / 9000:.6f},{i % 2}\n" for i in range(9000))
    data = body.encode() + "z\xe9,0.5,1\n".encode("cp1252")
    deep.write_bytes(data)
    offset = len(body.encode()) + 1
    _no_traceback_error(_cli("score", deep), f"{deep}: not UTF-8 text: byte 0xe9 at offset {offset} (line 9002)")
    nul = tmp_path / "nul.csv"  # UTF-16 without its byte-order mark
    nul.write_bytes(f.read_text().encode("utf-16-le"))
    _no_traceback_error(_cli("score", nul), f"{nul}: ", "NUL bytes", "save it as UTF-8 CSV/TSV")


def test_a_file_without_header_says_so(small, tmp_path):
    f, y = small
    df = pd.read_csv(f)
    bare = tmp_path / "bare.csv"
    bare.write_text("".join(f"{i},{s:.2f},{label}\n" for i, s, label in zip(range(30), df["score"], y)))
    first = bare.read_text().splitlines()[0]
    assert _no_traceback_error(_cli("score", bare)) == (
        f"crocbench: error: {bare}: has no header row (its first line {first!r} is all numbers); add a header line "
        "such as 'id,score,label', or, if that line is the header, name its columns with --score-col/--label-col"
    )
    assert _no_traceback_error(_cli("compare", bare, bare)).endswith(
        "add a header line such as 'id,score,label', or, if that line is the header, name its columns with "
        "--score-col/--label-col/--id-col"
    )
    numbered = tmp_path / "numbered.csv"  # numbers as column names, named with the options: fine
    numbered.write_text("1,2,3\n" + bare.read_text())
    done = _cli("score", numbered, "--score-col", "2", "--label-col", "3", "--json")
    assert done.returncode == 0, done.stderr
    words = tmp_path / "words.csv"  # a header of words lacking a column: the columns are listed, as before
    words.write_text("a,b\n1,2\n")
    _no_traceback_error(_cli("score", words), "column(s) 'score', 'label' not found; columns are: a, b")


def test_ci_with_one_positive_warns_and_prints_no_interval(small, tmp_path):
    f, _ = small
    one = tmp_path / "one.csv"
    df = pd.read_csv(f)
    df.assign(label=(np.arange(30) == 4).astype(int)).to_csv(one, index=False)
    warning = (
        "crocbench: warning: 1 positive: every bootstrap resample repeats that one compound, so the intervals "
        "say nothing about uncertainty; shown as n/a"
    )
    done = _cli("score", one, "--ci", "200")
    assert done.returncode == 0 and done.stderr.strip() == warning
    table = done.stdout.split("CROC paper areas\n", 1)[1].split("\n\n", 1)[0].splitlines()
    table = [line for line in table if not line.startswith("note: ")]  # ROC50's: 29 negatives
    assert "95% interval" in table[0] and len(table) == 2 + len(M.paper_panel(top_k=30))
    start, stop = re.search(r"-+(?=  -+  -+  -+$)", table[1]).span()  # the interval column: 3rd of 6
    assert {row[start:stop].strip() for row in table[2:]} == {"n/a"}, table
    assert not re.search(r"\[\d", "\n".join(table))  # no [low, high]
    done = _cli("score", one, "--ci", "200", "--json")
    assert done.returncode == 0 and done.stderr.strip() == warning
    out = json.loads(done.stdout, parse_constant=lambda name: pytest.fail(name))
    defined = [m for m in out["metrics"] if m["value"] is not None]
    assert defined and all(m["ci_low"] is None and m["ci_high"] is None and m["se"] is None for m in defined)
    assert out["ci"]["warning"] == warning.removeprefix("crocbench: warning: ")
    neg = tmp_path / "one_negative.csv"  # the same with the classes swapped
    df.assign(label=(np.arange(30) != 4).astype(int)).to_csv(neg, index=False)
    done = _cli("score", neg, "--ci", "200", "--json")
    assert done.returncode == 0 and done.stderr.startswith("crocbench: warning: 1 negative: every bootstrap")
    few = _cli("score", f, "--ci", "200")  # 6 positives: intervals, no warning
    assert few.returncode == 0 and few.stderr == "" and "n/a" not in few.stdout.split("AUC[ROC]", 1)[1].split("\n")[0]


def test_compare_refuses_more_samples_than_its_limit(small, monkeypatch):
    from crocbench.cli import MAX_SAMPLES, _samples

    f, _ = small
    assert MAX_SAMPLES == 10_000_000
    done = _cli("compare", f, f, "--samples", "100000000000")
    line = _no_traceback_error(done, "--samples 100000000000 is above the limit of 10000000 (")
    assert re.search(r"about [\d.]+ (s|minutes?|hours?|days?|years?)", line), line
    assert done.stdout == ""
    usage = " ".join(_cli("compare", "--help").stdout.split())
    assert "at most 10000000" in usage
    monkeypatch.setattr(_samples, "ANNOUNCE_SAMPLES", 1_000)  # what a run above 1,000,000 samples prints first
    done = _cli("compare", f, f, "--samples", "2000", "--tests", "paired_permutation,paired_t")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        r"crocbench compare: 2000 permutation samples, roughly [\d.]+ (s|minutes?|hours?) "
        r"\(1 permutation test, 2 metrics, 6 positives\)\n",
        done.stderr,
    ), done.stderr
    quiet = _cli("compare", f, f, "--samples", "2000", "--tests", "paired_t")  # no permutation test: no estimate
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_messages_do_not_use_the_librarys_argument_names(small, tmp_path):
    f, _ = small
    grouped = tmp_path / "grouped.csv"
    df = pd.read_csv(f).assign(q=["a"] * 15 + ["b"] * 15, label=[1, 1] + [0] * 13 + [1] * 15)
    df.to_csv(grouped, index=False)
    done = _cli("score", grouped, "--group", "q")
    assert done.returncode == 0, done.stderr
    assert "y_true" not in done.stdout and "y_score" not in done.stdout
    assert "query 'b' has no negatives: the metric needs positives and negatives in every query" in done.stdout
    out = json.loads(_cli("score", grouped, "--group", "q", "--json").stdout)
    notes = [m["note"] for m in out["other_metrics"]]
    assert "query 'b' has no negatives: the metric needs positives and negatives in every query" in notes
    assert not any("y_true" in n or "y_score" in n for n in notes)


@pytest.mark.parametrize(
    "library,cli",
    [
        (
            "query 'b': y_true has no negatives: the metrics are undefined",
            "query 'b' has no negatives: the metric needs positives and negatives in every query",
        ),
        ("y_true has no positives: the metrics are undefined", "the list has no positives: the metrics are undefined"),
        (
            "y_true and y_score differ in length: 3 labels, 2 scores",
            "the labels and the scores differ in length: 3 labels, 2 scores",
        ),
        (
            "y_score has 1 NaN or infinite value(s), first at index 0",
            "the scores have 1 NaN or infinite value(s), first at index 0",
        ),
        ("n must be in [1, 17] for this list; got 50", "n must be in [1, 17] for this list; got 50"),
    ],
)
def test_library_argument_names_are_translated_at_the_cli_edge(library, cli):
    from crocbench.cli._output import _for_users

    assert _for_users(library) == cli


def test_ctrl_c_is_one_line_exit_130_and_leaves_no_temporary_file(tmp_path):
    """A real SIGINT while ``score -`` is copying standard input: one line on stderr, exit code 130, no traceback,
    and the temporary copy of standard input removed."""
    import os
    import signal
    import time

    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "crocbench", "score", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    proc.stdin.write("score,label\n0.5,1\n")
    proc.stdin.flush()
    # Wait for a state, not a time: the temporary copy of standard input exists, so the command is past its imports
    # and blocked reading a pipe that stays open (no EOF can reach it before the signal does).
    while not list(tmp_path.glob("crocbench-*/stdin")):
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.wait()  # standard input is still open: the command ends by the signal, not by reading EOF
    proc.stdin.close()
    out, err = proc.stdout.read(), proc.stderr.read()
    assert (proc.returncode, out, err) == (130, "", "crocbench: interrupted\n")
    assert list(tmp_path.iterdir()) == []

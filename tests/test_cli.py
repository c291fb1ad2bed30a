"""The command-line tool: values equal the library's, errors are one line with exit code 2."""

import json
import subprocess
import sys

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
    pd.DataFrame({"id": np.array(ids)[perm], "pred": b[perm],
                  "active": np.where(y[perm] == 1, "CA", "CI")}).to_csv(fb, sep="\t", index=False)
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
    assert {m["key"] for m in out["metrics"]} == {c.key for c in M.paper_panel(50)}


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
    assert other["roc10_per_query"]["value"] == pytest.approx(np.mean([M.roc_n(y[q == g], a[q == g], 10) for g in ("q1", "q2", "q3")]))
    assert other["roc10_pooled"]["value"] == pytest.approx(M.roc_n(y, a, 10))
    assert other["top1"]["value"] == pytest.approx(M.top1(y, a, q))
    # scores are not probabilities: perf's probability metrics say so instead of a number
    assert other["cross_entropy"]["value"] is None and "probabilities" in other["cross_entropy"]["note"]
    assert {m["family"] for m in out["other_metrics"]} == set(M.FAMILIES)
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
    code = main(["score", str(fb), "--score-col", "pred", "--label-col", "active", "--positive", "CA",
                 "--metric", "croc_auc:alpha=14", "--metric", "roc50", "--plot", str(png)])
    assert code == 0
    out = capsys.readouterr().out
    assert "croc_auc:alpha=14" in out and "ROC50" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_compare_matches_library_after_matching_ids(ranked, capsys):
    y, a, b, fa, fb = ranked
    code = main(["compare", str(fa), str(fb), "--score-col", "pred", "--label-col", "active",
                 "--positive", "1,CA", "--metric", "croc_exp_80", "--samples", "2000", "--json"])
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
    assert "NaN" in _error(capsys, ["score", str(nan)])
    word = tmp_path / "word.csv"
    word.write_text("score,label\n0.5,1\nhigh,0\n")
    assert "'high' at row 1 is not a number" in _error(capsys, ["score", str(word)])
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
            pd.DataFrame({"model": ["IRV", "SVM"], "roc": [0.8443, 0.8532], "top1000": [641, 625],
                          "train_seconds": [3.0, 4.0]}).to_csv(run / "tables" / name, sep="\t", index=False)
    for fold in range(2):
        (run / "scores" / "svm" / f"fold_{fold}.json").write_text(json.dumps({
            "fold": fold, "C": 1.0, "class_weight": "balanced", "support_vectors": 100 + fold, "intercept": 0.1,
            "select_metric": "roc", "inner_cv": [{"C": 1.0, "class_weight": None, "value": 0.8},
                                                  {"C": 1.0, "class_weight": "balanced", "value": 0.84}]}))
    ref = tmp_path / "ref"
    assert main(["reference", str(run), "--out", str(ref)]) == 0
    out = capsys.readouterr().out
    assert out.count("not in the reference") == len(REFERENCE_FILES)
    folds = pd.read_csv(ref / "svm_folds.tsv", sep="\t")
    assert folds.columns.tolist() == ["fold", "C", "class_weight", "support_vectors", "select_metric",
                                      "inner_1_none", "inner_1_balanced"]
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

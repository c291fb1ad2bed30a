"""crocbench.cli._score: ``crocbench score``'s values, intervals, tables, JSON and plot equal the library's."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from _cli import _cli

from crocbench import metrics as M
from crocbench import stats as S
from crocbench.cli import main


def test_score_json_equals_library(ranked, capsys):
    y, a, _, fa, _ = ranked
    assert main(["score", str(fa), "--score-col", "pred", "--label-col", "active", "--json", "--top-k", "50"]) == 0
    out = json.loads(capsys.readouterr().out)
    values = {m["key"]: m["value"] for m in out["metrics"]}
    assert values["roc"] == pytest.approx(M.roc_auc(y, a), abs=1e-12)
    assert values["croc_exp_80"] == pytest.approx(M.croc_auc(y, a, 80.0), abs=1e-12)
    assert values["top50"] == M.hits_at_k(y, a, 50)
    assert out["n"] == 300 and out["n_pos"] == int(y.sum())
    assert [m["key"] for m in out["metrics"]] == [c.key for c in (*M.paper_metrics(50), *M.benchmark_metrics())]
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
    calls = [*M.paper_metrics(50), *M.benchmark_metrics()]
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
    assert "95% interval" in table[0] and len(table) == 2 + len(M.paper_metrics(top_k=30))
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

"""crocbench.report._tables: tables 1 and 2, the pooled and per-fold metrics and the other papers' metrics."""

import re

import numpy as np
import pandas as pd
import pytest
from _synthetic import _scores

from crocbench.metrics import croc_auc, hits_at_k, roc_auc
from crocbench.report import metric_set_for, pooled_metrics


def test_pooled_metrics_equal_the_metric_functions():
    s = _scores(0, 1.5)
    m = pooled_metrics(s)
    y, x = s["label"], s["score"]
    assert m["roc"] == pytest.approx(roc_auc(y, x))
    assert m["croc_exp_80"] == pytest.approx(croc_auc(y, x, alpha=80))
    assert m["top1000"] == pytest.approx(hits_at_k(y, x, k=1000))


def _pooled():
    from crocbench.models import LABELS

    base = _scores(5, 0.0)
    out = {}
    for i, m in enumerate(["random", "maxsim", "knn", "svm", "irv"]):
        s = base.copy()
        s["score"] = np.random.default_rng(i).normal(size=len(s)) + (0.4 * i) * s["label"]
        out[LABELS[m]] = s
    return out


def test_areas_table_has_the_random_expectation():
    from crocbench.metrics import paper_metrics, random_baseline
    from crocbench.report import RANDOM_ROW, areas_table

    calls = paper_metrics(top_k=100)
    pooled = _pooled()
    table = areas_table(pooled, calls).set_index("model")
    assert list(table.index) == [*pooled, RANDOM_ROW]
    y, s = pooled["IRV"]["label"], pooled["IRV"]["score"]
    assert table.loc["IRV", "croc_exp_80"] == pytest.approx(croc_auc(y, s, alpha=80))
    n, n_pos = len(y), int(y.sum())
    assert table.loc[RANDOM_ROW, "roc"] == pytest.approx(0.5)
    assert table.loc[RANDOM_ROW, "top100"] == pytest.approx(100 * n_pos / n)
    assert table.loc[RANDOM_ROW, "croc_exp_80"] == pytest.approx(random_baseline("croc_auc", n, n_pos, alpha=80).mean)


def test_significance_table_matches_compare():
    from crocbench.metrics import paper_metrics
    from crocbench.report import significance_markdown, significance_table
    from crocbench.stats import compare

    pooled = dict(list(_pooled().items())[2:])  # kNN, SVM, IRV
    calls = [c for c in paper_metrics() if c.key in ("roc", "croc_exp_80")]
    tests = ["paired_permutation", "unpaired_t"]
    table = significance_table(pooled, calls, tests, n_samples=500, seed=3)
    assert len(table) == 3 * 2 and table[["a", "b"]].drop_duplicates().values.tolist() == [
        ["kNN", "SVM"],
        ["kNN", "IRV"],
        ["SVM", "IRV"],
    ]
    row = table[(table.a == "kNN") & (table.b == "IRV") & (table.metric == "croc_exp_80")].iloc[0]
    direct = compare(
        pooled["kNN"]["label"],
        pooled["kNN"]["score"],
        pooled["IRV"]["score"],
        calls[1],
        tests=tests,
        n_samples=500,
        seed=3,
    )
    assert row["paired_permutation"] == direct.results["paired_permutation"].p_value
    assert row["better"] == ("IRV" if direct.value_b > direct.value_a else "kNN")
    md = significance_markdown(table, tests)
    assert md.count("\n") == 1 + len(table)
    low = table[tests].min().min()
    assert ("**" in md) == (low < 0.01)


def test_other_metrics_table_per_model_with_folds_as_queries():
    from crocbench import metrics as M
    from crocbench.report import other_metrics_markdown, other_metrics_table

    a, b = _scores(6, 2.0), _scores(6, 0.7)
    a["fold"] = b["fold"] = np.arange(3000) % 3
    b["score"] = 1 / (1 + np.exp(-b["score"]))  # probabilities: perf's probability metrics apply
    table = other_metrics_table({"A": a, "B": b}, top=100, n=20)
    value = table.set_index(["model", "key"])["value"]
    y, folds = a["label"].to_numpy(), a["fold"].to_numpy()
    assert value["A", "ap"] == pytest.approx(M.average_precision(y, a["score"]))
    assert value["A", "precision_at_100"] == pytest.approx(M.hits_at_k(y, a["score"], 100) / 100)
    assert value["A", "tap_20"] == pytest.approx(M.tap_k(y, a["score"], folds, 20))
    assert value["B", "map"] == pytest.approx(
        np.mean([M.average_precision(y[folds == f], b["score"][folds == f]) for f in range(3)])
    )
    assert np.isnan(value["A", "rmse"]) and value["B", "rmse"] == pytest.approx(M.rmse(y, b["score"]))
    assert value["A", "ap"] > value["B", "ap"]
    text = other_metrics_markdown(table)
    assert text.count("### ") == len(M.FAMILIES)
    assert "average precision *" in text and "- RMSE, A: needs probabilities" in text


def test_top_cutoff_is_a_count_or_a_share_of_the_list_and_says_which():
    from crocbench.data import Dataset
    from crocbench.metrics import hits_at_k, top_cutoff

    assert [
        top_cutoff(t, n)
        for t, n in [(1000, 41906), (1000, 642), (1000.0, 642), (0.01, 642), (0.01, 20), (0.015, 100), (0.5, 3)]
    ] == [1000, 642, 642, 6, 1, 2, 2]
    for bad in (0, -5, 1.5, 0.0, True, "1%"):
        with pytest.raises(ValueError, match="count >= 1 or a fraction"):
            top_cutoff(bad, 100)
    rng = np.random.default_rng(3)
    s = pd.DataFrame({"label": (rng.random(642) < 0.3).astype(int), "score": rng.random(642)})
    m = pooled_metrics(s, keys=("roc",), top=0.01)
    assert list(m) == ["roc", "top6"] and m["top6"] == hits_at_k(s["label"], s["score"], 6)
    assert [c.label for c in metric_set_for(s, 0.01)][-1] == "actives in top 6 (1% of 642)"
    assert [c.label for c in metric_set_for(s, 1000)][-1] == "actives in top 642"
    entry = {"files": [{"name": "a.csv", "url": "u"}], "structures": {"file": "a.csv"}}
    assert Dataset.from_config("x", entry).top_cutoff == 0.01
    assert Dataset.from_config("x", {**entry, "reproduces": "swamidass2010"}).top_cutoff == 1000
    assert Dataset.from_config("x", {**entry, "reproduces": "swamidass2010", "top": 0.02}).top_cutoff == 0.02


def _fold_scores(negatives_per_fold, positives=5, seed=0):
    """A pooled score table with the given number of negatives in each fold (and ``positives`` actives)."""
    rng = np.random.default_rng(seed)
    parts = []
    for fold, n_neg in enumerate(negatives_per_fold):
        y = np.r_[np.ones(positives, int), np.zeros(n_neg, int)]
        parts.append(pd.DataFrame({"fold": fold, "label": y, "score": rng.normal(size=y.size) + y}))
    out = pd.concat(parts, ignore_index=True)
    return out.assign(id=np.arange(len(out)).astype(str))


def test_areas_markdown_says_why_a_per_fold_value_is_missing():
    from crocbench.metrics import parse_metric, per_fold_metrics
    from crocbench.report import areas_markdown, areas_table, per_fold_summary

    def cells(negatives_per_fold, call):
        pooled = _fold_scores(negatives_per_fold)
        calls = [c for c in metric_set_for(pooled, top=0.1) if c.key in ("roc", "roc50")] + ([call] if call else [])
        summary = per_fold_summary({"M": per_fold_metrics(pooled, calls)}, calls)
        md = areas_markdown(areas_table({"M": pooled}, calls), summary, calls).splitlines()
        return summary, dict(
            zip([c.strip() for c in md[0].strip("|").split("|")], [c.strip() for c in md[2].strip("|").split("|")])
        )

    # every fold has 40 negatives (the pooled list 120): ROC50 is defined pooled, on no fold
    summary, row = cells([40, 40, 40], None)
    assert row["ROC50"].endswith("<br>n/a (a fold has < 50 negatives)") and "nan" not in "".join(row.values())
    # one fold of three has 40 negatives: ROC50 is undefined on it, so there is no mean over the folds
    summary, row = cells([60, 40, 70], parse_metric("roc_n:n=45"))
    assert row["ROC50"].endswith("<br>n/a (a fold has < 50 negatives)")
    assert row["roc_n:n=45"].endswith("<br>n/a (a fold has < 45 negatives)")  # the n is the call's
    assert "nan" not in "".join(row.values())
    assert np.isnan(summary.loc[0, "roc50_mean"]) and np.isnan(summary.loc[0, "roc50_sd"])  # the .tsv: empty cells
    assert re.fullmatch(r"0\.\d{4}<br>0\.\d{3} ± 0\.\d{3}", row["AUC[ROC]"])
    # every fold has >= 50 negatives: a number +/- a number, as on dtp_aids
    summary, row = cells([60, 50, 70], None)
    assert re.fullmatch(r"0\.\d{4}<br>0\.\d{3} ± 0\.\d{3}", row["ROC50"])
    assert row["ROC50"].split("<br>")[1] == f"{summary.loc[0, 'roc50_mean']:.3f} ± {summary.loc[0, 'roc50_sd']:.3f}"


def test_the_test_tables_head_each_test_with_its_short_label():
    """Table 2, a study's pairs and a stratum's tests name the six tests as a reader reads them (``paired t``, not
    ``paired_t``), in the order of the tests given."""
    from crocbench.report import pair_tests_markdown, significance_markdown, stratum_tests_markdown
    from crocbench.stats import TESTS

    row = {"a": "A", "b": "B", "metric": "roc", "value_a": 0.8, "value_b": 0.7, "better": "A"}
    table = pd.DataFrame([{**row, **{t: 0.5 for t in TESTS}}])
    heads = [
        "paired permutation", "unpaired permutation", "paired t", "unpaired t", "paired Wilcoxon", "unpaired Wilcoxon",
    ]  # fmt: skip
    assert (
        significance_markdown(table, TESTS).splitlines()[0] == "| pair | metric | better | " + " | ".join(heads) + " |"
    )
    assert pair_tests_markdown(table, {"roc": "AUC[ROC]"}, TESTS).splitlines()[0].endswith(" | ".join(heads) + " |")
    stratum = table.assign(stratum="novel", effect=0.1, effect_low=0.0, effect_high=0.2)
    text = stratum_tests_markdown(stratum, {"roc": "AUC[ROC]"}, TESTS[::-1])
    assert text.splitlines()[0].endswith(" | ".join(heads[::-1]) + " |")

"""The evaluation protocol: the corrected resampled t-test (against scipy), and the tables of repeats and intervals
(the scaffold-grouped folds and the repeats' seeds: test_cv.py and test_scaffolds.py)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from crocbench.cv import stratified_folds
from crocbench.metrics import paper_metrics
from crocbench.report import intervals_table, repeats_table, repeats_tests
from crocbench.stats import bootstrap, corrected_t_test


def test_corrected_t_is_the_one_sample_t_test_without_correction_and_widens_with_it():
    d = np.random.default_rng(0).normal(0.01, 0.02, size=30)
    plain = corrected_t_test(d, test_share=0.0)
    ref = sps.ttest_1samp(d, 0.0)
    assert plain.t == pytest.approx(ref.statistic, rel=1e-12) and plain.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    corrected = corrected_t_test(d, test_share=1 / 9)
    # the variance grows from var/J to (1/J + 1/9) var: t shrinks by sqrt((1/30) / (1/30 + 1/9))
    assert corrected.t == pytest.approx(ref.statistic * np.sqrt((1 / 30) / (1 / 30 + 1 / 9)), rel=1e-12)
    assert corrected.df == 29 and corrected.p_value > plain.p_value
    one_sided = corrected_t_test(d, test_share=1 / 9, alternative="greater")
    assert one_sided.p_value == pytest.approx(corrected.p_value / 2, rel=1e-9)
    assert np.isnan(corrected_t_test([0.1, 0.1, 0.1], 0.1).p_value)
    with pytest.raises(ValueError, match="at least 2"):
        corrected_t_test([0.1], 0.1)


def _pooled(seed, n=400):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int8)
    folds = stratified_folds(y, 5, seed)
    a = pd.DataFrame({"id": [f"c{i}" for i in range(n)], "fold": folds, "label": y, "score": rng.normal(size=n) + y})
    b = a.assign(score=rng.normal(size=n) + 0.3 * y)
    return {"A": a, "B": b}


def test_repeats_table_is_the_mean_and_sd_of_each_repeats_pooled_metric():
    calls = paper_metrics(top_k=20, n=400)[:3]
    repeats = [_pooled(s) for s in range(3)]
    table = repeats_table(repeats, calls)
    row = table[(table["model"] == "B") & (table["key"] == "roc")].iloc[0]
    values = [
        calls[0].value(__import__("crocbench").metrics.Ranking(r["B"]["label"], r["B"]["score"])) for r in repeats
    ]
    assert row["mean"] == pytest.approx(np.mean(values)) and row["sd"] == pytest.approx(np.std(values, ddof=1))
    assert [row[f"repeat_{i}"] for i in range(3)] == pytest.approx(values)


def test_repeats_tests_pair_the_folds_of_every_repeat():
    from crocbench.metrics import per_fold_metrics

    calls = paper_metrics(top_k=20, n=400)[:1]
    per_fold = [{m: per_fold_metrics(p, calls).astype({"fold": str}) for m, p in _pooled(s).items()} for s in range(3)]
    tests = repeats_tests(per_fold, keys=["roc"], n_folds=5)
    d = np.concatenate(
        [(r["A"]["roc"] - r["B"]["roc"]).to_numpy()[:-1] for r in per_fold]  # the folds, not the pooled row
    )
    want = corrected_t_test(d, test_share=1 / 4)
    got = tests.iloc[0]
    assert (got["model_a"], got["model_b"], got["df"]) == ("A", "B", 14)
    assert got["t"] == pytest.approx(want.t) and got["p_value"] == pytest.approx(want.p_value)


def test_intervals_table_is_the_bootstrap_of_each_pooled_ranking():
    pooled = _pooled(0)
    calls = paper_metrics(top_k=20, n=400)[:2]
    table = intervals_table(pooled, calls, n_resamples=200, seed=5)
    want = bootstrap(pooled["A"]["label"], pooled["A"]["score"], calls, n_resamples=200, seed=5)
    got = table[table["model"] == "A"]
    assert got["low"].tolist() == [w.low for w in want] and got["high"].tolist() == [w.high for w in want]


def test_split_comparison_and_orders_from_two_repeats_tables(tmp_path):
    from crocbench.plots import plot_split_comparison
    from crocbench.report import split_comparison, split_comparison_markdown, split_orders

    calls = paper_metrics(top_k=20, n=400)[:5]  # roc ... croc_exp_80
    by_split = {"random": repeats_table([_pooled(s) for s in range(3)], calls)}
    by_split["scaffold"] = repeats_table([_pooled(s) for s in range(3, 6)], calls)
    table = split_comparison(by_split)
    assert set(table["key"]) == {"roc", "croc_exp_80"} and len(table) == 4
    row = table[(table["model"] == "A") & (table["key"] == "roc")].iloc[0]
    r = by_split["random"].set_index(["model", "key"]).loc[("A", "roc")]
    s = by_split["scaffold"].set_index(["model", "key"]).loc[("A", "roc")]
    assert row["loss"] == pytest.approx(r["mean"] - s["mean"]) and row["scaffold_sd"] == pytest.approx(s["sd"])
    assert "AUC[ROC] loss" in split_comparison_markdown(table, ("random", "scaffold"))
    orders = split_orders(by_split, "roc")
    assert orders["random"]["mean"] == ["A", "B"]  # A's scores carry the label more strongly
    assert set(orders["scaffold"]) == {"mean", "repeat_0", "repeat_1", "repeat_2"}
    written = plot_split_comparison(table, tmp_path / "split.png")
    assert [p.suffix for p in map(Path, written)] == [".png", ".pdf"] and Path(written[0]).stat().st_size > 10_000

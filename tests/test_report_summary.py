"""crocbench.report._summary: the summary across datasets (datasets, ranks, Conover and repeats tables)."""

import numpy as np
import pandas as pd
import pytest
from _synthetic import _ranked_by_hand, _scores

from crocbench.metrics import croc_auc


def test_datasets_table_against_scikit_learn_and_counting_by_hand():
    from sklearn.metrics import roc_auc_score

    from crocbench.metrics import bedroc
    from crocbench.report import datasets_table

    runs = {"one": {"A": _scores(1, 1.0), "B": _scores(1, 0.0)}, "two": {"A": _scores(2, 2.0)[:2050]}}
    runs["two"]["B"] = runs["two"]["A"].assign(score=-runs["two"]["A"]["score"])
    table = datasets_table(runs).set_index(["dataset", "model"])
    for dataset, pooled in runs.items():
        for model, s in pooled.items():
            row = table.loc[(dataset, model)]
            y, x = s["label"].to_numpy(), s["score"].to_numpy()
            k = int(np.floor(0.01 * len(s) + 0.5))  # 1% of the list, rounded half up: 30 and 21 (20.5)
            assert row["compounds"] == len(s) and row["actives"] == y.sum() and row["top_k"] == k
            assert row["roc"] == pytest.approx(roc_auc_score(y, x))
            assert row["top_1pct"] == y[np.argsort(-x)[:k]].sum()
            assert row["croc_exp_14"] == pytest.approx(croc_auc(y, x, alpha=14))
            assert row["bedroc_20"] == pytest.approx(bedroc(y, x, alpha=20))
            # EF 1%: the hit rate in the top 1% over the hit rate of the whole list, counted by hand
            assert row["ef_1pct"] == pytest.approx((y[np.argsort(-x)[:k]].sum() / k) / (y.sum() / len(y)))
    assert table["top_k"].tolist() == [30, 30, 21, 21]
    # with intervals: each metric's 95% percentile interval of the stratified bootstrap, drawn by index here
    # (positives and negatives resampled separately), must agree with the table's within the resampling noise
    wide = datasets_table(runs, n_resamples=400, seed=3).set_index(["dataset", "model"])
    rng = np.random.default_rng(7)
    s = runs["one"]["A"]
    y, x = s["label"].to_numpy(), s["score"].to_numpy()
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    draws = []
    for _ in range(400):
        idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        draws.append(roc_auc_score(y[idx], x[idx]))
    low, high = np.percentile(draws, [2.5, 97.5])
    se = np.std(draws)
    row = wide.loc[("one", "A")]
    assert row["roc_low"] <= row["roc"] <= row["roc_high"]
    assert abs(row["roc_low"] - low) < 0.5 * se and abs(row["roc_high"] - high) < 0.5 * se
    assert all(row[f"{k}_low"] <= row[k] <= row[f"{k}_high"] for k in ("croc_exp_80", "bedroc_20", "ef_1pct"))
    assert list(wide.columns[: len(table.columns)]) == list(table.columns)  # the same columns first, then intervals
    runs["two"]["B"] = runs["two"]["B"].iloc[::-1]
    with pytest.raises(ValueError, match="dataset two: B did not score the same compounds"):
        datasets_table(runs)


def test_ranks_table_by_hand():
    from crocbench.report import SUMMARY_RANK_METRICS, ranks_table

    rows = []
    values = {"d1": (0.9, 0.8, 0.7), "d2": (0.9, 0.6, 0.8), "d3": (0.7, 0.8, 0.6), "d4": (0.95, 0.9, 0.5)}
    for dataset, vs in values.items():
        for model, v in zip("xyz", vs):
            rows.append({"dataset": dataset, "model": model, **{m: v for m in SUMMARY_RANK_METRICS}, "ef_1pct": 10 * v})
    ranks, pairs = ranks_table(pd.DataFrame(rows))
    roc = ranks[ranks["metric"] == "roc"].set_index("model")
    assert roc["mean_rank"].tolist() == pytest.approx([1.25, 2.0, 2.75])  # ranks [1,2,3] [1,3,2] [2,1,3] [1,2,3]
    assert roc["friedman_chi2"].iloc[0] == pytest.approx(4.5)  # 12/(4*3*4) (5^2+8^2+11^2) - 3*4*4
    assert roc["nemenyi_cd"].iloc[0] == pytest.approx(2.3437 * np.sqrt(3 * 4 / (6 * 4)), abs=1e-3)
    assert set(ranks["metric"]) == set(SUMMARY_RANK_METRICS) and len(pairs) == 3 * len(SUMMARY_RANK_METRICS)
    assert {"ef_1pct", "log_auc_0.001_0.1", "dcg_100"} <= set(SUMMARY_RANK_METRICS)
    xz = pairs[(pairs["metric"] == "roc") & (pairs["a"] == "x") & (pairs["b"] == "z")].iloc[0]
    assert (xz["wins"], xz["losses"], xz["ties"]) == (4, 0, 0) and xz["p_value"] == pytest.approx(0.125)  # 2/2^4


def test_conover_table_by_hand():
    from scipy import stats

    from crocbench.report import SUMMARY_RANK_METRICS, conover_table, ranks_table

    table = _ranked_by_hand()
    conover = conover_table(table)
    _, pairs = ranks_table(table)
    assert conover[["metric", "a", "b"]].equals(pairs[["metric", "a", "b"]])  # the Wilcoxon table's pairs, in order
    assert set(conover["metric"]) == set(SUMMARY_RANK_METRICS)
    # ranks [1,2,3] [1,3,2] [2,1,3] [1,2,3]: R = (5, 8, 11), A = 56, N A - sum R^2 = 224 - 210 = 14, 6 df
    sd = np.sqrt(2 * 14 / 6)
    p = {
        ("x", "y"): 2 * stats.t.sf(3 / sd, 6),
        ("x", "z"): 2 * stats.t.sf(6 / sd, 6),
        ("y", "z"): 2 * stats.t.sf(3 / sd, 6),
    }
    for row in conover[conover["metric"] == "croc_exp_80"].itertuples():
        assert row.p_value == pytest.approx(p[(row.a, row.b)], abs=1e-14)
    roc = conover[conover["metric"] == "roc"].set_index(["a", "b"])
    assert roc.at[("x", "z"), "p_holm"] == pytest.approx(3 * p[("x", "z")])  # Holm: the smallest of 3, times 3
    assert roc.at[("x", "y"), "p_holm"] == roc.at[("y", "z"), "p_holm"] == pytest.approx(2 * p[("x", "y")])
    assert roc.at[("x", "z"), "mean_rank_a"] == 1.25 and roc.at[("x", "z"), "mean_rank_b"] == 2.75


def test_the_mean_over_repeats_is_the_repeats_tables_mean():
    """With repeats, the summary ranks each model's mean over them, read from each repeat's values as
    datasets_repeats.tsv keeps them (10 digits): the ``mean`` of repeats_table (the dataset's tables/repeats.tsv),
    each repeat's value on its own pooled ranking, to the digits kept."""
    import io

    from crocbench.report import (
        SUMMARY_RANK_METRICS,
        conover_table,
        datasets_table,
        ranks_table,
        repeat_means,
        repeats_table,
        tests_across_screens,
    )
    from crocbench.report import summary_calls as calls_for

    def repeat(r, dataset):
        seed = 10 * r + dataset
        return {"A": _scores(seed, 1.2), "B": _scores(seed, 1.0), "C": _scores(seed + 100, 0.2)}

    runs = {f"d{d}": [repeat(r, d) for r in range(3)] for d in range(4)}
    per_repeat = pd.concat(
        [
            datasets_table({d: pooled}).assign(repeat=r)
            for d, by_repeat in runs.items()
            for r, pooled in enumerate(by_repeat)
        ],
        ignore_index=True,
    )
    kept = pd.read_csv(io.StringIO(per_repeat.to_csv(sep="\t", index=False, float_format="%.10g")), sep="\t")
    means = repeat_means(kept)
    assert means["dataset"].tolist() == [f"d{d}" for d in range(4) for _ in "ABC"]
    for dataset, by_repeat in runs.items():
        want = repeats_table(by_repeat, calls_for(3000)).set_index(["model", "key"])["mean"]
        got = means[means["dataset"] == dataset].set_index("model")
        for c in calls_for(3000):
            for model in "ABC":
                assert got.at[model, c.key] == pytest.approx(want[(model, c.key)], rel=1e-9)
    first = kept[kept["repeat"] == 0].drop(columns="repeat")
    ranks, pairs, conover = tests_across_screens(first, ["A", "B", "C"], kept)  # what the summary tests
    pd.testing.assert_frame_equal(ranks, ranks_table(means)[0])
    pd.testing.assert_frame_equal(conover, conover_table(means))
    pd.testing.assert_frame_equal(pairs, ranks_table(means)[1])
    assert not pairs["mean_difference"].equals(ranks_table(first)[1]["mean_difference"])  # not repeat 0's alone
    assert len(ranks) == len(SUMMARY_RANK_METRICS) * 3 and len(pairs) == len(SUMMARY_RANK_METRICS) * 3

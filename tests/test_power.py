"""The power study: subsets, scaling, and power/calibration on rankings whose truth is known by construction."""

import numpy as np
import pandas as pd
import pytest

from crocbench import metrics as M
from crocbench import power
from crocbench.power import power_study, scaled_calls, stratified_subsets
from crocbench.stats import TESTS

CALLS = [M.parse_metric("roc_auc"), M.parse_metric("croc_exp_14")]


def binomial_margin(rate: float, n: int, z: float = 3.0) -> float:
    """``z`` binomial standard errors of a rejection rate estimated from ``n`` subsets."""
    return z * np.sqrt(rate * (1 - rate) / n)


def test_stratified_subsets_keep_the_class_shares_and_draw_without_replacement():
    y = np.r_[np.ones(100, bool), np.zeros(900, bool)]
    sub = stratified_subsets(y, 0.1, 50, np.random.default_rng(0))
    assert sub.rows.shape == (50, 100) and (sub.n_pos, sub.n_neg) == (10, 90)
    assert all(np.unique(r).size == r.size for r in sub.rows)
    assert y[sub.rows[:, :10]].all() and not y[sub.rows[:, 10:]].any()
    # every compound is drawn about equally often
    counts = np.bincount(sub.rows.ravel(), minlength=1000)
    assert counts.mean() == pytest.approx(5.0) and counts.max() < 20
    with pytest.raises(ValueError, match="too few to test"):
        stratified_subsets(y, 0.01, 5, np.random.default_rng(0))


def test_scaled_calls_scale_counts_only():
    calls = [M.parse_metric("hits_at_k:k=1000"), M.parse_metric("roc_n:n=50"), M.parse_metric("croc_exp_80")]
    scaled = scaled_calls(calls, 0.02)
    assert [c.params for c in scaled] == [{"k": 20}, {"n": 1}, {"alpha": 80.0, "transform": "exp"}]
    assert [c.key for c in scaled] == [c.key for c in calls]


def _rankers(n, seed, strength_a, strength_b, shared_negatives=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.05
    a = strength_a * y + rng.normal(size=n)
    b = strength_b * y + rng.normal(size=n)
    if shared_negatives:  # the methods differ only on the positives: the tests' null holds exactly
        b = np.where(y, b, a)
    return y, a, b


def test_power_rises_with_subset_size_and_is_high_for_a_large_effect():
    y, a, b = _rankers(20_000, 0, 1.6, 0.8)
    df = power_study(
        y,
        {"a": a, "b": b},
        CALLS,
        pairs=[("a", "b")],
        fractions=(0.015, 0.04, 0.2),
        n_subsets=60,
        n_samples=500,
        seed=1,
    )
    assert len(df) == len(TESTS) * len(CALLS) * 3
    assert (df["full_difference"] > 0).all()
    for (test, metric), g in df.groupby(["test", "metric"]):
        power = g.sort_values("fraction")["power"].to_numpy()
        assert power[0] < power[1] + binomial_margin(0.5, 60) and power[1] <= power[2], (test, metric, power)
        assert power[2] > 0.9, (test, metric, power)
        assert g["wrong"].max() <= 0.05, (test, metric)


def test_no_difference_rejects_at_the_nominal_rate():
    # one-sided tests at 0.05 in each direction: 0.10 in all when a and b are exchangeable per positive
    y, a, b = _rankers(40_000, 3, 1.0, 1.0, shared_negatives=True)
    n_subsets = 300
    df = power_study(
        y,
        {"a": a, "b": b},
        CALLS,
        pairs=[("a", "b")],
        fractions=(0.01, 0.03),
        n_subsets=n_subsets,
        n_samples=500,
        seed=4,
    )
    for test, g in df.groupby("test"):
        rate = float((g["power"] + g["wrong"]).mean())
        # rates of 2 metrics x 2 sizes, from 300 subsets each, the metrics strongly correlated
        assert abs(rate - 0.10) < binomial_margin(0.10, n_subsets), (test, rate)
        assert g["power"].max() < 0.05 + binomial_margin(0.05, n_subsets) + 0.02, test


def test_same_seed_same_table_and_bad_input(monkeypatch):
    y, a, b = _rankers(4000, 5, 1.0, 0.5)
    run = lambda seed: power_study(
        y,
        {"a": a, "b": b},
        CALLS,
        pairs=[("a", "b")],
        fractions=(0.1,),  # noqa: E731
        n_subsets=5,
        n_samples=200,
        seed=seed,
    )
    assert run(0).equals(run(0))
    # sizes studied in two processes (largest first): the same table, rows in the order of `fractions`
    many = lambda n_jobs: power_study(
        y,
        {"a": a, "b": b},
        CALLS,
        pairs=[("a", "b")],
        fractions=(0.05, 0.3, 0.1),  # noqa: E731
        n_subsets=5,
        n_samples=200,
        seed=2,
        n_jobs=n_jobs,
    )
    serial, parallel = many(1), many(2)
    pd.testing.assert_frame_equal(parallel, serial)
    monkeypatch.setattr(power, "_CELLS", 50)  # the column-wise tests one subset per call: the same table
    pd.testing.assert_frame_equal(many(1), serial)
    assert serial["fraction"].drop_duplicates().tolist() == [0.05, 0.3, 0.1]
    with pytest.raises(ValueError, match="no scores for model"):
        power_study(y, {"a": a}, CALLS, pairs=[("a", "b")])
    with pytest.raises(ValueError, match="unknown test"):
        power_study(y, {"a": a, "b": b}, CALLS, pairs=[("a", "b")], tests=["z_test"])


def test_a_size_split_in_parts_counts_as_the_whole():
    """The parts of one subset size (n_jobs > 1) draw its subsets and permutation seeds whole and keep their slice:
    their rejection counts add up to the whole's, with p-values near the level (a small effect, few samples)."""
    y, a, b = _rankers(2000, 5, 0.15, 0.5)
    args = (y, {"a": a, "b": b}, CALLS, [("a", "b")])
    full = power_study(*args[:3], pairs=[("a", "b")], fractions=(0.2,), n_subsets=8, n_samples=30, seed=3)
    diff = full.loc[full["test"] == full["test"].iloc[0], "full_difference"].to_numpy()
    common = (y, args[1], CALLS, [("a", "b")], diff[None, :], 8, 30, power.TESTS, 0.05)
    seed = np.random.SeedSequence(3).spawn(1)[0]
    whole = power._fraction_rows(0.2, seed, 0, 8, *common)[0]
    parts = [power._fraction_rows(0.2, seed, lo, hi, *common)[0] for lo, hi in ((0, 3), (3, 4), (4, 8))]
    for test in power.TESTS:
        np.testing.assert_array_equal(sum(p[test] for p in parts), whole[test])
    assert any(0 < whole[t][0].max() < 8 for t in power.TESTS)  # not all or nothing: the counts can tell


def test_each_subset_size_draws_from_its_own_random_stream(monkeypatch):
    # 40 positives, 160 negatives: fractions 0.5 and 0.502 both give 20 + 80 compounds (0.502 * 40 = 20.08,
    # 0.502 * 160 = 80.32), so one shared seed would draw the very same subsets for both sizes
    y = np.r_[np.ones(40, bool), np.zeros(160, bool)]
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=200) + y, rng.normal(size=200) + 0.5 * y
    drawn, streams = {}, {}
    draw, rows = power.stratified_subsets, power._fraction_rows

    def spy_draw(y, fraction, n_subsets, rng):
        drawn[fraction] = draw(y, fraction, n_subsets, rng)
        return drawn[fraction]

    def spy_rows(fraction, seed, *rest):
        streams[fraction] = np.random.default_rng(seed).integers(0, 2**63, size=4).tolist()
        return rows(fraction, seed, *rest)

    monkeypatch.setattr(power, "stratified_subsets", spy_draw)
    monkeypatch.setattr(power, "_fraction_rows", spy_rows)
    fractions = (0.5, 0.502, 0.25)
    table = power_study(
        y,
        {"a": a, "b": b},
        CALLS,
        pairs=[("a", "b")],
        fractions=fractions,
        n_subsets=4,
        n_samples=50,
        tests=["paired_t"],
        seed=7,
    )
    assert table["size"].tolist() == [100, 100, 100, 100, 50, 50]  # 2 metrics x 3 sizes
    assert sorted(drawn) == sorted(fractions) and sorted(streams) == sorted(fractions)
    assert (drawn[0.5].n_pos, drawn[0.5].n_neg) == (drawn[0.502].n_pos, drawn[0.502].n_neg) == (20, 80)
    # independent streams: the same-sized subsets of the two sizes differ (C(40, 20) C(160, 80) ways to draw one)
    assert all(not np.array_equal(p, q) for p, q in zip(drawn[0.5].rows, drawn[0.502].rows))
    assert len({tuple(v) for v in streams.values()}) == 3  # three different generator streams


def _table(power_of):
    """A hand-made power table: one pair, every panel metric and test, two sizes; power from ``power_of``."""
    import pandas as pd

    rows = []
    for call in M.paper_metrics():
        for test in TESTS:
            for f in (0.1, 0.5):
                rows.append(
                    {
                        "a": "irv",
                        "b": "svm",
                        "metric": call.key,
                        "label": call.label,
                        "test": test,
                        "fraction": f,
                        "size": int(4000 * f),
                        "positives": int(150 * f),
                        "full_difference": 0.01,
                        "power": power_of(call.key, test, f),
                        "wrong": 0.0,
                    }
                )
    return pd.DataFrame(rows)


def test_power_claims_follow_the_table():
    from crocbench.paper import power_claims
    from crocbench.report import power_markdown, power_notes

    def paper_world(metric, test, f):  # CROC best, paired permutation best, power rising with size
        base = 0.9 if metric.startswith("croc") else 0.5
        return min(1.0, base * (1.0 if test == "paired_permutation" else 0.8) * (1 + f))

    claims = power_claims(_table(paper_world))
    assert [c.holds for c in claims] == [True, True, True, True, True]

    def other_world(metric, test, f):  # ROC best, Wilcoxon best
        return 0.95 if metric == "roc" else 0.9 if test == "paired_wilcoxon" else 0.3

    # CROC beaten by ROC; CROC = CAC = cutoffs (ties count as supported); Wilcoxon first; ROC beats CROC on IRV-SVM
    assert [c.holds for c in power_claims(_table(other_world))] == [False, True, True, False, False]
    text = power_markdown(_table(paper_world), {"irv": "IRV", "svm": "SVM"})
    assert "### IRV vs SVM" in text and "| PP 10% | PP 50% |" in text
    assert text.count("\n| AUC[") == sum(c.label.startswith("AUC[") for c in M.paper_metrics())  # a row per metric
    assert "paired Wilcoxon 0.00" in power_notes(_table(paper_world))


def test_power_figures_are_written(tmp_path):
    from crocbench.plots import plot_power_by_metric, plot_power_by_test

    table = _table(lambda m, t, f: f)
    for fn, name in ((plot_power_by_metric, "m.png"), (plot_power_by_test, "t.png")):
        paths = fn(table, tmp_path / name)
        assert [p.suffix for p in paths] == [".png", ".pdf"] and all(p.stat().st_size > 5000 for p in paths)

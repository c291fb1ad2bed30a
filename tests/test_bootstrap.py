"""The bootstrap intervals (crocbench.stats.bootstrap): resamples drawn as counts equal resampled lists built and
sorted by brute force; AUC[ROC]'s spread equals DeLong's; coverage on simulated screens (-m statistics)."""

import numpy as np
import pytest
from _delong import delong_se
from scipy.stats import norm

from crocbench.metrics import METRICS, TIES, MetricCall, Ranking, paper_metrics, roc_auc
from crocbench.stats import bootstrap, bootstrap_values, check_resamples, draw_resamples, resamples_from_counts


def _every_metric(n):
    """Table 1 plus the metrics of a per-resample kind (average precision, LocAUC) and the other rank metrics."""
    calls = [c for c in paper_metrics(top_k=7, n=n) if c.key != "roc50"]  # ROC50 needs 50 negatives: ROC_3 below
    extra = [
        ("average_precision", {}),
        ("loc_auc", {"u0": 0.2}),
        ("enrichment_factor", {"fraction": 0.1}),
        ("precision_at_k", {"k": 5}),
        ("recall_at_k", {"k": 5}),
        ("r_precision", {}),
        ("roc_n", {"n": 3}),
        ("log_auc", {"lam": 0.05, "upper": 0.5}),
        ("adjusted_log_auc", {}),
        ("enrichment_factor", {"k": 4}),
        ("dcg", {"k": 6}),
        ("ndcg", {"k": 6}),
    ]
    assert {m for m, _ in extra} | {c.metric for c in calls} == set(METRICS)
    return calls + [MetricCall(m, m, m, p) for m, p in extra]


def _explicit_counts(y, s, ranking, pos_idx, neg_idx):
    """A resample given as the compounds drawn, turned into counts per tie group and per negative bin
    (independently of the library: from the scores' distinct values)."""
    pos_values = np.unique(s[y == 1])[::-1]  # the positives' tie groups, decreasing
    group = {v: g for g, v in enumerate(pos_values)}
    copies = np.bincount([group[v] for v in s[pos_idx]], minlength=pos_values.size)
    bins = []
    for v in s[neg_idx]:
        above = int((pos_values > v).sum())  # groups strictly above this negative
        tied = v in group
        bins.append(2 * group[v] + 1 if tied else 2 * above)
    binned = np.bincount(bins, minlength=2 * pos_values.size + 1)
    assert copies.size == ranking.pos_tied.size
    return copies, binned


@pytest.mark.parametrize("ties", TIES)
def test_resamples_equal_the_resampled_lists_sorted_by_brute_force(ties):
    rng = np.random.default_rng(7)
    n = 60
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.integers(0, 12, size=n).astype(float)  # many ties, within and across the classes
    ranking = Ranking(y, s)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    calls = _every_metric(n)
    draws = [(rng.choice(pos, pos.size), rng.choice(neg, neg.size)) for _ in range(25)]
    counts = [_explicit_counts(y, s, ranking, p, q) for p, q in draws]
    stacked = resamples_from_counts(ranking, np.array([c for c, _ in counts]), np.array([b for _, b in counts]))
    for call in calls:
        got = call.resampled(stacked, ties)
        want = [call.value(Ranking(y[np.r_[p, q]], s[np.r_[p, q]]), ties) for p, q in draws]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=call.key)
        one = stacked.ranking(3)  # one resample alone, as a Ranking, gives the same value too
        assert call.value(one, ties) == pytest.approx(want[3], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("ties", TIES)
def test_big_tie_groups_by_prefix_sums_equal_the_brute_force(ties):
    """A kNN-like list (most compounds tied at score 0, positives among them): the long tie intervals are
    averaged from prefix sums, and equal the resampled lists built and sorted by brute force to 1e-9."""
    rng = np.random.default_rng(11)
    n = 3000
    y = (rng.random(n) < 0.05).astype(int)
    s = np.where(rng.random(n) < 0.8, 0.0, rng.integers(1, 20, size=n) / 20)  # 80% tied at 0
    ranking = Ranking(y, s)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    draws = [(rng.choice(pos, pos.size), rng.choice(neg, neg.size)) for _ in range(6)]
    counts = [_explicit_counts(y, s, ranking, p, q) for p, q in draws]
    stacked = resamples_from_counts(ranking, np.array([c for c, _ in counts]), np.array([b for _, b in counts]))
    assert (stacked.neg_tied + stacked.pos_tied).max() > 1000  # the prefix-sum path is taken
    for call in paper_metrics(top_k=100, n=n):
        got = call.resampled(stacked, ties)
        want = [call.value(Ranking(y[np.r_[p, q]], s[np.r_[p, q]]), ties) for p, q in draws]
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=call.key)


def test_negative_bins_count_the_negatives_around_each_tie_group():
    # scores (label): 9(0) 8(1) 8(0) 8(0) 7(0) 6(1) 5(1) 5(0) 1(0): groups {8}, {6}, {5}
    y = [0, 1, 0, 0, 0, 1, 1, 0, 0]
    s = [9, 8, 8, 8, 7, 6, 5, 5, 1]
    assert Ranking(y, s).negative_bins().tolist() == [1, 2, 1, 0, 0, 1, 1]


def test_drawn_counts_are_a_stratified_bootstrap():
    """Each resample keeps the class sizes, and the resampled values are distributed as those of lists built by
    drawing compounds with replacement from each class (3000 of each: means within 4 SE, SDs within 8%)."""
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(30), np.zeros(300)]
    s = np.round(rng.normal(size=330) + y, 1)  # ties across the classes
    ranking = Ranking(y, s)
    drawn = draw_resamples(ranking, 3000, np.random.default_rng(1))
    assert np.all(np.bincount(drawn.resample, weights=drawn.pos_tied) == 30)
    calls = [c for c in paper_metrics(top_k=10, n=330) if c.key in ("roc", "croc_exp_14", "bedroc_20", "top10")]
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    lists = [np.r_[rng.choice(pos, 30), rng.choice(neg, 300)] for _ in range(3000)]
    for call in calls:
        fast = call.resampled(drawn)
        brute = np.array([call.value(Ranking(y[i], s[i])) for i in lists])
        assert abs(fast.mean() - brute.mean()) < 4 * brute.std() / np.sqrt(3000 / 2), call.key
        assert fast.std() == pytest.approx(brute.std(), rel=0.08), call.key


def _delong_brute_force(y, s):
    """DeLong's SE from the placement values, by comparing every positive with every negative."""
    pos, neg = s[y == 1], s[y == 0]
    v10 = np.array([((neg < p).sum() + 0.5 * (neg == p).sum()) / neg.size for p in pos])
    v01 = np.array([((pos > q).sum() + 0.5 * (pos == q).sum()) / pos.size for q in neg])
    return np.sqrt(v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size)


def test_the_midrank_delong_is_the_brute_force_one():
    rng = np.random.default_rng(2)
    y = np.r_[np.ones(40), np.zeros(300)]
    s = np.round(rng.normal(size=340) + y, 1)  # ties
    assert delong_se(y, s) == pytest.approx(_delong_brute_force(y, s), rel=1e-12)


def test_auc_bootstrap_spread_equals_delong():
    """The bootstrap SD of AUC[ROC] is DeLong's SE to within 5% (4000 resamples: the SD's own error is ~1%)."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(300), np.zeros(3000)]
    s = rng.normal(size=y.size) + 1.2 * y
    (iv,) = bootstrap(y, s, paper_metrics()[:1], n_resamples=4000, seed=0)
    se = delong_se(y, s)
    assert iv.value == pytest.approx(roc_auc(y, s), abs=1e-15)
    assert iv.se == pytest.approx(se, rel=0.05)
    assert iv.low == pytest.approx(iv.value - norm.ppf(0.975) * se, abs=0.25 * se)
    assert iv.high == pytest.approx(iv.value + norm.ppf(0.975) * se, abs=0.25 * se)


def test_same_seed_same_values_and_chunks_do_not_matter(monkeypatch):
    rng = np.random.default_rng(5)
    y = np.r_[np.ones(40), np.zeros(400)]
    s = rng.normal(size=440) + y
    a = bootstrap_values(y, s, n_resamples=300, seed=11)
    np.testing.assert_array_equal(a, bootstrap_values(y, s, n_resamples=300, seed=11))
    assert not np.array_equal(a, bootstrap_values(y, s, n_resamples=300, seed=12))
    assert a.shape == (300, len(paper_metrics()))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_resamples": 99}, "at least 100"),
        ({"n_resamples": 100.0}, "whole number"),
        ({"level": 1.0}, "level must be in"),
        ({"ties": "random"}, "ties must be one of"),
    ],
)
def test_bad_arguments_are_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message) as exc:
        bootstrap([1, 0, 1, 0], [4, 3, 2, 1], **kwargs)
    assert "\n" not in str(exc.value)


def test_check_resamples():
    assert check_resamples(100) == 100
    with pytest.raises(ValueError, match="got 0"):
        check_resamples(0)


def test_coverage_is_the_same_for_any_number_of_processes():
    """The screens and their resamples do not depend on how the processes share them; against a loop written here."""
    from crocbench.stats import bootstrap
    from crocbench.stats._coverage import coverage, coverage_metrics, population_values, simulated_screen

    calls, covered, width = coverage(7, 100, seed=3, n_pos=20, n_neg=300)
    truth = population_values(calls, 20, 300)
    rng = np.random.default_rng(3)
    hits, widths = np.zeros(len(calls)), np.zeros(len(calls))
    for r in range(7):
        y, s = simulated_screen(rng, 20, 300)
        iv = bootstrap(y, s, coverage_metrics(320), n_resamples=100, seed=r)
        low, high = np.array([i.low for i in iv]), np.array([i.high for i in iv])
        hits += (low <= truth) & (truth <= high)
        widths += high - low
    np.testing.assert_array_equal(covered, hits / 7)
    np.testing.assert_array_equal(width, widths / 7)
    for n_jobs in (2, 3):
        _, c, w = coverage(7, 100, seed=3, n_pos=20, n_neg=300, n_jobs=n_jobs)
        np.testing.assert_array_equal(c, covered)
        np.testing.assert_array_equal(w, width)


@pytest.mark.statistics
def test_coverage_of_every_metric_on_simulated_screens():
    """1,000 binormal screens (200 positives N(1.5, 1), 5,000 negatives N(0, 1)), 1,000 resamples each: every
    metric's 95% interval holds its population value in 93-97% of them (the binomial SE is 0.7 points). Two
    processes share the screens (test_coverage_is_the_same_for_any_number_of_processes)."""
    from crocbench.stats._coverage import coverage

    calls, covered, _ = coverage(1000, 1000, n_jobs=2)
    bad = {c.label: round(100 * v, 1) for c, v in zip(calls, covered) if not 0.93 <= v <= 0.97}
    assert not bad, f"coverage outside 93-97%: {bad}"

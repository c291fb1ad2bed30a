"""The other papers' metrics: perf (KDD Cup 2004), TAP-k, LocAUC and the IR measures.

Expected values are hand-computed from the sources' own examples, counted by
brute force (all orderings of tied items, all pairs) or taken from an
independent implementation (scikit-learn).
"""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score

from crocbench import metrics as M
from crocbench import stats as S

# Weber, section 1.5: the 20-instance example with its TP/FP/ACC table (threshold = row's score).
WEBER20_CLASS = "PPNPPPNNPNPNPNNNPNPN"
WEBER20_SCORE = [
    0.90,
    0.80,
    0.70,
    0.60,
    0.55,
    0.54,
    0.53,
    0.52,
    0.51,
    0.50,
    0.40,
    0.39,
    0.38,
    0.37,
    0.36,
    0.35,
    0.34,
    0.33,
    0.30,
    0.10,
]
WEBER20_ACC = [55, 60, 55, 60, 65, 70, 65, 60, 65, 60, 65, 60, 65, 60, 55, 50, 55, 50, 55, 50]
WEBER20_TPR = [10, 20, 20, 30, 40, 50, 50, 50, 60, 60, 70, 70, 80, 80, 80, 80, 90, 90, 100, 100]
WEBER20_FPR = [0, 0, 10, 10, 10, 10, 20, 30, 30, 40, 40, 50, 50, 60, 70, 80, 80, 90, 90, 100]
Y20 = np.array([c == "P" for c in WEBER20_CLASS])
S20 = np.array(WEBER20_SCORE)

# Weber, section 1.4: 5 relevant documents; the table's p_i and r_i by rank.
WALK_RELEVANT = [1, 2, 4, 6, 13]
WALK_P = [1.00, 1.00, 0.67, 0.75, 0.60, 0.67, 0.57, 0.50, 0.44, 0.40, 0.36, 0.33, 0.38, 0.36]
WALK_R = [0.20, 0.40, 0.40, 0.60, 0.60, 0.80, 0.80, 0.80, 0.80, 0.80, 0.80, 0.80, 1.00, 1.00]
Y_WALK = np.isin(np.arange(1, 15), WALK_RELEVANT)
S_WALK = -np.arange(14.0)


def _orderings(y, s):
    """Every distinct labelling order consistent with the scores (descending), as (labels, scores)."""
    values = sorted(set(s.tolist()), reverse=True)
    groups = [sorted(y[s == v].tolist()) for v in values]
    for combo in itertools.product(*[sorted(set(itertools.permutations(g))) for g in groups]):
        labels = [lab for g in combo for lab in g]
        scores = [v for v, g in zip(values, combo) for _ in g]
        yield np.array(labels, dtype=bool), np.array(scores)


def _ap_by_walking(labels):
    hits, total = 0, 0.0
    for rank, lab in enumerate(labels, start=1):
        if lab:
            hits += 1
            total += hits / rank
    return total / hits


def _heavy_ties(seed, n=9):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.45
    y[:2] = [True, False]
    return y, rng.integers(0, 4, size=n).astype(float)


# --- the sources' own examples ------------------------------------------------------------


def test_weber_20_instances_accuracy_tpr_fpr_table():
    for t, acc, tpr, fpr in zip(S20, WEBER20_ACC, WEBER20_TPR, WEBER20_FPR):
        assert M.accuracy(Y20, S20, t) == pytest.approx(acc / 100)
        assert M.recall(Y20, S20, threshold=t) == pytest.approx(tpr / 100)
        assert M.fallout(Y20, S20, threshold=t) == pytest.approx(fpr / 100)
    best = max(S20, key=lambda t: M.accuracy(Y20, S20, t))
    assert best == 0.54  # "highest accuracy with T = 0.54"


def test_weber_20_instances_auc_and_perf_swaps():
    # negatives above each positive: 0,0,1,1,1,3,4,5,8,9 -> 32 of 100 pairs misordered
    assert M.roc_auc(Y20, S20) == pytest.approx(1 - 32 / 100)
    # perf: AUC = 1 - (# adjacent swaps to repair the sort) / (P x N), by bubble sort
    labels, swaps = list(Y20), 0
    changed = True
    while changed:
        changed = False
        for i in range(len(labels) - 1):
            if not labels[i] and labels[i + 1]:
                labels[i], labels[i + 1] = labels[i + 1], labels[i]
                swaps += 1
                changed = True
    assert M.roc_auc(Y20, S20) == pytest.approx(1 - swaps / (10 * 10))


def test_weber_precision_recall_walkthrough():
    r, p = M.precision_recall_curve(Y_WALK, S_WALK)
    np.testing.assert_allclose(p, WALK_P, atol=0.005)
    np.testing.assert_allclose(r, WALK_R)
    # "P-R pair for the first 4 documents: p = 3/4, r = 3/5"
    assert (M.precision(Y_WALK, S_WALK, k=4), M.recall(Y_WALK, S_WALK, k=4)) == (0.75, 0.6)
    assert M.average_precision(Y_WALK, S_WALK) == pytest.approx((1 + 1 + 3 / 4 + 4 / 6 + 5 / 13) / 5)
    assert M.r_precision(Y_WALK, S_WALK) == pytest.approx(3 / 5)
    assert M.precision_at_k(Y_WALK, S_WALK, 6) == pytest.approx(4 / 6)
    assert M.recall_at_k(Y_WALK, S_WALK, 6) == pytest.approx(4 / 5)
    # interpolated: best precision at this recall or beyond
    _, pi = M.precision_recall_curve(Y_WALK, S_WALK, interpolated=True)
    brute = [max(pp for pp, rr in zip(p, r) if rr >= r0) for r0 in r]
    np.testing.assert_allclose(pi, brute)
    assert M.precision_at_recall(Y_WALK, S_WALK, 0.6) == pytest.approx(0.75)
    assert M.precision_at_recall(Y_WALK, S_WALK, 1.0) == pytest.approx(5 / 13)


def test_f_beta_limits_and_hand_value():
    p, r = 3 / 4, 3 / 5
    assert M.f_beta(Y_WALK, S_WALK, 1.0, k=4) == pytest.approx(2 * p * r / (p + r))
    assert M.f_beta(Y_WALK, S_WALK, 0.0, k=4) == pytest.approx(p)
    assert M.f_beta(Y_WALK, S_WALK, 1e6, k=4) == pytest.approx(r, rel=1e-6)
    assert M.f_beta(Y_WALK, S_WALK, 2.0, k=4) == pytest.approx(5 * p * r / (4 * p + r))


def test_weber_total_recall_identity():
    # f p (1 - g) = r g (1 - p), g = |relevant| / |all|
    for k in range(1, 14):
        c = M.confusion(Y_WALK, S_WALK, k=k)
        g = 5 / 14
        assert c.fallout * c.precision * (1 - g) == pytest.approx(c.recall * g * (1 - c.precision))


def test_micro_and_macro_averaging_by_hand():
    # query a: 3 retrieved, 2 relevant of 4; query b: 1 retrieved, 1 relevant of 1
    y = np.array([1, 1, 0, 1, 1, 0, 1, 0, 0])
    s = np.array([9, 8, 7, 1, 1, 0, 5, 1, 1])
    q = np.array(["a"] * 6 + ["b"] * 3)
    assert M.precision(y, s, threshold=5, groups=q) == pytest.approx((2 / 3 + 1) / 2)
    assert M.precision(y, s, threshold=5, groups=q, average="micro") == pytest.approx(3 / 4)
    assert M.recall(y, s, threshold=5, groups=q) == pytest.approx((2 / 4 + 1) / 2)
    assert M.recall(y, s, threshold=5, groups=q, average="micro") == pytest.approx(3 / 5)
    pm, rm = 3 / 4, 3 / 5
    assert M.f_beta(y, s, threshold=5, groups=q, average="micro") == pytest.approx(2 * pm * rm / (pm + rm))
    fa, fb = 2 * (2 / 3) * 0.5 / (2 / 3 + 0.5), 1.0
    assert M.f_beta(y, s, threshold=5, groups=q) == pytest.approx((fa + fb) / 2)
    assert M.confusion(y, s, threshold=5, groups=q) == M.Confusion(3, 1, 2, 3)
    # top-k per query: k = 2 from each
    assert M.precision(y, s, k=2, groups=q) == pytest.approx((1 + 0.5) / 2)


# --- perf ----------------------------------------------------------------------------------


def test_perf_top1_and_last_positive_rank_ties_do_not_help():
    y = np.array([1, 0, 1, 1, 1, 0, 1, 0])
    s = np.array([5, 5, 4, 1, 9, 3, 3, 3])
    q = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    # query 0: top tie {1, 0} has a negative -> 0; query 1: top is a positive alone -> 1
    assert M.top1(y, s, q) == 0.5
    # query 0: lowest positive score 1 -> rank 4; query 1: lowest positive 3, tied with 2 negatives -> rank 4
    assert M.last_positive_rank(y, s, q) == 4.0
    assert M.top1([1, 1, 0], [2, 2, 1]) == 1.0  # a tie of positives only counts
    assert M.top1([0, 1, 0], [3, 2, 1], groups=[0, 0, 1]) == 0.0  # query 1 has no positive: 0


def test_perf_cross_entropy_rmse_and_clamping():
    y, p = np.array([1, 0, 1, 0]), np.array([0.9, 0.2, 0.6, 0.5])
    expected = -(math.log(0.9) + math.log(0.8) + math.log(0.6) + math.log(0.5)) / 4
    assert M.cross_entropy(y, p) == pytest.approx(expected)
    assert M.rmse(y, p) == pytest.approx(math.sqrt((0.01 + 0.04 + 0.16 + 0.25) / 4))
    # an exactly wrong prediction is clamped to eps: adds -log(eps) / N
    assert M.cross_entropy([1, 0], [0.0, 0.0], eps=1e-15) == pytest.approx(-math.log(1e-15) / 2)
    assert M.cross_entropy([1, 0], [1.0, 0.0]) == pytest.approx(-math.log(1 - 1e-15), abs=1e-12)


def test_perf_slac_q_bins():
    # perf's example bin (350 positives, 150 negatives): (1 - 0.6)^2 = 0.16
    assert M.slac_q([1] * 350 + [0] * 150, [0.5] * 500) == pytest.approx(0.16)
    # pure bins score 1 whatever the labels' direction (SLQ ignores it)
    assert M.slac_q([1, 1, 0, 0], [0.05, 0.05, 0.95, 0.95]) == pytest.approx(1.0)
    # two bins of 2: one pure (weight 1/2), one 50/50 (weight 0): 0.5
    assert M.slac_q([1, 1, 1, 0], [0.011, 0.019, 0.5, 0.5]) == pytest.approx(0.5)
    # 0.29 belongs to bin [0.29, 0.30), not [0.28, 0.29); 1.0 to the last bin
    assert M.slac_q([1, 0], [0.29, 0.289]) == pytest.approx(1.0)
    assert M.slac_q([1, 0], [0.29, 0.295]) == pytest.approx(0.0)
    assert M.slac_q([1, 1], [1.0, 0.995]) == pytest.approx(1.0)
    assert M.slac_q([1, 0], [0.3, 0.7], bins=1) == pytest.approx(0.0)


# --- average precision: exact ties ---------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_average_precision_ties_equal_mean_over_all_orderings(seed):
    y, s = _heavy_ties(seed)
    walked = [_ap_by_walking(labels) for labels, _ in _orderings(y, s)]
    assert M.average_precision(y, s) == pytest.approx(np.mean(walked), abs=1e-12)
    assert M.average_precision(y, s, ties="optimistic") == pytest.approx(max(walked), abs=1e-12)
    assert M.average_precision(y, s, ties="pessimistic") == pytest.approx(min(walked), abs=1e-12)


def test_average_precision_one_big_tie_is_the_random_expectation():
    # every item tied: expected AP of a random ordering, by brute force over C(8, 3) placements
    n, p = 8, 3
    walked = []
    for pos in itertools.combinations(range(n), p):
        labels = np.zeros(n, dtype=bool)
        labels[list(pos)] = True
        walked.append(_ap_by_walking(labels))
    y = np.zeros(n, dtype=bool)
    y[:p] = True
    assert M.average_precision(y, np.zeros(n)) == pytest.approx(np.mean(walked), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_average_precision_without_ties_equals_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.random(5000) < 0.05
    s = rng.normal(size=5000) + y
    assert M.average_precision(y, s) == pytest.approx(average_precision_score(y, s), abs=1e-12)


def test_average_precision_large_ties_fast_and_between_bounds():
    rng = np.random.default_rng(0)
    y = rng.random(1_000_000) < 0.035
    s = np.minimum(rng.binomial(20, 0.05 + 0.3 * y), 20) / 20.0
    ap = M.average_precision(y, s)
    assert M.average_precision(y, s, ties="pessimistic") < ap < M.average_precision(y, s, ties="optimistic")


# --- LocAUC ----------------------------------------------------------------------------------


def _loc_auc_pairs(y, s, u0):
    """Clemencon & Vayatis' empirical LocAUC by counting pairs (ties count 1/2)."""
    n = s.size
    q = np.sort(s)[::-1][max(1, math.ceil(u0 * n - 1e-9)) - 1]
    pos, neg = s[y], s[~y]
    total = sum(((p > neg).sum() + 0.5 * (p == neg).sum()) for p in pos if p >= q)
    return total / (pos.size * neg.size)


@pytest.mark.parametrize("u0", [0.05, 0.1, 0.3, 0.5, 1.0])
@pytest.mark.parametrize("ties", [False, True])
def test_loc_auc_equals_brute_force_pair_count(u0, ties):
    rng = np.random.default_rng(int(u0 * 100) + ties)
    y = rng.random(300) < 0.2
    s = rng.normal(size=300) + y
    s = np.round(s, 1) if ties else s
    assert M.loc_auc(y, s, u0) == pytest.approx(_loc_auc_pairs(y, s, u0), abs=1e-12)


def test_loc_auc_at_one_is_roc_and_increases_with_u0():
    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.1
    s = rng.normal(size=500) + 2 * y
    assert M.loc_auc(y, s, 1.0) == pytest.approx(M.roc_auc(y, s))
    values = [M.loc_auc(y, s, u) for u in np.linspace(0.01, 1, 30)]
    assert np.all(np.diff(values) >= -1e-15)


def test_loc_auc_theorem_9_decomposition_from_the_roc_curve():
    # LocAUC = int_0^a beta(alpha) d alpha + b (1 - a), (a, b) the ROC point at the threshold Q
    rng = np.random.default_rng(4)
    y = rng.random(400) < 0.15
    s = rng.normal(size=400) + 1.5 * y
    for u0 in (0.05, 0.2, 0.6):
        q = np.sort(s)[::-1][math.ceil(u0 * s.size) - 1]
        a, b = (s[~y] >= q).mean(), (s[y] >= q).mean()
        fpr, tpr = M.roc_curve(y, s)
        keep = fpr <= a
        area = np.sum(np.diff(fpr[keep]) * (tpr[keep][1:] + tpr[keep][:-1]) / 2)
        assert M.loc_auc(y, s, u0) == pytest.approx(area + b * (1 - a), abs=1e-12)


def test_loc_auc_ties_equal_mean_over_orderings():
    for seed in range(4):
        y, s = _heavy_ties(seed)
        values = []
        for labels, scores in _orderings(y, s):
            # a strict order: break the ties by position, keep the score threshold of the tie groups
            q = np.sort(s)[::-1][math.ceil(0.4 * s.size) - 1]
            negs_above = np.cumsum(~labels) - ~labels
            values.append(np.sum((1 - negs_above[labels] / (~labels).sum()) * (scores[labels] >= q)) / labels.sum())
        assert M.loc_auc(y, s, 0.4) == pytest.approx(np.mean(values), abs=1e-12)


# --- TAP-k and ROC_n per query ----------------------------------------------------------------


def _tap_by_walking(y, s, groups, k):
    """TAP-k from its definition, one sorted list per query (no ties)."""
    queries = sorted(set(groups))
    kth = []
    for q in queries:
        neg = sorted(s[(groups == q) & ~y], reverse=True)
        kth.append(neg[k - 1] if len(neg) >= k else -np.inf)
    e0 = np.median(kth)
    taps = []
    for q in queries:
        order = np.argsort(-s[groups == q])
        labels, scores = y[groups == q][order], s[groups == q][order]
        total, hits, retrieved = 0.0, 0, 0
        for rank, (lab, sc) in enumerate(zip(labels, scores), start=1):
            if sc < e0:
                break
            retrieved += 1
            if lab:
                hits += 1
                total += hits / rank
        taps.append((total + (hits / retrieved if retrieved else 0.0)) / (labels.sum() + 1))
    return np.mean(taps), e0


@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("n_queries", [1, 4, 7])
def test_tap_k_equals_its_definition(k, n_queries):
    rng = np.random.default_rng(k * 10 + n_queries)
    groups = rng.integers(0, n_queries, size=400)
    y = rng.random(400) < 0.2
    y[:n_queries] = True
    groups[:n_queries] = np.arange(n_queries)
    s = rng.normal(size=400) + y * rng.normal(1.0, 1.0, size=400)
    expected, e0 = _tap_by_walking(y, s, groups, k)
    assert M.tap_threshold(y, s, groups, k) == pytest.approx(e0)
    assert M.tap_k(y, s, groups, k) == pytest.approx(expected, abs=1e-12)
    if n_queries % 2:  # odd number of queries: the median query retrieves exactly k negatives
        retrieved = [np.sum((s >= e0) & ~y & (groups == q)) for q in range(n_queries)]
        assert np.median(retrieved) == k


def test_tap_k_ties_equal_mean_over_orderings():
    for seed in range(4):
        y, s = _heavy_ties(seed, n=8)
        e0 = M.tap_threshold(y, s, None, 2)
        walked = []
        for labels, scores in _orderings(y, s):
            total, hits = 0.0, 0
            for rank, (lab, sc) in enumerate(zip(labels, scores), start=1):
                if lab and sc >= e0:
                    hits += 1
                    total += hits / rank
            retrieved = np.sum(scores >= e0)
            walked.append((total + hits / retrieved) / (labels.sum() + 1))
        assert M.tap_k(y, s, k=2) == pytest.approx(np.mean(walked), abs=1e-12)


def test_pooled_roc_n_differs_from_the_mean_over_queries():
    # Carroll et al.'s point: one query with very high scores dominates the pooled list.
    y = np.array([1, 0, 0, 0] + [1, 0, 0, 0])
    s = np.array([9.0, 8, 7, 6] + [1.0, 2, 3, 4])
    q = np.array([0] * 4 + [1] * 4)
    # per query ROC_2: query 0 perfect (1), query 1 worst (0) -> 0.5
    assert M.roc_n_per_query(y, s, q, n=2) == pytest.approx(0.5)
    assert M.roc_n(y, s, 2) == pytest.approx(0.5)  # pooled: 9 on top, 1 below all -> (1 + 0) / 2
    s3 = s.copy()
    s3[4:] = [5.5, 5.4, 5.3, 5.2]  # query 1 now perfect too, but below query 0's negatives
    assert M.roc_n_per_query(y, s3, q, n=2) == pytest.approx(1.0)
    assert M.roc_n(y, s3, 2) == pytest.approx(0.5)


def test_mean_average_precision_and_per_query_series():
    y = np.array([1, 0, 1, 0, 0, 1])
    s = np.array([3.0, 2, 1, 3, 2, 1])
    q = np.array(["a", "a", "a", "b", "b", "b"])
    per = M.per_query(y, s, q, M.average_precision)
    assert per.to_dict() == pytest.approx({"a": (1 + 2 / 3) / 2, "b": 1 / 3})
    assert M.mean_average_precision(y, s, q) == pytest.approx(per.mean())


def test_undefined_query_is_named_or_skipped_with_a_warning():
    y, s, q = [1, 0, 0, 0], [2, 1, 2, 1], ["a", "a", "b", "b"]
    with pytest.raises(ValueError, match="query 'b'.*no positives"):
        M.mean_average_precision(y, s, q)
    with pytest.warns(RuntimeWarning, match="1 of 2 queries left out"):
        assert M.mean_average_precision(y, s, q, skip_undefined=True) == 1.0
    with pytest.raises(ValueError, match="query 'b'.*no positives"):
        M.tap_k(y, s, q, k=1)


# --- significance tests and bad input ------------------------------------------------------------


def test_mean_over_positive_metrics_plug_into_the_tests():
    rng = np.random.default_rng(5)
    y = rng.random(2000) < 0.05
    a, b = rng.normal(size=2000) + 2 * y, rng.normal(size=2000) + 0.5 * y
    for spec, fn in [
        ("average_precision", M.average_precision),
        ("r_precision", M.r_precision),
        ("precision_at_k:k=100", lambda y_, s_: M.precision_at_k(y_, s_, 100)),
        ("loc_auc:u0=0.05", lambda y_, s_: M.loc_auc(y_, s_, 0.05)),
    ]:
        c = S.compare(y, a, b, spec, tests=["paired_permutation", "paired_t"], n_samples=999)
        assert (c.value_a, c.value_b) == (pytest.approx(fn(y, a)), pytest.approx(fn(y, b)))
        assert c.results["paired_permutation"].p_value < 0.01


def test_metrics_without_a_position_function_have_no_random_baseline():
    with pytest.raises(ValueError, match="no exact random baseline"):
        M.random_baseline("average_precision", 100, 10)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: M.average_precision([1, 0, 1], [0.1, 0.2]), "differ in length"),
        (lambda: M.average_precision([0, 0], [0.1, 0.2]), "no positives"),
        (lambda: M.loc_auc([1, 0], [0.1, 0.2], u0=0), "u0"),
        (lambda: M.loc_auc([1, 0], [0.1, 0.2], u0=1.5), "u0"),
        (lambda: M.precision_at_k([1, 0], [0.1, 0.2], 3), "k must be at most 2, the list's compounds; got 3"),
        (lambda: M.precision([1, 0, 2], [0.1, 0.2, 0.3], k=1), "binary"),
        (lambda: M.precision([1, 0], [0.1, np.nan], k=1), "NaN or infinite"),
        (lambda: M.precision([1, 0], [0.1, 0.2]), "exactly one of k"),
        (lambda: M.precision([1, 0], [0.1, 0.2], k=1, threshold=0.5), "exactly one of k"),
        (lambda: M.precision([1, 0], [0.1, 0.2], threshold=0.5), "precision is undefined: nothing is retrieved"),
        (lambda: M.precision([1, 0], [0.1, 0.2], k=3), r"k must be an integer in \[1, 2\]"),
        (lambda: M.precision([1, 0], [0.1, 0.2], k=1, average="weighted"), "average must be one of"),
        (lambda: M.recall([0, 0], [0.1, 0.2], k=1), "recall is undefined: there are no positives"),
        (lambda: M.f_beta([1, 0], [0.1, 0.2], -1, k=1), "beta"),
        (lambda: M.precision([1, 0], [0.1, 0.2], k=1, groups=[0]), "one query id per score"),
        (lambda: M.cross_entropy([1, 0], [0.1, 1.2]), r"needs probabilities in \[0, 1\]; found 1.2 at index 1"),
        (lambda: M.slac_q([1, 0], [-0.1, 0.2]), r"needs probabilities in \[0, 1\]"),
        (lambda: M.slac_q([1, 0], [0.1, 0.2], bins=0), "bins"),
        (lambda: M.tap_k([1, 0], [0.1, 0.2], k=0), "k must be a positive integer"),
        (lambda: M.last_positive_rank([0, 0], [0.1, 0.2]), "no positives"),
        (lambda: M.precision_at_recall([1, 0], [0.1, 0.2], 1.5), "recall_level"),
        (
            lambda: M.roc_n_per_query([1, 0, 1, 0], [1, 0, 1, 0], [0, 0, 1, 1], n=2),
            "query 0: .*n must be at most 1, the list's negatives; got 2",
        ),
    ],
)
def test_bad_input_raises_value_error_naming_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_per_query_accepts_pandas_and_mixed_ids():
    df = pd.DataFrame({"y": [1, 0, 1, 0], "s": [2, 1, 2, 1], "q": [1, 1, "x", "x"]})
    per = M.per_query(df["y"], df["s"], df["q"].to_numpy(dtype=object), M.roc_auc)
    assert sorted(per.index) == ["1", "x"] and per.tolist() == [1.0, 1.0]

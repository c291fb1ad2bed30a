"""logAUC, DCG, NDCG and the enrichment factor at a count, against independent implementations.

scikit-learn (dcg_score, ndcg_score, roc_curve), RDKit's Scoring module, scikit-fingerprints where it is installed,
a brute-force integration of the step ROC on a log axis, and random permutations for the exact baselines.  The
exact ties are checked against every ordering of the tied items in tests/test_metrics.py.
"""

import math

import numpy as np
import pytest
from sklearn.metrics import auc, dcg_score, ndcg_score, roc_curve

from crocbench import metrics as M


def _lists(seed: int, ties: bool, n_range=(50, 3000)):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(*n_range))
    y = rng.random(n) < rng.uniform(0.02, 0.4)
    y[:2] = [True, False]
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s, 1)
    return y, s


# --- logAUC: the step ROC integrated on a log axis, two ways ----------------------------------------


def _log_auc_by_segments(y, s, lam, upper):
    """The step ROC walked negative by negative: TPR is constant on [k/m, (k+1)/m); each piece's width on the
    log10 axis, clipped to [lam, upper], times its TPR (no ties)."""
    order = np.argsort(-s, kind="stable")
    labels = y[order]
    m, p = int((~y).sum()), int(y.sum())
    tp_before_negative = np.cumsum(labels)[~labels]  # positives above the k-th negative, k = 1..m
    tpr = np.concatenate([tp_before_negative, [p]]) / p  # TPR on [k/m, (k+1)/m) for k = 0..m
    area = 0.0
    for k in range(m + 1):
        a, b = max(lam, k / m), min(upper, (k + 1) / m)
        if b > a:
            area += tpr[k] * (math.log10(b) - math.log10(a))
    return area / math.log10(upper / lam)


def _log_auc_by_trapezoids(y, s, lam, upper):
    """scikit-learn's ROC points at every threshold, FPR clipped to [lam, upper], and the trapezoid rule on
    (log10 FPR, TPR): exact for the step curve when no scores tie, as every segment is then flat or vertical."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    return auc(np.log10(np.clip(fpr, lam, upper)), tpr) / math.log10(upper / lam)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("lam,upper", [(0.001, 1.0), (0.001, 0.1), (0.01, 0.5), (0.3, 0.9)])
def test_log_auc_equals_the_step_roc_integrated_on_a_log_axis(seed, lam, upper):
    y, s = _lists(seed, ties=False)
    value = M.log_auc(y, s, lam=lam, upper=upper)
    assert value == pytest.approx(_log_auc_by_segments(y, s, lam, upper), abs=1e-12)
    assert value == pytest.approx(_log_auc_by_trapezoids(y, s, lam, upper), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_log_auc_with_ties_lies_between_the_pessimistic_and_optimistic_values(seed):
    y, s = _lists(seed, ties=True)
    lo, mid, hi = (M.log_auc(y, s, upper=0.1, ties=t) for t in ("pessimistic", "expected", "optimistic"))
    assert lo <= mid <= hi and lo < hi


def test_log_auc_by_hand_and_its_extremes():
    # 10 negatives, lam = 0.1: a positive above j negatives counts log10(1 / max(j/10, 0.1)) / 1
    y = np.array([1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0])
    s = -np.arange(y.size, dtype=float)  # positives above 0, 2 and 6 negatives
    expected = (1 + math.log10(5) + math.log10(10 / 6)) / 3
    assert M.log_auc(y, s, lam=0.1) == pytest.approx(expected, abs=1e-15)
    assert M.log_auc(y, np.asarray(y, dtype=float), lam=0.001) == 1.0  # every positive first
    assert M.log_auc(y, -np.asarray(y, dtype=float), lam=0.001) == 0.0  # every positive last


@pytest.mark.parametrize("lam,upper,published", [(0.001, 1.0, 0.145), (0.001, 0.1, 0.0215)])
def test_the_published_random_log_aucs_come_out_of_the_exact_baseline(lam, upper, published):
    # docking's 0.145 (Mysinger & Shoichet 2010) and WelQrate's 0.0215 (Mendenhall & Meiler 2016), both quoted
    # to 3 significant figures, for a large list; their closed form (upper - lam) / ln(upper / lam)
    base = M.random_baseline("log_auc", 2_000_000, 20_000, lam=lam, upper=upper)
    assert round(base.mean, 3 if published > 0.1 else 4) == published
    assert base.mean == pytest.approx((upper - lam) / math.log(upper / lam), rel=1e-4)


def test_adjusted_log_auc_is_log_auc_less_the_exact_random_mean():
    y, s = _lists(3, ties=True)
    n, p = y.size, int(y.sum())
    plain = M.log_auc(y, s)
    assert M.log_auc(y, s, adjusted=True) == pytest.approx(plain - M.random_baseline("log_auc", n, p).mean, abs=1e-14)
    base = M.random_baseline("adjusted_log_auc", n, p)
    assert base.mean == pytest.approx(0.0, abs=1e-15)
    assert base.sd == pytest.approx(M.random_baseline("log_auc", n, p).sd, rel=1e-12)


@pytest.mark.parametrize("lam,upper", [(0.0, 1.0), (0.1, 0.1), (0.5, 0.2), (0.001, 1.5), ("x", 1.0)])
def test_log_auc_refuses_a_bad_fpr_range(lam, upper):
    with pytest.raises(ValueError, match="lam|upper|FPR range"):
        M.log_auc([1, 0, 1, 0], [4, 3, 2, 1], lam=lam, upper=upper)


# --- DCG and NDCG: scikit-learn ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("k", [None, 1, 10, 100, 10_000])
def test_dcg_and_ndcg_equal_scikit_learn(seed, ties, k):
    y, s = _lists(seed, ties)
    assert M.dcg(y, s, k=k) == pytest.approx(dcg_score([y], [s], k=k), abs=1e-12)
    assert M.ndcg(y, s, k=k) == pytest.approx(ndcg_score([y], [s], k=k), abs=1e-12)


@pytest.mark.parametrize("log_base", [math.e, 10])
def test_dcg_log_base_equals_scikit_learn(log_base):
    y, s = _lists(9, ties=True)
    assert M.dcg(y, s, k=50, log_base=log_base) == pytest.approx(
        dcg_score([y], [s], k=50, log_base=log_base), abs=1e-12
    )


def test_dcg_by_hand():
    y = [1, 0, 1, 1, 0]
    assert M.dcg(y, [5, 4, 3, 2, 1], k=3) == pytest.approx(1 + 1 / math.log2(4), abs=1e-15)
    # positives tied with one negative at ranks 1-2: each rank holds a positive with probability 1/2
    assert M.dcg([1, 0, 0], [2, 2, 1]) == pytest.approx((1 + 1 / math.log2(3)) / 2, abs=1e-15)
    assert M.ndcg([0, 1, 1, 0], [4, 3, 2, 1], k=2) == pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)))


# --- the enrichment factor at a count: RDKit, scikit-fingerprints ---------------------------------------------


def _rdkit_table(y, s):
    order = np.argsort(-s, kind="stable")
    return [[s[i], bool(y[i])] for i in order]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("fraction", [0.01, 0.05, 0.137])
def test_enrichment_factor_at_a_count_equals_rdkit(seed, fraction):
    from rdkit.ML.Scoring import Scoring

    y, s = _lists(seed, ties=False, n_range=(300, 3000))
    (rdkit_ef,) = Scoring.CalcEnrichment(_rdkit_table(y, s), 1, [fraction])
    k = math.ceil(fraction * y.size)  # RDKit's top of the list
    assert M.enrichment_factor(y, s, k=k) == pytest.approx(rdkit_ef, abs=1e-12)


def test_enrichment_factor_needs_exactly_one_of_fraction_and_count():
    with pytest.raises(ValueError, match="fraction or as a count"):
        M.enrichment_factor([1, 0, 1, 0], [4, 3, 2, 1])
    with pytest.raises(ValueError, match="fraction or as a count"):
        M.enrichment_factor([1, 0, 1, 0], [4, 3, 2, 1], fraction=0.5, k=2)
    with pytest.raises(ValueError, match=r"k must be at most 4, the list's compounds; got 5"):
        M.enrichment_factor([1, 0, 1, 0], [4, 3, 2, 1], k=5)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [False, True])
def test_scikit_fingerprints_metrics_agree(seed, ties):
    """scikit-fingerprints sorts by score only, so tied items keep their input order: with the positives put
    after their tied negatives, that is the pessimistic resolution.  It pins RDKit <= 2026.3.5 while the
    workflow pins a newer RDKit, so CI installs it without dependencies in its cross-check step."""
    skfp = pytest.importorskip("skfp.metrics", reason="scikit-fingerprints is not installed")
    y, s = _lists(seed, ties, n_range=(300, 3000))
    order = np.lexsort((y, -s))  # by score descending, and within a tie negatives first
    y, s = y[order], s[order]
    for alpha in (20.0, 80.0):
        assert M.bedroc(y, s, alpha, ties="pessimistic") == pytest.approx(skfp.bedroc_score(y, s, alpha=alpha))
        assert M.rie(y, s, alpha, ties="pessimistic") == pytest.approx(skfp.rie_score(y, s, alpha=alpha))
    for fraction in (0.01, 0.05):
        k = math.ceil(fraction * y.size)
        ef = skfp.enrichment_factor(y, s, fraction=fraction)
        assert M.enrichment_factor(y, s, k=k, ties="pessimistic") == pytest.approx(ef, abs=1e-12)


# --- the exact random baselines: 10,000 random permutations ---------------------------------------------------


def test_benchmark_panel_random_baselines_match_10000_permutations():
    n, p, reps = 300, 21, 10_000
    rng = np.random.default_rng(11)
    y = np.zeros(n, dtype=bool)
    y[:p] = True
    calls = M.benchmark_metrics()
    # call.value(r) is evaluate(r, call.definition(r.counts)); every permutation has the same counts, so each call's
    # definition is made once
    counts = M.Ranking(y, np.zeros(n)).counts  # the sizes only: (n, p, n - p)
    definitions = [c.definition(counts) for c in calls]
    sims = np.array(
        [[M.evaluate(r, d) for d in definitions] for r in (M.Ranking(y, rng.random(n)) for _ in range(reps))]
    )
    for call, values in zip(calls, sims.T):
        base = call.random(n, p)
        assert abs(values.mean() - base.mean) < 3 * base.sd / math.sqrt(reps), call.key
        assert values.std(ddof=1) == pytest.approx(base.sd, rel=0.05), call.key


def test_benchmark_panel_keys_parse_back_to_their_calls():
    for call in M.benchmark_metrics():
        assert M.parse_metric(call.key) == call
        spec = call.metric + ":" + ",".join(f"{k}={v}" for k, v in call.params.items())
        assert M.parse_metric(spec) == call

"""Metrics: hand-computed values, brute force over tie orderings, independent formulas."""

import math

import numpy as np
import pytest
from scipy import integrate
from sklearn.metrics import roc_auc_score

from crocbench import metrics as M

# The paper's worked example: positives at ranks {1, 2, 4, 5, 7} of 10.
Y_PAPER = np.array([1, 1, 0, 1, 1, 0, 1, 0, 0, 0])
S_PAPER = np.arange(10, 0, -1).astype(float)
RANKS_PAPER = np.array([1, 2, 4, 5, 7])
FPR_PAPER = np.array([0, 0, 0.2, 0.2, 0.4])


def f_exp(x, a):
    return (1 - math.exp(-a * x)) / (1 - math.exp(-a))


# --- the paper's worked example and hand-computed values ------------------------


def test_paper_example_fprs_and_ranks():
    r = M.Ranking(Y_PAPER, S_PAPER)
    np.testing.assert_allclose(r.fpr_values(lambda j: j / 5), FPR_PAPER)
    np.testing.assert_allclose(r.rank_values(lambda k: k), RANKS_PAPER)
    np.testing.assert_allclose(M.per_positive_values(Y_PAPER, S_PAPER, "roc_auc"), 1 - FPR_PAPER)


@pytest.mark.parametrize("alpha", [7.0, 14.0, 80.0])
def test_paper_example_croc_is_mean_of_one_minus_f_fpr(alpha):
    expected = np.mean([1 - f_exp(x, alpha) for x in FPR_PAPER])
    assert M.croc_auc(Y_PAPER, S_PAPER, alpha) == pytest.approx(expected, abs=1e-14)


def test_paper_example_other_areas_by_hand():
    n = 10
    assert M.roc_auc(Y_PAPER, S_PAPER) == pytest.approx(0.84, abs=1e-14)
    # slanted AC: a positive at rank r contributes 1 - (r - 1/2)/N
    assert M.ac_auc(Y_PAPER, S_PAPER) == pytest.approx(np.mean(1 - (RANKS_PAPER - 0.5) / n), abs=1e-14)
    a = 7.0
    cac = np.mean([1 - (f_exp((r - 1) / n, a) + f_exp(r / n, a)) / 2 for r in RANKS_PAPER])
    assert M.cac_auc(Y_PAPER, S_PAPER, a) == pytest.approx(cac, abs=1e-14)
    # hard cutoff t = 0.2: mean of max(0, 1 - FPR/t) = (1 + 1 + 0 + 0 + 0)/5
    assert M.roc_auc_cutoff(Y_PAPER, S_PAPER, 0.2) == pytest.approx(0.4, abs=1e-14)
    # ROC_2: each positive scores max(0, 2 - j)/2 with j = 0,0,1,1,2
    assert M.roc_n(Y_PAPER, S_PAPER, 2) == pytest.approx((1 + 1 + 0.5 + 0.5 + 0) / 5, abs=1e-14)
    # pROC: x0 = 0.5/N = 0.05; mean of log10(max(FPR, x0)) / log10(x0)
    x = np.maximum(FPR_PAPER, 0.05)
    assert M.proc_auc(Y_PAPER, S_PAPER) == pytest.approx(np.mean(np.log10(x) / np.log10(0.05)), abs=1e-14)
    assert M.slr(Y_PAPER, S_PAPER) == pytest.approx(-sum(math.log(r / n) for r in RANKS_PAPER), abs=1e-12)
    assert M.hits_at_k(Y_PAPER, S_PAPER, 4) == 3
    # EF at 20%: 2 hits in the top 2, (2/2)/(5/10) = 2
    assert M.enrichment_factor(Y_PAPER, S_PAPER, 0.2) == pytest.approx(2.0)
    a = 20.0
    rie = sum(math.exp(-a * r / n) for r in RANKS_PAPER) / (5 / n * (1 - math.exp(-a)) / (math.exp(a / n) - 1))
    assert M.rie(Y_PAPER, S_PAPER, a) == pytest.approx(rie, rel=1e-12)


def test_enrichment_factor_rounds_the_top_fraction_to_the_nearest_count():
    # documented: n_top = max(1, round(fraction * N)); EF = (hits in the top n_top / n_top) / (n_pos / N)
    # N = 10, 3 positives at ranks 1, 3 and 5; 27% of 10 = 2.7 -> top 3 (flooring would give top 2)
    y = np.array([1, 0, 1, 0, 1, 0, 0, 0, 0, 0])
    s = np.arange(10, 0, -1).astype(float)
    assert M.enrichment_factor(y, s, 0.27) == pytest.approx((2 / 3) / (3 / 10))  # 20/9; top 2 would be 5/3
    # N = 250, 5 positives at ranks 1, 3, 4, 100, 200; 1.1% of 250 = 2.75 -> top 3: 2 hits (floor: top 2, 1 hit)
    y = np.zeros(250, int)
    y[[0, 2, 3, 99, 199]] = 1
    s = -np.arange(250.0)
    assert M.enrichment_factor(y, s, 0.011) == pytest.approx((2 / 3) / (5 / 250))  # 33.33; floor: 25
    # a top share below one item still counts the top item: 0.1% of 250 = 0.25 -> max(1, 0) = 1
    assert M.enrichment_factor(y, s, 0.001) == pytest.approx((1 / 1) / (5 / 250))


def test_perfect_and_worst_rankings():
    y = np.r_[np.ones(7), np.zeros(93)]
    best, worst = -np.arange(100.0), np.arange(100.0)
    for name, kw in [
        ("roc_auc", {}),
        ("croc_auc", {"alpha": 80}),
        ("roc_auc_cutoff", {"t": 0.1}),
        ("roc_n", {"n": 50}),
        ("proc_auc", {}),
        ("bedroc", {"alpha": 20}),
    ]:
        assert M.score(y, best, name, **kw) == pytest.approx(1.0, abs=1e-12), name
        assert M.score(y, worst, name, **kw) == pytest.approx(0.0, abs=1e-12), name
    # AC: best = 1 - P/(2N), worst = P/(2N)
    assert M.ac_auc(y, best) == pytest.approx(1 - 7 / 200)
    assert M.ac_auc(y, worst) == pytest.approx(7 / 200)


# --- scikit-learn, RDKit -------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", [False, True])
def test_roc_auc_equals_sklearn(seed, ties):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 3000))
    y = rng.random(n) < rng.uniform(0.02, 0.5)
    y[:2] = [True, False]
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 1)
    assert M.roc_auc(y, s) == pytest.approx(roc_auc_score(y, s), abs=1e-12)


@pytest.mark.parametrize("alpha", [5.0, 20.0, 80.0])
@pytest.mark.parametrize("seed", range(3))
def test_bedroc_and_rie_equal_rdkit(alpha, seed):
    from rdkit.ML.Scoring import Scoring

    rng = np.random.default_rng(seed)
    n = 500
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + 1.5 * y
    order = np.argsort(-s)
    table = [[s[i], bool(y[i])] for i in order]
    assert M.bedroc(y, s, alpha) == pytest.approx(Scoring.CalcBEDROC(table, 1, alpha), rel=1e-9, abs=1e-12)
    assert M.rie(y, s, alpha) == pytest.approx(Scoring.CalcRIE(table, 1, alpha), rel=1e-9)


# --- ties -------------------------------------------------------------------------------------------------------


def test_tie_between_one_positive_and_m_negatives_is_uniform_over_j():
    # one positive tied with 3 negatives, 1 negative strictly above: j uniform on 1..4 of 5 negatives
    y = np.array([0, 1, 0, 0, 0, 0])
    s = np.array([9.0, 5, 5, 5, 5, 1])
    assert M.roc_auc(y, s) == pytest.approx(np.mean([1 - j / 5 for j in (1, 2, 3, 4)]))
    assert M.croc_auc(y, s, 10.0) == pytest.approx(np.mean([1 - f_exp(j / 5, 10.0) for j in (1, 2, 3, 4)]))


def test_ties_large_groups_stay_exact_and_fast():
    # 1,000,000 items in 21 tie groups (like kNN scores): expected AUC equals sklearn's
    rng = np.random.default_rng(0)
    y = rng.random(1_000_000) < 0.035
    s = np.minimum(rng.binomial(20, 0.05 + 0.3 * y), 20) / 20
    assert M.roc_auc(y, s) == pytest.approx(roc_auc_score(y, s), abs=1e-12)


# --- transforms and the random classifier --------------------------------------


@pytest.mark.parametrize(
    "alpha,x,fx", [(7, 0.1, 0.5038741699771014), (14, 0.05, 0.5034151148127162), (80, 0.0086, 0.49741977497457157)]
)
def test_paper_alphas_send_x_to_one_half(alpha, x, fx):
    # fx: (1 - e^(-alpha x)) / (1 - e^(-alpha)) by hand (math.exp); the paper rounds each to 0.5
    assert M.get_transform("exp", alpha)(x) == pytest.approx(fx, rel=1e-14)


@pytest.mark.parametrize("transform", ["exp", "pow", "log"])
@pytest.mark.parametrize("alpha", [0.5, 7.0, 80.0])
def test_transforms_are_concave_maps_of_the_unit_interval(transform, alpha):
    f = M.get_transform(transform, alpha)
    x = np.linspace(0, 1, 2001)
    y = f(x)
    assert y[0] == pytest.approx(0, abs=1e-15) and y[-1] == pytest.approx(1, abs=1e-15)
    assert np.all(np.diff(y) >= 0) and np.all(np.diff(y[:100]) > 0)  # f saturates to 1.0 in float at alpha = 80
    assert np.all(np.diff(y, 2) < 1e-12)
    limit = 1 - integrate.quad(lambda t: float(f(t)), 0, 1, limit=200, points=[1e-4, 1e-3, 1e-2])[0]
    assert M.random_croc_auc_limit(alpha, transform) == pytest.approx(limit, abs=1e-8)


def test_random_croc_limits_published():
    assert [round(M.random_croc_auc_limit(a), 4) for a in (7, 14, 80)] == [0.1419, 0.0714, 0.0125]


def test_random_baseline_roc_is_mann_whitney():
    for n, p in [(10, 3), (1000, 35), (42000, 1500)]:
        b = M.random_baseline("roc_auc", n, p)
        assert b.mean == pytest.approx(0.5, abs=1e-12)
        assert b.sd**2 == pytest.approx((n + 1) / (12 * p * (n - p)), rel=1e-9)


def test_random_baseline_approaches_the_continuous_limit():
    b = M.random_baseline("croc_auc", 2_000_000, 50_000, alpha=80.0)
    assert b.mean == pytest.approx(M.random_croc_auc_limit(80.0), abs=1e-4)


@pytest.mark.parametrize("call", M.paper_metrics(top_k=20), ids=lambda c: c.key)
def test_random_baseline_matches_simulation(call):
    n, p, reps = 240, 24, 6000
    rng = np.random.default_rng(7)
    # every row: positives placed at a uniformly random set of ranks
    keys = rng.random((reps, n))
    y = np.zeros(n, dtype=bool)
    y[:p] = True
    sims = np.array([call.value(M.Ranking(y, k)) for k in keys])
    base = call.random(n, p)
    assert abs(sims.mean() - base.mean) < 3 * base.sd / math.sqrt(reps)
    assert abs(sims.std(ddof=1) - base.sd) < 3 * base.sd / math.sqrt(2 * (reps - 1)) * 1.5


# --- curves ----------------------------------------------------------------------


def _trapezoid(x, y):
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))


@pytest.mark.parametrize("ties", [False, True])
def test_curve_areas_equal_metrics(ties):
    rng = np.random.default_rng(3)
    n = 400
    y = rng.random(n) < 0.1
    y[:2] = [True, False]
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 1)
    assert _trapezoid(*M.roc_curve(y, s)) == pytest.approx(M.roc_auc(y, s), abs=1e-12)
    assert _trapezoid(*M.ac_curve(y, s)) == pytest.approx(M.ac_auc(y, s), abs=1e-12)
    if not ties:  # tie-free: the transformed staircases are exact
        assert _trapezoid(*M.croc_curve(y, s, 14)) == pytest.approx(M.croc_auc(y, s, 14), abs=1e-12)
        assert _trapezoid(*M.cac_curve(y, s, 14)) == pytest.approx(M.cac_auc(y, s, 14), abs=1e-12)
    else:  # tied segments follow f, so the area stays close to the expectation
        assert _trapezoid(*M.croc_curve(y, s, 14)) == pytest.approx(M.croc_auc(y, s, 14), abs=2e-3)


def test_croc_curve_runs_from_origin_to_one_one():
    x, y = M.croc_curve(Y_PAPER, S_PAPER, 7)
    assert (x[0], y[0]) == (0, 0) and x[-1] == pytest.approx(1) and y[-1] == pytest.approx(1)
    assert np.all(np.diff(x) >= 0) and np.all(np.diff(y) >= 0)


# --- bad input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: M.roc_auc([1, 0, 1], [0.1, 0.2]), "differ in length"),
        (lambda: M.roc_auc([1, 0, 2], [0.1, 0.2, 0.3]), "binary"),
        (lambda: M.roc_auc(["a", "b"], [0.1, 0.2]), "binary"),
        (lambda: M.roc_auc([1, 0, 1], [0.1, np.nan, 0.3]), "NaN or infinite"),
        (lambda: M.roc_auc([1, 0, 1], [0.1, np.inf, 0.3]), "NaN or infinite"),
        (lambda: M.roc_auc([0, 0, 0], [0.1, 0.2, 0.3]), "no positives"),
        (lambda: M.roc_auc([1, 1], [0.1, 0.2]), "no negatives"),
        (lambda: M.roc_auc([], []), "empty"),
        (lambda: M.roc_auc([[1, 0]], [[0.1, 0.2]]), "1-D"),
        (lambda: M.croc_auc([1, 0], [0.1, 0.2], alpha=0), "alpha"),
        (lambda: M.croc_auc([1, 0], [0.1, 0.2], alpha=-3), "alpha"),
        (lambda: M.croc_auc([1, 0], [0.1, 0.2]), "alpha"),
        (lambda: M.croc_auc([1, 0], [0.1, 0.2], alpha=3, transform="sqrt"), "transform"),
        (lambda: M.croc_auc([1, 0], [0.1, 0.2], transform=lambda x: x + 1), "map 0 to 0"),
        (lambda: M.roc_auc_cutoff([1, 0], [0.1, 0.2], 0), r"t must be in \(0, 1\]"),
        (lambda: M.roc_auc_cutoff([1, 0], [0.1, 0.2], 1.5), r"t must be in \(0, 1\]"),
        (lambda: M.roc_n([1, 0], [0.1, 0.2], 2), "n must be at most 1, the list's negatives; got 2"),
        (lambda: M.hits_at_k([1, 0], [0.1, 0.2], 3), "k must be at most 2, the list's compounds; got 3"),
        (lambda: M.hits_at_k([1, 0], [0.1, 0.2], 0), "k must be at least 1; got 0"),
        (lambda: M.enrichment_factor([1, 0], [0.1, 0.2], 0.0), "fraction"),
        (lambda: M.enrichment_factor([1, 0], [0.1, 0.2], 2.0), "fraction"),
        (lambda: M.roc_auc([1, 0], [0.1, 0.2], ties="random"), "ties"),
        (lambda: M.score([1, 0], [0.1, 0.2], "auprc"), "unknown metric"),
        (lambda: M.score([1, 0], [0.1, 0.2], "roc_auc", beta=2), "bad parameters"),
        (lambda: M.parse_metric("croc_auc:alpha"), "key=value"),
    ],
)
def test_bad_input_raises_value_error_naming_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_callable_transform_and_bool_labels():
    y = Y_PAPER.astype(bool)
    assert M.croc_auc(y, S_PAPER, transform=lambda x: np.sqrt(x)) == pytest.approx(np.mean(1 - np.sqrt(FPR_PAPER)))


def test_parse_metric_and_the_paper_metric_sets_keys_and_params():
    c = M.parse_metric("croc_auc:alpha=80,transform=pow")
    assert (c.metric, c.params) == ("croc_auc", {"alpha": 80, "transform": "pow"})
    assert M.parse_metric("croc_exp_80").params == {"alpha": 80.0, "transform": "exp"}
    keys = [c.key for c in M.paper_metrics()]
    assert len(keys) == len(set(keys)) == 18


def test_counts_are_exact_whole_numbers_without_ties():
    rng = np.random.default_rng(11)
    for _ in range(20):
        n = int(rng.integers(500, 5000))
        y, s = rng.random(n) < 0.07, rng.random(n)
        k = int(rng.integers(1, n))
        want = int(y[np.argsort(-s)[:k]].sum())
        got = M.hits_at_k(y, s, k)
        assert got == want and float(got).is_integer(), (n, k, got)


def test_alpha_is_required_by_named_transforms_and_refused_by_callables():
    y, s = np.r_[1, 0, 1, 0], np.r_[0.9, 0.8, 0.4, 0.1]
    with pytest.raises(ValueError, match="'exp' transform needs alpha"):
        M.croc_auc(y, s)
    with pytest.raises(ValueError, match="callable transform has its magnification built in"):
        M.croc_auc(y, s, alpha=7, transform=np.sqrt)
    assert M.croc_auc(y, s, transform=np.sqrt) == pytest.approx(M.croc_auc(y, s, alpha=1, transform="pow"))


def _truchon_bayly(ranks, n, alpha):
    """RIE and BEDROC of actives at 1-based ``ranks`` of a list of ``n`` (Truchon & Bayly 2007, eqs. 18 and 36),
    written here apart from crocbench."""
    ranks = np.asarray(ranks, dtype=float)
    ra = ranks.size / n
    rie = np.exp(-alpha * ranks / n).sum() / (ra * (1 - math.exp(-alpha)) / (math.exp(alpha / n) - 1))
    scale = ra * math.sinh(alpha / 2) / (math.cosh(alpha / 2) - math.cosh(alpha / 2 - alpha * ra))
    return rie, rie * scale + 1 / (1 - math.exp(alpha * (1 - ra)))


@pytest.mark.parametrize("seed", [None, 0, 1])
def test_the_paper_metric_sets_bedroc_and_rie_are_at_their_alphas(seed):
    """The paper's metric set's BEDROC a=20, a=80 and RIE a=20 columns against Truchon & Bayly's formula and RDKit."""
    from rdkit.ML.Scoring import Scoring

    if seed is None:  # the paper's worked example: actives at ranks 1, 2, 4, 5, 7 of 10
        y, s = Y_PAPER, S_PAPER
    else:
        rng = np.random.default_rng(seed)
        y = (rng.random(400) < 0.08).astype(int)
        s = rng.permutation(400) + 60.5 * y  # distinct scores (actives on the half-integers), actives pushed up
    order = np.argsort(-s)
    ranks = np.flatnonzero(y[order] == 1) + 1
    table = [[s[i], bool(y[i])] for i in order]
    calls = {c.key: c for c in M.paper_metrics(top_k=10)}
    ranking = M.Ranking(y, s)
    for key, alpha in (("bedroc_20", 20.0), ("bedroc_80", 80.0)):
        rie, bedroc = _truchon_bayly(ranks, y.size, alpha)
        assert calls[key].value(ranking) == pytest.approx(bedroc, rel=1e-9), key
        assert calls[key].value(ranking) == pytest.approx(Scoring.CalcBEDROC(table, 1, alpha), rel=1e-9), key
    rie, _ = _truchon_bayly(ranks, y.size, 20.0)
    assert calls["rie_20"].value(ranking) == pytest.approx(rie, rel=1e-9)
    assert calls["bedroc_80"].value(ranking) != pytest.approx(calls["bedroc_20"].value(ranking), rel=1e-3)

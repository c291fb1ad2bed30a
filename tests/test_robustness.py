"""crocbench.stats' robustness of a declared family (leave-one-screen-out panels, the mixed model on the repeats) and
the decomposition of a pair on different features, against independent computations: scipy's exact signed-rank
test with Holm written out here, the panels enumerated here, and the balanced mixed model's closed form."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

from crocbench.stats import decompose, family_verdicts, leave_one_out, mixed_difference, robustness


def _holm(p):
    """Holm's step-down adjustment, written out: the i-th smallest of m times (m - i), running maximum, cap 1."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def _verdicts(a, b, alpha=0.05):
    """The family by scipy: exact two-sided signed-rank p per test, Holm, the sign of W+ - W-."""
    p, signs = [], []
    for x, y in zip(a, b):
        d = np.asarray(x) - np.asarray(y)
        p.append(float(stats.wilcoxon(d, method="exact").pvalue))
        ranks = stats.rankdata(np.abs(d))
        signs.append(int(np.sign(ranks[d > 0].sum() - ranks[d < 0].sum())))
    adjusted = _holm(p)
    return [s if q < alpha else 0 for s, q in zip(signs, adjusted)], adjusted


def _family(seed, tests=4, screens=8, shift=(0.0, 0.3, 0.6, -0.6)):
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.2, 0.8, size=(tests, screens))
    a = b + np.asarray(shift)[:tests, None] + rng.normal(0, 0.25, size=(tests, screens))
    return a, b


@pytest.mark.parametrize("seed", range(6))
def test_family_verdicts_are_scipys_exact_wilcoxon_with_holm(seed):
    a, b = _family(seed)
    verdicts, p_holm = family_verdicts(a, b)
    expected, adjusted = _verdicts(a, b)
    assert verdicts.tolist() == expected
    np.testing.assert_allclose(p_holm, adjusted, rtol=1e-12)


def test_the_issues_floor_ten_unanimous_screens_and_eighteen_tests_hold_in_no_panel():
    # 10-0 on 18 tests: 2 / 2^10 x 18 = 0.035; without any one screen 2 / 2^9 x 18 = 0.07 (issue 94)
    b = np.tile(np.linspace(0.1, 0.5, 10), (18, 1))
    a = b + np.linspace(0.01, 0.1, 10)
    verdicts, p_holm = family_verdicts(a, b)
    assert verdicts.tolist() == [1] * 18
    np.testing.assert_allclose(p_holm, 18 * 2 / 2**10)
    assert leave_one_out(a, b).tolist() == [0] * 18


def test_leave_one_out_drops_exactly_one_screen():
    # 7 of 7 ahead, one test: 2 / 2^7; without one screen 2 / 2^6 = 0.031 still passes, without two 0.0625 fails
    b = np.array([[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]])
    a = b + np.array([[0.05, 0.01, 0.03, 0.07, 0.02, 0.06, 0.04]])
    assert leave_one_out(a, b).tolist() == [7]


@pytest.mark.parametrize("seed", range(4))
def test_leave_one_out_matches_the_panels_enumerated_by_hand(seed):
    a, b = _family(seed, screens=9)
    whole, _ = _verdicts(a, b)
    holding = [0] * a.shape[0]
    for s in range(a.shape[1]):
        panel, _ = _verdicts(np.delete(a, s, axis=1), np.delete(b, s, axis=1))
        holding = [h + (v == w) for h, v, w in zip(holding, panel, whole)]
    assert leave_one_out(a, b).tolist() == holding


def _balanced(seed, screens=8, repeats=3, between=1.0, within=0.2, mean=0.3):
    rng = np.random.default_rng(seed)
    return mean + rng.normal(0, between, (screens, 1)) + rng.normal(0, within, (screens, repeats))


@pytest.mark.parametrize("seed", range(3))
def test_mixed_model_in_a_balanced_design_is_the_grand_mean_with_the_screen_means_se(seed):
    d = _balanced(seed)
    screens, repeats = d.shape
    means = d.mean(axis=1)
    msb = repeats * means.var(ddof=1)
    msw = ((d - means[:, None]) ** 2).sum() / (screens * (repeats - 1))
    assert msb > msw  # the between-screen variance is positive: the closed form below holds
    m = mixed_difference(d.ravel(), np.repeat(np.arange(screens), repeats))
    se = np.sqrt(means.var(ddof=1) / screens)
    t = stats.t(screens - 1)
    assert m.estimate == pytest.approx(d.mean(), rel=1e-9)
    assert m.se == pytest.approx(se, rel=1e-6)
    assert m.p_value == pytest.approx(2 * t.sf(abs(d.mean()) / se), rel=1e-5)
    assert (m.low, m.high) == pytest.approx((d.mean() - t.ppf(0.975) * se, d.mean() + t.ppf(0.975) * se), rel=1e-6)
    assert m.between_sd**2 == pytest.approx((msb - msw) / repeats, rel=1e-5)
    assert m.within_sd**2 == pytest.approx(msw, rel=1e-5)
    assert (m.screens, m.observations) == (screens, screens * repeats)


def _flat_screens(seed, screens=8, repeats=3):
    """Repeat-level differences whose screens' means are all but equal (0.1 each, 1e-3 apart) and whose repeats
    spread by 0.5: the between-screen variance sits at 0."""
    rng = np.random.default_rng(seed)
    d = rng.normal(0, 0.5, (screens, repeats))
    return d - d.mean(axis=1, keepdims=True) + 0.1 + np.linspace(0, 1e-3, screens)[:, None]


def test_mixed_model_with_no_spread_between_screens_reads_every_repeat():
    d = _flat_screens(0)
    n = d.size
    ols_se = np.sqrt(((d - d.mean()) ** 2).sum() / (n - 1) / n)  # REML with the random intercept at 0
    means_se = d.mean(axis=1).std(ddof=1) / np.sqrt(d.shape[0])  # the screens' means alone
    assert means_se < ols_se / 100  # the two readings differ far beyond the tolerance below
    m = mixed_difference(d.ravel(), np.repeat(np.arange(d.shape[0]), d.shape[1]))
    assert m.estimate == pytest.approx(d.mean(), rel=1e-6)
    assert m.se == pytest.approx(ols_se, rel=1e-6)
    assert m.between_sd < 0.05 * m.within_sd


def test_robustness_reads_the_repeats_not_the_screen_means():
    # the screens' means all favour a by 0.1 (8 of 8: Wilcoxon p 2 / 2^8), but the repeats spread by 0.5: the
    # mixed model finds no difference, so the verdict is not robust; read from the means alone it would be
    d = _flat_screens(1)
    b = np.full((1, *d.shape), 0.5)
    (r,) = robustness(b + d, b)
    assert (r.verdict, r.holding, r.panels) == (1, 8, 8)
    assert (r.secondary_verdict, r.robust) == (0, False)
    assert r.secondary_p_holm > 0.05
    assert r.secondary.observations == d.size
    assert r.secondary.se == pytest.approx(np.sqrt(((d - d.mean()) ** 2).sum() / (d.size - 1) / d.size), rel=1e-6)


def test_a_verdict_is_robust_where_the_panels_and_the_mixed_model_agree():
    a = _balanced(3, between=0.05, within=0.02, mean=0.3)[None]
    b = np.zeros_like(a)
    (r,) = robustness(a, b)
    assert (r.verdict, r.holding, r.secondary_verdict, r.robust) == (1, 8, 1, True)
    assert r.p_holm == pytest.approx(2 / 2**8)


def test_robustness_holms_the_mixed_models_over_the_family():
    a = np.stack([_balanced(s, between=0.3, within=0.1, mean=0.3) for s in range(3)])
    result = robustness(a, np.zeros_like(a))
    raw = [mixed_difference(x.ravel(), np.repeat(np.arange(8), 3)).p_value for x in a]
    np.testing.assert_allclose([r.secondary_p_holm for r in result], _holm(raw), rtol=1e-12)


def test_decompose_splits_a_pair_into_ranker_and_features_by_hand():
    # per screen: A1 - B1 = 0.2, A2 - B2 = 0.1 (ranker part 0.15); A1 - A2 = 0.3, B1 - B2 = 0.2 (features 0.25)
    b2 = np.array([0.1, 0.4, 0.2])
    b1, a2 = b2 + 0.2, b2 + 0.1
    a1 = b1 + 0.2
    d = decompose(a1, a2, b1, b2, n_resamples=1000)
    assert d.total.mean == pytest.approx(0.4)
    assert (d.ranker.mean, d.ranker.low, d.ranker.high) == pytest.approx((0.15, 0.15, 0.15))
    assert (d.features.mean, d.features.low, d.features.high) == pytest.approx((0.25, 0.25, 0.25))
    assert [e.mean for e in d.ranker_at] == pytest.approx([0.2, 0.1])
    assert [e.mean for e in d.features_of] == pytest.approx([0.3, 0.2])


def test_decompose_parts_add_up_and_bracket_their_means():
    rng = np.random.default_rng(5)
    a1, a2, b1, b2 = rng.uniform(0, 1, (4, 12))
    d = decompose(a1, a2, b1, b2, n_resamples=2000)
    assert d.ranker.mean + d.features.mean == pytest.approx(d.total.mean)
    assert d.ranker.mean == pytest.approx(np.mean((a1 - b1 + a2 - b2) / 2))
    assert d.features.mean == pytest.approx(np.mean((a1 - a2 + b1 - b2) / 2))
    for e in (d.total, d.ranker, d.features, *d.ranker_at, *d.features_of):
        assert e.low < e.mean < e.high and e.screens == 12


def test_family_verdicts_are_the_declared_familys_own():
    """The family the pages report (crocbench.report.findings.family_table) calls the same tests significant, with the
    same ranker ahead, as family_verdicts: one verdict rule."""
    import pandas as pd

    from crocbench.report.findings import VERDICTS, Questions, family_table

    rng = np.random.default_rng(7)
    screens, models = [f"s{i}" for i in range(9)], ["A", "B", "C", "D"]
    shift = {"A": 0.2, "B": 0.0, "C": 0.05, "D": -0.2}
    rows = [
        {"dataset": s, "model": m, "roc": 0.5 + shift[m] + rng.normal(0, 0.05), "ef_1pct": rng.uniform(1, 5)}
        for s in screens
        for m in models
    ]
    datasets = pd.DataFrame(rows)
    pairs = [("A", "B"), ("A", "C"), ("B", "D"), ("C", "B")]
    questions = Questions.from_dict(
        {"declared": "before the run", "metric_of_record": "roc", "pairs": [list(p) for p in pairs],
         "metrics": ["roc", "ef_1pct"], "thresholds": {"roc": 0.0, "ef_1pct": 0.0}, "resamples": 200}
    )  # fmt: skip
    table = family_table(datasets, questions)
    wide = {m: datasets.pivot(index="dataset", columns="model", values=m).loc[screens] for m in ("roc", "ef_1pct")}
    a = np.array([wide[m][x].to_numpy() for x, _ in pairs for m in ("roc", "ef_1pct")])
    b = np.array([wide[m][y].to_numpy() for _, y in pairs for m in ("roc", "ef_1pct")])
    verdicts, p_holm = family_verdicts(a, b)
    significant = table["verdict"].isin(VERDICTS[:2]).to_numpy()
    expected = np.where(significant, np.where(table["ahead"] == table["a"], 1, -1), 0)
    assert verdicts.tolist() == expected.tolist() and 0 < int(np.abs(verdicts).sum()) < len(verdicts)
    np.testing.assert_allclose(p_holm, table["p_holm"].to_numpy(), rtol=1e-12)


def test_one_difference_per_screen_is_the_t_test_on_the_screens():
    # a table of one value per screen: the two variances are one, and the model is scipy's one-sample t-test
    d = np.where(np.arange(15) % 2 == 0, 1, -1) * np.arange(1, 16) / 1000
    m = mixed_difference(d, np.arange(15))
    t = stats.ttest_1samp(d, 0.0)
    low, high = t.confidence_interval(0.95)
    assert (m.estimate, m.p_value) == pytest.approx((d.mean(), t.pvalue), rel=1e-12)
    assert (m.low, m.high) == pytest.approx((low, high), rel=1e-12)
    assert m.observations == m.screens == 15 and m.within_sd == 0.0


@pytest.mark.parametrize("maker", [_balanced, _flat_screens], ids=["screens-spread", "variance-at-zero"])
def test_the_balanced_closed_form_is_statsmodels_reml_fit(maker):
    """Every screen with the same repeats: the closed form equals statsmodels' REML fit (tightly converged, the
    higher likelihood of a gradient and a derivative-free search), in both regimes of the between-screen variance."""
    from statsmodels.regression.mixed_linear_model import MixedLM

    d = maker(4)
    groups = np.repeat(np.arange(d.shape[0]), d.shape[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MixedLM(d.ravel(), np.ones((d.size, 1)), groups=groups)
        fit = max(
            [model.fit(reml=True, method=["bfgs"], gtol=1e-12),
             model.fit(reml=True, method=["powell"], xtol=1e-12, ftol=1e-14, maxiter=10_000)],
            key=lambda f: f.llf,
        )  # fmt: skip
    m = mixed_difference(d.ravel(), groups)
    assert m.estimate == pytest.approx(float(fit.fe_params[0]), rel=1e-9)
    assert m.se == pytest.approx(float(fit.bse_fe[0]), rel=1e-5)
    assert m.within_sd**2 == pytest.approx(float(fit.scale), rel=1e-5)
    assert m.between_sd**2 == pytest.approx(
        max(0.0, float(np.asarray(fit.cov_re)[0, 0])), rel=1e-6, abs=1e-8 * fit.scale
    )


def test_an_unbalanced_design_weights_screens_by_their_precision():
    # one screen with one repeat fewer: no closed form; the fit is statsmodels' (the precision-weighted mean)
    d = _balanced(2)
    values = np.concatenate([d[0, :2], d[1:].ravel()])
    groups = np.concatenate([[0, 0], np.repeat(np.arange(1, d.shape[0]), d.shape[1])])
    m = mixed_difference(values, groups)
    gamma = m.between_sd**2 / m.within_sd**2
    counts = np.bincount(groups)
    w = counts / (1 + counts * gamma)
    means = np.bincount(groups, weights=values) / counts
    assert m.estimate == pytest.approx((w * means).sum() / w.sum(), rel=1e-6)
    assert m.estimate != pytest.approx(values.mean(), rel=1e-6)

"""Significance tests: exact enumeration, calibration under the null, power, invariances."""

import itertools
import math

import numpy as np
import pytest

from crocbench import metrics as M
from crocbench import stats as S
from crocbench.stats import _permutation


def _exact_paired_p(a, b):
    d = np.asarray(a) - np.asarray(b)
    obs = d.mean()
    flips = np.array(list(itertools.product([-1, 1], repeat=d.size)))
    return np.mean(flips @ d / d.size >= obs - 1e-12)


def _exact_unpaired_p(a, b):
    pooled = np.r_[a, b]
    obs = np.mean(a) - np.mean(b)
    diffs = []
    for idx in itertools.combinations(range(pooled.size), len(a)):
        mask = np.zeros(pooled.size, bool)
        mask[list(idx)] = True
        diffs.append(pooled[mask].mean() - pooled[~mask].mean())
    return np.mean(np.array(diffs) >= obs - 1e-12)


@pytest.mark.parametrize(
    "paired, sizes, shift, seeds, exact_p",
    [
        (True, (11, 11), 0.4, (0, 1), _exact_paired_p),
        (False, (6, 7), 0.8, (2, 3), _exact_unpaired_p),
    ],
)
def test_permutation_tests_match_exact_enumeration(paired, sizes, shift, seeds, exact_p):
    rng = np.random.default_rng(seeds[0])
    a = rng.normal(size=sizes[0]) + shift
    b = rng.normal(size=sizes[1])
    exact = exact_p(a, b)
    n = 40_000
    p = S.permutation_test(a, b, paired=paired, n_samples=n, seed=seeds[1], alternative="greater").p_value
    assert abs(p - exact) < 3 * math.sqrt(exact * (1 - exact) / n) + 1 / n


def test_p_value_formula_counts_the_observed_sample():
    # a - b = 0.1 everywhere: no sign-flip sample reaches the observed mean, so p = 1/(1+n)
    a = np.linspace(0.5, 1.0, 64)
    res = S.permutation_test(a, a - 0.1, paired=True, n_samples=499)
    assert res.p_value == pytest.approx(1 / 500)
    assert res.alternative == "greater"
    # identical methods: every sample ties the observed 0, so p = 1
    assert S.permutation_test(a, a, paired=True, n_samples=99).p_value == 1.0


def test_observed_direction_and_two_sided():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=200), rng.normal(size=200) + 0.3
    one = S.run_tests(a, b, n_samples=2000)
    assert all(r.alternative == "less" for r in one.values())
    two = S.run_tests(a, b, n_samples=2000, alternative="two-sided")
    for name in S.TESTS:
        assert one[name].p_value <= two[name].p_value + 1e-12
    assert two["paired_t"].p_value == pytest.approx(2 * one["paired_t"].p_value, rel=1e-9)


def test_same_seed_same_p_values_other_seed_other_samples():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=300), rng.normal(size=300) + 0.05
    for paired in (True, False):
        p1 = S.permutation_test(a, b, paired=paired, seed=11).p_value
        assert p1 == S.permutation_test(a, b, paired=paired, seed=11).p_value
    s1 = S.paired_permutation_samples(a - b, 100, np.random.default_rng(1))
    s2 = S.paired_permutation_samples(a - b, 100, np.random.default_rng(2))
    assert not np.array_equal(s1, s2)


@pytest.mark.parametrize("test", S.TESTS)
def test_calibrated_under_the_null(test):
    # exchangeable methods: the rejection rate at 0.05 stays within binomial error of 0.05.
    # Unpaired tests assume independent samples (on correlated ones they are conservative),
    # so they are checked on independent samples, paired tests on correlated ones.
    rng = np.random.default_rng(6)
    reps, n = 400, 60
    rejections = 0
    for r in range(reps):
        shared = rng.normal(size=n) if test.startswith("paired") else 0.0
        a = shared + rng.normal(size=n)
        b = shared + rng.normal(size=n)
        res = S.run_tests(a, b, [test], n_samples=400, seed=r, alternative="greater")[test]
        rejections += res.p_value <= 0.05
    rate = rejections / reps
    assert abs(rate - 0.05) < 3 * math.sqrt(0.05 * 0.95 / reps)


def test_permutation_p_values_roughly_uniform_under_null():
    rng = np.random.default_rng(7)
    ps = []
    for r in range(300):
        a, b = rng.normal(size=40), rng.normal(size=40)
        ps.append(S.permutation_test(a, b, paired=True, n_samples=200, seed=r, alternative="greater").p_value)
    counts, _ = np.histogram(ps, bins=5, range=(0, 1))
    expected = len(ps) / 5
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 18.47  # chi-square, 4 degrees of freedom, p = 0.001


def test_paired_more_powerful_than_unpaired_on_correlated_rankings():
    # two rankings of the same compounds that mostly agree: paired tests see through the shared part
    rng = np.random.default_rng(8)
    reps, n_neg, n_pos = 60, 1000, 50
    power = {"paired_permutation": 0, "unpaired_permutation": 0, "paired_t": 0, "unpaired_t": 0}
    y = np.r_[np.ones(n_pos), np.zeros(n_neg)]
    for r in range(reps):
        base = rng.normal(size=y.size) + 1.2 * y
        a = base + 0.25 * y + 0.3 * rng.normal(size=y.size)
        b = base + 0.3 * rng.normal(size=y.size)
        res = S.compare(y, a, b, "croc_auc:alpha=14", tests=list(power), n_samples=1000, seed=r)
        for k in power:
            power[k] += res.results[k].p_value < 0.05
    assert power["paired_permutation"] > power["unpaired_permutation"] + 0.3 * reps
    assert power["paired_t"] > power["unpaired_t"] + 0.3 * reps


def test_affine_transforms_give_identical_p_values():
    # RIE and BEDROC are affine transforms of the same per-positive values (paper, section 6)
    rng = np.random.default_rng(9)
    y = np.r_[np.ones(40), np.zeros(400)]
    a, b = rng.normal(size=440) + y, rng.normal(size=440) + 0.7 * y
    ra = S.compare(y, a, b, "rie:alpha=20", n_samples=3000)
    rb = S.compare(y, a, b, "bedroc:alpha=20", n_samples=3000)
    for t in S.TESTS:
        assert ra.results[t].p_value == pytest.approx(rb.results[t].p_value, rel=1e-9)
    assert ra.value_a == pytest.approx(M.rie(y, a, 20.0)) and rb.value_b == pytest.approx(M.bedroc(y, b, 20.0))


def test_compare_values_are_the_metric_values():
    rng = np.random.default_rng(10)
    y = (rng.random(500) < 0.1).astype(int)
    y[:2] = [1, 0]
    a, b = rng.normal(size=500) + y, np.round(rng.normal(size=500) + 0.5 * y, 1)
    c = S.compare(y, a, b, "croc_exp_80", n_samples=100)
    assert c.value_a == pytest.approx(M.croc_auc(y, a, 80.0)) and c.value_b == pytest.approx(M.croc_auc(y, b, 80.0))
    assert c.difference == pytest.approx(c.value_a - c.value_b)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: S.permutation_test([1, 2], [1, 2, 3], paired=True), "same positives"),
        (lambda: S.permutation_test([1, 2], [1, 2], paired=True, n_samples=0), "n_samples"),
        (lambda: S.permutation_test([1, np.nan], [1, 2], paired=True), "finite"),
        (lambda: S.permutation_test([], [1], paired=False), "non-empty"),
        (lambda: S.run_tests([1, 2], [2, 1], ["bootstrap"]), "unknown test"),
        (lambda: S.t_test([1, 2], [2, 1], paired=True, alternative="bigger"), "alternative"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("name", S.TESTS)
@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_batched_p_values_equal_one_column_at_a_time(name, alternative):
    rng = np.random.default_rng(11)
    a = rng.random((40, 5))
    b = a + rng.normal(0.02, 0.1, size=(40, 5))
    b[:, 4] = a[:, 4]  # a column without differences: p = 1 for the paired tests
    batched = S.p_values(name, a, b, alternative, n_samples=500, seed=3)
    single = [
        S.p_values(name, a[:, j : j + 1], b[:, j : j + 1], alternative, n_samples=500, seed=3)[0] for j in range(5)
    ]
    np.testing.assert_allclose(batched, single, rtol=1e-12)
    paired = name.startswith("paired")
    one = S.run_tests(a[:, 0], b[:, 0], [name], n_samples=500, seed=3, alternative=alternative)[name]
    assert one.p_value == pytest.approx(batched[0], rel=1e-12)
    if paired:
        assert batched[4] == 1.0


@pytest.mark.parametrize("name", ["paired_wilcoxon", "unpaired_wilcoxon"])
def test_batched_rank_tests_choose_exact_or_normal_per_column(name):
    from scipy import stats as sps

    rng = np.random.default_rng(12)
    a = rng.random((20, 3))
    b = a + rng.normal(0.05, 0.1, size=(20, 3))
    a[:4, 1] = b[:4, 1] = 0.5  # column 1: zero differences (paired) and ties (both)
    a[4:, 1] = np.round(a[4:, 1], 1)
    batched = S.p_values(name, a, b, "greater")
    for j in range(3):  # scipy's own choice on one column at a time
        if name == "paired_wilcoxon":
            want = sps.wilcoxon(a[:, j], b[:, j], zero_method="wilcox", alternative="greater").pvalue
        else:
            want = sps.mannwhitneyu(a[:, j], b[:, j], alternative="greater").pvalue
        assert batched[j] == pytest.approx(want, rel=1e-12), j


@pytest.mark.parametrize("name", ["paired_wilcoxon", "unpaired_wilcoxon"])
def test_rank_tests_are_blind_to_last_bit_noise(name):
    """pROC-like per-positive values (logs of integer ratios): mathematically equal values and differences are
    ties whatever their last bits, as they are when computed on another CPU (issue 16)."""
    from scipy import stats as sps

    rng = np.random.default_rng(5)
    ja, jb = rng.integers(1, 40, 600), rng.integers(1, 40, 600)
    f = lambda j: np.log10(j / 500) / np.log10(1 / 1000)  # noqa: E731
    a, b = f(ja), f(jb)
    noisy = [np.where(rng.random(v.size) < 0.5, np.nextafter(v, np.inf), v) for v in (a, b)]
    ours = S.p_values(name, np.c_[a], np.c_[b], "two-sided")[0]
    assert S.p_values(name, np.c_[noisy[0]], np.c_[noisy[1]], "two-sided")[0] == ours
    if name == "paired_wilcoxon":  # exact ties: |d| computed once per reduced fraction max(ja, jb) / min(ja, jb)
        hi, lo = np.maximum(ja, jb), np.minimum(ja, jb)
        g = np.gcd(hi, lo)
        exact = np.sign(jb - ja) * np.log10((hi // g) / (lo // g)) / np.log10(1000)
        want = sps.wilcoxon(exact, zero_method="wilcox", alternative="two-sided").pvalue
        raw = sps.wilcoxon(*noisy, zero_method="wilcox", alternative="two-sided").pvalue
    else:
        want = sps.mannwhitneyu(a, b, alternative="two-sided").pvalue
        raw = sps.mannwhitneyu(*noisy, alternative="two-sided").pvalue
    assert ours == pytest.approx(want, rel=1e-12)
    assert raw != pytest.approx(want, rel=1e-9)  # without the resolution, the noise moves the p-value


def test_snap_ties_merges_only_within_the_resolution():
    v = np.array([[1.0, 0.0], [1.0 + 1e-15, 5.0], [1.0 + 1e-9, 5.0 - 4e-12], [2.0, -5.0]])
    got = S.snap_ties(v)
    assert got[:, 0].tolist() == [1.0, 1.0, 1.0 + 1e-9, 2.0]
    assert got[:, 1].tolist() == [0.0, 5.0 - 4e-12, 5.0 - 4e-12, -5.0]
    tiny = np.array([[1e-17], [1e-17 * (1 + 1e-15)], [3e-17], [0.0]])  # relative to the values: tiny ones stay apart
    assert S.snap_ties(tiny).ravel().tolist() == [1e-17, 1e-17, 3e-17, 0.0]


def test_snap_ties_does_not_depend_on_the_order_of_the_values():
    """Equal values and near-equal ones (within the resolution) snap to their group's smallest whatever order they
    come in: shuffling a column's values shuffles its snapped values the same way."""
    rng = np.random.default_rng(4)
    base = rng.choice([0.1 + 0.2, 0.3, 0.5, 1.0, 1.0 + 1e-15, 1.0 + 1e-9, 2.0, 1e-17, 3e-17, 0.0], size=(400, 6))
    v = np.where(rng.random(base.shape) < 0.3, rng.random(base.shape), base)
    snapped = S.snap_ties(v)
    for _ in range(5):
        order = rng.permutation(v.shape[0])
        assert np.array_equal(S.snap_ties(v[order]), snapped[order])


def test_degenerate_samples_give_p_values_without_warnings():
    import warnings

    a = np.linspace(0.1, 0.9, 40)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scipy's "precision loss" RuntimeWarning would fail here
        for name in S.TESTS:
            p = S.p_values(name, np.c_[a, a], np.c_[a - 0.1, a], "greater", n_samples=200)
            assert ((0 <= p) & (p <= 1)).all(), name
            if name.startswith("paired"):  # identical: no evidence; a constant lead on every positive: significant
                assert p[1] == 1.0 and p[0] < 0.01, name


@pytest.mark.parametrize("na, nb", [(3, 3), (2, 4), (4, 2), (1, 5), (2, 7)])
def test_unpaired_splits_are_uniform_over_every_split(na, nb):
    """Each of the C(n, na) splits is drawn with probability 1 / C(n, na) (chi-square against uniform): the coin
    sampler with its surplus correction (parts of similar sizes) and the key sampler (very different sizes)."""
    from scipy.stats import chisquare

    a, b = 2.0 ** np.arange(na), 2.0 ** np.arange(na, na + nb)  # the first part's sum names the split
    total = a.sum() + b.sum()
    samples = S.unpaired_permutation_samples(a, b, 60_000, np.random.default_rng(na * 10 + nb))
    first_sum = np.round((samples + total / nb) / (1 / na + 1 / nb)).astype(int)
    sums = [sum(2**i for i in idx) for idx in itertools.combinations(range(na + nb), na)]
    counts = np.array([np.count_nonzero(first_sum == v) for v in sums])
    assert counts.sum() == 60_000  # every sample is a split of the right sizes
    assert chisquare(counts).pvalue > 1e-4


def test_resize_flips_the_surplus_to_the_exact_size():
    rng = np.random.default_rng(1)
    for size in (0, 1, 37, 50, 99, 100):
        bits = (rng.random((40, 100)) < rng.random((40, 1))).astype(np.uint8)
        before = bits.copy()
        _permutation._resize(bits, size, rng)
        assert (np.count_nonzero(bits, axis=1) == size).all()
        for row, old in zip(bits, before):  # only the kind in surplus was flipped
            assert np.all(old[row != old] == (1 if old.sum() > size else 0))


def _resize_by_hand(bits, size, rng):
    """_resize's rule, one row and one draw at a time: rounds of ``2 max(need) + 32`` uniform column draws per row
    still off its size; a row flips its first draws of distinct columns of the kind in surplus, in draw order."""
    n = bits.shape[1]
    surplus = {r: int(bits[r].sum()) - size for r in range(bits.shape[0])}
    rows = [r for r in surplus if surplus[r]]
    while rows:
        draws = rng.integers(0, n, size=(len(rows), 2 * max(abs(surplus[r]) for r in rows) + 32))
        still = []
        for r, row_draws in zip(rows, draws):
            flip, need, got, seen = int(surplus[r] > 0), abs(surplus[r]), 0, set()
            for column in row_draws:
                if got == need:
                    break
                if column not in seen:
                    seen.add(column)
                    if bits[r, column] == flip:
                        bits[r, column], got = 1 - flip, got + 1
            surplus[r] -= got if flip else -got
            if got < need:
                still.append(r)
        rows = still


@pytest.mark.parametrize("n, size", [(100, 50), (37, 12), (1500, 400), (9, 0)])
def test_resize_flips_the_first_distinct_draws_as_by_hand(n, size):
    """The vectorized _resize flips exactly the columns the rule by hand flips, from the same draws (and leaves the
    generator where the rule by hand leaves it), so the unpaired permutation test's splits are the rule's."""
    start = np.random.default_rng(n).random((300, n)) < 0.5
    fast, slow = start.astype(np.uint8), start.astype(np.uint8)
    rng_fast, rng_slow = np.random.default_rng(7), np.random.default_rng(7)
    _permutation._resize(fast, size, rng_fast)
    _resize_by_hand(slow, size, rng_slow)
    assert np.array_equal(fast, slow)
    assert rng_fast.random() == rng_slow.random()


def test_compare_many_equals_compare_metric_by_metric():
    rng = np.random.default_rng(8)
    y = rng.random(3000) < 0.1
    a, b = rng.normal(size=3000) + y, rng.normal(size=3000) + 0.8 * y
    metrics = ["roc_auc", "croc_exp_80", "bedroc_20"]
    many = S.compare_many(y, a, b, metrics, n_samples=2000, seed=3)
    for metric, c in zip(metrics, many):
        one = S.compare(y, a, b, metric, n_samples=2000, seed=3)
        assert (c.metric, c.value_a, c.value_b) == (one.metric, one.value_a, one.value_b)
        assert {t: r.p_value for t, r in c.results.items()} == {t: r.p_value for t, r in one.results.items()}


# --- across datasets (Demsar 2006) ---------------------------------------------------------------


def test_friedman_by_hand_and_against_scipy():
    from scipy.stats import friedmanchisquare

    # 4 datasets x 3 rankers, higher is better; ranks by hand: [1,2,3], [1,3,2], [2,1,3], [1,2,3]
    values = np.array([[0.9, 0.8, 0.7], [0.9, 0.6, 0.8], [0.7, 0.8, 0.6], [0.95, 0.9, 0.5]])
    f = S.friedman_test(values)
    sums = np.array([5.0, 8.0, 11.0])
    chi2 = 12 / (4 * 3 * 4) * (sums**2).sum() - 3 * 4 * 4
    assert chi2 == pytest.approx(4.5) and f.statistic == pytest.approx(chi2)
    assert f.mean_ranks.tolist() == pytest.approx([1.25, 2.0, 2.75])
    assert f.iman_davenport == pytest.approx(3 * 4.5 / (4 * 2 - 4.5))
    assert f.p_value == pytest.approx(math.exp(-4.5 / 2))  # chi-square with 2 df: exp(-x/2)
    rng = np.random.default_rng(3)
    for shape in ((5, 3), (12, 5), (7, 4)):
        v = rng.integers(0, 4, size=shape).astype(float)  # many ties within a dataset
        v[0] = [1.0] * shape[1]  # a dataset where every ranker ties
        ours, ref = S.friedman_test(v), friedmanchisquare(*(-v).T)
        assert ours.statistic == pytest.approx(ref.statistic) and ours.p_value == pytest.approx(ref.pvalue)
    with pytest.raises(ValueError, match="at least 2"):
        S.friedman_test([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="finite"):
        S.friedman_test([[1.0, np.nan], [1.0, 2.0]])


def test_iman_davenport_p_value_has_k_minus_1_and_k_minus_1_times_n_minus_1_df():
    from scipy.stats import f as f_dist

    # 6 datasets x 4 rankers, no ties; the table's values are 5 - rank (higher is better)
    ranks = np.array([[1, 2, 3, 4], [2, 1, 4, 3], [1, 3, 2, 4], [1, 2, 4, 3], [2, 1, 3, 4], [1, 2, 3, 4]], float)
    n, k = ranks.shape
    mean_ranks = np.array([8, 11, 19, 22]) / 6  # column rank sums 8, 11, 19, 22
    # Demsar (2006), eq. for chi^2_F: 12 N / (k (k + 1)) [sum R_j^2 - k (k + 1)^2 / 4] = 13
    chi2 = 12 * n / (k * (k + 1)) * ((mean_ranks**2).sum() - k * (k + 1) ** 2 / 4)
    assert chi2 == pytest.approx(13.0)
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)  # 5 * 13 / (18 - 13) = 13
    assert ff == pytest.approx(13.0)
    f = S.friedman_test(5 - ranks)
    assert f.mean_ranks.tolist() == pytest.approx(mean_ranks.tolist())
    assert f.statistic == pytest.approx(13.0) and f.iman_davenport == pytest.approx(13.0)
    expected = f_dist.sf(13.0, k - 1, (k - 1) * (n - 1))  # F(3, 15): about 1.894e-4
    assert expected == pytest.approx(1.894e-4, rel=1e-3)
    assert f.iman_davenport_p == pytest.approx(expected, rel=1e-9)


def test_nemenyi_critical_difference_uses_demsars_q_alpha():
    # Demsar (2006), table 5(a): q_0.05 and q_0.10 for k = 2..10 (studentized range / sqrt 2), to 3 decimals
    # (some truncated: 2.343 is 2.3437)
    q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
    for k, a, b in zip(range(2, 11), q05, q10):
        scale = math.sqrt(k * (k + 1) / (6 * 14))
        assert S.nemenyi_critical_difference(k, 14) / scale == pytest.approx(a, abs=1e-3)
        assert S.nemenyi_critical_difference(k, 14, alpha=0.10) / scale == pytest.approx(b, abs=1e-3)
    # Demsar's worked example: 4 classifiers, 14 datasets, alpha 0.05: CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25
    assert S.nemenyi_critical_difference(4, 14) == pytest.approx(1.25, abs=0.005)
    with pytest.raises(ValueError):
        S.nemenyi_critical_difference(1, 5)


def test_holm_by_hand():
    # sorted 0.01, 0.02, 0.03, 0.5 times 4, 3, 2, 1: 0.04, 0.06, 0.06, 0.5 (monotone)
    assert S.holm([0.5, 0.03, 0.01, 0.02]).tolist() == pytest.approx([0.5, 0.06, 0.04, 0.06])
    assert S.holm([0.4, 0.3]).tolist() == pytest.approx([0.6, 0.6])  # 0.3 x 2 = 0.6; 0.4 x 1 raised to 0.6
    assert S.holm([0.9, 0.8, 0.7]).tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError):
        S.holm([0.2, 1.5])


def test_pairwise_wilcoxon_against_scipy():
    from scipy.stats import wilcoxon

    rng = np.random.default_rng(5)
    v = rng.random((9, 3))
    v[:, 2] += 1.0  # c above a and b on every dataset
    rows = S.pairwise_wilcoxon(v, ["a", "b", "c"])
    assert [(r["a"], r["b"]) for r in rows] == [("a", "b"), ("a", "c"), ("b", "c")]
    raw = [wilcoxon(v[:, i], v[:, j]).pvalue for i, j in ((0, 1), (0, 2), (1, 2))]
    assert [r["p_value"] for r in rows] == pytest.approx(raw)
    order = np.argsort(raw)
    expected = np.maximum.accumulate(np.minimum(1, np.array(raw)[order] * [3, 2, 1]))
    assert [rows[i]["p_holm"] for i in order] == pytest.approx(expected)
    assert rows[1]["losses"] == 9 and rows[1]["wins"] == 0 and rows[1]["mean_difference"] < 0
    same = S.pairwise_wilcoxon(np.column_stack([v[:, 0], v[:, 0]]), ["x", "y"])
    assert same[0]["ties"] == 9 and same[0]["p_value"] == 1.0
    assert (same[0]["low"], same[0]["high"]) == (0.0, 0.0)  # no difference on any dataset: a point at 0


def test_pairwise_wilcoxon_gives_each_pair_the_bootstrap_interval_of_its_mean_difference():
    """Each row's low and high are scipy's percentile bootstrap interval of the mean of a - b over the datasets,
    within the Monte Carlo error of 50,000 resamples, at the level asked; turned round, the interval is negated."""
    from scipy.stats import bootstrap

    rng = np.random.default_rng(11)
    v = rng.random((15, 3))
    v[:, 1] += 0.2
    for level in (0.95, 0.5):
        rows = S.pairwise_wilcoxon(v, ["a", "b", "c"], level=level, n_resamples=50_000, seed=3)
        for row, (i, j) in zip(rows, ((0, 1), (0, 2), (1, 2))):
            ref = bootstrap(
                (v[:, i] - v[:, j],), np.mean, confidence_level=level, n_resamples=50_000, method="percentile",
                random_state=4,
            ).confidence_interval  # fmt: skip
            assert row["low"] <= row["mean_difference"] <= row["high"]
            assert (row["low"], row["high"]) == (pytest.approx(ref.low, abs=0.006), pytest.approx(ref.high, abs=0.006))
    turned = S.turned_pair(rows[0])
    assert (turned["low"], turned["high"]) == (-rows[0]["high"], -rows[0]["low"])


def test_the_signed_rank_p_with_ties_or_zeros_is_scipys_permutation_tests():
    """With tied magnitudes or zero differences among at most 13 datasets scipy enumerates every sign pattern
    (its permutation test); crocbench enumerates them at once. The p-values agree to the last bits on samples
    with ties, zeros, both and neither, up to 13 datasets and past them (where both take scipy's approximation)."""
    from scipy.stats import wilcoxon

    from crocbench.stats._signed_rank import ENUMERATED_SIGNS, signed_rank_test

    rng = np.random.default_rng(8)
    cases = [np.array([0.5, 0.5, -0.2, 0.0, 1.0, 0.5]), np.array([0.3, -0.3, 0.3]), rng.random(9) - 0.3]
    cases += [rng.choice([-1.5, -1.0, 0.0, 0.5, 1.0, 2.0], size=n) for n in (4, 7, 10, ENUMERATED_SIGNS, 16)]
    for d in cases:
        statistic, p = signed_rank_test(d)
        assert p == pytest.approx(wilcoxon(d, zero_method="wilcox").pvalue, rel=1e-12, abs=0), d
        # W+ - W- = 2 W+ - n(n+1)/2 over the nonzero differences, W+ scipy's one-sided
        # (alternative='greater') statistic: the sum of the positive differences' ranks whatever the method of its p,
        # so its normal approximation gives it without a second permutation test
        m = int((d != 0).sum())
        w_plus = wilcoxon(d, zero_method="wilcox", alternative="greater", method="approx").statistic
        assert statistic == pytest.approx(2 * w_plus - m * (m + 1) / 2, abs=1e-9), d


def test_the_signed_rank_p_without_ties_is_scipys_exact_p_to_the_bit():
    """Without ties or zeros scipy takes W+'s exact distribution up to 50 datasets and its normal approximation past
    them; crocbench's counts give the same bits, for every observed W+ from the smallest to the largest, and its
    statistic is W+ - W-."""
    from scipy.stats import wilcoxon

    from crocbench.stats._signed_rank import EXACT_DATASETS, signed_rank_test

    rng = np.random.default_rng(9)
    for n in [*range(1, 16), 20, 33, EXACT_DATASETS, EXACT_DATASETS + 1, 60]:
        magnitudes = rng.permutation(n) + 1 + rng.random(n) * 0.5  # distinct magnitudes, in a random order
        for positives in {0, 1, n // 3, n // 2, n - 1, n}:  # W+ from 0 to n(n+1)/2
            d = magnitudes * np.where(rng.permutation(n) < positives, 1.0, -1.0)
            statistic, p = signed_rank_test(d)
            assert p == float(wilcoxon(d, zero_method="wilcox").pvalue), (n, positives)
            w_plus = float(np.argsort(np.argsort(magnitudes))[d > 0].sum() + (d > 0).sum())
            assert statistic == 2 * w_plus - n * (n + 1) / 2


def test_pairwise_wilcoxon_counts_differences_equal_but_for_their_last_bits_as_ties():
    """Across datasets as within one: a difference of 0.1 + 0.2 and one of -0.3 are tied in magnitude (scipy's exact
    p of the differences written exactly, 0.3 and -0.3, not of the unsnapped ones)."""
    from scipy.stats import wilcoxon

    a = np.array([0.1 + 0.2, 0.0, 0.5, 0.9, 0.6, 0.8])
    b = np.array([0.0, 0.3, 0.0, 0.0, 0.0, 0.0])
    d = a - b  # exactly: 0.30000000000000004 and -0.3 among them
    assert abs(d[0]) != abs(d[1])
    row = S.pairwise_wilcoxon(np.column_stack([a, b]), ["a", "b"])[0]
    exact = np.array([0.3, -0.3, 0.5, 0.9, 0.6, 0.8])
    assert row["p_value"] == pytest.approx(wilcoxon(exact).pvalue, rel=1e-12)
    assert row["p_value"] != pytest.approx(wilcoxon(d).pvalue, rel=1e-3)  # unsnapped, scipy finds no tie
    assert row["signed_rank_sum"] == 21 - 2 * 1.5  # ranks 1.5, 1.5, 3, 6, 4, 5: only -0.3's 1.5 negative


def test_permutation_p_values_hold_one_chunk_of_samples_at_a_time(monkeypatch):
    """p_values counts hits chunk by chunk: the draws (and p-values) are those of the sample functions, and
    memory does not grow with n_samples (the CLI's --samples 100000000000 was a MemoryError)."""
    import tracemalloc

    rng = np.random.default_rng(5)
    a = rng.normal(size=(40, 2))
    b = a + rng.normal(0.05, 0.3, size=(40, 2))
    monkeypatch.setattr(_permutation, "_CHUNK_CELLS", 20_000)  # 500 (paired) or 250 (unpaired) samples a chunk
    alternatives = ("greater", "less", "two-sided")
    observed, tol = a.mean(axis=0) - b.mean(axis=0), _permutation._tolerance(a, b)
    for name, draw in (
        ("paired_permutation", lambda n, g: S.paired_permutation_samples(a - b, n, g)),
        ("unpaired_permutation", lambda n, g: S.unpaired_permutation_samples(a, b, n, g)),
    ):
        whole = draw(9_999, np.random.default_rng(3))  # 20 to 40 chunks
        hits = [
            np.count_nonzero(whole >= observed - tol, axis=0),
            np.count_nonzero(whole <= observed + tol, axis=0),
            np.count_nonzero(np.abs(whole) >= np.abs(observed) - tol, axis=0),
        ]
        p = S.p_values(name, a, b, alternatives, n_samples=9_999, seed=3)
        assert p.tobytes() == ((1.0 + np.array(hits)) / 10_000.0).tobytes(), name
        n_samples = 300_000  # all at once: 300,000 x 2 float64 = 4.8 MB
        tracemalloc.start()
        try:
            S.p_values(name, a, b, alternatives, n_samples=n_samples, seed=3)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 2_000_000, (name, peak)  # about 0.4 MB paired, 1 MB unpaired: one chunk's worth


def test_permutation_p_values_of_one_metric_equal_its_column_of_several():
    """1-d samples (one metric) give the p-value of the same samples as a one-column 2-d array."""
    from crocbench.stats import p_values

    rng = np.random.default_rng(3)
    a, b = rng.random(40), rng.random(40) + 0.1
    for name in ("paired_permutation", "unpaired_permutation"):
        one = p_values(name, a, b, "less", n_samples=500, seed=1)
        column = p_values(name, a[:, None], b[:, None], "less", n_samples=500, seed=1)
        assert np.ndim(one) == 0 and float(one) == float(np.ravel(column)[0])


@pytest.mark.parametrize("k", [2, 3, 5])
def test_screens_needed_is_where_agreeing_screens_first_reach_holm_significance(k):
    from crocbench.stats import pairwise_wilcoxon, screens_needed

    def all_significant(n):
        # n datasets on which ranker j is always better than ranker j + 1, by distinct margins
        values = np.array([[k - j + 0.01 * d * (j + 1) for j in range(k)] for d in range(n)])
        rows = pairwise_wilcoxon(values, [f"m{j}" for j in range(k)])
        return all(r["p_holm"] < 0.05 for r in rows)

    n = screens_needed(k)
    assert all_significant(n) and not all_significant(n - 1)


def test_critical_difference_cliques_against_brute_force():
    import itertools

    from crocbench.stats import cd_cliques

    rng = np.random.default_rng(0)
    for _ in range(200):
        k = int(rng.integers(2, 8))
        ranks = dict(zip("abcdefg", np.round(rng.uniform(1, k, k), 2)))
        cd = float(rng.uniform(0.2, 3))
        order = sorted(ranks, key=ranks.get)
        # runs of consecutive models (in rank order) spanning less than cd, not inside a longer one
        runs = [
            tuple(order[i : j + 1])
            for i, j in itertools.combinations(range(len(order)), 2)
            if ranks[order[j]] - ranks[order[i]] < cd
        ]
        maximal = [r for r in runs if not any(set(r) < set(o) for o in runs)]
        assert sorted(cd_cliques(ranks, cd)) == sorted(maximal)


def test_critical_difference_cliques_leave_out_pairs_exactly_cd_apart():
    from crocbench.stats import cd_cliques

    # |r_i - r_j| < CD: not significantly different (joined); a difference of exactly CD is significant.
    # Every number here is exact in binary floating point: 2.25 - 1.5 == 0.75 == CD.
    assert 2.25 - 1.5 == 0.75
    assert cd_cliques({"a": 1.0, "b": 1.5, "c": 2.25}, 0.75) == [("a", "b")]  # b-c exactly CD apart: not joined
    assert cd_cliques({"a": 1.0, "b": 1.75}, 0.75) == []  # exactly CD apart: no clique at all
    # a-c (1.0, 1.75) and b-d (1.5, 2.25) are exactly CD apart: only the neighbouring pairs are joined
    assert cd_cliques({"a": 1.0, "b": 1.5, "c": 1.75, "d": 2.25}, 0.75) == [("a", "b"), ("b", "c"), ("c", "d")]


def test_pairwise_wilcoxon_signed_rank_sum_by_hand():
    from crocbench.stats import pairwise_wilcoxon

    # differences a - b: +1, -2, +3, 0 (dropped): ranks of |d| 1, 2, 3; W+ - W- = 1 - 2 + 3
    row = pairwise_wilcoxon(np.array([[2.0, 1.0], [0.0, 2.0], [4.0, 1.0], [5.0, 5.0]]), ["a", "b"])[0]
    assert row["signed_rank_sum"] == 2.0 and (row["wins"], row["losses"], row["ties"]) == (2, 1, 1)

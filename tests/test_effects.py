"""crocbench.stats._effects and screens_needed for a declared family: checked by enumeration and by scipy."""

import itertools

import numpy as np
import pytest
from scipy import stats as sps

from crocbench.stats import paired_effect, screens_needed


def test_the_interval_is_the_percentile_interval_of_the_exact_bootstrap_distribution():
    """On 4 screens the 4^4 resamples can be enumerated: the interval's ends are that distribution's quantiles,
    within the Monte Carlo error of 200,000 resamples."""
    a, b = np.array([0.31, 0.52, 0.40, 0.22]), np.array([0.30, 0.41, 0.42, 0.10])
    d = a - b
    means = np.array([d[list(ix)].mean() for ix in itertools.product(range(4), repeat=4)])
    want = np.quantile(means, [0.025, 0.975])
    e = paired_effect(a, b, n_resamples=200_000, seed=5)
    assert e.mean == pytest.approx(d.mean(), abs=1e-15) and e.screens == 4
    assert (e.low, e.high) == (pytest.approx(want[0], abs=0.005), pytest.approx(want[1], abs=0.005))


def test_the_interval_agrees_with_scipys_percentile_bootstrap_and_is_seeded():
    rng = np.random.default_rng(0)
    a, b = rng.random(25), rng.random(25)
    e = paired_effect(a, b, n_resamples=50_000, seed=2)
    ref = sps.bootstrap((a - b,), np.mean, n_resamples=50_000, method="percentile", random_state=1)
    assert e.low == pytest.approx(ref.confidence_interval.low, abs=0.01)
    assert e.high == pytest.approx(ref.confidence_interval.high, abs=0.01)
    assert paired_effect(a, b, seed=7) == paired_effect(a, b, seed=7) != paired_effect(a, b, seed=8)


def test_an_integer_seed_draws_what_a_generator_of_that_seed_draws_in_one_chunk_or_many():
    """Every pair of a panel draws the same screens with one seed (drawn once, kept read-only): the interval is the
    one a fresh generator of that seed gives, for a panel and for differences too many for one draw."""
    from crocbench.stats._effects import DRAWN_AT_ONCE, _draws

    rng = np.random.default_rng(4)
    for n in (7, 25, DRAWN_AT_ONCE // 2_000 + 1):  # the last: 10,000 resamples of it take two chunks
        a, b = rng.random(n), rng.random(n)
        assert paired_effect(a, b, seed=3) == paired_effect(a, b, seed=np.random.default_rng(3))
    assert not _draws(3, 7, 10_000).flags.writeable


def test_a_wider_level_gives_a_wider_interval_and_constant_differences_a_point():
    rng = np.random.default_rng(1)
    a, b = rng.random(10), rng.random(10)
    narrow, wide = paired_effect(a, b, level=0.5), paired_effect(a, b, level=0.99)
    assert wide.low < narrow.low < narrow.high < wide.high
    assert paired_effect([3.0, 5.0], [1.0, 3.0]) == (2.0, 2.0, 2.0, 2)


@pytest.mark.parametrize(
    "a, b, kw, message",
    [
        ([1.0], [1.0, 2.0], {}, "of one length"),
        ([], [], {}, "at least 1"),
        ([np.nan], [1.0], {}, "finite"),
        ([1.0], [1.0], {"level": 1.0}, "level must be in (0, 1)"),
        ([1.0], [1.0], {"n_resamples": 10}, "at least 100"),
    ],
)
def test_bad_input_fails_in_one_line(a, b, kw, message):
    with pytest.raises(ValueError) as info:
        paired_effect(a, b, **kw)
    assert message in str(info.value)


@pytest.mark.parametrize("tests", [1, 2, 9, 12, 55, 330])
def test_screens_needed_for_a_family_is_the_first_n_whose_unanimous_wilcoxon_p_passes_holm(tests):
    """scipy's exact two-sided p-value of n like signs, times the family's size, below 0.05 first at that n."""

    def passes(n):
        return sps.wilcoxon(np.arange(1, n + 1, dtype=float)).pvalue * tests < 0.05

    n = screens_needed(tests=tests)
    assert passes(n) and not passes(n - 1)
    assert screens_needed(11) == screens_needed(tests=55)


def test_screens_needed_takes_rankers_or_a_family_not_both():
    with pytest.raises(ValueError, match="not both"):
        screens_needed(3, tests=3)
    with pytest.raises(ValueError, match="at least 1 test"):
        screens_needed(tests=0)

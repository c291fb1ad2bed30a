"""crocbench.stats.conover_friedman: against scikit-posthocs, by hand, and its properties."""

import itertools

import numpy as np
import pandas as pd
import pytest

from crocbench.stats import conover_friedman, friedman_test, holm

sp = pytest.importorskip("scikit_posthocs")
multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests


def _tables(seed=0):
    """Random (datasets, rankers) tables: continuous values (no ties), and values on a coarse grid (many ties)."""
    rng = np.random.default_rng(seed)
    for n, k in ((3, 2), (5, 3), (8, 5), (12, 4), (25, 5), (30, 8), (4, 7)):
        shift = np.linspace(0, 1, k)  # some rankers better than others, so that p-values spread over (0, 1]
        yield rng.normal(size=(n, k)) + shift
        yield np.round(rng.normal(size=(n, k)) + shift)  # ties within a dataset, and whole tied rows
        yield rng.integers(0, 3, size=(n, k)).astype(float)


@pytest.mark.parametrize("p_adjust", [None, "holm"])
@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # scikit-posthocs on a table without spread
def test_conover_agrees_with_scikit_posthocs(p_adjust):
    """Every p-value of every pair, with and without Holm's adjustment, on tables with and without ties; the
    direction of the metric does not change them (scikit-posthocs ranks the lowest value first)."""
    checked = 0
    for values in _tables():
        want = sp.posthoc_conover_friedman(values, p_adjust=p_adjust).to_numpy()
        for higher_is_better in (True, False):
            got = conover_friedman(values, higher_is_better=higher_is_better, p_adjust=p_adjust)
            assert got.shape == (values.shape[1],) * 2
            np.testing.assert_allclose(got.to_numpy(), want, rtol=0, atol=1e-12)
        checked += int(((want > 1e-6) & (want < 0.999)).sum())
    assert checked > 50  # the p-values compared are not all 0 or 1


def test_holm_is_statsmodels_holm():
    """scikit-posthocs adjusts with statsmodels' Holm: it is crocbench.stats.holm (ties among the p-values too)."""
    rng = np.random.default_rng(1)
    for m in (1, 2, 3, 10, 28):
        for p in (rng.uniform(size=m), np.round(rng.uniform(size=m), 1), rng.uniform(0, 0.02, size=m)):
            np.testing.assert_allclose(holm(p), multipletests(p, method="holm")[1], rtol=0, atol=1e-15)


def test_conover_by_hand():
    """Two datasets of three rankers: (N - 1)(k - 1) = 2 degrees of freedom, whose two-sided p-value is
    1 - |t| / sqrt(2 + t^2)."""
    p2 = lambda t: 1 - t / np.sqrt(2 + t**2)  # noqa: E731
    # ranks (1, 2, 3) and (1, 3, 2): R = (2, 5, 5), A = 28, N A - sum R^2 = 56 - 54 = 2, sd = sqrt(2 * 2 / 2)
    got = conover_friedman([[3, 2, 1], [3, 1, 2]], ["a", "b", "c"])
    assert list(got.index) == list(got.columns) == ["a", "b", "c"]
    assert got.at["a", "b"] == got.at["a", "c"] == pytest.approx(p2(3 / np.sqrt(2)), abs=1e-14)
    assert got.at["b", "c"] == 1.0 and got.at["a", "b"] == pytest.approx(1 - 3 / np.sqrt(13), abs=1e-14)
    holm_p = conover_friedman([[3, 2, 1], [3, 1, 2]], p_adjust="holm")  # a, a, 1: 3a, max(3a, 2a), 1
    assert holm_p.at[0, 1] == holm_p.at[0, 2] == pytest.approx(3 * (1 - 3 / np.sqrt(13)), abs=1e-14)
    assert holm_p.at[1, 2] == 1.0
    # a tie: ranks (1, 2.5, 2.5) and (1, 3, 2): R = (2, 5.5, 4.5), A = 27.5, N A - sum R^2 = 55 - 54.5 = 0.5
    tied = conover_friedman([[3, 2, 2], [3, 1, 2]])
    sd = np.sqrt(2 * 0.5 / 2)
    expected = [[1, p2(3.5 / sd), p2(2.5 / sd)], [p2(3.5 / sd), 1, p2(1 / sd)], [p2(2.5 / sd), p2(1 / sd), 1]]
    np.testing.assert_allclose(tied.to_numpy(), expected, rtol=0, atol=1e-14)
    assert tied.at[0, 1] == pytest.approx(1 - 3.5 * np.sqrt(2) / np.sqrt(26.5), abs=1e-14)


def test_conover_properties():
    rng = np.random.default_rng(2)
    values = rng.normal(size=(9, 5)) + np.arange(5)
    names = list("abcde")
    p = conover_friedman(values, names)
    assert np.array_equal(p.to_numpy(), p.to_numpy().T) and (np.diag(p) == 1).all()
    assert ((p.to_numpy() > 0) & (p.to_numpy() <= 1)).all()
    # identical columns: equal rank sums, p = 1 (adjusted too), whatever the others
    twin = np.c_[values, values[:, 2]]
    for adjust in (None, "holm"):
        assert conover_friedman(twin, [*names, "c2"], p_adjust=adjust).at["c", "c2"] == 1.0
    # the rankers' order is immaterial: reordered columns give the same p-value for each pair
    order = [3, 0, 4, 1, 2]
    again = conover_friedman(values[:, order], [names[i] for i in order])
    pd.testing.assert_frame_equal(again.loc[names, names], p, check_exact=False, atol=1e-15, rtol=0)
    # ranks are all it reads: a monotone transform of every dataset's values changes nothing
    np.testing.assert_allclose(conover_friedman(np.exp(3 * values), names).to_numpy(), p.to_numpy(), atol=1e-15)
    # Holm: never below the unadjusted p-value; the smallest multiplied by the number of pairs
    adjusted = conover_friedman(values, names, p_adjust="holm").to_numpy()
    upper = np.triu_indices(5, 1)
    assert (adjusted >= p.to_numpy() - 1e-15).all()
    assert adjusted[upper].min() == pytest.approx(min(1.0, 10 * p.to_numpy()[upper].min()))
    # a strong, consistent order gives small p-values for the pairs far apart in it, and the Friedman test agrees
    assert friedman_test(values).p_value < 0.05 and p.at["a", "e"] < 1e-4


def test_conovers_friedman_statistic_is_the_iman_davenport_f():
    """Conover's T2 = (N - 1)(B - N k (k + 1)^2 / 4) / (A - B), B = sum R_j^2 / N, from the ranks (the docs say it is
    friedman_test's Iman-Davenport F), with and without ties."""
    from crocbench.stats import dataset_ranks

    for values in _tables(3):
        ranks = dataset_ranks(values)
        n, k = ranks.shape
        a, b = (ranks**2).sum(), (ranks.sum(axis=0) ** 2).sum() / n
        if a == b:  # every dataset ranks alike: T2 is infinite
            continue
        t2 = (n - 1) * (b - n * k * (k + 1) ** 2 / 4) / (a - b)
        assert friedman_test(values).iman_davenport == pytest.approx(t2, rel=1e-12, abs=1e-12)


def test_conover_when_the_ranks_leave_no_spread():
    """Every dataset ranking the rankers alike: the denominator is 0; different rank sums give p = 0, equal ones 1."""
    same = conover_friedman([[0.9, 0.5, 0.5, 0.1]] * 4, list("wxyz"))
    for a, b in itertools.combinations("wxyz", 2):
        assert same.at[a, b] == (1.0 if {a, b} == {"x", "y"} else 0.0)
    assert (conover_friedman([[1.0, 1.0, 1.0]] * 3).to_numpy() == 1).all()  # every value tied: no evidence


def test_conover_refuses_bad_input():
    with pytest.raises(ValueError, match="2 names for 3 rankers"):
        conover_friedman([[1, 2, 3], [3, 2, 1]], ["a", "b"])
    with pytest.raises(ValueError, match="p_adjust must be None or 'holm'; got 'bonferroni'"):
        conover_friedman([[1, 2, 3], [3, 2, 1]], p_adjust="bonferroni")
    with pytest.raises(ValueError, match="at least 2 of each"):
        conover_friedman([[1, 2, 3]])
    with pytest.raises(ValueError, match="finite"):
        conover_friedman([[1, 2, np.nan], [3, 2, 1]])

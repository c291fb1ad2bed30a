"""crocbench.models._simple: RANDOM, MAX-SIM and kNN against brute force."""

import numpy as np
import pytest
from _synthetic import _split

from crocbench.models import KNN, MaxSim, Random
from crocbench.similarity import SimilarityIndex, top_k


def test_maxsim_and_knn_equal_brute_force(data):
    fp, y, full = data
    sim = SimilarityIndex(fp, top_k(fp, 30))
    train, test = _split(y)
    rows = np.concatenate([test, train[:10]])  # training rows: never their own neighbour
    maxsim = MaxSim(block=7).fit(sim, train, y[train]).score(sim, rows)
    knn = KNN(k=5).fit(sim, train, y[train]).score(sim, rows)
    actives = train[y[train] == 1]
    for i, row in enumerate(rows):
        assert maxsim[i] == pytest.approx(full[row, actives].max(), abs=1e-7)
        others = [j for j in train if j != row]
        order = sorted(others, key=lambda j: (-np.float32(full[row, j]), j))[:5]
        assert knn[i] == pytest.approx(np.mean(y[order]))


def test_knn_tie_break_only_orders_within_a_fraction(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    plain = KNN(k=5).fit(sim, train, y[train]).score(sim, test)
    broken = KNN(k=5, tie_break="similarity").fit(sim, train, y[train]).score(sim, test)
    counts = plain * 5  # active neighbours among k = 5: whole numbers (k - 1 = 4 would give quarters)
    assert np.array_equal(counts, np.round(counts)) and set(counts) <= set(range(6)) and np.unique(counts).size >= 3
    assert np.unique(broken).size > np.unique(plain).size
    assert np.all(np.floor(broken * 5 + 1e-9) == np.round(plain * 5))  # same fraction, bonus < 1/(2k)
    with pytest.raises(ValueError, match="tie_break"):
        KNN(tie_break="random")


def test_random_is_seeded_and_uniform(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    a = Random(seed=(0, 1)).fit(sim, train, y[train]).score(sim, test)
    b = Random(seed=(0, 1)).fit(sim, train, y[train]).score(sim, test)
    c = Random(seed=(0, 2)).fit(sim, train, y[train]).score(sim, test)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert a.min() >= 0 and a.max() < 1

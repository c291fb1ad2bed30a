"""crocbench.chem.graph: the novelty split's graph against a brute force over all pairs, and the fingerprint names."""

import numpy as np
import pytest

from crocbench.chem.fingerprints import Fingerprints
from crocbench.chem.graph import FINGERPRINTS, check_fingerprint, tau_graph


def random_library(seed: int, n: int = 60, universe: int = 40, families: int = 10, singletons: int = 15) -> list:
    """``n`` random feature sets, each a family's base set with one to three features flipped, so that pairs
    fall at every similarity, many exactly at small fractions (1/2, 2/5, 1/3...); then ``singletons`` sets that
    share no feature with any other (as a screen's many compounds alike to none)."""
    rng = np.random.default_rng(seed)
    bases = [set(rng.choice(universe, size=rng.integers(3, 7), replace=False).tolist()) for _ in range(families)]
    sets = []
    for _ in range(n):
        s = set(bases[rng.integers(families)])
        for f in rng.choice(universe, size=rng.integers(1, 4), replace=False).tolist():
            s ^= {f}
        sets.append(s)
    return sets + [{universe + 2 * i, universe + 2 * i + 1} for i in range(singletons)]


def as_fingerprints(sets: list) -> Fingerprints:
    indptr = np.concatenate([[0], np.cumsum([len(s) for s in sets])]).astype(np.int64)
    ids = np.array([f for s in sets for f in sorted(s)], dtype=np.uint64)
    return Fingerprints(indptr, ids)


def brute_tanimoto(a: set, b: set) -> np.float32:
    """The similarity as the engine defines it: exact counts, one float32 division (0 for two empty sets)."""
    union = len(a | b)
    return np.float32(len(a & b)) / np.float32(union) if union else np.float32(0.0)


def brute_matrix(sets: list) -> np.ndarray:
    n = len(sets)
    return np.array([[brute_tanimoto(sets[i], sets[j]) for j in range(n)] for i in range(n)], dtype=np.float32)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("tau", [0.25, 1 / 3, 0.4, 0.5, 1.0])
def test_the_graph_is_every_pair_at_or_above_tau(seed, tau):
    """Every pair with T >= tau, and no other, with its similarity; pairs exactly at tau are edges."""
    sets = random_library(seed)
    brute = brute_matrix(sets)
    np.fill_diagonal(brute, 0)
    want = np.where(brute >= np.float32(tau), brute, 0)
    got = tau_graph(as_fingerprints(sets), tau, block=16, columns=24).toarray()  # tiles, some partial
    assert (brute == np.float32(tau)).any() or tau in (0.25, 1.0)  # the library has pairs exactly at tau
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", range(3))
def test_the_graphs_arrays_are_scipys_canonical_ones(seed):
    """The CSR arrays, built in one pass from the pairs, are those of scipy's ``(upper + upper.T).tocsr()``: the
    same row pointers, each row's columns sorted, the same values (so METIS and the components see one graph)."""
    import scipy.sparse as sp

    from crocbench.similarity import FeatureMatrix, pairs_at_least

    fm = FeatureMatrix(as_fingerprints(random_library(seed, n=90)))
    r, c, s = pairs_at_least(fm, np.float32(0.3), block=16, columns=24)
    upper = sp.coo_matrix((s, (r, c)), shape=(fm.n, fm.n))
    want = (upper + upper.T).tocsr()
    got = tau_graph(fm, 0.3, block=16, columns=24)
    assert want.has_canonical_format and got.nnz > 100
    for name in ("indptr", "indices", "data"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
        assert getattr(got, name).dtype == getattr(want, name).dtype, name


def test_the_graph_of_a_hand_made_library():
    """{1,2} {1,2,3} {4}: T = 2/3 for the first two, 0 otherwise."""
    fp = as_fingerprints([{1, 2}, {1, 2, 3}, {4}])
    assert tau_graph(fp, 2 / 3).toarray().tolist() == [[0, np.float32(2 / 3), 0], [np.float32(2 / 3), 0, 0], [0] * 3]
    assert tau_graph(fp, 0.7).nnz == 0


@pytest.mark.parametrize("tau", [0, -0.1, 1.5, "x"])
def test_tau_outside_0_1_is_one_line(tau):
    with pytest.raises(ValueError, match=r"tau is a Tanimoto similarity in \(0, 1\]"):
        tau_graph(as_fingerprints([{1}, {2}]), tau)


def test_the_fingerprint_is_a_declared_name():
    assert check_fingerprint("ecfp4") == "ecfp4" and FINGERPRINTS == ("ecfp4",)
    with pytest.raises(ValueError, match="unknown fingerprint 'ecfp6'; known: ecfp4"):
        check_fingerprint("ecfp6")

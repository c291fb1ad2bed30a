"""The engine's two popcount paths (crocbench.similarity._popcount): the vector path (8 x 8 blocks, AVX-512
VPOPCNTDQ) and the scalar fallback count the same integers as Python's sets, in any shape (rows and columns not
multiples of 8, packed words from 1 to 40), and the top-k lists equal brute force on either path; the path is
chosen by the CPU unless CROCBENCH_POPCOUNT says otherwise, and the logs say which ran."""

import io

import numpy as np
import pytest
from test_fingerprints import _brute_force_top_k, _random_sets

import crocbench.similarity as S
from crocbench.similarity import _popcount as P


@pytest.fixture(params=["vector", "scalar"])
def path(request, monkeypatch):
    monkeypatch.setenv("CROCBENCH_POPCOUNT", request.param)
    return request.param


@pytest.mark.parametrize("features, n_a, n_b", [(64, 8, 8), (200, 17, 29), (2560, 23, 70), (700, 3, 5)])
def test_intersections_and_similarities_equal_python_sets(path, features, n_a, n_b):
    rng = np.random.default_rng(features + n_a)
    fp, sets = _random_sets(max(n_a, n_b) + 10, features, rng, 0.2)
    fm = S.FeatureMatrix(fp, 2)  # every feature in 2+ sets is packed: up to 40 words
    rows, cols = rng.permutation(fp.n)[:n_a], np.arange(10, 10 + n_b)
    assert P.popcount_path() == path
    want = [[len(sets[i] & sets[j]) for j in cols] for i in rows]
    np.testing.assert_array_equal(fm.intersections(rows, cols), want)
    sims = [[len(sets[i] & sets[j]) / max(1, len(sets[i] | sets[j])) for j in cols] for i in rows]
    np.testing.assert_array_equal(fm.tanimoto(rows, cols), np.array(sims).astype(np.float32))
    block = np.zeros((n_a + 2, n_b + 3))  # float64 rows of a wider matrix: strided rows, contiguous columns
    fm.tanimoto(rows, cols, out=block[1 : n_a + 1, 2 : n_b + 2])
    np.testing.assert_array_equal(block[1 : n_a + 1, 2 : n_b + 2], np.array(sims).astype(np.float32))
    assert not block[0].any() and not block[:, :2].any() and not block[:, -1].any()


@pytest.mark.parametrize("features, n_a, n_b", [(200, 17, 29), (2560, 23, 70), (700, 3, 5)])
def test_tanimoto_dot_is_the_ordered_sum_of_the_similarities_bit_for_bit(path, features, n_a, n_b):
    from crocbench.similarity._dot import ordered_dot

    rng = np.random.default_rng(features + n_b)
    fp, sets = _random_sets(max(n_a, n_b) + 10, features, rng, 0.2)
    fm = S.FeatureMatrix(fp, 2)
    rows, cols = rng.permutation(fp.n)[:n_a], np.arange(10, 10 + n_b)
    w = rng.normal(size=n_b)
    got = fm.tanimoto_dot(rows, cols, w)
    assert got.dtype == np.float64 and got.shape == (n_a,)
    np.testing.assert_array_equal(got, ordered_dot(fm.tanimoto(rows, cols), w))  # the same bits
    exact = [  # float32 similarities from Python's sets, summed in column order
        sum(
            float(np.float32(len(sets[i] & sets[j]) / max(1, len(sets[i] | sets[j])))) * w[c]
            for c, j in enumerate(cols)
        )
        for i in rows
    ]
    np.testing.assert_allclose(got, exact, rtol=1e-12, atol=1e-12)
    many = rng.normal(size=(n_b, 3))  # three sums from one pass: each column's bits as alone
    both = fm.tanimoto_dot(rows, cols, many)
    assert both.shape == (n_a, 3)
    for c in range(3):
        np.testing.assert_array_equal(both[:, c], ordered_dot(fm.tanimoto(rows, cols), many[:, c]))
    with pytest.raises(ValueError, match="one value per row of b"):
        fm.tanimoto_dot(rows, cols, w[:-1])


def test_top_k_and_the_matrix_equal_brute_force_on_either_path(path):
    rng = np.random.default_rng(3)
    fp, sets = _random_sets(150, 900, rng, 0.25)
    full = np.array([[len(a & b) / max(1, len(a | b)) for b in sets] for a in sets]).astype(np.float32)
    np.fill_diagonal(full, [1.0 if s else 0.0 for s in sets])
    np.testing.assert_array_equal(S.tanimoto_matrix(S.FeatureMatrix(fp, 3), block=40), full)
    index, similarity = _brute_force_top_k(full, 6)
    for tile, chunks in ((1000, 1), (24, 3), (13, 2)):
        nb = S.all_pairs_top_k(S.FeatureMatrix(fp, 3), 6, chunks=chunks, tile=tile)
        np.testing.assert_array_equal(nb.index, index)
        np.testing.assert_array_equal(nb.similarity, similarity)


def test_the_path_follows_the_cpu_unless_told_and_the_log_says_which(monkeypatch):
    monkeypatch.delenv("CROCBENCH_POPCOUNT", raising=False)
    assert P.popcount_path() == ("vector" if P.host_has_vpopcntdq() else "scalar")
    for value, path, why in (("scalar", "scalar popcount", "CROCBENCH_POPCOUNT"), ("vector", "vector popcount", "")):
        monkeypatch.setenv("CROCBENCH_POPCOUNT", value)
        log = io.StringIO()
        S.tanimoto_matrix(_random_sets(20, 100, np.random.default_rng(0), 0.3)[0], progress=log)
        first = log.getvalue().splitlines()[0]
        assert first.startswith("tanimoto matrix: intersection counts by " + path) and why in first
    monkeypatch.setenv("CROCBENCH_POPCOUNT", "avx2")
    with pytest.raises(ValueError, match="CROCBENCH_POPCOUNT must be one of auto, vector, scalar; got 'avx2'"):
        P.popcount_path()


@pytest.mark.skipif(not P.host_has_vpopcntdq(), reason="this CPU has no AVX-512 VPOPCNTDQ")
def test_the_vector_block_compiles_to_the_cpus_vector_popcount_and_counts_8_x_8():
    import numba

    from crocbench.similarity import _kernels as K

    @numba.njit
    def block(a, bt, out):
        K.count_8x8(a, 1, bt, 2, out, 1)

    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**63, size=(10, 5), dtype=np.uint64)
    bt = rng.integers(0, 2**63, size=(5, 12), dtype=np.uint64)
    out = np.zeros((10, 12), dtype=np.float32)
    block(a, bt, out)
    want = [
        [sum(bin(int(a[1 + r, w]) & int(bt[w, 2 + c])).count("1") for w in range(5)) for c in range(8)]
        for r in range(8)
    ]
    np.testing.assert_array_equal(out[1:9, 2:10], want)
    assert not out[0].any() and not out[9].any() and not out[:, :2].any() and not out[:, 10:].any()
    asm = "\n".join(block.inspect_asm().values())
    assert "vpopcntq" in asm and "zmm" in asm


def test_a_later_tile_still_offers_exact_ties_with_lower_indices(path):
    # 40 copies of one molecule, tiles of 16, k = 5: the diagonal tiles come first and fill each block's lists
    # with copies of its own block (similarity 1); the off-diagonal tiles then offer lower-numbered copies at
    # exactly the lists' k-th similarity, which must replace them (ties go to the lower index). A prefilter a
    # hair too strict would pass them over.
    from crocbench.chem.fingerprints import fingerprints_from_smiles

    _, fp = fingerprints_from_smiles(["c1ccccc1O"] * 40)
    for chunks in (1, 3):
        nb = S.all_pairs_top_k(fp, 5, chunks=chunks, tile=16)
        np.testing.assert_array_equal(nb.index, [[j for j in range(40) if j != i][:5] for i in range(40)])
        assert np.all(nb.similarity == 1.0)

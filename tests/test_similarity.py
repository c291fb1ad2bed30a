"""crocbench.similarity: the similarity index's neighbours, kernels and data view, the matrix file."""

import numpy as np
import pytest
from _synthetic import _split
from _waits import start, stop

from crocbench.chem.fingerprints import Fingerprints
from crocbench.similarity import KernelBuffer, MatrixFile, SimilarityIndex, tanimoto_matrix, top_k


@pytest.mark.parametrize("cached_k", [None, 6, 40])
def test_neighbours_within_a_subset_equal_top_k(data, cached_k):
    fp, y, full = data
    cached = top_k(fp, cached_k) if cached_k else None
    sim = SimilarityIndex(fp, cached)
    train, test = _split(y)
    for query in (train, test):
        got = sim.neighbours(query, 5, among=train)
        want = top_k(fp, 5, query=query, reference=train)
        assert np.array_equal(got.index, train[want.index])
        assert np.array_equal(got.similarity, want.similarity)
    if cached_k == 6:
        assert sim.recomputed > 0  # the fallback path ran
    if cached_k == 40:
        assert sim.recomputed == 0


def test_kernel_buffer_reuses_one_allocation_and_gives_the_fresh_kernel(data):
    fp, y, full = data
    sim = SimilarityIndex(fp)
    buffer = KernelBuffer()
    big = sim.kernel(np.arange(200), buffer=buffer)
    small = sim.kernel(np.arange(50, 150), buffer=buffer)
    assert np.shares_memory(big, small) and small.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(small, full[50:150, 50:150])
    np.testing.assert_array_equal(sim.kernel(np.arange(250), buffer=buffer), full[:250, :250])  # grows


def test_keep_kernel_memory_gives_every_buffer_in_the_block_one_allocation(data):
    """Inside the block, buffers made one after the other (as successive folds' fits make them) share one
    allocation and still give each kernel exactly; a nested block has its own; outside, each buffer has its own."""
    from crocbench._memory import _KEPT, keep_kernel_memory

    fp, y, full = data
    sim = SimilarityIndex(fp)
    with keep_kernel_memory():
        first = sim.kernel(np.arange(200), buffer=KernelBuffer())
        second = sim.kernel(np.arange(50, 150), buffer=KernelBuffer())  # the next fold's fit, a buffer of its own
        assert np.shares_memory(first, second)
        np.testing.assert_array_equal(second, full[50:150, 50:150])
        with keep_kernel_memory():
            assert not np.shares_memory(KernelBuffer().take(10), first)
        grown = sim.kernel(np.arange(250), buffer=KernelBuffer())  # larger than any before: reallocated, exact
        np.testing.assert_array_equal(grown, full[:250, :250])
        inner = KernelBuffer()
        assert np.shares_memory(grown, inner.take(5))
    assert _KEPT == [] and inner._held[0] is None  # the block's allocation is released with it, even by a survivor
    assert not np.shares_memory(KernelBuffer().take(10), KernelBuffer().take(10))


def test_matrix_file_gathers_any_rows_and_columns_exactly(tmp_path, data):
    fp, y, full = data
    path = tmp_path / "m.npy"
    tanimoto_matrix(fp, out=path, block=64)
    rng = np.random.default_rng(0)
    rows, cols = rng.choice(300, 120, replace=False), rng.choice(300, 77, replace=False)  # unordered, unequal
    matrix = MatrixFile(path, block_bytes=7 * 300 * 4)  # 7 file rows a read: many reads, partial spans
    assert matrix.block_rows == 7
    np.testing.assert_array_equal(matrix.gather(rows, cols), full[np.ix_(rows, cols)].astype(np.float32))
    two = MatrixFile(path, block_bytes=7 * 300 * 4, threads=2)  # blocks shared out between two threads
    filled = two.gather(rows, cols, out=np.full((120, 77), np.nan, dtype=np.float32))  # every cell written
    np.testing.assert_array_equal(filled, full[np.ix_(rows, cols)].astype(np.float32))
    wide = matrix.gather(np.sort(rows), np.arange(300), dtype=np.float64)
    assert wide.dtype == np.float64
    np.testing.assert_array_equal(wide, full[np.sort(rows)])  # float32 values widened exactly
    with pytest.raises(ValueError, match=r"lie in \[0, 300\)"):
        matrix.gather([0, 300], [1])
    with pytest.raises(ValueError, match="300 x 300 matrix for 200 compounds"):
        SimilarityIndex(Fingerprints(fp.indptr[:201], fp.ids[: fp.indptr[200]]), matrix=path)


def test_similarity_dot_from_fingerprints_or_the_matrix_gives_the_same_bits(tmp_path, data):
    from crocbench.similarity._dot import ordered_dot

    fp, y, full = data
    tanimoto_matrix(fp, out=tmp_path / "m.npy")
    rng = np.random.default_rng(3)
    rows, cols, w = rng.choice(300, 50, replace=False), rng.choice(300, 90, replace=False), rng.normal(size=90)
    want = ordered_dot(full[np.ix_(rows, cols)].astype(np.float32), w)
    np.testing.assert_array_equal(SimilarityIndex(fp).similarity_dot(rows, cols, w), want)
    np.testing.assert_array_equal(SimilarityIndex(fp, matrix=tmp_path / "m.npy").similarity_dot(rows, cols, w), want)
    np.testing.assert_allclose(want, full[np.ix_(rows, cols)] @ w, rtol=1e-12)  # the product, to rounding


def test_the_data_a_model_sees_fingerprints_ids_smiles_neighbours(data):
    fp, _, _ = data
    full = SimilarityIndex(fp, ids=[f"c{i}" for i in range(fp.n)], smiles=["C"] * fp.n)
    csr = full.fingerprints
    for i in (0, 7, fp.n - 1):  # row i holds exactly molecule i's features
        assert full.feature_ids[csr[i].indices].tolist() == sorted(fp.row(i).tolist())
    assert full.ids[3] == "c3" and full.smiles.shape == (fp.n,)
    expected = top_k(fp, 4)
    got = full.neighbours(np.arange(fp.n), 4)
    assert np.array_equal(got.index, expected.index) and np.array_equal(got.similarity, expected.similarity)
    with pytest.raises(ValueError, match="3 ids for"):
        SimilarityIndex(fp, ids=["a", "b", "c"])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_compiled_transpose_equals_numpys_on_strided_views_across_tiles(dtype):
    from crocbench.similarity._transpose import transpose_into

    rng = np.random.default_rng(3)
    mat = rng.random((300, 300)).astype(dtype)
    want = mat.copy()
    want[200:263, :130] = want[:130, 200:263].T  # 63 rows x 130 columns: tiles of 64 with tails both ways
    want[130:300, 140:190] = want[10:60, 130:300].T  # 170 rows: three stripes of rows, the last one short
    transpose_into(mat[200:263, :130], mat[:130, 200:263])
    transpose_into(mat[130:300, 140:190], mat[10:60, 130:300])
    np.testing.assert_array_equal(mat, want)
    with pytest.raises(ValueError, match=r"dst \(63, 130\) .* is not src \(63, 130\)"):
        transpose_into(mat[200:263, :130], mat[200:263, :130])


def test_kernels_need_no_torch_and_take_omp_num_threads():
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, numba, numpy as np\n"
        "from _synthetic import synthetic\n"
        "from crocbench.similarity import SimilarityIndex, tanimoto_matrix\n"
        "fp, y = synthetic()\n"
        "sim = SimilarityIndex(fp)\n"
        "k = sim.kernel(np.arange(150))\n"
        "m = tanimoto_matrix(fp, block=64)\n"
        "assert np.array_equal(k, m[:150, :150].astype(np.float64))\n"
        "print('torch' in sys.modules, numba.get_num_threads(), numba.config.NUMBA_NUM_THREADS)\n"
    )
    tests = str(Path(__file__).resolve().parent)  # for _synthetic
    path = [tests, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]  # and the crocbench under test
    runs = {  # the three settings side by side, each in a process of its own
        (threads, top): start(
            [sys.executable, "-c", code],
            env={**os.environ, "OMP_NUM_THREADS": threads, "PYTHONPATH": os.pathsep.join(path)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for threads, top in (("1", 1), ("2", 2), ("0", None))  # None: numba's whole pool (numexpr needs an int)
    }
    try:
        for (threads, top), run in runs.items():
            stdout, stderr = run.communicate(timeout=600)
            assert run.returncode == 0, stderr[-3000:]
            loaded, used, pool = stdout.split()
            assert loaded == "False" and int(used) == min(top or int(pool), int(pool)), (threads, stdout)
    finally:
        stop(*runs.values())


@pytest.mark.parametrize(("block", "columns"), [(7, 11), (16, 5), (2048, 16384)])
@pytest.mark.parametrize("t", [0.2, 1 / 3, 0.5, 1.0])
def test_pairs_at_least_are_every_pair_of_the_upper_triangle_at_or_above_t(block, columns, t):
    """Against Python sets and one float32 division per pair: every pair i < j with T >= t (pairs exactly at t
    included), its similarity to the bit, in the documented order, whatever the tiles."""
    from crocbench.similarity import FeatureMatrix, pairs_at_least

    rng = np.random.default_rng(3)
    sets = [set(rng.choice(12, size=rng.integers(0, 5), replace=False).tolist()) for _ in range(70)]
    fp = Fingerprints(
        np.concatenate([[0], np.cumsum([len(s) for s in sets])]).astype(np.int64),
        np.array([f for s in sets for f in sorted(s)], dtype=np.uint64),
    )
    want = []
    for i, a in enumerate(sets):
        for j in range(i + 1, len(sets)):
            union = len(a | sets[j])
            s = np.float32(len(a & sets[j])) / np.float32(union) if union else np.float32(0)
            if s >= np.float32(t):
                want.append((i, j, s))
    rows, cols, sims = pairs_at_least(FeatureMatrix(fp), t, block=block, columns=columns)
    assert rows.dtype == cols.dtype == np.int32 and sims.dtype == np.float32
    tile = [(i // block, (j - i // block * block) // columns) for i, j, _ in want]  # columns tiled from the rows'
    order = sorted(range(len(want)), key=lambda k: (tile[k], want[k][:2]))
    assert list(zip(rows.tolist(), cols.tolist(), sims.tolist(), strict=True)) == [want[k] for k in order]
    assert any(s == np.float32(t) for _, _, s in want) or t in (0.2, 1.0)  # pairs exactly at t are in the test

"""The exact Tanimoto engine: intersection counts, similarity blocks and the full N x N matrix.

``T(a, b) = |a & b| / (|a| + |b| - |a & b|)``.  Intersection counts are exact
integers: the features shared by many molecules are bit-packed, 64 to a
uint64 word, and counted by popcounts of the words' AND; the rare ones (whose
cost in an inverted index grows with the square of their frequency) are
counted from an inverted index.  Both run in one compiled, parallel loop
(``_kernels``).  The similarity is then one correctly rounded float32
division, so the full matrix and the top-k lists hold bit-identical values.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._memory import empty_array
from ..chem.fingerprints import Fingerprints

DEFAULT_BLOCK = 2048

#: Features in at least this fraction of the molecules are bit-packed (counted by popcount); the others go to
#: the inverted index. A packed feature costs about 1/64 of a word per pair; an indexed one about 10 ns per pair
#: that shares it, so the two cost the same near 1% (benchmarks/speed/neighbours.py).
DENSE_FRACTION = 0.01


class FeatureMatrix:
    """Fingerprints prepared for fast exact intersection counts.

    Parameters
    ----------
    fp : Fingerprints
        The compounds' feature sets (:class:`crocbench.chem.fingerprints.Fingerprints`).
    dense_min_count : int, default=None
        Features present in at least this many molecules are bit-packed
        (None: ``DENSE_FRACTION`` of the molecules, at least 2).
    """

    def __init__(self, fp: Fingerprints, dense_min_count: int | None = None):
        import pandas as pd

        n = fp.n
        rows = np.repeat(np.arange(n, dtype=np.int64), fp.sizes())
        cols, uniq = pd.factorize(fp.ids, sort=True)  # np.unique's columns, by hashing (a sort is ~10x slower)
        counts = np.bincount(cols, minlength=uniq.size)
        threshold = max(2, int(DENSE_FRACTION * n)) if dense_min_count is None else int(dense_min_count)
        is_dense = counts >= threshold
        dense_col = (np.cumsum(is_dense) - 1)[cols]
        sparse_col = np.cumsum(~is_dense) - 1
        in_dense = is_dense[cols]
        self.n = n
        self.sizes = fp.sizes().astype(np.float32)
        self.has_empty = bool(n and self.sizes.min() == 0)  # else every union is at least 1
        bits = np.zeros((n, 64 * max(1, -(-int(is_dense.sum()) // 64))), dtype=np.uint8)
        bits[rows[in_dense], dense_col[in_dense]] = 1
        self.words = np.packbits(bits, axis=1, bitorder="little").view(
            np.uint64
        )  # feature c: bit c % 64 of word c // 64
        del bits
        self.sparse = sp.csr_matrix(
            (np.ones(int((~in_dense).sum()), dtype=np.float32), (rows[~in_dense], sparse_col[cols[~in_dense]])),
            shape=(n, int((~is_dense).sum())),
        )
        self.n_features = uniq.size

    def take(self, rows) -> FeatureMatrix:
        """The same matrix restricted to ``rows`` (in that order): one gather, reused by every block.

        Parameters
        ----------
        rows : array-like of int
            Row indices, in the order wanted.

        Returns
        -------
        FeatureMatrix
            The matrix of those rows.
        """
        sub = object.__new__(FeatureMatrix)
        rows = np.asarray(rows, dtype=np.int64)
        sub.n, sub.sizes, sub.n_features = rows.size, self.sizes[rows], self.n_features
        sub.has_empty = bool(rows.size and sub.sizes.min() == 0)
        sub.words, sub.sparse = self.words[rows], self.sparse[rows]
        return sub

    def intersections(self, a: slice | np.ndarray, b: slice | np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Exact ``|a_i & b_j|`` for rows a and b, as a float32 (len a, len b) array.

        ``out``, a C-contiguous float32 array of that shape, is reused if given
        (fresh pages cost more than the arithmetic on some kernels).

        Parameters
        ----------
        a : slice or ndarray of int
            Rows of the first set.
        b : slice or ndarray of int
            Rows of the second set.
        out : ndarray of float32 of shape (len(a), len(b)), default=None
            C-contiguous array to reuse; None allocates one.

        Returns
        -------
        ndarray of float32 of shape (len(a), len(b))
            ``|a_i & b_j|``, exact.
        """
        from ._kernels import count_intersections

        operands = self._operands(a, b)
        if out is None:
            out = np.empty((operands[0].shape[0], operands[1].shape[0]), dtype=np.float32)
        count_intersections(out, *operands)
        return out

    def _operands(self, a, b) -> tuple:
        """What the compiled loops take for rows a against rows b: both sets of packed words, and B's transposed
        on the vector popcount path (:func:`~crocbench.similarity._popcount.popcount_path`; empty on the
        scalar path); A's rare features per row (CSR) and B's columns per rare feature (CSC). Sets their
        threads to the process's (:func:`~crocbench.similarity._kernels.process_threads`)."""
        from ._kernels import process_threads, use_threads
        from ._popcount import popcount_path

        use_threads(process_threads())
        rows, cols = self.sparse[a], self.sparse[b].tocsc()
        words_b = np.ascontiguousarray(self.words[b])
        vector = popcount_path() == "vector"
        return (
            np.ascontiguousarray(self.words[a]),
            words_b,
            np.ascontiguousarray(words_b.T) if vector else np.empty((0, 0), dtype=np.uint64),
            rows.indptr,
            rows.indices,
            cols.indptr,
            cols.indices,
        )

    def tanimoto(self, a, b, out: np.ndarray | None = None) -> np.ndarray:
        """Exact Tanimoto similarities between rows a and rows b (0 where both sets are empty).

        ``out`` (float32, or float64 to hold the same values; e.g. a block of a matrix's rows) is written if
        given, else a float32 array is returned.

        Parameters
        ----------
        a : slice or ndarray of int
            Rows of the first set.
        b : slice or ndarray of int
            Rows of the second set.
        out : ndarray of float32 or float64 of shape (len(a), len(b)), default=None
            Array to write into; None allocates a float32 one.

        Returns
        -------
        ndarray of shape (len(a), len(b))
            The Tanimoto similarities (``out`` if given).
        """
        from ._kernels import tanimoto_block

        operands = self._operands(a, b)
        shape = (operands[0].shape[0], operands[1].shape[0])
        if out is None:
            out = np.empty(shape, dtype=np.float32)
        elif out.shape != shape or out.dtype not in (np.float32, np.float64):
            raise ValueError(f"out must be a float32 or float64 array of shape {shape}; got {out.dtype} {out.shape}")
        tanimoto_block(out, *operands, self.sizes[a], self.sizes[b], self.has_empty)
        return out

    def tanimoto_dot(self, a, b, weights) -> np.ndarray:
        """``tanimoto(a, b) @ weights`` in float64, each sum in column order, without holding the block.

        The same bits as ``ordered_dot`` (``crocbench.similarity._dot``) of :meth:`tanimoto`'s block (every
        similarity the float32 one, widened), on every CPU and any number of threads.

        Parameters
        ----------
        a : slice or ndarray of int
            Rows of the first set.
        b : slice or ndarray of int
            Rows of the second set.
        weights : array-like of float64 of shape (len(b),) or (len(b), m)
            One weight per row of b (or m of them).

        Returns
        -------
        ndarray of float64 of shape (len(a),) or (len(a), m)
            ``sum_j T(a_i, b_j) weights_j`` (for each column of weights).
        """
        from ._kernels import tanimoto_dot

        operands = self._operands(a, b)
        weights = np.asarray(weights, dtype=np.float64)
        if weights.ndim not in (1, 2) or weights.shape[0] != operands[1].shape[0]:
            raise ValueError(f"weights must have one value per row of b ({operands[1].shape[0]}); got {weights.shape}")
        columns = np.ascontiguousarray(weights.reshape(weights.shape[0], -1))
        out = np.empty((operands[0].shape[0], columns.shape[1]))
        tanimoto_dot(out, columns, *operands, self.sizes[a], self.sizes[b], self.has_empty)
        return out if weights.ndim == 2 else out[:, 0]


class _Progress:
    def __init__(self, total: int, what: str, stream=None, every: float = 5.0, unit: str = "rows"):
        self.total, self.what, self.stream, self.every, self.unit = total, what, stream, every, unit
        self.start = self.last = time.perf_counter()
        if stream is not None:
            from ._popcount import describe_path

            print(f"{what}: intersection counts by {describe_path()}", file=stream, flush=True)

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if self.stream is not None and (now - self.last >= self.every or done == self.total):
            self.last = now
            print(
                f"{self.what}: {done}/{self.total} {self.unit} ({100 * done / self.total:.0f}%), "
                f"{now - self.start:.1f} s",
                file=self.stream,
                flush=True,
            )


def tanimoto_matrix(
    fp: Fingerprints | FeatureMatrix, out=None, block: int = DEFAULT_BLOCK, progress=None, dtype=np.float32
) -> np.ndarray:
    """The full symmetric N x N Tanimoto matrix, diagonal 1 (0 for an empty set).

    Only the upper block triangle is computed, straight into the matrix's
    rows (counted and divided in one compiled pass); a row block's lower
    part is the transpose of the rows already written.

    Parameters
    ----------
    fp : Fingerprints or FeatureMatrix
        The compounds' feature sets (:class:`crocbench.chem.fingerprints.Fingerprints`), or a :class:`FeatureMatrix`
        already prepared from them.
    out : path-like or ndarray, default=None
        A path ending in ``.npy`` makes the matrix a memory-mapped ``.npy``
        file written block by block (read it back with
        ``np.load(path, mmap_mode="r")``, holding no second copy); a numpy
        array of shape (N, N), float32 or float64, is filled in place (the
        values are float32 divisions, widened exactly); None allocates one.
    block : int, default=DEFAULT_BLOCK
        Rows per block.
    progress : file-like, default=None
        Progress lines are written there (e.g. ``sys.stderr``); None for silence.
    dtype : {numpy.float32, numpy.float64}, default=numpy.float32
        Of a matrix allocated here (``out`` None or a path); float64 is what LIBSVM takes.

    Returns
    -------
    ndarray of shape (N, N)
        The matrix (a read-write memory map for a path, ``out`` for an array).

    Examples
    --------
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> tanimoto_matrix(fp, dtype=np.float64).round(3).tolist()
    [[1.0, 0.333, 0.5], [0.333, 1.0, 0.0], [0.5, 0.0, 1.0]]
    """
    from ._transpose import transpose_into  # a blocked transpose, parallel

    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    n = fm.n
    if out is None:
        mat = empty_array((n, n), dtype)
    elif isinstance(out, (str, Path)):
        mat = np.lib.format.open_memmap(out, mode="w+", dtype=dtype, shape=(n, n))
    else:
        mat = out
        if not isinstance(mat, np.ndarray) or mat.shape != (n, n) or mat.dtype not in (np.float32, np.float64):
            raise ValueError(f"out must be a float32 or float64 numpy array of shape ({n}, {n})")
    report = _Progress(n, "tanimoto matrix", progress)
    for i in range(0, n, block):
        rows = slice(i, min(i + block, n))
        if i:  # the block's lower part: the transpose of the rows above, already written
            transpose_into(np.asarray(mat[rows, :i]), np.asarray(mat[:i, rows]))
        fm.tanimoto(rows, slice(i, n), out=np.asarray(mat[rows, i:]))
        report.update(rows.stop)
    if isinstance(mat, np.memmap):
        mat.flush()
    return mat

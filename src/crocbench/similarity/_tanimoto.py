"""The exact Tanimoto engine: intersection counts, similarity blocks and the full N x N matrix.

``T(a, b) = |a & b| / (|a| + |b| - |a & b|)``.  Intersection counts are exact
integers: the few features shared by many molecules (the cost of an
inverted-index count grows with the square of a feature's frequency) go
into a dense 0/1 float32 matrix multiplied by BLAS, all the others into a
sparse matrix; both products are exact in float32 (counts < 2^24).  The
similarity is then one correctly rounded float32 division, so the full
matrix and the top-k lists hold bit-identical values.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._memory import empty_array
from ..fingerprints import Fingerprints

DEFAULT_BLOCK = 2048


class FeatureMatrix:
    """Fingerprints prepared for fast exact intersection counts.

    Parameters
    ----------
    fp : Fingerprints
    dense_min_count : int, optional
        Features present in at least this many molecules go to the dense
        part (default: 5% of the molecules, at least 2).
    """

    def __init__(self, fp: Fingerprints, dense_min_count: int | None = None):
        n = fp.n
        rows = np.repeat(np.arange(n, dtype=np.int64), fp.sizes())
        uniq, cols, counts = np.unique(fp.ids, return_inverse=True, return_counts=True)
        threshold = max(2, int(0.05 * n)) if dense_min_count is None else int(dense_min_count)
        is_dense = counts >= threshold
        dense_col = np.cumsum(is_dense) - 1
        sparse_col = np.cumsum(~is_dense) - 1
        in_dense = is_dense[cols]
        self.n = n
        self.sizes = fp.sizes().astype(np.float32)
        self.has_empty = bool(n and self.sizes.min() == 0)  # else every union is at least 1
        self.dense = np.zeros((n, int(is_dense.sum())), dtype=np.float32)
        self.dense[rows[in_dense], dense_col[cols[in_dense]]] = 1.0
        self.sparse = sp.csr_matrix(
            (np.ones(int((~in_dense).sum()), dtype=np.float32), (rows[~in_dense], sparse_col[cols[~in_dense]])),
            shape=(n, int((~is_dense).sum())),
        )
        self.n_features = uniq.size

    def take(self, rows) -> FeatureMatrix:
        """The same matrix restricted to ``rows`` (in that order): one gather, reused by every block."""
        sub = object.__new__(FeatureMatrix)
        rows = np.asarray(rows, dtype=np.int64)
        sub.n, sub.sizes, sub.n_features = rows.size, self.sizes[rows], self.n_features
        sub.has_empty = bool(rows.size and sub.sizes.min() == 0)
        sub.dense, sub.sparse = self.dense[rows], self.sparse[rows]
        return sub

    def intersections(self, a: slice | np.ndarray, b: slice | np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Exact ``|a_i & b_j|`` for rows a and b, as a float32 (len a, len b) array.

        ``out``, a C-contiguous float32 array of that shape, is reused if given
        (fresh pages cost more than the arithmetic on some kernels).
        """
        import torch  # multi-threaded scatter and element-wise steps

        out = np.matmul(self.dense[a], self.dense[b].T, out=out)
        prod = (self.sparse[a] @ self.sparse[b].T).tocsr()
        if prod.nnz:  # distinct (row, column) entries: one add each
            flat = np.repeat(np.arange(prod.shape[0], dtype=np.int64) * out.shape[1], np.diff(prod.indptr))
            flat += prod.indices
            torch.from_numpy(out).view(-1).index_add_(0, torch.from_numpy(flat), torch.from_numpy(prod.data))
        return out

    def tanimoto(self, a, b, out: np.ndarray | None = None, scratch: np.ndarray | None = None) -> np.ndarray:
        """Exact Tanimoto similarities between rows a and rows b (float32; 0 where both sets are empty).

        ``out`` and ``scratch`` (C-contiguous float32 of the result's shape) are reused if given.
        """
        import torch

        inter = self.intersections(a, b, out)
        t = torch.from_numpy(inter)
        union = torch.empty_like(t) if scratch is None else torch.from_numpy(scratch)
        torch.add(torch.from_numpy(self.sizes[a])[:, None], torch.from_numpy(self.sizes[b])[None, :], out=union)
        union.sub_(t)
        if self.has_empty:
            union.clamp_min_(1.0)  # both sets empty: 0 / 1
        t.div_(union)
        return inter


class _Progress:
    def __init__(self, total: int, what: str, stream=None, every: float = 5.0, unit: str = "rows"):
        self.total, self.what, self.stream, self.every, self.unit = total, what, stream, every, unit
        self.start = self.last = time.perf_counter()

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

    Only the upper block triangle is computed.  Each row block is assembled
    in a buffer (its lower part is the transpose of rows already written)
    and written sequentially: strided first writes to fresh pages cost far
    more than the arithmetic.

    Parameters
    ----------
    out : path-like or ndarray, optional
        A path ending in ``.npy`` makes the matrix a memory-mapped ``.npy``
        file written block by block (read it back with
        ``np.load(path, mmap_mode="r")``, holding no second copy); an array
        of shape (N, N) and any float dtype is filled in place (the values are
        float32 divisions, widened exactly).
    progress : file-like, optional
        Progress lines are written there (e.g. ``sys.stderr``).
    dtype : float32 or float64
        Of a matrix allocated here (``out`` None or a path); float64 is what LIBSVM takes.
    """
    import torch  # a fast blocked transpose

    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    n = fm.n
    if out is None:
        mat = empty_array((n, n), dtype)
    elif isinstance(out, (str, Path)):
        mat = np.lib.format.open_memmap(out, mode="w+", dtype=dtype, shape=(n, n))
    else:
        mat = out
    report = _Progress(n, "tanimoto matrix", progress)
    row_buf = empty_array((min(block, n), n))
    work = empty_array((min(block, n) * n,))
    scratch = empty_array((min(block, n) * n,))
    for i in range(0, n, block):
        rows = slice(i, min(i + block, n))
        b = rows.stop - i
        buf = row_buf[:b]
        if i:
            torch.from_numpy(buf[:, :i]).copy_(torch.from_numpy(np.asarray(mat[:i, rows])).t())
        shape = (b, n - i)
        buf[:, i:] = fm.tanimoto(
            rows, slice(i, n), out=work[: b * (n - i)].reshape(shape), scratch=scratch[: b * (n - i)].reshape(shape)
        )
        mat[rows] = buf
        report.update(rows.stop)
    if isinstance(mat, np.memmap):
        mat.flush()
    return mat

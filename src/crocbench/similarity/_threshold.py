"""Every pair of feature sets at or above a Tanimoto threshold, exact: the engine's tiles, scanned by compiled loops.

:func:`pairs_at_least` computes the upper triangle tile by tile with :meth:`FeatureMatrix.tanimoto` (so each value
is the engine's float32 similarity) into one reused buffer, and two loops parallel over a tile's rows count, then
gather, the pairs at or above the threshold: memory is one tile plus the pairs, never the N x N matrix. The pairs
come in a fixed order (by tile, then row, then column), whatever the threads.  :func:`symmetric_csr` makes them a
graph's symmetric CSR arrays in one pass, without scipy's copies.
"""

from __future__ import annotations

import numpy as np

from .._extras import needs
from .._memory import TILE_COLUMNS as COLUMNS
from .._memory import TILE_ROWS as BLOCK

with needs("crocbench.similarity"):
    import numba


@numba.njit(parallel=True, cache=True, nogil=True)
def _count_at_least(tile, t, first, counts):  # pragma: no cover - compiled
    """``counts[r]``: the entries of row ``r`` of ``tile`` from column ``first[r]`` on that are ``>= t``."""
    for r in numba.prange(tile.shape[0]):
        row, n = tile[r], 0
        for c in range(first[r], row.shape[0]):
            if row[c] >= t:
                n += 1
        counts[r] = n


@numba.njit(parallel=True, cache=True, nogil=True)
def _gather_at_least(tile, t, first, offsets, row0, col0, rows, cols, sims):  # pragma: no cover - compiled
    """The entries :func:`_count_at_least` counted, row ``r``'s at ``offsets[r]`` on: their row and column (plus
    ``row0`` and ``col0``) and value, in column order."""
    for r in numba.prange(tile.shape[0]):
        k = offsets[r]
        if k == offsets[r + 1]:
            continue
        row = tile[r]
        for c in range(first[r], row.shape[0]):
            if row[c] >= t:
                rows[k], cols[k], sims[k] = row0 + r, col0 + c, row[c]
                k += 1


def pairs_at_least(fm, t, block: int | None = None, columns: int | None = None) -> tuple:
    """Every pair ``i < j`` of rows of ``fm`` with ``T(i, j) >= t`` (compared in float32), exact.

    Parameters
    ----------
    fm : FeatureMatrix
        The feature sets.
    t : float
        The threshold, compared with each float32 similarity as a float32.
    block : int, default=None
        Rows of a tile (None: the engine's, ``crocbench._memory.TILE_ROWS``).
    columns : int, default=None
        Columns of a tile (None: ``TILE_COLUMNS``; memory: ``block x columns`` float32, once).

    Returns
    -------
    rows, cols : ndarray of int32 (int64 past 2**31 - 1 rows)
        The pairs, ``rows < cols``, tile by tile (rows of ``block``; then columns of ``columns`` from the tile's
        first row on), by row then column within a tile.
    sims : ndarray of float32
        Their similarities.

    Examples
    --------
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> from crocbench.similarity import FeatureMatrix
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> r, c, s = pairs_at_least(FeatureMatrix(fp), 0.3)  # T(0, 1) = 1/3, T(0, 2) = 1/2, T(1, 2) = 0
    >>> r.tolist(), c.tolist(), s.tolist()
    ([0, 0], [1, 2], [0.3333333432674408, 0.5])
    """
    n = fm.n
    block, columns = int(BLOCK if block is None else block), int(COLUMNS if columns is None else columns)
    t = np.float32(t)
    index = np.int32 if n < 2**31 else np.int64
    buffer = np.empty(min(block, n) * min(columns, n), dtype=np.float32)
    found_rows, found_cols, found_sims = [], [], []
    for i in range(0, n, block):
        a = slice(i, min(i + block, n))
        for j in range(i, n, columns):
            b = slice(j, min(j + columns, n))
            height, width = a.stop - a.start, b.stop - b.start
            tile = fm.tanimoto(a, b, out=buffer[: height * width].reshape(height, width))
            first = np.clip(np.arange(i + 1, i + 1 + height, dtype=np.int64) - j, 0, width)  # the upper triangle
            counts = np.empty(height, dtype=np.int64)
            _count_at_least(tile, t, first, counts)
            offsets = np.zeros(height + 1, dtype=np.int64)
            np.cumsum(counts, out=offsets[1:])
            total = int(offsets[-1])
            if total:
                rows, cols, sims = np.empty(total, index), np.empty(total, index), np.empty(total, np.float32)
                _gather_at_least(tile, t, first, offsets, index(i), index(j), rows, cols, sims)
                found_rows.append(rows)
                found_cols.append(cols)
                found_sims.append(sims)
    if not found_rows:
        return np.empty(0, index), np.empty(0, index), np.empty(0, np.float32)
    return np.concatenate(found_rows), np.concatenate(found_cols), np.concatenate(found_sims)


@numba.njit(cache=True, nogil=True)
def _fill_symmetric(indptr, rows, cols, sims, indices, data):  # pragma: no cover - compiled
    """Each pair ``(r, c)`` (``r < c``) into row ``c`` (as ``r``), then into row ``r`` (as ``c``), in the pairs'
    order: a row's lower entries come first, then its upper ones, each sorted when the pairs come by row block
    then row and column, as :func:`pairs_at_least` gives them."""
    fill = indptr[:-1].copy()
    for k in range(rows.size):
        c = cols[k]
        indices[fill[c]], data[fill[c]] = rows[k], sims[k]
        fill[c] += 1
    for k in range(rows.size):
        r = rows[k]
        indices[fill[r]], data[fill[r]] = cols[k], sims[k]
        fill[r] += 1


def symmetric_csr(n: int, rows: np.ndarray, cols: np.ndarray, sims: np.ndarray) -> tuple:
    """The CSR arrays ``(indptr, indices, data)`` of the symmetric graph of the pairs :func:`pairs_at_least` gives.

    Memory is the arrays themselves: scipy's ``(upper + upper.T).tocsr()`` holds about twice as much at once.
    Each row's indices are sorted (scipy's canonical form), so the arrays are those scipy builds.

    Parameters
    ----------
    n : int
        The vertices.
    rows, cols : ndarray of int
        The pairs, ``rows < cols``, in :func:`pairs_at_least`'s order.
    sims : ndarray of float32
        Their values.

    Returns
    -------
    indptr : ndarray of int32 (int64 past 2**31 - 1 entries)
    indices : ndarray of int32 (int64 past 2**31 - 1 vertices)
    data : ndarray of float32

    Examples
    --------
    >>> indptr, indices, data = symmetric_csr(3, np.array([0, 0]), np.array([1, 2]), np.array([0.5, 0.25], np.float32))
    >>> indptr.tolist(), indices.tolist(), data.tolist()
    ([0, 2, 3, 4], [1, 2, 0, 0], [0.5, 0.25, 0.5, 0.25])
    """
    entries = 2 * rows.size
    degree = np.bincount(rows, minlength=n) + np.bincount(cols, minlength=n)
    indptr = np.zeros(n + 1, dtype=np.int32 if entries < 2**31 else np.int64)
    np.cumsum(degree, out=indptr[1:])
    indices = np.empty(entries, dtype=np.int32 if n < 2**31 else np.int64)
    data = np.empty(entries, dtype=np.float32)
    _fill_symmetric(indptr, rows, cols, sims, indices, data)
    return indptr, indices, data

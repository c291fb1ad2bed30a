"""Exact Jaccard-Tanimoto similarities between feature sets: full matrix and top-k neighbours.

``T(a, b) = |a & b| / (|a| + |b| - |a & b|)``.  Intersection counts are exact
integers: the few features shared by many molecules (the cost of an
inverted-index count grows with the square of a feature's frequency) go
into a dense 0/1 float32 matrix multiplied by BLAS, all the others into a
sparse matrix; both products are exact in float32 (counts < 2^24).  The
similarity is then one correctly rounded float32 division, so the full
matrix and the top-k lists hold bit-identical values.
"""

from __future__ import annotations

import math
import mmap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from ._io import load_arrays, save_arrays
from .fingerprints import Fingerprints

DEFAULT_BLOCK = 2048
_HUGE = 64 * 1024 * 1024  # arrays at least this large get transparent huge pages


def empty_array(shape, dtype=np.float32) -> np.ndarray:
    """``np.empty`` for large arrays, backed by transparent huge pages where the kernel offers them.

    The first write to a fresh 4 KiB page can cost more than the arithmetic
    (measured here: 5.6 s to first-fill 2 GiB, 0.2 s with huge pages).
    """
    size = math.prod(shape) * np.dtype(dtype).itemsize
    if size < _HUGE or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.empty(shape, dtype=dtype)
    buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        buf.madvise(mmap.MADV_HUGEPAGE)
    except OSError:  # not supported here: plain pages
        pass
    return np.frombuffer(buf, dtype=dtype).reshape(shape)


class KernelBuffer:
    """One allocation reused for successive square kernels (cross-validation folds, inner folds).

    Writing a freshly allocated 11 GB kernel costs more than computing it on
    the virtual machines this runs on (measured: 18-30 s for a fresh 37,715^2
    float64 kernel, 7.3 s written into a reused one).  ``take(n)`` returns a
    C-contiguous (n, n) view of the buffer, growing it when n is larger than
    any before; the previous view's contents are overwritten by the next kernel.

    Examples
    --------
    >>> buf = KernelBuffer()
    >>> a = buf.take(3); b = buf.take(2)
    >>> np.shares_memory(a, b), b.shape, b.flags["C_CONTIGUOUS"]
    (True, (2, 2), True)
    """

    def __init__(self):
        self._flat = None

    def take(self, n: int, dtype=np.float64) -> np.ndarray:
        size = int(n) * int(n)
        if self._flat is None or self._flat.dtype != dtype or self._flat.size < size:
            self._flat = None  # free the old one before allocating the new
            self._flat = empty_array((size,), dtype)
        return self._flat[:size].reshape(n, n)


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

    def take(self, rows) -> "FeatureMatrix":
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
            print(f"{self.what}: {done}/{self.total} {self.unit} ({100 * done / self.total:.0f}%), "
                  f"{now - self.start:.1f} s", file=self.stream, flush=True)


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
        buf[:, i:] = fm.tanimoto(rows, slice(i, n), out=work[: b * (n - i)].reshape(shape),
                                 scratch=scratch[: b * (n - i)].reshape(shape))
        mat[rows] = buf
        report.update(rows.stop)
    if isinstance(mat, np.memmap):
        mat.flush()
    return mat


class MatrixFile:
    """An all-pairs similarity matrix in a ``.npy`` file (as :func:`tanimoto_matrix` writes it), read by blocks.

    Reads are plain file reads into one small scratch block, not a memory map:
    the process holds only what it copies out (a mapped 7 GB matrix would count
    in its resident memory), and the operating system's page cache serves the
    many jobs that read one file.  Values are returned exactly as stored.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.npy")
    >>> np.save(path, np.arange(16, dtype=np.float32).reshape(4, 4))
    >>> MatrixFile(path).gather([3, 1], [0, 2]).tolist()
    [[12.0, 14.0], [4.0, 6.0]]
    """

    def __init__(self, path, block_bytes: int = 64 * 2**20, threads: int = 1):
        self.path, self.threads = str(path), max(1, int(threads))
        with open(self.path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                           (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if read_header is None:
                raise ValueError(f"{self.path}: unsupported .npy version {version}")
            shape, fortran, self.dtype = read_header(fh)
            self.offset = fh.tell()
        if len(shape) != 2 or shape[0] != shape[1] or fortran:
            raise ValueError(f"{self.path}: not a square C-ordered matrix (shape {shape})")
        self.n = shape[0]
        self.row_bytes = self.n * self.dtype.itemsize
        self.block_rows = max(1, block_bytes // self.row_bytes)

    def gather(self, rows, cols, out: np.ndarray | None = None, dtype=None) -> np.ndarray:
        """``M[rows][:, cols]`` into ``out`` (C-contiguous, any float dtype; exact widening), or a new array.

        Rows are read in file order, ``block_rows`` of them at a time (one read
        per run of consecutive rows), and written to their places in ``out``;
        ``threads`` such blocks at a time.
        """
        rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
        for v in (rows, cols):
            if v.size and (v.min() < 0 or v.max() >= self.n):
                raise ValueError(f"row indices must lie in [0, {self.n})")
        if out is None:
            out = empty_array((rows.size, cols.size), dtype or self.dtype)
        if out.shape != (rows.size, cols.size):
            raise ValueError(f"out has shape {out.shape}, the block {(rows.size, cols.size)}")
        order = np.argsort(rows, kind="stable")
        ordered = rows[order]
        in_order = bool(np.all(order == np.arange(rows.size)))
        all_cols = cols.size == self.n and bool(np.all(cols == np.arange(self.n)))
        starts = range(0, ordered.size, self.block_rows)

        def work(part):
            scratch = np.empty((min(self.block_rows, ordered.size), self.n), dtype=self.dtype)
            with open(self.path, "rb", buffering=0) as fh:
                for i in part:
                    chunk = ordered[i:i + self.block_rows]
                    cut = np.concatenate([[0], np.flatnonzero(np.diff(chunk) != 1) + 1, [chunk.size]])
                    for a, b in zip(cut[:-1], cut[1:]):  # one read per run of consecutive rows
                        fh.seek(self.offset + int(chunk[a]) * self.row_bytes)
                        if fh.readinto(memoryview(scratch[a:b]).cast("B")) != (b - a) * self.row_bytes:
                            raise ValueError(f"{self.path}: truncated")
                    block = scratch[:chunk.size]
                    values = block if all_cols else np.take(block, cols, axis=1)
                    if in_order:
                        out[i:i + chunk.size] = values
                    else:
                        out[order[i:i + chunk.size]] = values

        workers = max(1, min(self.threads, len(starts)))
        if workers == 1:
            work(starts)
        else:  # reads, gathers and casts release the GIL
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(work, [starts[w::workers] for w in range(workers)]))
        return out


class Neighbours(NamedTuple):
    """Top-k neighbours: ``index[i, r]`` (into the reference set) and ``similarity[i, r]``, r = 0 most similar."""

    index: np.ndarray
    similarity: np.ndarray


def save_neighbours(path, nb: Neighbours) -> None:
    """Write neighbours to an ``.npz`` file (deterministic bytes, atomic)."""
    save_arrays(path, index=nb.index, similarity=nb.similarity)


def load_neighbours(path) -> Neighbours:
    """Read neighbours written by :func:`save_neighbours`."""
    return Neighbours(*load_arrays(path, "index", "similarity"))


def _top_k_rows(sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the k largest values; ties broken by smaller column index (deterministic)."""
    kth = -np.partition(-sims, k - 1, axis=1)[:, k - 1]
    r, c = np.nonzero(sims >= kth[:, None])
    v = sims[r, c]
    order = np.lexsort((c, -v, r))
    r, c, v = r[order], c[order], v[order]
    first = np.searchsorted(r, np.arange(sims.shape[0]))
    take = (first[:, None] + np.arange(k)[None, :]).ravel()
    return c[take].reshape(-1, k), v[take].reshape(-1, k)


def top_k(
    fp: Fingerprints | FeatureMatrix,
    k: int = 20,
    query=None,
    reference=None,
    exclude_self: bool = True,
    block: int = DEFAULT_BLOCK,
    progress=None,
) -> Neighbours:
    """The k most similar reference molecules of every query molecule, block by block.

    Memory is O(len(query) k) plus one block of ``block x len(reference)``.

    Parameters
    ----------
    query, reference : array of int, optional
        Rows of ``fp`` (default: all).  Returned indices are positions in
        ``reference``.
    exclude_self : bool
        A molecule is never its own neighbour (same row of ``fp`` in both sets).

    Returns
    -------
    Neighbours
        Sorted by decreasing similarity, ties by increasing reference position.
    """
    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    query = np.arange(fm.n) if query is None else np.asarray(query, dtype=np.int64)
    reference = np.arange(fm.n) if reference is None else np.asarray(reference, dtype=np.int64)
    n_ref = reference.size - (1 if exclude_self and np.isin(query, reference).any() else 0)
    if not (1 <= k <= n_ref):
        raise ValueError(f"k must be in [1, {n_ref}] (the reference set, less the molecule itself); got {k}")
    position = np.full(fm.n, -1, dtype=np.int64)
    position[reference] = np.arange(reference.size)
    index = np.empty((query.size, k), dtype=np.int64)
    similarity = np.empty((query.size, k), dtype=np.float32)
    report = _Progress(query.size, f"top-{k} neighbours", progress)
    whole = reference.size == fm.n and bool(np.all(reference == np.arange(fm.n)))
    work = empty_array((min(block, query.size) * reference.size,))
    scratch = empty_array((min(block, query.size) * reference.size,))
    for i in range(0, query.size, block):
        q = query[i:i + block]
        shape = (q.size, reference.size)
        sims = fm.tanimoto(q, slice(None) if whole else reference, out=work[: q.size * reference.size].reshape(shape),
                           scratch=scratch[: q.size * reference.size].reshape(shape))
        if exclude_self:
            own = position[q]
            hit = own >= 0
            sims[np.flatnonzero(hit), own[hit]] = -1.0
        index[i:i + q.size], similarity[i:i + q.size] = _top_k_rows(sims, k)
        report.update(min(i + block, query.size))
    return Neighbours(index, similarity)


# --- All-pairs top-k in independent chunks -------------------------------------------------------
#
# Each pair is computed once: the upper triangle of the N x N matrix is cut into square tiles, and
# a tile (I, J), I < J, gives candidates to the rows of I (its rows) and to the rows of J (its
# columns).  Candidates are int64 keys, ``sim_bits << 32 | (2**32 - 1 - index)``: non-negative
# float32 values order as their bits, so one integer comparison orders by decreasing similarity
# and then by increasing index, the tie rule of :func:`top_k`, and merging partial lists is a
# plain top-k of their union.  A chunk is a run of tiles of about equal work; its job keeps the
# best k keys of every row its tiles touch (O(N k) memory) and :func:`gather_chunks` merges them.

DEFAULT_TILE = 4096
_LOW = (1 << 32) - 1
_NONE = -1  # the key of no candidate (a compound is never its own)


def _tiles(n: int, tile: int) -> list[tuple[int, int]]:
    """The upper-triangle tiles ``(I, J)``, ``I <= J``, of an n x n matrix cut every ``tile`` rows, row by row."""
    blocks = -(-n // tile)
    return [(i, j) for i in range(blocks) for j in range(i, blocks)]


def chunk_tiles(n: int, chunks: int, tile: int = DEFAULT_TILE) -> list[list[tuple[int, int]]]:
    """The tiles of each of ``chunks`` chunks: consecutive runs of about equal work (pairs computed).

    Examples
    --------
    >>> chunk_tiles(10, 2, tile=4)
    [[(0, 0), (0, 1), (0, 2)], [(1, 1), (1, 2), (2, 2)]]
    """
    tiles = _tiles(n, tile)
    if not 1 <= chunks <= len(tiles):
        raise ValueError(f"chunks must be in [1, {len(tiles)}] (the tiles of {n} compounds, {tile} a side); got {chunks}")
    done = np.cumsum(_tile_pairs(n, tiles, tile))
    cuts = [0]
    for c in range(1, chunks):  # the first tile past c/chunks of the work, leaving >= 1 tile to each chunk
        at = int(np.searchsorted(done, done[-1] * c / chunks, side="left")) + 1
        cuts.append(min(max(at, cuts[-1] + 1), len(tiles) - (chunks - c)))
    cuts.append(len(tiles))
    return [tiles[a:b] for a, b in zip(cuts[:-1], cuts[1:])]


def _tile_pairs(n: int, tiles, tile: int) -> list[float]:
    """The similarities each tile computes (a diagonal tile each pair once)."""
    size = [min(tile, n - b * tile) for b in range(-(-n // tile))]
    return [size[i] * size[j] / (2 if i == j else 1) for i, j in tiles]


def chunk_pairs(n: int, chunks: int, tile: int = DEFAULT_TILE) -> list[float]:
    """The similarities each chunk of :func:`chunk_tiles` computes (its work), e.g. to scale a measured chunk.

    Examples
    --------
    >>> chunk_pairs(10, 2, tile=4)
    [32.0, 18.0]
    """
    return [sum(_tile_pairs(n, part, tile)) for part in chunk_tiles(n, chunks, tile)]


def default_chunks(n: int, pairs_per_chunk: float = 2e10, tile: int = DEFAULT_TILE) -> int:
    """Chunks for n compounds: about ``pairs_per_chunk`` similarities each (a few minutes of 2 cores), at least 1."""
    return max(1, min(len(_tiles(n, tile)), math.ceil(n * (n - 1) / 2 / pairs_per_chunk)))


def _best(keys, k: int):
    """The k largest keys of each row, in decreasing order (padded with ``_NONE`` when fewer)."""
    import torch

    if keys.shape[1] >= k:
        return torch.topk(keys, k, dim=1, sorted=True).values
    pad = torch.full((keys.shape[0], k - keys.shape[1]), _NONE, dtype=torch.int64)
    return torch.cat([torch.sort(keys, dim=1, descending=True).values, pad], dim=1)


def _keys(values, index):
    """Keys of candidates with similarities ``values`` (float32 tensor) and indices ``index`` (broadcast to it)."""
    import torch

    return values.view(torch.int32).to(torch.int64).bitwise_left_shift_(32).add_(_LOW - index)


def _full(best) -> bool:
    return best is not None and bool((best[:, -1] >= 0).all())


def _merge(best, rows, index, values, k: int):
    """Merge candidates (``rows`` sorted ascending, their ``index`` and similarity ``values``) into ``best``."""
    import torch

    if rows.numel() == 0:
        return best
    keys = _keys(values, index)
    counts = torch.bincount(rows, minlength=best.shape[0])
    hit = torch.nonzero(counts, as_tuple=True)[0]
    slot = torch.full((best.shape[0],), -1, dtype=torch.int64)
    slot[hit] = torch.arange(hit.numel())
    starts = torch.cumsum(counts, 0) - counts
    pad = torch.full((hit.numel(), k + int(counts.max())), _NONE, dtype=torch.int64)
    pad[:, :k] = best[hit]
    pad[slot[rows], k + torch.arange(rows.numel()) - starts[rows]] = keys
    best = best.clone()
    best[hit] = torch.topk(pad, k, dim=1, sorted=True).values
    return best


def _offer(state: dict, bi: int, bj: int, sims, first_i: int, first_j: int, k: int) -> None:
    """Merge tile (bi, bj)'s candidates into the sorted lists ``state[b]`` (k keys per row) of its row blocks.

    ``sims`` holds rows ``first_i + r`` against columns ``first_j + c``; an off-diagonal
    tile also offers each column its rows as candidates.  A block whose rows all hold k
    candidates takes only those at least as similar as a row's k-th (a tie may still win
    on a smaller index): one comparison finds them, and only they are merged.
    """
    import torch

    sides = [(bi, False, first_j)] + ([(bj, True, first_i)] if bi != bj else [])
    sparse = []
    for block, transposed, first in sides:
        best = state.get(block)
        if _full(best):
            sparse.append((block, transposed, first, (best[:, -1] >> 32).to(torch.int32).view(torch.float32)))
            continue
        view = sims.t().contiguous() if transposed else sims
        keys = _keys(view, torch.arange(first, first + view.shape[1], dtype=torch.int64))  # every candidate
        top = _best(keys, min(k, keys.shape[1]))
        state[block] = _best(top if best is None else torch.cat([best, top], dim=1), k)
    if not sparse:
        return
    mask = None
    for _, transposed, _, kth in sparse:
        m = sims >= (kth[None, :] if transposed else kth[:, None])
        mask = m if mask is None else mask.logical_or_(m)
    i, j = torch.nonzero(mask, as_tuple=True)
    values = sims[i, j]
    for block, transposed, first, kth in sparse:
        rows, cand = (j, i) if transposed else (i, j)
        keep = values >= kth[rows]
        rows, cand, vals = rows[keep], cand[keep], values[keep]
        if transposed:
            order = torch.argsort(rows, stable=True)
            rows, cand, vals = rows[order], cand[order], vals[order]
        state[block] = _merge(state[block], rows, first + cand, vals, k)


def top_k_chunk(fp: Fingerprints | FeatureMatrix, k: int, chunk: int, chunks: int,
                tile: int = DEFAULT_TILE, progress=None) -> dict:
    """Chunk ``chunk`` of ``chunks`` of the all-pairs top-k: the best k candidate keys of each row block it touches.

    Returns arrays by name, for :func:`~crocbench._io.save_arrays` and :func:`gather_chunks`:
    ``n``, ``k``, ``tile``, ``chunks``, ``chunk`` and, for each row block ``b`` the chunk
    touches, ``b{b}``: its rows' best k keys.
    Memory: O(N k) for the lists plus a few tile-sized buffers.
    """
    import torch

    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    n = fm.n
    if not 1 <= k <= n - 1:
        raise ValueError(f"k must be in [1, {n - 1}] (the other compounds); got {k}")
    mine = chunk_tiles(n, chunks, tile)[chunk]
    state: dict[int, "torch.Tensor"] = {}
    work, scratch = (empty_array((tile * tile,)) for _ in range(2))
    report = _Progress(len(mine), f"top-{k} neighbours, chunk {chunk + 1} of {chunks}", progress, unit="tiles")
    for t, (bi, bj) in enumerate(mine):
        a, b = slice(bi * tile, min(n, (bi + 1) * tile)), slice(bj * tile, min(n, (bj + 1) * tile))
        shape = (a.stop - a.start, b.stop - b.start)
        sims = torch.from_numpy(fm.tanimoto(a, b, out=work[: shape[0] * shape[1]].reshape(shape),
                                            scratch=scratch[: shape[0] * shape[1]].reshape(shape)))
        if bi == bj:
            sims.diagonal().fill_(-1.0)  # never its own neighbour: a negative key
        _offer(state, bi, bj, sims, a.start, b.start, k)
        report.update(t + 1)
    return {"n": np.int64(n), "k": np.int64(k), "tile": np.int64(tile), "chunks": np.int64(chunks),
            "chunk": np.int64(chunk), **{f"b{b}": state[b].numpy() for b in sorted(state)}}


def _scalar(value) -> int:
    """An integer stored as a 0-d or one-element array (``save_arrays`` writes the latter)."""
    return int(np.asarray(value).reshape(-1)[0])


def gather_chunks(parts) -> Neighbours:
    """Merge the chunks' partial lists (``.npz`` paths or dicts from :func:`top_k_chunk`) into every row's top-k.

    Equal, bit for bit, to :func:`top_k` over all compounds: sorted by decreasing
    similarity, ties by increasing index, a compound never its own neighbour.
    Files are read one row block at a time (memory: a block's lists from every chunk).
    """
    import torch

    opened = [np.load(p, allow_pickle=False) if isinstance(p, (str, Path)) else p for p in parts]
    try:
        if not opened:
            raise ValueError("no chunks to gather")
        meta = {name: {_scalar(p[name]) for p in opened} for name in ("n", "k", "tile", "chunks")}
        bad = [name for name, values in meta.items() if len(values) != 1]
        if bad:
            raise ValueError(f"the chunks disagree on {', '.join(bad)}: they come from different runs")
        n, k, tile, chunks = (meta[name].pop() for name in ("n", "k", "tile", "chunks"))
        got = sorted(_scalar(p["chunk"]) for p in opened)
        if got != list(range(chunks)):
            raise ValueError(f"expected chunks 0..{chunks - 1} once each; got {got}")
        names = [set(p.files if hasattr(p, "files") else p) for p in opened]
        index = np.empty((n, k), dtype=np.int64)
        similarity = np.empty((n, k), dtype=np.float32)
        for b in range(-(-n // tile)):
            rows = slice(b * tile, min(n, (b + 1) * tile))
            lists = [torch.from_numpy(p[f"b{b}"]) for p, has in zip(opened, names) if f"b{b}" in has]
            best = _best(torch.cat(lists, dim=1), k) if len(lists) > 1 else lists[0]
            if bool((best[:, -1] < 0).any()):
                raise ValueError(f"rows {rows.start}..{rows.stop - 1} have fewer than {k} candidates")
            index[rows] = _LOW - (best & _LOW).numpy()
            similarity[rows] = (best >> 32).to(torch.int32).numpy().view(np.float32)
        return Neighbours(index, similarity)
    finally:
        for p in opened:
            if hasattr(p, "close"):
                p.close()


def all_pairs_top_k(fp: Fingerprints | FeatureMatrix, k: int, chunks: int = 1, tile: int = DEFAULT_TILE,
                    progress=None) -> Neighbours:
    """Every compound's top-k among all others, computed as ``chunks`` chunks in this process and gathered.

    Equal to ``top_k(fp, k)``, with each pair computed once.

    Examples
    --------
    >>> from crocbench.fingerprints import Fingerprints
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> nb = all_pairs_top_k(fp, 1, tile=2)
    >>> nb.index.ravel().tolist(), nb.similarity.ravel().tolist()
    ([2, 0, 0], [0.5, 0.3333333432674408, 0.5])
    """
    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    return gather_chunks([top_k_chunk(fm, k, c, chunks, tile=tile, progress=progress) for c in range(chunks)])


class SimilarityIndex:
    """The dataset as every model sees it (the ``data`` of ``fit(data, train, y)``), for any split of the compounds.

    Parameters
    ----------
    fp : Fingerprints or FeatureMatrix
    neighbours : Neighbours, optional
        Each compound's top-K among all compounds (itself excluded), as written by the
        ``neighbours`` rule.  :meth:`neighbours` derives top-k lists within any
        reference subset from it exactly, falling back to a direct computation for
        the rare rows where fewer than k of the K lie in the subset.
    block : int
        Rows per block of similarity computations.
    ids, smiles : sequence of str, optional
        One per compound (row): the dataset's ids and standardized SMILES.
    matrix : path-like or MatrixFile, optional
        The N x N Tanimoto matrix of these fingerprints, as :func:`tanimoto_matrix`
        writes it (the ``similarity_matrix`` rule): :meth:`kernel` and
        :meth:`similarities` then read their blocks from it instead of
        computing them (the same values, bit for bit).

    Attributes
    ----------
    n : int
        Number of compounds.
    ids, smiles : ndarray of str or None
    fingerprints : scipy.sparse.csr_matrix
        The paper's features, 0/1 float32, rows = compounds, one column per
        distinct feature (``feature_ids`` holds each column's 64-bit feature id).

    Examples
    --------
    >>> from crocbench.fingerprints import Fingerprints
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> data = SimilarityIndex(fp, ids=["a", "b", "c"])
    >>> data.similarities([0], [1, 2]).tolist()
    [[0.3333333432674408, 0.5]]
    >>> data.neighbours([0], 1, among=[1, 2]).index.tolist()
    [[2]]
    >>> data.fingerprints.toarray().astype(int).tolist(), data.feature_ids.tolist()
    ([[1, 1, 0], [1, 0, 1], [0, 1, 0]], [7, 9, 11])
    """

    def __init__(self, fp: Fingerprints | FeatureMatrix, neighbours: Neighbours | None = None,
                 block: int = DEFAULT_BLOCK, ids=None, smiles=None, matrix=None):
        self.fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
        self.matrix = matrix if matrix is None or isinstance(matrix, MatrixFile) else MatrixFile(matrix)
        if self.matrix is not None and self.matrix.n != self.fm.n:
            raise ValueError(f"{self.matrix.path}: a {self.matrix.n} x {self.matrix.n} matrix for {self.fm.n} compounds")
        self._fp = None if isinstance(fp, FeatureMatrix) else fp
        self.cached, self.block = neighbours, block
        self.n = self.fm.n
        self.recomputed = 0  # rows the cache could not serve, for the logs
        self.ids, self.smiles = (None if v is None else np.asarray(v, dtype=str) for v in (ids, smiles))
        for name, v in (("ids", self.ids), ("smiles", self.smiles)):
            if v is not None and v.shape != (self.n,):
                raise ValueError(f"{v.size} {name} for {self.n} compounds")
        self._csr = None

    @property
    def fingerprints(self) -> sp.csr_matrix:
        return self._sparse()[0]

    @property
    def feature_ids(self) -> np.ndarray:
        """The 64-bit feature id of each column of :attr:`fingerprints`."""
        return self._sparse()[1]

    def _sparse(self) -> tuple:
        """``(CSR matrix, feature id per column)``, built on first use."""
        if self._csr is None:
            if self._fp is None:
                raise ValueError("built from a FeatureMatrix: the fingerprints' feature ids are not known")
            ids, cols = np.unique(self._fp.ids, return_inverse=True)
            csr = sp.csr_matrix((np.ones(cols.size, dtype=np.float32), cols.ravel(), self._fp.indptr),
                                shape=(self.n, ids.size))
            self._csr = (csr, ids)
        return self._csr

    def similarities(self, rows, cols, out: np.ndarray | None = None) -> np.ndarray:
        """Tanimoto similarities, float32 (len rows, len cols); written into ``out`` (C-contiguous float32) if given."""
        if self.matrix is not None:
            return self.matrix.gather(rows, cols, out=out, dtype=np.float32)
        return self.fm.tanimoto(np.asarray(rows), np.asarray(cols), out=out)

    def kernel(self, rows, dtype=np.float64, progress=None, buffer: "KernelBuffer | None" = None) -> np.ndarray:
        """The square Tanimoto matrix of ``rows`` (float64 by default: what LIBSVM takes).

        With ``buffer``, the matrix is written into its memory (overwriting the
        previous kernel taken from it) instead of a fresh allocation.
        """
        out = None if buffer is None else buffer.take(len(rows), dtype)
        if self.matrix is not None:
            if progress is not None:
                print(f"kernel of {len(rows)} compounds read from {self.matrix.path}", file=progress, flush=True)
            return self.matrix.gather(rows, rows, out=out, dtype=dtype)
        return tanimoto_matrix(self.fm.take(rows), out=out, block=self.block, progress=progress, dtype=dtype)

    def neighbours(self, rows, k: int, among=None) -> Neighbours:
        """Top-k of each of ``rows`` among the compounds ``among`` (default: all), a compound never its own.

        Equal to ``top_k`` over that reference set: sorted by decreasing similarity,
        ties by increasing index.  ``index`` holds row indices of the dataset.
        """
        query = np.asarray(rows, dtype=np.int64)
        reference = np.arange(self.n) if among is None else np.unique(np.asarray(among, dtype=np.int64))
        index = np.empty((query.size, k), dtype=np.int64)
        similarity = np.empty((query.size, k), dtype=np.float32)
        redo = np.arange(query.size)
        if self.cached is not None and self.cached.index.shape[1] >= k:
            allowed = np.zeros(self.n, dtype=bool)
            allowed[reference] = True
            cand = self.cached.index[query]
            ok = allowed[cand]
            order = np.argsort(~ok, axis=1, kind="stable")[:, :k]  # the first k allowed, in order
            index[:] = np.take_along_axis(cand, order, axis=1)
            similarity[:] = np.take_along_axis(self.cached.similarity[query], order, axis=1)
            redo = np.flatnonzero(ok.sum(axis=1) < k)
        if redo.size:
            self.recomputed += int(redo.size)
            nb = top_k(self.fm, k, query=query[redo], reference=reference, block=self.block)
            index[redo], similarity[redo] = reference[nb.index], nb.similarity
        return Neighbours(index, similarity)

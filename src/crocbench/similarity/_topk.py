"""Exact top-k neighbours: block by block for any query and reference set, and the all-pairs search in chunks.

Ties are broken by smaller index, so every path gives the same lists, bit for bit.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .._io import load_arrays, save_arrays
from .._memory import empty_array
from ..fingerprints import Fingerprints
from ._tanimoto import DEFAULT_BLOCK, FeatureMatrix, _Progress


class Neighbours(NamedTuple):
    """Top-k neighbours: ``index[i, r]`` (into the reference set) and ``similarity[i, r]``, r = 0 most similar.

    Parameters
    ----------
    index : ndarray of int of shape (n_query, k)
        Positions in the reference set of each query's neighbours, most similar first.
    similarity : ndarray of float32 of shape (n_query, k)
        Their Tanimoto similarities, decreasing.
    """

    index: np.ndarray
    similarity: np.ndarray


def save_neighbours(path, nb: Neighbours) -> None:
    """Write neighbours to an ``.npz`` file (deterministic bytes, atomic).

    Parameters
    ----------
    path : path-like
        The ``.npz`` file written.
    nb : Neighbours
        The neighbours.
    """
    save_arrays(path, index=nb.index, similarity=nb.similarity)


def load_neighbours(path) -> Neighbours:
    """Read neighbours written by :func:`save_neighbours`.

    Parameters
    ----------
    path : path-like
        A ``.npz`` file written by :func:`save_neighbours`.

    Returns
    -------
    Neighbours
        The neighbours stored there.
    """
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
    fp : Fingerprints or FeatureMatrix
        The compounds' feature sets (:class:`crocbench.fingerprints.Fingerprints`), or a :class:`FeatureMatrix`
        already prepared from them.
    k : int, default=20
        The number of neighbours of each query.
    query, reference : array of int, default=None
        Rows of ``fp`` (None: all).  Returned indices are positions in ``reference``.
    exclude_self : bool, default=True
        A molecule is never its own neighbour (same row of ``fp`` in both sets).
    block : int, default=DEFAULT_BLOCK
        Query rows per block.
    progress : file-like, default=None
        Progress lines are written there (e.g. ``sys.stderr``); None for silence.

    Returns
    -------
    Neighbours
        Sorted by decreasing similarity, ties by increasing reference position.

    Examples
    --------
    >>> from crocbench.fingerprints import Fingerprints
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> top_k(fp, 1).index.ravel().tolist()
    [2, 0, 0]
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
    for i in range(0, query.size, block):
        q = query[i : i + block]
        shape = (q.size, reference.size)
        sims = fm.tanimoto(q, slice(None) if whole else reference, out=work[: q.size * reference.size].reshape(shape))
        if exclude_self:
            own = position[q]
            hit = own >= 0
            sims[np.flatnonzero(hit), own[hit]] = -1.0
        index[i : i + q.size], similarity[i : i + q.size] = _top_k_rows(sims, k)
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
# best k keys of every row (O(N k) memory), updated tile by tile by a compiled loop
# (``_kernels.offer_tile``: a pair below a row's current k-th costs one multiplication), and
# :func:`gather_chunks` merges the chunks' lists of the rows their tiles touch.

DEFAULT_TILE = 4096
_LOW = (1 << 32) - 1
_NONE = -1  # the key of no candidate (a compound is never its own)


def _tiles(n: int, tile: int) -> list[tuple[int, int]]:
    """The upper-triangle tiles ``(I, J)``, ``I <= J``, of an n x n matrix cut every ``tile`` rows, row by row."""
    blocks = -(-n // tile)
    return [(i, j) for i in range(blocks) for j in range(i, blocks)]


def chunk_tiles(n: int, chunks: int, tile: int = DEFAULT_TILE) -> list[list[tuple[int, int]]]:
    """The tiles of each of ``chunks`` chunks: consecutive runs of about equal work (pairs computed).

    Parameters
    ----------
    n : int
        The number of compounds.
    chunks : int
        The number of chunks the all-pairs search is cut into.
    tile : int, default=DEFAULT_TILE
        Rows (and columns) of one tile of the all-pairs search.

    Returns
    -------
    list of list of tuple of int
        Per chunk, its tiles ``(row block, column block)`` of the upper block triangle.

    Examples
    --------
    >>> chunk_tiles(10, 2, tile=4)
    [[(0, 0), (0, 1), (0, 2)], [(1, 1), (1, 2), (2, 2)]]
    """
    tiles = _tiles(n, tile)
    if not 1 <= chunks <= len(tiles):
        raise ValueError(
            f"chunks must be in [1, {len(tiles)}] (the tiles of {n} compounds, {tile} a side); got {chunks}"
        )
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

    Parameters
    ----------
    n : int
        The number of compounds.
    chunks : int
        The number of chunks the all-pairs search is cut into.
    tile : int, default=DEFAULT_TILE
        Rows (and columns) of one tile of the all-pairs search.

    Returns
    -------
    list of float
        Per chunk, the number of similarities it computes.

    Examples
    --------
    >>> chunk_pairs(10, 2, tile=4)
    [32.0, 18.0]
    """
    return [sum(_tile_pairs(n, part, tile)) for part in chunk_tiles(n, chunks, tile)]


def default_chunks(n: int, pairs_per_chunk: float = 2e10, tile: int = DEFAULT_TILE) -> int:
    """Chunks for n compounds: about ``pairs_per_chunk`` similarities each, at least 1.

    A chunk takes about a minute of 2 cores (51 s each of the 3 chunks of a 305,401-compound screen).

    Parameters
    ----------
    n : int
        The number of compounds.
    pairs_per_chunk : float, default=2e10
        The similarities a chunk should compute.
    tile : int, default=DEFAULT_TILE
        Rows (and columns) of one tile of the all-pairs search.

    Returns
    -------
    int
        The number of chunks, at least 1.

    Examples
    --------
    >>> default_chunks(41_906), default_chunks(305_401)
    (1, 3)
    """
    return max(1, min(len(_tiles(n, tile)), math.ceil(n * (n - 1) / 2 / pairs_per_chunk)))


def neighbours_mem_mb(n: int, k: int, tile: int = DEFAULT_TILE) -> int:
    """Memory (MB) of a neighbour-search job on ``n`` compounds: 1 GB, k candidates (8 bytes each) and 2 kB of
    fingerprint per compound, and a few ``tile`` x ``tile`` blocks of similarities.

    Parameters
    ----------
    n : int
        The number of compounds.
    k : int
        The number of neighbours kept per compound.
    tile : int, default=DEFAULT_TILE
        Rows (and columns) of one tile of the all-pairs search.

    Returns
    -------
    int
        The job's memory in MB.

    Examples
    --------
    >>> neighbours_mem_mb(41_906, 50), neighbours_mem_mb(1_000_000, 50)  # 1000 + n 2400 / 2**20 + 256
    (1351, 3544)
    """
    return int(1000 + n * (8 * int(k) + 2000) / 2**20 + 16 * tile**2 / 2**20)


def _best(keys, k: int):
    """The k largest keys of each row, in decreasing order (padded with ``_NONE`` when fewer)."""
    import torch

    if keys.shape[1] >= k:
        return torch.topk(keys, k, dim=1, sorted=True).values
    pad = torch.full((keys.shape[0], k - keys.shape[1]), _NONE, dtype=torch.int64)
    return torch.cat([torch.sort(keys, dim=1, descending=True).values, pad], dim=1)


def top_k_chunk(
    fp: Fingerprints | FeatureMatrix, k: int, chunk: int, chunks: int, tile: int = DEFAULT_TILE, progress=None
) -> dict:
    """Chunk ``chunk`` of ``chunks`` of the all-pairs top-k: the best k candidate keys of each row block it touches.

    Returns arrays by name, for ``crocbench._io.save_arrays`` and :func:`gather_chunks`:
    ``n``, ``k``, ``tile``, ``chunks``, ``chunk`` and, for each row block ``b`` the chunk
    touches, ``b{b}``: its rows' best k keys.
    Memory: O(N k) for the lists plus a few tile-sized buffers.

    Parameters
    ----------
    fp : Fingerprints or FeatureMatrix
        The compounds' feature sets (:class:`crocbench.fingerprints.Fingerprints`), or a :class:`FeatureMatrix`
        already prepared from them.
    k : int
        The number of neighbours of each compound.
    chunk : int
        This chunk, 0 to ``chunks - 1``.
    chunks : int
        The number of chunks the all-pairs search is cut into.
    tile : int, default=DEFAULT_TILE
        Rows (and columns) of one tile of the all-pairs search.
    progress : file-like, default=None
        Progress lines are written there (e.g. ``sys.stderr``); None for silence.

    Returns
    -------
    dict
        Arrays by name: ``n``, ``k``, ``tile``, ``chunks``, ``chunk`` and ``b{b}`` for each row block it touches.
    """
    from . import _kernels as K

    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    n = fm.n
    if not 1 <= k <= n - 1:
        raise ValueError(f"k must be in [1, {n - 1}] (the other compounds); got {k}")
    mine = chunk_tiles(n, chunks, tile)[chunk]
    best = np.full((n, k), _NONE, dtype=np.int64)  # every row's best keys so far, decreasing
    touched = sorted({b for tile_ in mine for b in tile_})
    work = empty_array((tile * tile,))  # a stored tile, while some column's list is not full
    found = np.empty((-(-tile // K.TASK_ROWS), K.TASK_CANDIDATES, 3), dtype=np.int32)
    report = _Progress(len(mine), f"top-{k} neighbours, chunk {chunk + 1} of {chunks}", progress, unit="tiles")

    def stored(a: slice, b: slice, operands) -> np.ndarray:
        """The tile's intersection counts, stored in ``work``."""
        inter = work[: (a.stop - a.start) * (b.stop - b.start)].reshape(a.stop - a.start, b.stop - b.start)
        K.count_intersections(inter, *operands)
        return inter

    for t, (bi, bj) in enumerate(mine):
        a, b = slice(bi * tile, min(n, (bi + 1) * tile)), slice(bj * tile, min(n, (bj + 1) * tile))
        operands, sizes = fm._operands(a, b), (fm.sizes[a], fm.sizes[b], a.start, b.start, best)
        columns = bi != bj
        if columns and bool((best[b, -1] < 0).any()):  # every pair of a column with < k candidates is one
            inter = stored(a, b, operands)
            K.offer_rows(inter, *sizes, fm.has_empty)
            K.offer_columns(inter, *sizes, fm.has_empty)
        elif not K.offer_tile(*operands, *sizes, columns, fm.has_empty, found):  # too many column candidates
            K.offer_columns(stored(a, b, operands), *sizes, fm.has_empty)
        report.update(t + 1)
    return {
        "n": np.int64(n),
        "k": np.int64(k),
        "tile": np.int64(tile),
        "chunks": np.int64(chunks),
        "chunk": np.int64(chunk),
        **{f"b{b}": best[b * tile : min(n, (b + 1) * tile)] for b in touched},
    }


def _scalar(value) -> int:
    """An integer stored as a 0-d or one-element array (``save_arrays`` writes the latter)."""
    return int(np.asarray(value).reshape(-1)[0])


def gather_chunks(parts) -> Neighbours:
    """Merge the chunks' partial lists (``.npz`` paths or dicts from :func:`top_k_chunk`) into every row's top-k.

    Equal, bit for bit, to :func:`top_k` over all compounds: sorted by decreasing
    similarity, ties by increasing index, a compound never its own neighbour.
    Files are read one row block at a time (memory: a block's lists from every chunk).

    Parameters
    ----------
    parts : iterable of path-like or dict
        Every chunk's output (``.npz`` paths or dicts from :func:`top_k_chunk`).

    Returns
    -------
    Neighbours
        Every compound's top-k among all others.
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


def all_pairs_top_k(
    fp: Fingerprints | FeatureMatrix, k: int, chunks: int = 1, tile: int = DEFAULT_TILE, progress=None
) -> Neighbours:
    """Every compound's top-k among all others, computed as ``chunks`` chunks in this process and gathered.

    Equal to ``top_k(fp, k)``, with each pair computed once.

    Parameters
    ----------
    fp : Fingerprints or FeatureMatrix
        The compounds' feature sets (:class:`crocbench.fingerprints.Fingerprints`), or a :class:`FeatureMatrix`
        already prepared from them.
    k : int
        The number of neighbours of each compound.
    chunks : int, default=1
        The number of chunks computed one after the other.
    tile : int, default=DEFAULT_TILE
        Rows (and columns) of one tile of the all-pairs search.
    progress : file-like, default=None
        Progress lines are written there (e.g. ``sys.stderr``); None for silence.

    Returns
    -------
    Neighbours
        Every compound's top-k, sorted by decreasing similarity, ties by increasing index.

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

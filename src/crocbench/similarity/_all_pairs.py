"""The exact all-pairs top-k search in independent chunks: a chunk's candidates, the chunks gathered, all in one.

Ties are broken by smaller index, as in :func:`top_k`, so every path gives the same lists, bit for bit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._extras import needs
from .._memory import empty_array
from ..chem.fingerprints import Fingerprints
from ._chunks import _LOW, DEFAULT_TILE, chunk_tiles
from ._tanimoto import FeatureMatrix, _Progress
from ._topk import Neighbours

# --- All-pairs top-k in independent chunks -------------------------------------------------------
#
# Each pair is computed once: the upper triangle of the N x N matrix is cut into square tiles, and
# a tile (I, J), I < J, gives candidates to the rows of I (its rows) and to the rows of J (its
# columns).  Candidates are int64 keys, ``sim_bits << 32 | (2**32 - 1 - index)``: non-negative
# float32 values order as their bits, so one integer comparison orders by decreasing similarity
# and then by increasing index, the tie rule of :func:`top_k`, and merging partial lists is a
# plain top-k of their union.  A chunk is a run of tiles of about equal work; its job keeps the
# best k keys of every row (O(N k) memory), updated tile by tile by a compiled loop
# (``_selection.offer_tile``: a pair below a row's current k-th costs one multiplication), and
# :func:`gather_chunks` merges the chunks' lists of the rows their tiles touch.

_NONE = -1  # the key of no candidate (a compound is never its own)


def _best(keys, k: int):
    """The k largest keys of each row, in decreasing order (padded with ``_NONE`` when fewer)."""
    with needs("crocbench.similarity"):
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
        The compounds' feature sets (:class:`crocbench.chem.fingerprints.Fingerprints`), or a :class:`FeatureMatrix`
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
    from . import _selection as K
    from ._kernels import count_intersections

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
        count_intersections(inter, *operands)
        return inter

    # the chunk's diagonal tiles first: each fills its block's lists (a tile holds more than k other compounds,
    # unless the block is small), so that an off-diagonal tile of those columns is offered row by row, never
    # stored; a list is the k largest keys, whatever the order they came in
    for t, (bi, bj) in enumerate(sorted(mine, key=lambda tile_: tile_[0] != tile_[1])):
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
    with needs("crocbench.similarity"):
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
        The compounds' feature sets (:class:`crocbench.chem.fingerprints.Fingerprints`), or a :class:`FeatureMatrix`
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
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> nb = all_pairs_top_k(fp, 1, tile=2)
    >>> nb.index.ravel().tolist(), nb.similarity.ravel().tolist()
    ([2, 0, 0], [0.5, 0.3333333432674408, 0.5])
    """
    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    return gather_chunks([top_k_chunk(fm, k, c, chunks, tile=tile, progress=progress) for c in range(chunks)])

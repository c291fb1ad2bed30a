"""The all-pairs top-k search cut into chunks: the tiles of each chunk, each chunk's work, a job's memory."""

from __future__ import annotations

import math

import numpy as np

DEFAULT_TILE = 4096

#: The low 32 bits of a candidate key (``sim_bits << 32 | (2**32 - 1 - index)``): 2**32 - 1 - index.
_LOW = (1 << 32) - 1


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

"""A compiled blocked transpose (numba): the lower triangle of a symmetric Tanimoto matrix from its upper rows,
in place of torch's, so that computing a kernel imports no torch."""

from __future__ import annotations

import numpy as np

from ._kernels import numba  # with the threading layer the compiled loops set (fork-safe)

_TILE = 64  # a transposed tile of 64 x 64 float64 is 32 KiB: read and written within the L1/L2 cache


def transpose_into(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src.T``: ``dst`` and ``src`` may be strided views of one matrix, not overlapping (the compiled
    loop checks no bounds, so the shapes are checked here)."""
    if dst.shape != src.shape[::-1] or dst.dtype != src.dtype:
        raise ValueError(f"transpose_into: dst {dst.shape} {dst.dtype} is not src {src.shape} {src.dtype} transposed")
    _transpose_into(dst, src)


@numba.njit(parallel=True, cache=True, nogil=True)
def _transpose_into(dst, src):  # pragma: no cover - compiled
    """``dst[:] = src.T``, tile by tile, parallel over stripes of ``dst``'s rows (none written by two threads)."""
    m, n = dst.shape
    for t in numba.prange((m + _TILE - 1) // _TILE):
        i0 = t * _TILE
        i1 = min(m, i0 + _TILE)
        for j0 in range(0, n, _TILE):
            j1 = min(n, j0 + _TILE)
            for i in range(i0, i1):
                for j in range(j0, j1):
                    dst[i, j] = src[j, i]

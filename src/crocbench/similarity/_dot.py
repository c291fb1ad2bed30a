"""A matrix-vector product in a fixed order: the same bits on every CPU (the SVM's decision values)."""

from __future__ import annotations

import numpy as np


def ordered_dot(a: np.ndarray, w: np.ndarray, chunk: int = 1024) -> np.ndarray:
    """``a @ w`` (float64) summed column by column in a fixed order: the same bits on every CPU.

    BLAS's result depends on the CPU (OpenBLAS picks its kernels per CPU: blocking, FMA), so
    last bits differ between machines; two compounds tied on one (e.g. duplicate structures)
    would be 1 ulp apart on another and every tie-aware metric would move.  Here each term is
    one IEEE multiply and one add, in column order, so the decision values of the model's
    scores are reproducible bit for bit, and equal rows give equal values.

    Examples
    --------
    >>> a = np.array([[0.5, 0.25], [1.0, 0.0]], dtype=np.float32)
    >>> ordered_dot(a, np.array([2.0, 4.0])).tolist()
    [2.0, 2.0]
    """
    w = np.asarray(w, dtype=np.float64)
    out = np.zeros(a.shape[0])
    term = np.empty(a.shape[0])
    for start in range(0, a.shape[1], chunk):
        cols = np.asfortranarray(a[:, start : start + chunk], dtype=np.float64)  # columns contiguous
        for j in range(cols.shape[1]):
            np.multiply(cols[:, j], w[start + j], out=term)
            out += term
    return out


def columns_dot(matrix: np.ndarray, cols, w) -> np.ndarray:
    """``matrix[:, cols] @ w`` for a C-contiguous float64 ``matrix``, with the bits of :func:`ordered_dot` of
    that block (summed in the order of ``cols``), without gathering it: compiled, parallel over rows.

    Examples
    --------
    >>> m = np.array([[1.0, 0.5, 0.25], [0.5, 1.0, 0.0]])
    >>> columns_dot(m, [2, 0], [4.0, 2.0]).tolist()
    [3.0, 1.0]
    """
    from ._kernels import gathered_dot, process_threads, use_threads

    cols, w = np.asarray(cols, dtype=np.int64), np.asarray(w, dtype=np.float64)
    if matrix.dtype != np.float64 or not matrix.flags["C_CONTIGUOUS"] or w.shape != cols.shape:
        raise ValueError(f"columns_dot takes a C-contiguous float64 matrix and one weight per column; got {w.shape}")
    use_threads(process_threads())
    out = np.empty(matrix.shape[0])
    gathered_dot(out, matrix, cols, w)
    return out

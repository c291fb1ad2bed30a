"""Exact top-k neighbours of any query rows among any reference rows, block by block, and the lists' file.

Ties are broken by smaller index, so every path gives the same lists, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._io import load_arrays, save_arrays
from .._memory import empty_array
from ..chem.fingerprints import Fingerprints
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
        The compounds' feature sets (:class:`crocbench.chem.fingerprints.Fingerprints`), or a :class:`FeatureMatrix`
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
    >>> from crocbench.chem.fingerprints import Fingerprints
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

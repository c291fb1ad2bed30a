"""Compiled loops (numba) over a tau graph's CSR arrays, for the novelty split: its connected components, the
subgraph a set of compounds induces (and its entries above each of a few similarities), the edges a bisection
cuts, and the edges at or above a higher threshold.

Each reads ``indptr`` and ``indices`` as they are and writes only arrays of the size of its answer, so the novelty
split of a graph of E entries holds the graph and one subgraph's ``indices`` (4 bytes an entry), not scipy's
copies of both with their values (a component taken by ``graph[members][:, members]``, its COO form, and
``connected_components``' float64 values: about 40 bytes an entry at once).  Entries keep their order within a
row, so a subgraph is the one scipy's fancy indexing gives.
"""

from __future__ import annotations

import numpy as np

from .._extras import needs

with needs("the novelty split"):
    import numba


@numba.njit(cache=True, nogil=True)
def components(indptr, indices, skip):  # pragma: no cover - compiled
    """Each vertex's connected component (0, 1, ... in the order of their lowest vertex), ``-1`` where ``skip``:
    the components of the graph without the skipped vertices. Returns ``(count, labels)``."""
    n = indptr.size - 1
    label = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    count = 0
    for s in range(n):
        if label[s] >= 0 or skip[s]:
            continue
        label[s] = count
        stack[0], top = s, 1
        while top:
            top -= 1
            v = stack[top]
            for e in range(indptr[v], indptr[v + 1]):
                w = indices[e]
                if label[w] < 0 and not skip[w]:
                    label[w] = count
                    stack[top] = w
                    top += 1
        count += 1
    return count, label


@numba.njit(cache=True, nogil=True)
def induced(indptr, indices, data, members, position, t):  # pragma: no cover - compiled
    """The subgraph of ``members`` (``position[v]``: v's row in it, ``-1`` for a vertex outside) on the entries
    with ``data >= t``: its ``indptr`` (int64) and ``indices`` (int32), each row's entries in the graph's order."""
    m = members.size
    ptr = np.zeros(m + 1, dtype=np.int64)
    for a in range(m):
        v, k = members[a], 0
        for e in range(indptr[v], indptr[v + 1]):
            if position[indices[e]] >= 0 and data[e] >= t:
                k += 1
        ptr[a + 1] = ptr[a] + k
    out = np.empty(ptr[m], dtype=np.int32)
    for a in range(m):
        v, k = members[a], ptr[a]
        for e in range(indptr[v], indptr[v + 1]):
            p = position[indices[e]]
            if p >= 0 and data[e] >= t:
                out[k] = p
                k += 1
    return ptr, out


@numba.njit(cache=True, nogil=True)
def entries_at_least(indptr, indices, data, members, position, steps):  # pragma: no cover - compiled
    """``counts[k]``: the subgraph of ``members``' entries with ``data >= steps[k]`` (``steps`` increasing)."""
    below = np.zeros(steps.size + 1, dtype=np.int64)  # below[k]: entries with steps[k - 1] <= data < steps[k]
    for a in range(members.size):
        v = members[a]
        for e in range(indptr[v], indptr[v + 1]):
            if position[indices[e]] >= 0:
                below[np.searchsorted(steps, data[e], side="right")] += 1
    counts = np.zeros(steps.size, dtype=np.int64)
    total = 0
    for k in range(steps.size - 1, -1, -1):
        total += below[k + 1]
        counts[k] = total
    return counts


@numba.njit(cache=True, nogil=True)
def cut_edges(indptr, indices, side):  # pragma: no cover - compiled
    """The entries ``(u, v)`` with ``side[u] == 0`` and ``side[v] == 1``, by row then in the row's order."""
    n, count = indptr.size - 1, 0
    for u in range(n):
        if side[u] == 0:
            for e in range(indptr[u], indptr[u + 1]):
                count += side[indices[e]] == 1
    rows, cols, k = np.empty(count, dtype=np.int64), np.empty(count, dtype=np.int64), 0
    for u in range(n):
        if side[u] == 0:
            for e in range(indptr[u], indptr[u + 1]):
                if side[indices[e]] == 1:
                    rows[k], cols[k] = u, indices[e]
                    k += 1
    return rows, cols


@numba.njit(cache=True, nogil=True)
def at_least(indptr, indices, data, t):  # pragma: no cover - compiled
    """The entries with ``data >= t``: ``(indptr, indices, data)`` of the graph they make, in the graph's order."""
    n = indptr.size - 1
    ptr = np.zeros(n + 1, dtype=np.int64)
    for v in range(n):
        k = 0
        for e in range(indptr[v], indptr[v + 1]):
            if data[e] >= t:
                k += 1
        ptr[v + 1] = ptr[v] + k
    out, values = np.empty(ptr[n], dtype=indices.dtype), np.empty(ptr[n], dtype=data.dtype)
    for v in range(n):
        k = ptr[v]
        for e in range(indptr[v], indptr[v + 1]):
            if data[e] >= t:
                out[k], values[k] = indices[e], data[e]
                k += 1
    return ptr, out, values

"""The novelty split: k folds with no pair of compounds in two folds at similarity ``>= tau``; the rest dropped.

The graph is :func:`crocbench.chem.graph.tau_graph`: an edge for every pair at or above ``tau``.  Folds keep
neighbours apart exactly when no edge joins two folds, so each connected component of the graph lies in one fold.

- The components are exact: a component is dealt whole, as a group, by :func:`crocbench.cv.grouped_folds`; no
  compound of a component that fits is dropped.
- A component larger than ``ceil(N / k)`` (it would leave its fold far larger than the others) is cut by a vertex
  separator, and the separator is dropped: neither trained on nor scored.  METIS bisects the component into two
  halves with few edges between them (``_bisection``: a heuristic, seeded, so the same graph gives the same
  halves); the separator is a minimum vertex cover of the edges between the halves (König's theorem,
  ``_cover``: exact, optimal for those halves), and any piece still too large is cut again
  (``_separator``).  The whole is not a minimum separator of the component.  A piece of more than
  :data:`METIS_ENTRIES` entries is bisected on its strongest edges (``_metis_input``: METIS's memory), and its
  separator still covers every edge of the piece between the halves.
- Then each dropped compound whose kept neighbours all lie in one group that has room (or that has none) is given
  back to it, in index order (``_restore``): the fewer dropped, with no edge between two groups still.

Dropped compounds have fold ``DROPPED`` (-1).  At most ``max_dropped`` of the compounds may be dropped; a screen
that needs more raises one line naming the share and the smallest ``tau`` of 0.05 steps above it that fits.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse import csgraph

from .._extras import needs
from ._folds import DROPPED, grouped_folds

#: The default largest share of the compounds a novelty split may drop.
MAX_DROPPED = 0.2
#: The most entries (twice the edges) of a piece METIS bisects whole: its memory is about 44 bytes an entry, so
#: about 3 GB; a larger piece is bisected on its strongest edges (``_metis_input``).
METIS_ENTRIES = 2**26
#: A novelty split's settings (the run's ``cv: novelty``), as a run declares them and its reference records them.
NOVELTY_SETTINGS = ("tau", "fingerprint", "max_dropped")


def check_max_dropped(share) -> float:
    """``share`` as a float in [0, 1), else a one-line ValueError.

    Parameters
    ----------
    share : float or str
        The largest share of the compounds a novelty split may drop.

    Returns
    -------
    float
        ``share``, checked.
    """
    try:
        s = float(share)
    except (TypeError, ValueError):
        s = float("nan")
    if not 0.0 <= s < 1.0:
        raise ValueError(f"max_dropped is a share of the compounds in [0, 1); got {share!r}")
    return s


def _cover(edges_u: np.ndarray, edges_v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A minimum vertex cover of a bipartite graph given by its edges (u, v): König's, from a maximum matching.

    Returns the covering vertices of each side (their labels, sorted).
    """
    us, u = np.unique(edges_u, return_inverse=True)
    vs, v = np.unique(edges_v, return_inverse=True)
    bi = sp.csr_matrix((np.ones(u.size, dtype=np.int8), (u, v)), shape=(us.size, vs.size))
    bi.sum_duplicates()
    mate_u = csgraph.maximum_bipartite_matching(bi, perm_type="column")  # the column of each row, or -1
    mate_v = np.full(vs.size, -1, dtype=np.int64)
    mate_u_ok = mate_u >= 0
    mate_v[mate_u[mate_u_ok]] = np.flatnonzero(mate_u_ok)
    seen_u, seen_v = ~mate_u_ok, np.zeros(vs.size, dtype=bool)  # alternating paths from the unmatched rows
    frontier = np.flatnonzero(seen_u)
    while frontier.size:
        cols = np.unique(bi[frontier].indices)
        cols = cols[~seen_v[cols]]
        seen_v[cols] = True
        rows = mate_v[cols]
        rows = rows[(rows >= 0) & ~seen_u[np.maximum(rows, 0)]]
        seen_u[rows] = True
        frontier = rows
    return us[~seen_u], vs[seen_v]


def _bisection(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """A side (0 or 1) for each vertex of a graph's CSR arrays: METIS's bisection, of few edges between two halves
    (seed 0)."""
    with needs("the novelty split"):
        import pymetis
    graph = pymetis.CSRAdjacency(adj_starts=indptr.astype(np.int32), adjacent=indices.astype(np.int32, copy=False))
    part = pymetis.part_graph(2, graph, options=pymetis.Options(seed=0))
    return np.asarray(part.vertex_part, dtype=np.int64)


def _metis_input(graph, indptr, indices, members, position, entries: int) -> tuple | None:
    """The edges of a piece METIS bisects when it has more than :data:`METIS_ENTRIES` entries: those at the lowest
    similarity of 0.01 steps at which at most that many remain (its CSR arrays); None for a piece within it."""
    from ._graph_loops import entries_at_least, induced

    if entries <= METIS_ENTRIES:
        return None
    steps = (np.arange(1, 101) / 100).astype(np.float32)
    fits = entries_at_least(indptr, indices, graph.data, members, position, steps) <= METIS_ENTRIES
    t = steps[int(np.argmax(fits))] if fits.any() else steps[-1]  # identical compounds past it: their pairs only
    return induced(indptr, indices, graph.data, members, position, float(t))


def _separator(indptr: np.ndarray, indices: np.ndarray, bisected: tuple | None = None) -> np.ndarray | None:
    """A vertex separator of a connected graph (its CSR arrays): a minimum vertex cover of the edges METIS's
    bisection cuts.  ``bisected``: the CSR arrays of the graph METIS bisects, if not the graph itself (the
    cover is of the graph's own cut edges, so it separates the halves all the same).

    Any vertex cover of the cut edges separates the two halves (the uncovered vertices of each half stay on its
    side).  The halves are a heuristic (METIS: few edges cut, balanced sides); the cover of their cut edges is a
    minimum one (König's theorem, from a maximum matching).  A clique loses its smaller half: the rest, a clique
    still, is cut again down to a fold's size.  None when METIS leaves a side empty.
    """
    from ._graph_loops import cut_edges

    rows, cols = cut_edges(indptr, indices, _bisection(*(bisected or (indptr, indices))))
    if not rows.size:  # a side left empty
        return None
    near, far = _cover(rows, cols)
    return np.concatenate([near, far])


def _csr(graph: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """A CSR graph's ``indptr`` (int64) and ``indices``, as the compiled loops (:mod:`._graph_loops`) read them."""
    return graph.indptr.astype(np.int64), graph.indices


def _members(labels: np.ndarray, items: np.ndarray) -> list:
    """``items`` grouped by ``labels`` (0, 1, ...): one array per label, in label order, each in ``items``' order
    (one stable sort, not a pass over the items per label)."""
    order = np.argsort(labels, kind="stable")
    return np.split(items[order], np.flatnonzero(np.diff(labels[order])) + 1) if labels.size else []


def novelty_groups(graph: sp.csr_matrix, n_folds: int) -> np.ndarray:
    """Each compound's group (0, 1, ...) under the novelty split, or ``DROPPED`` (-1).

    No edge of ``graph`` joins two groups; every group is at most ``ceil(n / n_folds)`` compounds, and the groups
    are numbered in the order of their first compound.  The same graph gives the same groups.

    Parameters
    ----------
    graph : scipy.sparse.csr_matrix of shape (n, n)
        Symmetric; an entry for each pair at or above tau (:func:`crocbench.chem.graph.tau_graph`).
    n_folds : int
        The folds the groups will be dealt into.

    Returns
    -------
    ndarray of int64 of shape (n,)
        The group of every compound; ``DROPPED`` (-1) for a separator's.

    Examples
    --------
    >>> path = sp.csr_matrix(np.eye(5, k=1) + np.eye(5, k=-1))  # 0 - 1 - 2 - 3 - 4
    >>> novelty_groups(path, 2).tolist()  # too large for 2 folds of 3: one compound, the fewest, is dropped
    [0, 0, 0, -1, 1]
    """
    from ._graph_loops import components, induced

    graph = sp.csr_matrix(graph)
    n = graph.shape[0]
    cap = -(-n // int(n_folds))
    group = np.full(n, DROPPED, dtype=np.int64)
    indptr, indices = _csr(graph)
    _, comp = components(indptr, indices, np.zeros(n, dtype=bool))
    pending = _members(comp, np.arange(n))  # each piece is cut on its own: the order of the work is free
    position = np.full(n, -1, dtype=np.int64)  # a piece's vertices' rows in its subgraph, -1 elsewhere
    final = []
    while pending:
        members = pending.pop()
        if members.size <= cap:
            final.append(members)
            continue
        position[members] = np.arange(members.size)
        sub_ptr, sub_indices = induced(indptr, indices, graph.data, members, position, -np.inf)
        sep = _separator(
            sub_ptr, sub_indices, _metis_input(graph, indptr, indices, members, position, int(sub_ptr[-1]))
        )
        position[members] = -1
        if sep is None or not sep.size:
            final.append(members)
            continue
        skip = np.zeros(members.size, dtype=bool)
        skip[sep] = True
        _, pieces = components(sub_ptr, sub_indices, skip)
        del sub_ptr, sub_indices
        pending.extend(_members(pieces[~skip], members[~skip]))
    for g, members in enumerate(final):
        group[members] = g
    _restore(graph, group, cap)
    kept = group != DROPPED  # numbered by their first compound: independent of the order of the cutting
    labels, first = np.unique(group[kept], return_index=True)
    rank = np.empty(labels.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(labels.size)
    group[kept] = rank[np.searchsorted(labels, group[kept])]
    return group


def _restore(graph: sp.csr_matrix, group: np.ndarray, cap: int) -> None:
    """Give back, in place, each dropped compound whose kept neighbours all lie in one group below ``cap``.

    In index order: such a compound joins that group (a new group of its own when it has no kept neighbour), and
    the compounds after it see it kept.  No edge then joins two groups, as before.
    """
    size = np.bincount(group[group != DROPPED], minlength=int(group.max()) + 1).tolist()
    indptr, indices = graph.indptr, graph.indices
    for v in np.flatnonzero(group == DROPPED).tolist():
        near = np.unique(group[indices[indptr[v] : indptr[v + 1]]])
        near = near[near != DROPPED]
        if near.size == 0:
            group[v] = len(size)
            size.append(1)
        elif near.size == 1 and size[int(near[0])] < cap:
            group[v] = int(near[0])
            size[int(near[0])] += 1


def graph_at(graph: sp.csr_matrix, tau: float) -> sp.csr_matrix:
    """The edges of ``graph`` at similarity ``>= tau`` (compared in float32): the graph at a higher threshold.

    Parameters
    ----------
    graph : scipy.sparse.csr_matrix of shape (n, n)
        A graph at a threshold at most ``tau`` (:func:`crocbench.chem.graph.tau_graph`), the similarities as values.
    tau : float
        The higher threshold.

    Returns
    -------
    scipy.sparse.csr_matrix of float32 of shape (n, n)
        The entries of ``graph`` at or above ``tau``.

    Examples
    --------
    >>> g = sp.csr_matrix(np.array([[0, 0.4, 0.5], [0.4, 0, 0], [0.5, 0, 0]], dtype=np.float32))
    >>> graph_at(g, 0.5).toarray().tolist()
    [[0.0, 0.0, 0.5], [0.0, 0.0, 0.0], [0.5, 0.0, 0.0]]
    """
    from ._graph_loops import at_least

    graph = sp.csr_matrix(graph)  # its data in its indices' order
    indptr, indices = _csr(graph)
    ptr, kept, values = at_least(indptr, indices, graph.data, np.float32(tau))
    return sp.csr_matrix((values.astype(np.float32, copy=False), kept, ptr), shape=graph.shape)


def kept_by_tau(graph: sp.csr_matrix, y, taus, n_folds: int = 10) -> pd.DataFrame:
    """What the novelty split keeps at each threshold: ``tau, compounds, compounds_kept, actives, actives_kept``.

    The graph is built once, at the lowest threshold; each higher one is its edges at or above it
    (:func:`graph_at`), so the thresholds cost one pass of the similarity engine.

    Parameters
    ----------
    graph : scipy.sparse.csr_matrix of shape (n, n)
        The pairs at or above ``min(taus)`` (:func:`crocbench.chem.graph.tau_graph`), their similarities as values.
    y : array-like of shape (n,)
        Binary labels (1 = active).
    taus : sequence of float
        The thresholds, none below the graph's.
    n_folds : int, default=10
        The folds of the split.

    Returns
    -------
    pandas.DataFrame
        One row per threshold, in the order given.

    Examples
    --------
    >>> path = sp.csr_matrix(np.array([[0, .5, 0, 0], [.5, 0, .6, 0], [0, .6, 0, .5], [0, 0, .5, 0]], np.float32))
    >>> kept_by_tau(path, [1, 0, 0, 1], [0.5, 0.6], n_folds=2).to_numpy().tolist()  # 0.5: one of the middle cut
    [[0.5, 4.0, 3.0, 2.0, 2.0], [0.6, 4.0, 4.0, 2.0, 2.0]]
    """
    y = np.asarray(y)
    if graph.shape != (y.size, y.size):
        raise ValueError(f"{y.size} labels and a graph of shape {graph.shape} do not match")
    rows = []
    for tau in taus:
        kept = novelty_groups(graph_at(graph, tau), n_folds) != DROPPED
        rows.append((float(tau), y.size, int(kept.sum()), int((y == 1).sum()), int((y[kept] == 1).sum())))
    return pd.DataFrame(rows, columns=["tau", "compounds", "compounds_kept", "actives", "actives_kept"])


def _tau_that_fits(graph: sp.csr_matrix, tau: float, n_folds: int, max_dropped: float) -> str:
    """The smallest tau of 0.05 steps above ``tau`` whose split drops at most ``max_dropped``, in words."""
    for step in range(1, 21):
        t = round(tau + 0.05 * step, 2)
        if t > 1.0:
            break
        share = float(np.mean(novelty_groups(graph_at(graph, t), n_folds) == DROPPED))
        if share <= max_dropped:
            return f"tau {t:g} drops {share:.1%}, within it"
    return "no tau up to 1 fits"


def novelty_table(
    ids, y, graph: sp.csr_matrix, tau: float, n_folds: int = 10, seed: int = 0, max_dropped: float = MAX_DROPPED
) -> pd.DataFrame:
    """``id, label, fold, group`` for every compound, in input order: a novelty split (fold ``DROPPED`` (-1): dropped).

    Parameters
    ----------
    ids : array-like of shape (n_compounds,)
        The compounds' ids.
    y : array-like of shape (n_compounds,)
        Binary labels (1 = active).
    graph : scipy.sparse.csr_matrix of shape (n_compounds, n_compounds)
        The pairs at or above ``tau`` (:func:`crocbench.chem.graph.tau_graph`), their similarities as values.
    tau : float
        The threshold the graph was built at (named in the error when too many compounds are dropped).
    n_folds : int, default=10
        The number of folds, at least 2.
    seed : int, default=0
        Seeds the dealing of the groups (:func:`crocbench.cv.grouped_folds`); the same seed, the same folds.
    max_dropped : float, default=MAX_DROPPED
        The largest share of the compounds that may be dropped.

    Returns
    -------
    pandas.DataFrame
        ``id``, ``label`` (int8), ``fold`` (``DROPPED`` for a dropped compound) and ``group`` (its group, or
        ``DROPPED``).

    Raises
    ------
    ValueError
        One line: more than ``max_dropped`` would be dropped (the share, and a tau that fits), or the groups
        cannot give every fold actives and inactives.

    Examples
    --------
    >>> g = sp.csr_matrix((4, 4), dtype=np.float32)  # no pair at tau: four groups of one
    >>> t = novelty_table(list("abcd"), [1, 0, 1, 0], g, 0.4, n_folds=2)
    >>> t.groupby("fold")["label"].agg(["size", "sum"]).to_numpy().tolist()  # an active and an inactive each
    [[2, 1], [2, 1]]
    """
    y = np.asarray(y)
    ids = np.asarray(ids, dtype=str)
    if graph.shape != (y.size, y.size) or ids.shape != y.shape:
        raise ValueError(f"{ids.size} ids, {y.size} labels and a graph of shape {graph.shape} do not match")
    max_dropped = check_max_dropped(max_dropped)
    group = novelty_groups(graph, n_folds)
    dropped = group == DROPPED
    share = float(dropped.mean())
    if share > max_dropped:
        raise ValueError(
            f"the novelty split at tau {tau:g} drops {share:.1%} of the compounds ({int(dropped.sum())} of "
            f"{y.size}), above max_dropped {max_dropped:g}; {_tau_that_fits(graph, tau, n_folds, max_dropped)}"
        )
    fold = np.full(y.size, DROPPED, dtype=np.int64)
    try:
        fold[~dropped] = grouped_folds(y[~dropped], group[~dropped], n_folds, seed)
    except ValueError as exc:
        raise ValueError(f"novelty split: {exc}") from None
    return pd.DataFrame({"id": ids, "label": y.astype(np.int8), "fold": fold, "group": group})

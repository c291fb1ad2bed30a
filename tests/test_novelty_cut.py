"""The novelty split's cutting (crocbench.cv._novelty): METIS's halves, König's cover of their cut edges, and the
dropped compounds given back; against brute force on small random graphs."""

from itertools import combinations

import numpy as np
import pytest
import scipy.sparse as sp

from crocbench.cv import DROPPED, novelty_groups
from crocbench.cv._novelty import _bisection, _separator


def _random_graph(seed: int, n: int, p: float) -> sp.csr_matrix:
    """A symmetric random graph of ``n`` vertices, each pair an edge with probability ``p``, made connected by a
    path through the vertices in a random order."""
    rng = np.random.default_rng(seed)
    a = np.triu(rng.random((n, n)) < p, 1)
    order = rng.permutation(n)
    a[order[:-1], order[1:]] = True
    a = a | a.T
    np.fill_diagonal(a, False)
    return sp.csr_matrix(a.astype(np.float32))


def _smallest_cover(edges: list) -> int:
    """The size of a minimum vertex cover of ``edges``, by trying every subset of their vertices."""
    vertices = sorted({v for e in edges for v in e})
    return next(
        size
        for size in range(len(vertices) + 1)
        for subset in combinations(vertices, size)
        if all(a in subset or b in subset for a, b in edges)
    )


def _groups_touching(graph: sp.csr_matrix, group: np.ndarray) -> np.ndarray:
    """The edges of ``graph`` whose ends are kept in two different groups."""
    coo = graph.tocoo()
    g, h = group[coo.row], group[coo.col]
    return np.flatnonzero((g != DROPPED) & (h != DROPPED) & (g != h))


@pytest.mark.parametrize("seed", range(10))
def test_the_separator_is_a_minimum_cover_of_the_cut_edges(seed):
    """The separator covers every edge between METIS's two halves (none joins the rest of one half to the rest of
    the other), and no smaller set of vertices does (brute force over subsets)."""
    sub = _random_graph(seed, 14, 0.25)
    side = _bisection(sub.indptr, sub.indices)
    sep = _separator(sub.indptr, sub.indices)
    assert sep is not None
    coo = sub.tocoo()
    cut = [(int(a), int(b)) for a, b in zip(coo.row, coo.col, strict=True) if side[a] == 0 and side[b] == 1]
    assert cut
    removed = set(sep.tolist())
    uncovered = [(a, b) for a, b in cut if a not in removed and b not in removed]
    assert not uncovered, f"cut edges left uncovered: {uncovered}"
    assert len(removed) == sep.size == _smallest_cover(cut)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize(("n", "p", "n_folds"), [(14, 0.25, 2), (30, 0.12, 3), (40, 0.3, 5)])
def test_no_edge_joins_two_groups_and_the_groups_fit(seed, n, p, n_folds):
    """Over every edge, its two kept ends lie in one group; each group is at most ceil(n / k); a dropped
    compound's kept neighbours lie in two groups or more, or in one already full (else it would be given back)."""
    graph = _random_graph(seed, n, p)
    group = novelty_groups(graph, n_folds)
    assert _groups_touching(graph, group).size == 0
    cap = -(-n // n_folds)
    kept = group != DROPPED
    assert np.bincount(group[kept]).max() <= cap
    sizes = np.bincount(group[kept])
    for v in np.flatnonzero(~kept).tolist():
        near = set(group[graph[v].indices].tolist()) - {DROPPED}
        assert len(near) >= 2 or (len(near) == 1 and sizes[near.pop()] == cap), v
    assert sorted(set(group[kept].tolist())) == list(range(sizes.size))  # numbered 0, 1, ... with no gap
    firsts = [int(np.flatnonzero(group == g)[0]) for g in range(sizes.size)]
    assert firsts == sorted(firsts)  # in the order of their first compound


@pytest.mark.parametrize("seed", range(4))
def test_the_same_graph_gives_the_same_groups(seed):
    """Two calls, and a copy of the graph: byte-identical groups (METIS's seed is fixed)."""
    graph = _random_graph(seed, 60, 0.08)
    first = novelty_groups(graph, 4)
    assert (first == DROPPED).any()
    assert first.tobytes() == novelty_groups(graph, 4).tobytes() == novelty_groups(graph.copy(), 4).tobytes()


@pytest.mark.parametrize("size", [3, 5, 8])
def test_two_cliques_joined_by_one_vertex_lose_that_vertex_alone(size):
    """Two cliques of ``size`` joined through one vertex, in 2 folds of ``size + 1``: the graph is connected and
    larger than a fold, so at least one vertex goes, and the joining vertex is the only one whose loss splits it;
    the split drops it and nothing else (optimal)."""
    n = 2 * size + 1
    a = np.zeros((n, n), dtype=bool)
    a[:size, :size] = a[size + 1 :, size + 1 :] = True
    a[size, :] = a[:, size] = True
    np.fill_diagonal(a, False)
    group = novelty_groups(sp.csr_matrix(a.astype(np.float32)), 2)
    assert np.flatnonzero(group == DROPPED).tolist() == [size]
    assert group.tolist() == [0] * size + [DROPPED] + [1] * size


def test_a_path_loses_one_vertex_and_a_clique_keeps_a_folds_worth():
    """0-1-2-3-4 in 2 folds of 3: one inner vertex is dropped (the fewest possible: the path is larger than a fold);
    a clique of 5 lies in one group if anywhere, so it keeps 3 of its vertices, a fold's worth, and drops 2."""
    path = sp.csr_matrix(np.eye(5, k=1) + np.eye(5, k=-1))
    group = novelty_groups(path, 2)
    assert (group == DROPPED).sum() == 1 and group[0] != DROPPED and group[4] != DROPPED
    assert np.bincount(group[group != DROPPED]).max() <= 3
    clique = sp.csr_matrix(np.ones((5, 5)) - np.eye(5))
    assert sorted(novelty_groups(clique, 2).tolist()) == [DROPPED, DROPPED, 0, 0, 0]


def _weighted_graph(seed: int, n: int, p: float) -> sp.csr_matrix:
    """:func:`_random_graph` with a similarity on each edge, in 0.01 steps from 0.30 to 0.79 (symmetric)."""
    a = _random_graph(seed, n, p).toarray() > 0
    rng = np.random.default_rng(seed + 100)
    w = np.triu(rng.integers(30, 80, size=(n, n)) / 100, 1).astype(np.float32)
    return sp.csr_matrix(np.where(a, w + w.T, 0).astype(np.float32))


@pytest.mark.parametrize("seed", range(6))
def test_a_piece_over_metis_budget_is_bisected_on_its_strongest_edges_and_still_separated(seed, monkeypatch):
    """Over METIS_ENTRIES, METIS gets the piece's edges at the lowest 0.01 step that leaves at most that many
    entries (brute force over the steps); the groups still have no edge of the whole graph between them and fit;
    within the budget the groups are those of the whole graph's bisection."""
    import crocbench.cv._novelty as nov

    graph = _weighted_graph(seed, 80, 0.15)
    whole = novelty_groups(graph, 4)
    budget = graph.nnz // 3
    monkeypatch.setattr(nov, "METIS_ENTRIES", budget)
    n = graph.shape[0]
    members, position = np.arange(n), np.arange(n)
    indptr, indices = graph.indptr.astype(np.int64), graph.indices
    ptr, idx = nov._metis_input(graph, indptr, indices, members, position, graph.nnz)
    dense = graph.toarray()
    step = next(s for s in np.arange(1, 101) / 100 if (dense >= np.float32(s)).sum() <= budget)
    want = sp.csr_matrix(np.where(dense >= np.float32(step), 1, 0))
    np.testing.assert_array_equal(ptr, want.indptr)
    np.testing.assert_array_equal(idx, want.indices)
    assert 0 < idx.size <= budget < (dense >= np.float32(step - 0.01)).sum()
    group = novelty_groups(graph, 4)
    assert _groups_touching(graph, group).size == 0
    assert np.bincount(group[group != DROPPED]).max() <= -(-n // 4)
    assert not np.array_equal(group, whole)  # the budget changed what METIS saw
    monkeypatch.setattr(nov, "METIS_ENTRIES", graph.nnz)
    assert novelty_groups(graph, 4).tobytes() == whole.tobytes()


def test_pairs_of_identical_compounds_past_the_budget_leave_metis_those_pairs_only(monkeypatch):
    """Eight identical compounds (56 entries at similarity 1) and a path at 0.5 through them: with a budget below
    56, no 0.01 step fits, and METIS gets the pairs at 1 alone, the fewest any step leaves."""
    import crocbench.cv._novelty as nov

    n = 14
    w = np.zeros((n, n), dtype=np.float32)
    w[:8, :8] = 1.0
    for i in range(7, n - 1):
        w[i, i + 1] = w[i + 1, i] = 0.5
    np.fill_diagonal(w, 0)
    graph = sp.csr_matrix(w)
    monkeypatch.setattr(nov, "METIS_ENTRIES", 40)
    ptr, idx = nov._metis_input(
        graph, graph.indptr.astype(np.int64), graph.indices, np.arange(n), np.arange(n), graph.nnz
    )
    assert idx.size == 56 and (np.diff(ptr)[:8] == 7).all() and (np.diff(ptr)[8:] == 0).all()
    group = novelty_groups(graph, 2)
    assert _groups_touching(graph, group).size == 0

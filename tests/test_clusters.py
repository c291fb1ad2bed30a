"""crocbench.chem.clusters: leader clusters against RDKit's LeaderPicker and a brute force, and the folds of a cluster
split."""

import numpy as np
import pytest
from _hiv import hiv_sample

from crocbench.chem.clusters import bit_fingerprints, check_threshold, cluster_summary, leader_clusters
from crocbench.cv import fold_summary, fold_table


@pytest.fixture(scope="module")
def hiv(mirror):
    """1,400 real compounds of the DTP AIDS screen (every 30th row), labelled CA/CM active, with their ECFP4."""
    from crocbench.chem.ecfp import ecfp_counts

    table = hiv_sample(mirror, 30)
    return table, ecfp_counts(table["smiles"].tolist())[1]


def _bit_sets(counts):
    return [set(counts.indices[counts.indptr[i] : counts.indptr[i + 1]].tolist()) for i in range(counts.shape[0])]


def _tanimoto(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


@pytest.mark.parametrize("threshold", [0.3, 0.4, 0.7])
def test_the_leaders_are_rdkits_leaderpicker_picks(hiv, threshold):
    """RDKit's LazyBitVectorPick at distance 1 - threshold, on bit vectors built from the same bits, picks the same
    leaders (an independent implementation)."""
    from rdkit import DataStructs
    from rdkit.SimDivFilters import rdSimDivPickers

    _, counts = hiv
    vectors = []
    for bits in _bit_sets(counts):
        v = DataStructs.ExplicitBitVect(counts.shape[1])
        v.SetBitsFromList(sorted(bits))
        vectors.append(v)
    picks = rdSimDivPickers.LeaderPicker().LazyBitVectorPick(vectors, len(vectors), 1.0 - threshold)
    clusters = leader_clusters(bit_fingerprints(counts), threshold, block=128)
    leaders = [int(np.flatnonzero(clusters == c)[0]) for c in range(clusters.max() + 1)]
    assert sorted(picks) == leaders


@pytest.mark.parametrize("block", [7, 64, 5000])
def test_every_compound_joins_the_first_leader_at_or_above_the_threshold(hiv, block):
    """Brute force in Python sets: leaders pairwise below the threshold, each compound in the cluster of the first
    leader (pick order) at least that similar; the same for any block size."""
    _, counts = hiv
    sets = _bit_sets(counts)[:400]
    t = 0.4
    clusters = leader_clusters(bit_fingerprints(counts[:400]), t, block=block)
    leaders = []
    want = []
    for i, s in enumerate(sets):
        near = [c for c, leader in enumerate(leaders) if _tanimoto(s, sets[leader]) >= t]
        if near:
            want.append(near[0])
        else:
            want.append(len(leaders))
            leaders.append(i)
    assert clusters.tolist() == want


def test_a_similarity_exactly_at_the_threshold_joins():
    """{1, 2} and {1, 3}: T = 1/3 exactly; at 1/3 they are one cluster, just above it two."""
    from crocbench.chem.fingerprints import Fingerprints

    fp = Fingerprints(np.array([0, 2, 4]), np.array([1, 2, 1, 3], dtype=np.uint64))
    assert leader_clusters(fp, 1 / 3).tolist() == [0, 0]
    assert leader_clusters(fp, 0.34).tolist() == [0, 1]


def test_an_empty_fingerprint_is_a_cluster_of_its_own():
    from crocbench.chem.fingerprints import Fingerprints

    fp = Fingerprints(np.array([0, 1, 1, 2]), np.array([4, 4], dtype=np.uint64))
    assert leader_clusters(fp, 0.5).tolist() == [0, 1, 0]


def test_bit_fingerprints_and_the_summary():
    import scipy.sparse as sp

    fp = bit_fingerprints(sp.csr_matrix(np.array([[0, 3, 1], [2, 0, 0]], dtype=np.uint32)))
    assert fp.indptr.tolist() == [0, 2, 3] and fp.ids.tolist() == [1, 2, 0]
    assert cluster_summary([3, 3, 0, 1, 1, 1]) == {"clusters": 3, "singletons": 1, "largest": 3}


@pytest.mark.parametrize("bad", [0, -0.1, 1.5])
def test_a_threshold_outside_0_1_is_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=r"a cluster threshold is a Tanimoto similarity in \(0, 1\]"):
        check_threshold(bad)


def test_the_cluster_split_keeps_every_cluster_whole_and_moves_with_the_seed(hiv):
    """Property over seeds: every cluster lies in one fold, every fold has positives; different seeds deal the
    clusters differently (the dealing is seeded), the same seed the same way."""
    table, counts = hiv
    clusters = leader_clusters(bit_fingerprints(counts), 0.4)
    assignments = []
    for seed in range(4):
        folds = fold_table(table["id"], table["label"], 5, seed, clusters=clusters)
        assert (folds.groupby("cluster")["fold"].nunique() == 1).all()
        assert (folds.groupby("fold")["label"].sum() > 0).all()
        assert folds["cluster"].tolist() == clusters.tolist()
        assignments.append(folds["fold"].to_numpy())
    assert all(not np.array_equal(assignments[0], other) for other in assignments[1:])
    again = fold_table(table["id"], table["label"], 5, 2, clusters=clusters)["fold"].to_numpy()
    assert np.array_equal(again, assignments[2])
    summary = fold_summary(fold_table(table["id"], table["label"], 5, 0, clusters=clusters))
    assert summary["clusters"] == cluster_summary(clusters)["clusters"]
    assert summary["singletons"] == cluster_summary(clusters)["singletons"]


def test_a_split_is_by_scaffold_or_by_cluster_not_both():
    with pytest.raises(ValueError, match="not both"):
        fold_table(list("ab"), [1, 0], 2, scaffolds=["", ""], clusters=[0, 1])

"""The paper's labeled-tree features, enumerated by hand, and the fast ids against the reference."""

import numpy as np
import pytest
from rdkit import Chem, DataStructs

from crocbench import similarity as S
from crocbench._io import save_arrays
from crocbench.chem import fingerprints as F

# Hand enumeration. Labels: element + heavy degree; bonds - = # :
HAND = {
    # ethanol (the example: 8 features, where a default radius-2 Morgan gives 6)
    "CCO": {"C1", "C2", "O1", "C1(-C2)", "O1(-C2)", "C2(-C1,-O1)", "C1(-C2(-O1))", "O1(-C2(-C1))"},
    # acetic acid: the carbonyl and hydroxyl oxygens differ by bond label only
    "CC(=O)O": {
        "C1",
        "C3",
        "O1",
        "C1(-C3)",
        "C3(-C1,-O1,=O1)",
        "O1(=C3)",
        "O1(-C3)",
        "C1(-C3(-O1,=O1))",
        "O1(=C3(-C1,-O1))",
        "O1(-C3(-C1,=O1))",
    },
    # benzene: every atom has the same trees
    "c1ccccc1": {"C2", "C2(:C2,:C2)", "C2(:C2(:C2),:C2(:C2))"},
    # pyridine: N and three kinds of carbon
    "c1ccncc1": {
        "C2",
        "N2",
        "C2(:C2,:N2)",
        "C2(:C2,:C2)",
        "N2(:C2,:C2)",
        "C2(:C2(:C2),:N2(:C2))",  # C2 (next to N)
        "C2(:C2(:C2),:C2(:N2))",  # C3
        "C2(:C2(:C2),:C2(:C2))",  # C4 (para)
        "N2(:C2(:C2),:C2(:C2))",
    },
    # cyclopropane with a methyl: the unfolded tree re-enters the ring (no step back to the parent only)
    "CC1CC1": {
        "C1",
        "C3",
        "C2",
        "C1(-C3)",
        "C3(-C1,-C2,-C2)",
        "C2(-C2,-C3)",
        "C1(-C3(-C2,-C2))",
        "C3(-C1,-C2(-C2),-C2(-C2))",
        "C2(-C2(-C3),-C3(-C1,-C2))",
    },
    # an ion with no heavy neighbour: depth 1 and 2 trees are the depth-0 feature
    "[Na+].[Cl-]": {"Na0", "Cl0"},
}


@pytest.mark.parametrize("smiles", list(HAND))
def test_hand_enumerated_features(smiles):
    assert F.feature_strings(smiles) == HAND[smiles]
    assert F.molecule_features(smiles).size == len(HAND[smiles])


def test_hydrogens_never_count():
    assert F.feature_strings("[H]OC([H])([H])C") == F.feature_strings("CCO")
    assert F.tanimoto("[2H]C([2H])([2H])CO", "CCO") == 1.0


CORPUS = [
    "CCO",
    "CC(=O)O",
    "c1ccccc1",
    "c1ccncc1",
    "CC1CC1",
    "C1CC1C1CC1",
    "C#CC(=O)N",
    "O=C(O)c1ccccc1O",
    "CC(C)(C)c1ccc(O)cc1",
    "c1ccc2ccccc2c1",
    "C1CCC2CCCCC2C1",
    "[NH4+].[O-]C(=O)C",
    "OC1C(O)C(O)C(O)C(O)C1O",
    "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
    "CCN(CC)CC",
    "N#CC#N",
    "C=CC=CC=C",
    "c1cc2cccc3ccc(c1)c23",
    "S(=O)(=O)(O)O",
    "CC12CCC3C(CCC4=CC(=O)CCC34C)C1CCC2O",
    "Fc1ccc(cc1)C(=O)N",
    "[Cu+2].[O-]S(=O)(=O)[O-]",
    "C1=CC=CC=C1",
]


def test_fast_ids_partition_atoms_exactly_like_the_reference():
    """Two (atom, depth) pairs get the same fast id iff their canonical trees are equal."""
    for smiles in CORPUS:
        mol, _ = F.parse_smiles(smiles)
        z, bonds, codes = F.mol_graph(mol)
        ids = F.atom_tree_ids(F.Graphs(np.zeros(z.size, np.int64), z, bonds, codes, 1))
        nbrs = [[] for _ in z]
        for (u, v), c in zip(bonds.tolist(), codes.tolist()):
            nbrs[u].append((v, F.BOND_SYMBOLS[c]))
            nbrs[v].append((u, F.BOND_SYMBOLS[c]))
        labels = [F.atom_label(a, len(n)) for a, n in zip(z, nbrs)]

        def tree(u, parent, d):
            kids = sorted(b + tree(v, u, d - 1) for v, b in nbrs[u] if v != parent) if d else []  # noqa: B023
            return f"{labels[u]}({','.join(kids)})" if kids else labels[u]  # noqa: B023

        strings = [tree(u, -1, d) for d in range(3) for u in range(z.size)]
        fast = ids.ravel().tolist()
        pairs = {}
        for s, f in zip(strings, fast):
            assert pairs.setdefault(s, f) == f, (smiles, s)
        assert len(set(pairs.values())) == len(pairs), smiles
        assert F.molecule_features(smiles).size == len(F.feature_strings(smiles))


def test_sd_fixture_molecules_match_reference(mirror):
    sup = Chem.SDMolSupplier(str(mirror / "fixtures" / "NCI_aids_few.sdf"))
    mols = [m for m in sup if m is not None]
    assert len(mols) >= 10
    for m in mols:
        assert F.molecule_features(m).size == len(F.feature_strings(m))


def test_tanimoto_by_hand_and_errors():
    # CCO vs CCN share C1, C2, C1(-C2) out of 8 + 8 features
    assert F.tanimoto("CCO", "CCN") == pytest.approx(3 / 13)
    # shared: C2, C2(:C2,:C2) and the para carbon's C2(:C2(:C2),:C2(:C2)); union 3 + 9 - 3
    assert F.tanimoto("c1ccccc1", "c1ccncc1") == pytest.approx(3 / 9)
    with pytest.raises(ValueError, match="cannot read molecule"):
        F.tanimoto("C1CC", "CCO")


def test_parse_reports_reasons():
    assert F.parse_smiles("C1CC")[1] == "SMILES syntax error"  # unclosed ring
    assert "valence" in F.parse_smiles("C(C)(C)(C)(C)C")[1]
    assert F.parse_smiles("")[1] == "empty SMILES"
    assert F.parse_smiles("[H][H]")[1] == "no heavy atom"


def test_graphs_in_parallel_equal_serial():
    smiles = CORPUS * 5 + ["C1CC", "CCO"]
    r1, g1 = F.graphs_from_smiles(smiles, n_jobs=1, chunk_size=7)
    r2, g2 = F.graphs_from_smiles(smiles, n_jobs=2, chunk_size=7)
    assert r1 == r2 and [i for i, r in enumerate(r1) if r] == [len(CORPUS) * 5]
    for a, b in zip(g1, g2):
        np.testing.assert_array_equal(a, b)
    fp = F.fingerprints_from_graphs(g1)
    assert fp.n == len(smiles) and fp.sizes()[len(CORPUS) * 5] == 0  # the rejected one: empty set


def test_folding_is_optional():
    _, fp = F.fingerprints_from_smiles(CORPUS)
    _, folded = F.fingerprints_from_smiles(CORPUS, fold=64)
    assert folded.ids.max() < 64 and np.all(folded.sizes() <= fp.sizes())


# --- similarity -------------------------------------------------------------------------


def _rdkit_tanimoto(fp):
    vecs = []
    for i in range(fp.n):
        v = DataStructs.SparseBitVect(2**31 - 1)  # exact ids mapped to bits: none shared by chance here
        for f in fp.row(i):
            v.SetBit(int(f % (2**31 - 1)))
        vecs.append(v)
    return np.array([DataStructs.BulkTanimotoSimilarity(v, vecs) for v in vecs])


def test_matrix_equals_rdkit_symmetric_unit_diagonal():
    _, fp = F.fingerprints_from_smiles(CORPUS)
    for dense_min in (2, 5, 10**9):  # dense/sparse split must not matter
        fm = S.FeatureMatrix(fp, dense_min)
        m = S.tanimoto_matrix(fm, block=5)
        np.testing.assert_allclose(m, _rdkit_tanimoto(fp), rtol=1e-6, atol=1e-7)
        assert np.array_equal(m, m.T)
        assert np.all(np.diag(m) == 1.0)


def test_matrix_to_npy_file_reads_back_memory_mapped(tmp_path):
    _, fp = F.fingerprints_from_smiles(CORPUS)
    path = tmp_path / "sim.npy"
    S.tanimoto_matrix(fp, out=path, block=4)
    back = np.load(path, mmap_mode="r")
    np.testing.assert_array_equal(back, S.tanimoto_matrix(fp))


def test_top_k_equals_brute_force_sort():
    rng = np.random.default_rng(0)
    smiles = CORPUS * 3  # duplicates: ties that must break by index
    _, fp = F.fingerprints_from_smiles(smiles)
    full = S.tanimoto_matrix(fp)
    query = rng.choice(fp.n, 20, replace=False)
    reference = np.sort(rng.choice(fp.n, 40, replace=False))
    for exclude_self in (True, False):
        nb = S.top_k(fp, 7, query=query, reference=reference, exclude_self=exclude_self, block=6)
        for qi, q in enumerate(query):
            cand = [(-full[q, r], pos) for pos, r in enumerate(reference) if not (exclude_self and r == q)]
            best = sorted(cand)[:7]
            assert nb.index[qi].tolist() == [p for _, p in best]
            np.testing.assert_array_equal(nb.similarity[qi], [-s for s, _ in best])


def _brute_force_top_k(full, k):
    """Every row's k best other rows by (decreasing similarity, increasing index), by sorting tuples."""
    n = full.shape[0]
    best = [sorted((-full[q, r], r) for r in range(n) if r != q)[:k] for q in range(n)]
    return (
        np.array([[r for _, r in row] for row in best]),
        np.array([[-s for s, _ in row] for row in best], dtype=np.float32),
    )


@pytest.mark.parametrize("tile, chunks", [(1000, 1), (7, 1), (7, 3), (5, 7), (4, 36)])
def test_all_pairs_top_k_in_chunks_equals_brute_force(tile, chunks):
    smiles = CORPUS * 3 + ["[Na+].[Cl-]", "CCO"]  # duplicates (ties broken by index) and a shared tiny set
    _, fp = F.fingerprints_from_smiles(smiles)
    index, similarity = _brute_force_top_k(S.tanimoto_matrix(fp), 9)
    for dense_min in (2, 10**9):  # the dense/sparse split must not matter
        nb = S.all_pairs_top_k(S.FeatureMatrix(fp, dense_min), 9, chunks=chunks, tile=tile)
        np.testing.assert_array_equal(nb.index, index)
        np.testing.assert_array_equal(nb.similarity, similarity)


def test_all_pairs_top_k_ties_cross_tiles_and_chunks():
    # 30 copies of one molecule and 10 of another: every similarity is a tie, and the k best of a row
    # are the lowest-numbered copies, wherever the tiles and chunks cut
    _, fp = F.fingerprints_from_smiles(["c1ccccc1O"] * 30 + ["CCN"] * 10)
    for tile, chunks in ((6, 1), (6, 5), (9, 13)):
        nb = S.all_pairs_top_k(fp, 12, chunks=chunks, tile=tile)
        want = np.array([[j for j in range(30) if j != i][:12] for i in range(30)])
        np.testing.assert_array_equal(nb.index[:30], want)
        assert np.all(nb.similarity[:30] == 1.0)
        assert nb.index[30].tolist() == [31, 32, 33, 34, 35, 36, 37, 38, 39, 0, 1, 2]


def test_chunk_files_gather_byte_identical_for_any_chunk_count(tmp_path):
    _, fp = F.fingerprints_from_smiles(CORPUS * 4)
    written = []
    for chunks in (1, 7):
        parts = []
        for c in range(chunks):
            parts.append(tmp_path / f"{chunks}_{c}.npz")
            save_arrays(parts[-1], **S.top_k_chunk(fp, 6, c, chunks, tile=8))
        S.save_neighbours(tmp_path / f"nb{chunks}.npz", S.gather_chunks(parts))
        written.append((tmp_path / f"nb{chunks}.npz").read_bytes())
    assert written[0] == written[1]
    nb = S.load_neighbours(tmp_path / "nb7.npz")
    want = S.top_k(fp, 6)
    assert np.array_equal(nb.index, want.index) and np.array_equal(nb.similarity, want.similarity)
    # a missing chunk, or one from other settings, is an error, not a silent partial list
    with pytest.raises(ValueError, match="expected chunks 0..6 once each"):
        S.gather_chunks(parts[:-1])
    other = S.top_k_chunk(fp, 5, 6, 7, tile=8)
    with pytest.raises(ValueError, match="disagree on k"):
        S.gather_chunks(parts[:-1] + [other])


def test_chunks_split_the_tiles_evenly():
    tiles = S.chunk_tiles(1000, 6, tile=100)
    assert [t for chunk in tiles for t in chunk] == [(i, j) for i in range(10) for j in range(i, 10)]
    work = [sum(0.5 if i == j else 1 for i, j in chunk) for chunk in tiles]
    assert max(work) - min(work) <= 1  # 50 tiles' work in 6 runs: at most one tile apart
    # each chunk's similarities: 100 x 100 a tile, half that on the diagonal; n^2 / 2 in all, for uneven tiles too
    assert S.chunk_pairs(1000, 6, tile=100) == [w * 100 * 100 for w in work]
    assert sum(S.chunk_pairs(1003, 5, tile=100)) == 1003**2 / 2
    assert S.default_chunks(41906) == 1 and S.default_chunks(250_000) == 2 and S.default_chunks(1_000_000) == 25
    with pytest.raises(ValueError, match="chunks must be in"):
        S.chunk_tiles(10, 7, tile=4)


def _random_sets(n, features, rng, density):
    """n random feature sets over ``features`` ids (two empty), as Fingerprints and as Python sets."""
    sets = [set(np.flatnonzero(rng.random(features) < density * rng.random()).tolist()) for _ in range(n)]
    sets[3] = set()  # an empty set: 0 against everything, and 0 / 1 against another empty one
    sets[7] = set()
    indptr = np.concatenate([[0], np.cumsum([len(x) for x in sets])])
    ids = np.concatenate([sorted(x) for x in sets]).astype(np.uint64)
    return F.Fingerprints(indptr, ids), sets


@pytest.mark.parametrize("dense_min", [2, 15, 10**9])
def test_intersections_equal_python_sets_across_packed_words(dense_min):
    # 200 features: with dense_min 2 they fill 4 packed words (the last partly); 15 splits them between
    # the words and the inverted index; 10**9 puts every feature in the index. Rows as slices and as arrays.
    rng = np.random.default_rng(5)
    fp, sets = _random_sets(90, 200, rng, 0.3)
    fm = S.FeatureMatrix(fp, dense_min)
    rows, cols = rng.permutation(90)[:40], np.arange(10, 75)
    got = fm.intersections(rows, cols)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [[len(sets[i] & sets[j]) for j in cols] for i in rows])
    np.testing.assert_array_equal(
        fm.intersections(slice(0, 90), slice(0, 90)), fm.intersections(np.arange(90), np.arange(90))
    )
    sims = fm.tanimoto(rows, cols)
    want = [[len(sets[i] & sets[j]) / max(1, len(sets[i] | sets[j])) for j in cols] for i in rows]
    np.testing.assert_array_equal(sims, np.array(want, dtype=np.float64).astype(np.float32))  # one rounding


def test_all_pairs_top_k_fast_path_and_its_fallback(monkeypatch):
    # Tiles of 16 among 160 sets: once every list holds k candidates, an off-diagonal tile is counted and offered
    # row by row (offer_tile), its column candidates collected; with room for 2 candidates a task, it overflows
    # and the columns are offered from the stored tile. Both equal brute force; both paths must run.
    from crocbench.similarity import _selection as K

    rng = np.random.default_rng(11)
    fp, sets = _random_sets(160, 3000, rng, 0.3)  # sets of up to ~900: similarities finely spaced near a k-th
    full = np.array([[len(a & b) / max(1, len(a | b)) for b in sets] for a in sets], dtype=np.float64).astype(
        np.float32
    )
    index, similarity = _brute_force_top_k(full, 5)
    results = []
    offer_tile = K.offer_tile

    def recorded(*args):
        results.append(offer_tile(*args))
        return results[-1]

    monkeypatch.setattr(K, "offer_tile", recorded)
    for candidates in (K.TASK_CANDIDATES, 2):
        monkeypatch.setattr(K, "TASK_CANDIDATES", candidates)
        results.clear()
        nb = S.all_pairs_top_k(S.FeatureMatrix(fp, 40), 5, chunks=3, tile=16)
        np.testing.assert_array_equal(nb.index, index)
        np.testing.assert_array_equal(nb.similarity, similarity)
        assert (True in results) and ((False in results) == (candidates == 2)), results


def test_top_k_bad_k():
    _, fp = F.fingerprints_from_smiles(CORPUS[:5])
    with pytest.raises(ValueError, match="k must be in"):
        S.top_k(fp, 5)


@pytest.mark.fulldata
def test_dtp_aids_sample_features_and_similarities(mirror):
    """On 600 random DTP AIDS compounds: the fast ids equal the reference trees, as a set across
    molecules (no collision, no split); the matrix equals RDKit's Tanimoto; top-k equals a sort."""
    import pandas as pd

    smiles = pd.read_csv(mirror / "HIV_41913.csv")["smiles"]
    sample = smiles.sample(600, random_state=1).tolist()
    reasons, fp = F.fingerprints_from_smiles(sample)
    ok = [s for s, r in zip(sample, reasons) if r is None]
    _, fp = F.fingerprints_from_smiles(ok)
    strings = [F.feature_strings(s) for s in ok]
    by_string = {}
    for i, feats in enumerate(strings):
        ids = fp.row(i).tolist()
        assert len(ids) == len(feats)
        for s in feats:
            by_string.setdefault(s, set()).add(i)
    assert len(by_string) == np.unique(fp.ids).size
    m = S.tanimoto_matrix(fp)
    np.testing.assert_allclose(m, _rdkit_tanimoto(fp), rtol=1e-6, atol=1e-7)
    for i in (0, 17, 333):
        j = (i * 7 + 5) % len(ok)
        inter = len(strings[i] & strings[j])
        assert m[i, j] == pytest.approx(inter / (len(strings[i]) + len(strings[j]) - inter), rel=1e-6)
    nb = S.top_k(fp, 20)
    for i in (0, 100, 599 if len(ok) > 599 else len(ok) - 1):
        row = m[i].copy()
        row[i] = -1
        order = np.lexsort((np.arange(row.size), -row))[:20]
        assert nb.index[i].tolist() == order.tolist()


def test_variant_fingerprints_rdkit_morgan_and_folded():
    from rdkit.Chem import AllChem

    from crocbench.chem.fingerprints import VARIANTS, parse_smiles, variant_fingerprints

    smiles = ["CCO", "c1ccccc1O", "CC(=O)Nc1ccc(O)cc1"]
    reasons, fp = variant_fingerprints("rdkit_morgan", smiles)
    assert reasons == [None, None, None] and fp.n == 3
    for i, s in enumerate(smiles):  # RDKit's own Morgan environments (radius 2), independently
        mol, _ = parse_smiles(s)
        want = sorted(AllChem.GetMorganFingerprint(mol, 2).GetNonzeroElements())
        assert fp.row(i).tolist() == want
    _, paper = variant_fingerprints("paper", smiles)
    _, folded = variant_fingerprints("folded_1024", smiles)
    for i in range(3):
        assert folded.row(i).tolist() == sorted(set((paper.row(i) % np.uint64(1024)).tolist()))
    assert VARIANTS == ("paper", "folded_1024", "rdkit_morgan")
    with pytest.raises(ValueError, match="unknown fingerprint variant"):
        variant_fingerprints("maccs", smiles)


def test_require_parsed_names_the_first_failure():
    F.require_parsed([None, None])
    with pytest.raises(ValueError, match="2 standardized SMILES no longer parse, first row 1: bad valence"):
        F.require_parsed([None, "bad valence", "empty"])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matrix_is_the_once_rounded_quotient_in_either_dtype(dtype, tmp_path):
    # Python sets (two empty: 0 with everything, themselves included), blocks of 7 rows among 50: the upper part
    # counted and divided straight into the matrix's rows, the lower part transposed. Every value is
    # float32(|a & b| / |a | b|), held exactly by a float64 matrix; in memory, in a given array, in a .npy file.
    fp, sets = _random_sets(50, 120, np.random.default_rng(3), 0.2)
    want = np.array([[len(a & b) / max(1, len(a | b)) for b in sets] for a in sets]).astype(np.float32)
    for dense_min in (2, 10**9):
        fm = S.FeatureMatrix(fp, dense_min)
        got = S.tanimoto_matrix(fm, block=7, dtype=dtype)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, want.astype(dtype))
        given = np.full((50, 50), np.nan, dtype=dtype)
        S.tanimoto_matrix(fm, out=given, block=16)
        np.testing.assert_array_equal(given, want.astype(dtype))
        S.tanimoto_matrix(fm, out=tmp_path / "m.npy", block=9, dtype=dtype)
        np.testing.assert_array_equal(np.load(tmp_path / "m.npy"), want.astype(dtype))
    assert want[3, 3] == 0 and want[3, 7] == 0 and want[1, 1] == 1


def test_the_index_holds_ids_and_smiles_as_the_given_strings():
    # An object array of the given str objects: a fixed-width str array would hold each of 20,000 SMILES at the
    # longest one's width (here 50,000 characters: 4 GB); numbers given as ids become their str.
    n = 20_000
    smiles = ["C" * 50_000] + [f"C{i}" for i in range(1, n)]
    fp = F.Fingerprints(np.arange(n + 1), np.arange(n, dtype=np.uint64))
    data = S.SimilarityIndex(fp, ids=range(n), smiles=smiles)
    assert data.smiles.dtype == object and data.smiles.nbytes == 8 * n and data.smiles[0] is smiles[0]
    assert data.smiles.tolist() == smiles and data.ids[7] == "7" and data.ids.shape == (n,)
    with pytest.raises(ValueError, match="3 ids for 20000 compounds"):
        S.SimilarityIndex(fp, ids=["a", "b", "c"])
    with pytest.raises(ValueError, match="one string per compound, not one string"):
        S.SimilarityIndex(fp, ids="abc")
    # the compiled loop checks no bounds: a wrong out is refused before it
    for out in (np.empty((2, 3), np.float32), np.empty((2, 2), np.int32)):
        with pytest.raises(ValueError, match=r"out must be a float32 or float64 array of shape \(2, 2\)"):
            data.fm.tanimoto(np.arange(2), np.arange(2), out=out)
    with pytest.raises(ValueError, match="out must be a float32 or float64 numpy array"):
        S.tanimoto_matrix(data.fm.take(np.arange(3)), out=[[0.0] * 3] * 3)

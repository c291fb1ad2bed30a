"""ECFP4 for the ECFP rankers: RDKit's Morgan counts folded by hand, the file, and the models' data view."""

import hashlib

import numpy as np
import pytest
import scipy.sparse as sp

from crocbench.chem.ecfp import ecfp_counts, ecfp_view, load_ecfp, save_ecfp
from crocbench.chem.fingerprints import Fingerprints
from crocbench.similarity import SimilarityIndex

SMILES = [
    "CCO",
    "c1ccccc1",
    "CC(=O)Oc1ccccc1C(=O)O",
    "Cc1ncc2n1-c1ccc(Cl)cc1C(c1ccccc1F)=NC2",
    "[N-]=[N+]=N[C@H]1C[C@H](n2cc(C)c(=O)[nH]c2=O)O[C@@H]1CO",  # AZT: stereo centres, which ECFP4 ignores
    "OCC1OC(O)C(O)C(O)C1O",
    "C[N+](C)(C)CCOP(=O)([O-])OCC",
    "ClC(Cl)(Cl)Cl",
    "O=C(O)c1ccccc1.O=C(O)c1ccccc1",  # two equal components: every count doubled
]


def _by_hand(smiles, radius, n_bits):
    """RDKit's unfolded environment ids (its older, hash-based API), folded here: id % n_bits, counts summed."""
    from rdkit import Chem
    from rdkit.Chem import rdMolDescriptors

    out = np.zeros((len(smiles), n_bits), dtype=np.int64)
    for i, s in enumerate(smiles):
        fp = rdMolDescriptors.GetMorganFingerprint(Chem.MolFromSmiles(s), radius)
        for env, count in fp.GetNonzeroElements().items():
            out[i, env % n_bits] += count
    return out


@pytest.mark.parametrize("radius, n_bits", [(2, 2048), (2, 64), (1, 1024), (3, 4096)])
def test_counts_are_rdkit_environments_folded_modulo_the_width(radius, n_bits):
    reasons, counts = ecfp_counts(SMILES, radius, n_bits)
    assert reasons == [None] * len(SMILES)
    assert counts.shape == (len(SMILES), n_bits) and counts.dtype == np.uint32
    assert np.array_equal(counts.toarray(), _by_hand(SMILES, radius, n_bits))
    assert counts.has_sorted_indices
    assert np.array_equal(counts[8].toarray(), 2 * ecfp_counts(["O=C(O)c1ccccc1"], radius, n_bits)[1].toarray())


def test_bits_are_rdkit_morgan_bit_vectors():
    from rdkit import Chem
    from rdkit.Chem import rdMolDescriptors

    _, counts = ecfp_counts(SMILES)
    bits = np.array(
        [list(rdMolDescriptors.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(s), 2, nBits=2048)) for s in SMILES]
    )
    view = ecfp_view(counts)
    assert view.dtype == np.float32 and np.array_equal(view.toarray(), bits)
    assert np.array_equal(ecfp_view(counts, [3, 1], use_counts=True).toarray(), counts[[3, 1]].toarray())


def test_an_unreadable_smiles_gives_its_reason_and_an_empty_row_and_processes_agree():
    smiles = ["CCO", "C1CC", "", "c1ccccc1"] * 700  # 2,800: two chunks of 2,000 for two processes
    reasons, counts = ecfp_counts(smiles, n_jobs=2)
    assert reasons[:4] == [None, "SMILES syntax error", "empty SMILES", None]
    assert counts[1].nnz == counts[2].nnz == 0 and counts[0].nnz > 0
    assert (ecfp_counts(smiles, n_jobs=1)[1] != counts).nnz == 0


def test_the_file_round_trips_and_its_bytes_are_deterministic(tmp_path):
    _, counts = ecfp_counts(SMILES)
    save_ecfp(tmp_path / "a.npz", counts)
    save_ecfp(tmp_path / "b.npz", ecfp_counts(SMILES)[1])
    back = load_ecfp(tmp_path / "a.npz")
    assert back.shape == counts.shape and (back != counts).nnz == 0 and back.dtype == np.uint32
    digest = [hashlib.sha256((tmp_path / f).read_bytes()).hexdigest() for f in ("a.npz", "b.npz")]
    assert digest[0] == digest[1]


def test_the_data_view_gives_bits_or_counts_and_says_when_it_has_none():
    fp = Fingerprints(np.array([0, 1, 2]), np.array([5, 6], dtype=np.uint64))
    counts = sp.csr_matrix(np.array([[0, 3, 1], [2, 0, 0]], dtype=np.uint32))
    data = SimilarityIndex(fp, ecfp=counts)
    assert data.ecfp([1, 0]).toarray().tolist() == [[1, 0, 0], [0, 1, 1]]
    assert data.ecfp([1, 0], counts=True).toarray().tolist() == [[2, 0, 0], [0, 3, 1]]
    assert counts.data.tolist() == [3, 1, 2]  # the view never writes into the stored counts
    with pytest.raises(ValueError, match="no ECFP given: the workflow loads it for a model whose class says uses_ecfp"):
        SimilarityIndex(fp).ecfp([0])
    with pytest.raises(ValueError, match="ECFP of 1 compounds for 2 compounds"):
        SimilarityIndex(fp, ecfp=counts[:1])


def test_bad_widths_are_refused():
    with pytest.raises(ValueError, match="radius must be >= 0 and n_bits >= 1"):
        ecfp_counts(["CCO"], n_bits=0)

"""crocbench.chem.scaffolds: Bemis-Murcko and generic scaffolds against RDKit's own entry points, and the groups of a
scaffold split."""

import numpy as np
import pandas as pd
import pytest
from _hiv import hiv_sample

from crocbench.chem.scaffolds import scaffold, scaffold_groups, scaffolds
from crocbench.cv import fold_table


@pytest.fixture(scope="module")
def hiv(mirror):
    """2,000 real compounds of the DTP AIDS screen (every 20th row), labelled CA/CM active."""
    return hiv_sample(mirror, 20)


def _rdkit_scaffold(smiles, generic=False):
    """RDKit's own entry point (MurckoScaffoldSmiles), independent of crocbench.chem.scaffolds."""
    from rdkit import Chem
    from rdkit.Chem.Scaffolds import MurckoScaffold

    s = MurckoScaffold.MurckoScaffoldSmiles(smiles=smiles)
    if generic and s:
        try:
            mol = MurckoScaffold.MakeScaffoldGeneric(Chem.MolFromSmiles(s))
        except Chem.AtomValenceException:  # a carbon with five bonds or more: RDKit's refuses, ours does not
            return None
        for atom in mol.GetAtoms():  # RDKit's leaves a radical where a charged atom was ([CH]): a plain carbon
            atom.SetNumRadicalElectrons(0)
            atom.SetNumExplicitHs(0)
            atom.SetNoImplicit(False)
        mol.UpdatePropertyCache()
        s = Chem.MolToSmiles(mol)
    return s


@pytest.mark.parametrize("generic", [False, True])
def test_no_scaffold_in_two_folds_by_an_independent_rdkit_computation(hiv, generic):
    kind = "generic" if generic else "murcko"
    ours = scaffolds(hiv["smiles"], kind)
    theirs = np.array([_rdkit_scaffold(s, generic) for s in hiv["smiles"]], dtype=object)
    known = theirs != None  # noqa: E711 (an object array)
    assert (ours[known] == theirs[known]).all()  # the same scaffolds, compound by compound
    assert (~known).sum() <= (10 if generic else 0)  # hypervalent cores (9 here): RDKit's generic refuses them
    folds = fold_table(hiv["id"], hiv["label"], n_folds=10, seed=0, scaffolds=ours)
    ringed = pd.DataFrame({"scaffold": theirs, "fold": folds["fold"]})[known & (theirs != "")]
    assert ringed.groupby("scaffold")["fold"].nunique().max() == 1  # no scaffold in two folds
    per_fold = folds.groupby("fold")["label"].sum()
    assert per_fold.size == 10 and per_fold.min() >= 1  # every fold has positives ...
    assert per_fold.max() - per_fold.min() <= 1 + _largest_positive_group(theirs, hiv)  # ... about evenly
    assert (folds["scaffold"].to_numpy() == ours).all()


def _largest_positive_group(s, hiv):
    pos = pd.Series(s)[(hiv["label"].to_numpy() == 1) & (s != None)]  # noqa: E711
    return int(pos[pos != ""].value_counts().max())


def test_scaffold_examples_and_acyclic_compounds():
    assert scaffold("Cc1ccccc1O") == "c1ccccc1"
    assert scaffold("CCCCCC") == "" and scaffold("CCN(CC)CC") == ""
    assert scaffold("O=C(O)c1ccc2ccccc2c1") == "c1ccc2ccccc2c1"
    assert scaffold("c1ccncc1", "generic") == scaffold("c1ccccc1", "generic") == "C1CCCCC1"
    with pytest.raises(ValueError, match="does not parse"):
        scaffold("C1CC")
    with pytest.raises(ValueError, match="unknown scaffold kind"):
        scaffold("CCO", "bemis")
    groups = scaffold_groups(["a", "b", "c", "d"], ["", "", "c1ccccc1", "c1ccccc1"])
    assert len(set(groups)) == 3  # each acyclic compound a group of its own


# (SMILES, its Bemis-Murcko scaffold and its generic scaffold, written out by hand): side chains go, ring systems
# and the linkers between them stay; exocyclic double bonds to a ring stay (RDKit's rule: caffeine's C=O); the
# generic scaffold makes every atom carbon and every bond single
HAND = [
    ("CC(=O)Oc1ccccc1C(=O)O", "c1ccccc1", "C1CCCCC1"),  # aspirin
    ("CC(C)Cc1ccc(cc1)C(C)C(=O)O", "c1ccccc1", "C1CCCCC1"),  # ibuprofen
    ("[NH3+]CCc1ccc(O)cc1", "c1ccccc1", "C1CCCCC1"),  # a charged side chain
    ("C[C@H]1CC[C@@H](O)CC1", "C1CCCCC1", "C1CCCCC1"),  # stereocentres on side chains only
    ("OCc1ccc(Cc2ccccc2)cc1", "c1ccc(Cc2ccccc2)cc1", "C1CCC(CC2CCCCC2)CC1"),  # a one-atom linker
    ("c1ccccc1CCCc1ccncc1", "c1ccc(CCCc2ccncc2)cc1", "C1CCC(CCCC2CCCCC2)CC1"),  # a three-atom linker
    ("CCc1ccc2ccccc2c1", "c1ccc2ccccc2c1", "C1CCC2CCCCC2C1"),  # a fused ring system
    ("Cn1cnc2c1c(=O)n(C)c(=O)n2C", "O=c1[nH]c(=O)c2[nH]cnc2[nH]1", "CC1CC(C)C2CCCC2C1"),  # caffeine
    ("CCCCO", "", ""),  # acyclic: no scaffold
]


@pytest.mark.parametrize("smiles,murcko,generic", HAND, ids=[h[0] for h in HAND])
def test_scaffolds_by_hand_equal_rdkits_murcko_scaffold(smiles, murcko, generic):
    from rdkit import Chem
    from rdkit.Chem.Scaffolds import MurckoScaffold

    assert scaffold(smiles) == murcko == MurckoScaffold.MurckoScaffoldSmiles(smiles=smiles)
    theirs = Chem.MolToSmiles(MurckoScaffold.MakeScaffoldGeneric(Chem.MolFromSmiles(murcko))) if murcko else ""
    assert scaffold(smiles, "generic") == generic == theirs


def test_scaffolds_of_a_list_and_their_groups():
    smiles = [s for s, _, _ in HAND] + ["CCN"]
    out = scaffolds(smiles)
    assert out.dtype.kind == "U" and out.tolist() == [m for _, m, _ in HAND] + [""]
    assert scaffolds(smiles, "generic").tolist() == [g for _, _, g in HAND] + [""]
    ids = [f"m{i}" for i in range(len(smiles))]
    groups = scaffold_groups(ids, out)
    # the three benzene compounds share a group (the cyclohexane has its own); each acyclic compound (m8, m9) is
    # a group of its own: 8 groups for 10 compounds
    assert groups[:4].tolist() == ["c1ccccc1"] * 3 + ["C1CCCCC1"]
    assert groups[8:].tolist() == ["acyclic:m8", "acyclic:m9"]
    assert len(set(groups.tolist())) == 8
    with pytest.raises(ValueError, match="unknown scaffold kind"):
        scaffolds(smiles, "bemis")

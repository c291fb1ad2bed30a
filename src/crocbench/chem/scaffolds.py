"""Bemis-Murcko scaffolds of compounds (RDKit): the groups of a scaffold split (:func:`crocbench.cv.fold_table`).

A compound's Bemis-Murcko scaffold is its ring systems and the linkers between them, side chains removed
(``rdkit.Chem.Scaffolds.MurckoScaffold.GetScaffoldForMol``), written as canonical SMILES.  The *generic*
scaffold (``MakeScaffoldGeneric``) also turns every atom into carbon and every bond into a single bond, so
that e.g. pyridine and benzene analogues share one group.  An acyclic compound has no ring and so no
scaffold: its scaffold is the empty string, and a scaffold split puts each such compound in a group of its
own (they share no ring system; one group of all of them would put every acyclic compound in one fold).
"""

from __future__ import annotations

import numpy as np

from .._extras import needs

#: The kinds of scaffold: ``murcko`` (Bemis-Murcko, atoms and bond orders kept) and ``generic`` (every atom
#: carbon, every bond single).
KINDS = ("murcko", "generic")
#: The scaffold of an acyclic compound.
ACYCLIC = ""


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown scaffold kind {kind!r}; use one of {', '.join(KINDS)}")
    return kind


def scaffold(smiles: str, kind: str = "murcko") -> str:
    """The scaffold of one compound as canonical SMILES (:data:`ACYCLIC` for a compound with no ring).

    Raises
    ------
    ValueError
        The SMILES does not parse.

    Examples
    --------
    >>> scaffold("CCOC(=O)c1ccc(N)cc1"), scaffold("c1ccncc1CC1CCCO1"), scaffold("c1ccncc1CC1CCCO1", "generic")
    ('c1ccccc1', 'c1cncc(CC2CCCO2)c1', 'C1CCC(CC2CCCC2)CC1')
    >>> scaffold("CCCCO")
    ''
    """
    with needs("crocbench.chem.scaffolds"):
        from rdkit import Chem
        from rdkit.Chem.Scaffolds import MurckoScaffold

    check_kind(kind)
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValueError(f"SMILES {smiles!r} does not parse")
    core = MurckoScaffold.GetScaffoldForMol(mol)
    if core.GetNumAtoms() == 0:
        return ACYCLIC
    return Chem.MolToSmiles(_generic(core) if kind == "generic" else core)


def _generic(core):
    """``MakeScaffoldGeneric`` without its final sanitization: every atom a neutral carbon, every bond single.

    The same SMILES as RDKit's function wherever that one succeeds; it also serves the scaffolds RDKit's refuses
    (a carbon with more than four bonds, from a hypervalent S, P or metal: 33 of 8,054 ringed DTP AIDS compounds).
    """
    with needs("crocbench.chem.scaffolds"):
        from rdkit import Chem

    rw = Chem.RWMol(core)
    for atom in rw.GetAtoms():
        atom.SetAtomicNum(6)
        atom.SetFormalCharge(0)
        atom.SetIsAromatic(False)
        atom.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
        atom.SetNumExplicitHs(0)
        atom.SetNoImplicit(False)
        atom.SetNumRadicalElectrons(0)
        atom.SetIsotope(0)
    for bond in rw.GetBonds():
        bond.SetBondType(Chem.BondType.SINGLE)
        bond.SetIsAromatic(False)
        bond.SetStereo(Chem.BondStereo.STEREONONE)
    mol = rw.GetMol()
    mol.UpdatePropertyCache(strict=False)
    return mol


def scaffolds(smiles, kind: str = "murcko", progress=None) -> np.ndarray:
    """Every compound's scaffold (:func:`scaffold`), as an array of str.

    ``progress``, a file, gets a line every 100,000 compounds.
    """
    with needs("crocbench.chem.scaffolds"):
        from rdkit import RDLogger

    check_kind(kind)
    RDLogger.DisableLog("rdApp.*")  # the compounds were standardized: RDKit's warnings would be noise
    out = []
    for i, s in enumerate(smiles):
        out.append(scaffold(s, kind))
        if progress is not None and (i + 1) % 100_000 == 0:
            print(f"{i + 1:,} scaffolds", file=progress, flush=True)
    return np.array(out, dtype=object).astype(str)


def scaffold_groups(ids, scaffolds_) -> np.ndarray:
    """The group of each compound in a scaffold split: its scaffold, or for an acyclic compound its own id.

    >>> scaffold_groups(["a", "b", "c"], ["c1ccccc1", "", "c1ccccc1"]).tolist()
    ['c1ccccc1', 'acyclic:b', 'c1ccccc1']
    """
    ids, s = np.asarray(ids, dtype=str), np.asarray(scaffolds_, dtype=str)
    return np.where(s == ACYCLIC, np.char.add("acyclic:", ids), s)

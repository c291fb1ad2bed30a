"""The paper's circular fingerprints: labeled trees of depth up to 2 rooted at every heavy atom.

Atom label: element symbol + number of heavy-atom neighbours (``C3``); bond
label: single ``-``, double ``=``, triple ``#``, aromatic ``:`` (any other
RDKit bond type, e.g. dative, is ``~``).  The depth-d feature of an atom is
its depth-d neighbourhood *tree*: the unfolding of the molecular graph from
the atom that never steps back to the parent.  A feature **is** the rooted
labeled tree, so two atoms give the same feature exactly when their trees are
isomorphic, and a depth-2 tree that does not reach past depth 1 is the same
feature as that depth-1 tree (ethanol has 8 features, see
:func:`feature_strings`).  Nothing is dropped for covering the same bonds as
another environment (unlike RDKit's Morgan generator).

Feature ids are 64-bit hashes of the trees, computed for all atoms of all
molecules at once: a tree's id is ``node(label, sum of g(bond, child id))``
(a leaf's id is its label's), so the child subtree "excluding the parent" is
a subtraction, and isomorphic trees get equal ids by construction.  Distinct
trees collide with probability about 2^-64 per pair.  :func:`feature_strings`
is a slow, readable reference that the tests compare against.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .._extras import needs
from .._io import load_arrays, save_arrays
from .._parallel import map_chunks

BOND_SYMBOLS = {1: "-", 2: "=", 3: "#", 4: ":", 5: "~"}
DEFAULT_DEPTH = 2

_U64 = np.uint64


def _rdkit():
    with needs("crocbench.chem.fingerprints"):
        from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    return Chem


def _sanitized(mol, unreadable: str):
    """``(mol, None)`` for a sanitizable molecule with a heavy atom, else ``(None, reason)``."""
    Chem = _rdkit()
    if mol is None:
        return None, unreadable
    try:
        Chem.SanitizeMol(mol)
    except Exception as exc:  # RDKit raises several sanitization exception types
        return None, f"sanitization failed: {str(exc).strip().splitlines()[0]}"
    if not any(a.GetAtomicNum() > 1 for a in mol.GetAtoms()):
        return None, "no heavy atom"
    return mol, None


def parse_smiles(smiles: str):
    """Parse and sanitize a SMILES string: ``(mol, None)`` or ``(None, reason)``."""
    if not isinstance(smiles, str) or not smiles.strip():
        return None, "empty SMILES"
    return _sanitized(_rdkit().MolFromSmiles(smiles, sanitize=False), "SMILES syntax error")


def parse_molblock(block: str):
    """Parse and sanitize an MDL mol block: ``(mol, None)`` or ``(None, reason)``."""
    if not isinstance(block, str) or not block.strip():
        return None, "empty mol block"
    return _sanitized(_rdkit().MolFromMolBlock(block, sanitize=False, removeHs=False), "mol block unreadable")


def _bond_codes() -> dict:
    Chem = _rdkit()
    bt = Chem.BondType
    return {bt.SINGLE: 1, bt.DOUBLE: 2, bt.TRIPLE: 3, bt.AROMATIC: 4}


def mol_graph(mol) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heavy-atom graph of an RDKit molecule: atomic numbers, bonds (k, 2), bond codes (k,)."""
    z = np.fromiter((a.GetAtomicNum() for a in mol.GetAtoms()), dtype=np.int64)
    codes = _bond_codes()
    bonds = [(b.GetBeginAtomIdx(), b.GetEndAtomIdx(), codes.get(b.GetBondType(), 5)) for b in mol.GetBonds()]
    e = np.array(bonds, dtype=np.int64).reshape(-1, 3)
    heavy = z > 1
    keep = heavy[e[:, 0]] & heavy[e[:, 1]]
    new_index = np.cumsum(heavy) - 1
    return z[heavy], new_index[e[keep, :2]], e[keep, 2]


class Graphs(NamedTuple):
    """Heavy-atom graphs of many molecules, concatenated (atoms renumbered globally)."""

    atom_mol: np.ndarray  # molecule of each atom
    z: np.ndarray  # atomic number of each atom
    bonds: np.ndarray  # (n_bonds, 2) global atom indices
    bond_code: np.ndarray  # 1..5
    n_mols: int


def _concat(parts: Sequence[Graphs]) -> Graphs:
    """Concatenate graphs, renumbering molecules and atoms."""
    n_mols = np.cumsum([0] + [g.n_mols for g in parts])
    n_atoms = np.cumsum([0] + [g.z.size for g in parts])
    cat = lambda arrays, shape: np.concatenate(arrays) if arrays else np.empty(shape, dtype=np.int64)
    return Graphs(
        cat([g.atom_mol + m for g, m in zip(parts, n_mols)], 0),
        cat([g.z for g in parts], 0),
        cat([g.bonds + a for g, a in zip(parts, n_atoms)], (0, 2)),
        cat([g.bond_code for g in parts], 0),
        int(n_mols[-1]),
    )


def _single(mol) -> Graphs:
    """The graph of one molecule (None: a rejected molecule, with no atoms)."""
    if mol is None:
        return Graphs(
            np.empty(0, np.int64), np.empty(0, np.int64), np.empty((0, 2), np.int64), np.empty(0, np.int64), 1
        )
    z, bonds, codes = mol_graph(mol)
    return Graphs(np.zeros(z.size, dtype=np.int64), z, bonds, codes, 1)


def _graphs_chunk(smiles: Sequence[str]) -> tuple[list, Graphs]:
    parsed = [parse_smiles(s) for s in smiles]
    return [reason for _, reason in parsed], _concat([_single(mol) for mol, _ in parsed])


def graphs_from_smiles(
    smiles: Sequence[str], n_jobs: int = 1, chunk_size: int = 2000, progress=None
) -> tuple[list, Graphs]:
    """Parse SMILES (in ``n_jobs`` processes) into concatenated heavy-atom graphs.

    Returns ``(reasons, graphs)``: ``reasons[i]`` is None for a parsed
    molecule and the rejection reason otherwise; a rejected molecule has no
    atoms in ``graphs`` (its feature set is empty).
    """
    parts = map_chunks(_graphs_chunk, smiles, n_jobs, chunk_size, progress, "parsed")
    return [r for reasons, _ in parts for r in reasons], _concat([g for _, g in parts])


# --- hashing -------------------------------------------------------------------------


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finalizer on uint64 arrays (wrapping arithmetic)."""
    x = x.astype(_U64, copy=True)
    x ^= x >> _U64(30)
    x *= _U64(0xBF58476D1CE4E5B9)
    x ^= x >> _U64(27)
    x *= _U64(0x94D049BB133111EB)
    x ^= x >> _U64(31)
    return x


def _text_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


_BOND_KEY = np.array([0] + [_text_hash(f"bond:{BOND_SYMBOLS[c]}") for c in range(1, 6)], dtype=_U64)
_NODE_KEY = _U64(_text_hash("node"))


def _edge_term(code: np.ndarray, child: np.ndarray) -> np.ndarray:
    return _mix(child ^ _BOND_KEY[code])


def _node(label: np.ndarray, child_sum: np.ndarray, has_children: np.ndarray) -> np.ndarray:
    return np.where(has_children, _mix(label ^ _mix(child_sum ^ _NODE_KEY)), label)


def atom_label(z: int, heavy_degree: int) -> str:
    """The paper's atom label, e.g. ``C3`` for a carbon with three heavy neighbours."""
    with needs("crocbench.chem.fingerprints"):
        from rdkit.Chem import GetPeriodicTable

    return f"{GetPeriodicTable().GetElementSymbol(int(z))}{int(heavy_degree)}"


def atom_tree_ids(graphs: Graphs, depth: int = DEFAULT_DEPTH) -> np.ndarray:
    """Feature ids of every atom at every depth: array of shape (depth + 1, n_atoms), uint64."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0; got {depth}")
    n_atoms = graphs.z.size
    src = np.concatenate([graphs.bonds[:, 0], graphs.bonds[:, 1]])
    dst = np.concatenate([graphs.bonds[:, 1], graphs.bonds[:, 0]])
    code = np.concatenate([graphs.bond_code, graphs.bond_code])
    n_bonds = graphs.bonds.shape[0]
    reverse = np.concatenate([np.arange(n_bonds, 2 * n_bonds), np.arange(n_bonds)])
    degree = np.bincount(src, minlength=n_atoms)
    pairs, which = np.unique(np.stack([graphs.z, degree], axis=1), axis=0, return_inverse=True)
    label = np.array([_text_hash(f"atom:{atom_label(zz, d)}") for zz, d in pairs], dtype=_U64)[which.ravel()]

    order = np.argsort(src, kind="stable")
    has_edges = degree > 0
    first_edge = np.searchsorted(src[order], np.flatnonzero(has_edges))  # strictly increasing

    def sum_by_source(values: np.ndarray) -> np.ndarray:
        out = np.zeros(n_atoms, dtype=_U64)
        if values.size:
            out[has_edges] = np.add.reduceat(values[order], first_edge)
        return out

    ids = [label]
    message = label[dst]  # m_0(u -> v): the depth-0 tree at v
    for _ in range(depth):
        terms = _edge_term(code, message)  # g(bond, m_{k-1}(u -> v)) for every directed edge u -> v
        total = sum_by_source(terms)  # sum over the children of u
        ids.append(_node(label, total, has_edges))
        # m_k(u -> v): the tree at v without its parent u: all of v's terms but the one towards u
        message = _node(label[dst], total[dst] - terms[reverse], degree[dst] > 1)
    return np.stack(ids)


class Fingerprints(NamedTuple):
    """Sparse binary fingerprints in CSR form: molecule i has ``ids[indptr[i]:indptr[i+1]]`` (sorted, unique)."""

    indptr: np.ndarray
    ids: np.ndarray

    @property
    def n(self) -> int:
        return self.indptr.size - 1

    def sizes(self) -> np.ndarray:
        return np.diff(self.indptr)

    def row(self, i: int) -> np.ndarray:
        return self.ids[self.indptr[i] : self.indptr[i + 1]]


def save_fingerprints(path, fp: Fingerprints) -> None:
    """Write fingerprints to an ``.npz`` file (deterministic bytes, atomic)."""
    save_arrays(path, indptr=fp.indptr, ids=fp.ids)


def load_fingerprints(path) -> Fingerprints:
    """Read fingerprints written by :func:`save_fingerprints`."""
    return Fingerprints(*load_arrays(path, "indptr", "ids"))


def fingerprints_from_graphs(graphs: Graphs, depth: int = DEFAULT_DEPTH, fold: int | None = None) -> Fingerprints:
    """Feature sets of every molecule.  ``fold`` (off by default) maps ids to ``id % fold``."""
    trees = atom_tree_ids(graphs, depth)
    mol = np.tile(graphs.atom_mol, trees.shape[0])
    ids = trees.ravel()
    if fold is not None:
        if int(fold) < 1:
            raise ValueError(f"fold must be a positive integer; got {fold}")
        ids = ids % _U64(fold)
    order = np.lexsort((ids, mol))
    mol, ids = mol[order], ids[order]
    keep = np.ones(ids.size, dtype=bool)
    keep[1:] = (ids[1:] != ids[:-1]) | (mol[1:] != mol[:-1])
    mol, ids = mol[keep], ids[keep]
    indptr = np.zeros(graphs.n_mols + 1, dtype=np.int64)
    np.cumsum(np.bincount(mol, minlength=graphs.n_mols), out=indptr[1:])
    return Fingerprints(indptr, ids)


def require_parsed(reasons) -> None:
    """Raise if any of the standardized SMILES did not parse (``reasons`` from a ``*_from_smiles`` call)."""
    failed = [(i, r) for i, r in enumerate(reasons) if r is not None]
    if failed:
        raise ValueError(f"{len(failed)} standardized SMILES no longer parse, first row {failed[0][0]}: {failed[0][1]}")


def fingerprints_from_smiles(
    smiles: Sequence[str], depth: int = DEFAULT_DEPTH, fold: int | None = None, n_jobs: int = 1, progress=None
):
    """``(reasons, Fingerprints)`` for a list of SMILES; see :func:`graphs_from_smiles`."""
    reasons, graphs = graphs_from_smiles(smiles, n_jobs=n_jobs, progress=progress)
    return reasons, fingerprints_from_graphs(graphs, depth, fold)


def _mol(smiles_or_mol):
    if isinstance(smiles_or_mol, str):
        mol, reason = parse_smiles(smiles_or_mol)
        if mol is None:
            raise ValueError(f"cannot read molecule {smiles_or_mol!r}: {reason}")
        return mol
    return smiles_or_mol


def molecule_features(smiles_or_mol, depth: int = DEFAULT_DEPTH) -> np.ndarray:
    """Sorted feature ids of one molecule (SMILES or RDKit molecule)."""
    return fingerprints_from_graphs(_single(_mol(smiles_or_mol)), depth).row(0)


def tanimoto(smiles_a, smiles_b, depth: int = DEFAULT_DEPTH) -> float:
    """The paper's similarity of two molecules: Jaccard-Tanimoto of their feature sets.

    Examples
    --------
    >>> tanimoto("CCO", "CCO")
    1.0
    >>> tanimoto("CCO", "CCN")  # shared: C1, C2, C1(-C2) of 8 + 8 features
    0.23076923076923078
    """
    a, b = molecule_features(smiles_a, depth), molecule_features(smiles_b, depth)
    inter = np.intersect1d(a, b, assume_unique=True).size
    union = a.size + b.size - inter
    return inter / union if union else 0.0


# --- readable reference ------------------------------------------------------------------


def feature_strings(smiles_or_mol, depth: int = DEFAULT_DEPTH) -> set[str]:
    """The features of one molecule as canonical strings (slow reference implementation).

    A tree is written ``label(bond child, bond child, ...)`` with the children
    sorted; a leaf is its label.

    Examples
    --------
    >>> sorted(feature_strings("CCO"))
    ['C1', 'C1(-C2(-O1))', 'C1(-C2)', 'C2', 'C2(-C1,-O1)', 'O1', 'O1(-C2(-C1))', 'O1(-C2)']
    """
    mol = _mol(smiles_or_mol)
    z, bonds, codes = mol_graph(mol)
    nbrs: list[list[tuple[int, str]]] = [[] for _ in z]
    for (u, v), c in zip(bonds.tolist(), codes.tolist()):
        nbrs[u].append((v, BOND_SYMBOLS[c]))
        nbrs[v].append((u, BOND_SYMBOLS[c]))
    labels = [atom_label(zz, len(n)) for zz, n in zip(z, nbrs)]

    def tree(u: int, parent: int, d: int) -> str:
        children = sorted(b + tree(v, u, d - 1) for v, b in nbrs[u] if v != parent) if d > 0 else []
        return f"{labels[u]}({','.join(children)})" if children else labels[u]

    return {tree(u, -1, d) for u in range(len(z)) for d in range(depth + 1)}


# --- other fingerprints, for the SVM sensitivity study -----------------------------------------

#: Fingerprints the SVM sensitivity study compares: the paper's labeled trees, the same trees
#: folded onto 1,024 bits, and RDKit's default Morgan environments (radius 2, ECFP4-like).
VARIANTS = ("paper", "folded_1024", "rdkit_morgan")


def _morgan_chunk(smiles: Sequence[str], radius: int = 2) -> tuple[list, list]:
    with needs("crocbench.chem.fingerprints"):
        from rdkit.Chem import rdFingerprintGenerator

    generator = rdFingerprintGenerator.GetMorganGenerator(radius=radius)
    reasons, sets = [], []
    for s in smiles:
        mol, reason = parse_smiles(s)
        reasons.append(reason)
        keys = [] if mol is None else generator.GetSparseCountFingerprint(mol).GetNonzeroElements().keys()
        sets.append(np.sort(np.fromiter(keys, dtype=_U64)))
    return reasons, sets


def rdkit_morgan_fingerprints(smiles: Sequence[str], radius: int = 2, n_jobs: int = 1, progress=None):
    """``(reasons, Fingerprints)``: the set of RDKit Morgan environment ids (default invariants) per molecule.

    Unfolded (RDKit's 32-bit environment hashes), so the Tanimoto similarity is
    exact on the environment sets; unlike the paper's trees, RDKit drops an
    environment that covers the same bonds as a smaller one.
    """
    parts = map_chunks(functools.partial(_morgan_chunk, radius=radius), smiles, n_jobs, 2000, progress, "parsed")
    reasons = [r for rs, _ in parts for r in rs]
    sets = [s for _, ss in parts for s in ss]
    indptr = np.zeros(len(sets) + 1, dtype=np.int64)
    np.cumsum([s.size for s in sets], out=indptr[1:])
    ids = np.concatenate(sets) if sets else np.empty(0, dtype=_U64)
    return reasons, Fingerprints(indptr, ids.astype(_U64))


def variant_fingerprints(
    variant: str, smiles: Sequence[str], depth: int = DEFAULT_DEPTH, n_jobs: int = 1, progress=None
):
    """``(reasons, Fingerprints)`` of one of :data:`VARIANTS`."""
    if variant == "paper":
        return fingerprints_from_smiles(smiles, depth, None, n_jobs, progress)
    if variant == "folded_1024":
        return fingerprints_from_smiles(smiles, depth, 1024, n_jobs, progress)
    if variant == "rdkit_morgan":
        return rdkit_morgan_fingerprints(smiles, depth, n_jobs, progress)
    raise ValueError(f"unknown fingerprint variant {variant!r}; known: {', '.join(VARIANTS)}")

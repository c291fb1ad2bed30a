"""Seeded synthetic screens of any size, derived from real compounds by small RDKit edits (``crocbench synthesize``).

For measuring cost as N grows, not accuracy: each molecule is a real compound of
the source screen after one to three random edits (add a substituent, change an
element, change a bond order, drop a terminal atom), labelled as its source, so the
positive rate and the feature-count distribution follow the source's.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from .._extras import needs
from .._parallel import map_chunks

CHUNK = 4000  # molecules drawn per seeded chunk: the output does not depend on the processes used
_SUBSTITUENTS = (6, 6, 6, 7, 8, 9, 17)  # C (thrice as likely), N, O, F, Cl
_SWAPS = {6: (7,), 7: (6, 8), 8: (7, 16), 16: (8,)}  # element changes that keep most valences


def _edit(mol, rng):
    """One random edit of an RDKit molecule; None if the result does not sanitize (the caller tries again)."""
    with needs("crocbench synthesize"):
        from rdkit import Chem

    rw = Chem.RWMol(mol)
    kind = int(rng.integers(4))
    atoms = list(rw.GetAtoms())
    if kind == 0:  # a substituent on an atom that carries a hydrogen
        sites = [a.GetIdx() for a in atoms if a.GetTotalNumHs() > 0]
        if not sites:
            return None
        site = sites[int(rng.integers(len(sites)))]
        new = rw.AddAtom(Chem.Atom(int(_SUBSTITUENTS[int(rng.integers(len(_SUBSTITUENTS)))])))
        rw.AddBond(site, new, Chem.BondType.SINGLE)
        rw.GetAtomWithIdx(site).SetNumExplicitHs(0)
        rw.GetAtomWithIdx(site).SetNoImplicit(False)
    elif kind == 1:  # an element change
        sites = [a for a in atoms if a.GetAtomicNum() in _SWAPS and a.GetFormalCharge() == 0]
        if not sites:
            return None
        atom = sites[int(rng.integers(len(sites)))]
        choices = _SWAPS[atom.GetAtomicNum()]
        atom.SetAtomicNum(int(choices[int(rng.integers(len(choices)))]))
        atom.SetNoImplicit(False)
        atom.SetNumExplicitHs(0)
    elif kind == 2:  # a non-ring, non-aromatic single bond made double, or a double bond made single
        bonds = [
            b
            for b in rw.GetBonds()
            if not b.GetIsAromatic()
            and not b.IsInRing()
            and b.GetBondType() in (Chem.BondType.SINGLE, Chem.BondType.DOUBLE)
        ]
        if not bonds:
            return None
        bond = bonds[int(rng.integers(len(bonds)))]
        bond.SetBondType(Chem.BondType.DOUBLE if bond.GetBondType() == Chem.BondType.SINGLE else Chem.BondType.SINGLE)
        for atom in (bond.GetBeginAtom(), bond.GetEndAtom()):
            atom.SetNoImplicit(False)
            atom.SetNumExplicitHs(0)
    else:  # a terminal heavy atom removed (molecules of more than four heavy atoms)
        ends = [a.GetIdx() for a in atoms if a.GetDegree() == 1]
        if len(atoms) <= 4 or not ends:
            return None
        end = ends[int(rng.integers(len(ends)))]
        neighbour = rw.GetAtomWithIdx(end).GetNeighbors()[0]
        neighbour.SetNoImplicit(False)
        neighbour.SetNumExplicitHs(0)
        rw.RemoveAtom(end)
    try:
        Chem.SanitizeMol(rw)
        out = rw.GetMol()
        smiles = Chem.MolToSmiles(out)
        return out if smiles and Chem.MolFromSmiles(smiles) is not None else None
    except Exception:  # RDKit raises several kinds on an impossible valence or kekulization
        return None


def _chunks(tasks) -> list[list[tuple[str, int]]]:
    return [_chunk(task) for task in tasks]


def _chunk(task) -> list[tuple[str, int]]:
    """``size`` edited molecules (SMILES, label) of chunk ``index``, seeded by ``(seed, index)``."""
    with needs("crocbench synthesize"):
        from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    smiles, labels, seed, index, size = task
    rng = np.random.default_rng([seed, index])
    out, parsed = [], {}
    while len(out) < size:
        source = int(rng.integers(len(smiles)))
        if source not in parsed:
            parsed[source] = Chem.MolFromSmiles(smiles[source])
        mol = parsed[source]
        if mol is None:
            continue
        for _ in range(1 + int(rng.integers(3))):  # one to three edits, each retried a few times
            for _attempt in range(5):
                edited = _edit(mol, rng)
                if edited is not None:
                    mol = edited
                    break
        if mol is not parsed[source]:
            out.append((Chem.MolToSmiles(mol), int(labels[source])))
    return out


def synthesize(
    n: int, source_smiles, source_labels, seed: int = 0, n_jobs: int = 1, progress=None, chunk: int = CHUNK
) -> pd.DataFrame:
    """``n`` distinct molecules (canonical SMILES) derived from the source compounds, each labelled as its source.

    Deterministic for a seed (and ``chunk``) whatever ``n_jobs``: chunks of ``chunk``
    draws, chunk c seeded by ``(seed, c)``, are taken in order and a SMILES seen
    before is dropped, until ``n`` remain (so a smaller screen is the start of a larger one).  Returns columns id (``syn000001``...), smiles, label (0/1).

    Examples
    --------
    >>> screen = synthesize(5, ["c1ccccc1O", "CCCCN"], [1, 0], seed=1)
    >>> len(screen), screen["smiles"].is_unique, set(screen["label"]) <= {0, 1}
    (5, True, True)
    """
    if n < 1:
        raise ValueError(f"n must be at least 1; got {n}")
    smiles, labels = list(map(str, source_smiles)), np.asarray(source_labels, dtype=np.int64)
    if len(smiles) != labels.size or not smiles:
        raise ValueError(f"{len(smiles)} source SMILES and {labels.size} labels")
    seen, rows, start = set(), [], 0
    while len(rows) < n:
        wanted = -(-(n - len(rows)) * 11 // 10 // chunk)  # ~10% more than missing, for duplicates
        tasks = [(smiles, labels, seed, c, chunk) for c in range(start, start + max(1, wanted))]
        start += len(tasks)
        for part in (p for batch in map_chunks(_chunks, tasks, n_jobs=n_jobs, chunk_size=1) for p in batch):
            for s, label in part:
                if s not in seen and len(rows) < n:
                    seen.add(s)
                    rows.append((s, label))
        if progress is not None:
            print(f"synthesize: {len(rows):,} of {n:,} distinct molecules ({start} chunks)", file=progress, flush=True)
        if start > 50 * (n // chunk + 1):
            raise ValueError(f"only {len(rows):,} distinct molecules after {start} chunks: the source is too small")
    width = len(str(n))
    return pd.DataFrame(
        {
            "id": [f"syn{i:0{width}d}" for i in range(1, n + 1)],
            "smiles": [s for s, _ in rows],
            "label": [label for _, label in rows],
        }
    )


def describe(smiles, labels, sample: int = 2000, seed: int = 0) -> dict:
    """Positive rate, and the paper's features per molecule on a seeded sample (quartiles): to compare a synthetic
    screen with its source."""
    from ..chem.fingerprints import fingerprints_from_smiles

    smiles, labels = list(smiles), np.asarray(labels)
    rows = np.sort(np.random.default_rng(seed).choice(len(smiles), min(sample, len(smiles)), replace=False))
    reasons, fp = fingerprints_from_smiles([smiles[i] for i in rows])
    sizes = fp.sizes()[[r is None for r in reasons]]
    q = np.percentile(sizes, [25, 50, 75]) if sizes.size else [np.nan] * 3
    return {
        "molecules": len(smiles),
        "positive_rate": float(labels.mean()),
        "features_q25": float(q[0]),
        "features_median": float(q[1]),
        "features_q75": float(q[2]),
    }


def write_screen(table: pd.DataFrame, out) -> None:
    """The screen as CSV (id,smiles,label), written under a temporary name and renamed."""
    out = Path(out)
    tmp = out.with_name(f".{out.name}.part")
    try:
        table.to_csv(tmp, index=False, lineterminator="\n")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def source_screen(path, smiles_col: str = "smiles", label_col: str = "activity", positive=("CA", "CM")):
    """The source compounds' SMILES and 0/1 labels from a CSV (default: the DTP AIDS file of the mirror)."""
    from ._tables import read_table

    table = read_table(path, required=[smiles_col, label_col], dtype=str)
    labels = table[label_col].astype(str).str.strip().isin([str(p) for p in positive]).astype(np.int64)
    return table[smiles_col].fillna("").astype(str).tolist(), labels.to_numpy()


def main_summary(source, table, stream=None) -> None:
    """Print the synthetic screen's positive rate and feature counts beside its source's (to stderr by default)."""
    stream = sys.stderr if stream is None else stream
    a, b = describe(*source), describe(table["smiles"], table["label"])
    for name, d in (("source", a), ("synthetic", b)):
        print(
            f"{name}: {d['molecules']:,} molecules, {100 * d['positive_rate']:.2f}% positive, features per molecule "
            f"(sample of 2,000) median {d['features_median']:g}, quartiles {d['features_q25']:g}-{d['features_q75']:g}",
            file=stream,
        )

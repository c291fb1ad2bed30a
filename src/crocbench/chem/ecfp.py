"""ECFP: RDKit's Morgan fingerprints folded to a fixed width, as counts, stored sparse.

The ECFP rankers (a random forest, gradient boosting, logistic regression, an
MLP) read ECFP4: RDKit's Morgan environments of radius 2 with the default
(connectivity) atom invariants, each environment's 32-bit id folded onto
``n_bits`` columns (``id % n_bits``).  A column's count is how many
environments of the molecule fall on it; its bit is whether any does.  One
file per screen holds the counts (``ecfp.npz``); :func:`ecfp_view` gives a
model either form.

Examples
--------
>>> reasons, counts = ecfp_counts(["CCO", "c1ccccc1"], n_bits=64)
>>> reasons, counts.shape, counts.dtype.name
([None, None], (2, 64), 'uint32')
>>> int(counts[1].sum())  # benzene: 6 atoms x radius 0, 1 and 2, all alike
18
>>> ecfp_view(counts, [1]).data.tolist()  # its 18 environments are 3 distinct ids: 3 bits
[1.0, 1.0, 1.0]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from .._extras import needs
from .._io import load_arrays, save_arrays
from .._parallel import map_chunks
from .fingerprints import parse_smiles

RADIUS = 2
N_BITS = 2048


def _chunk(smiles: Sequence[str], radius: int, n_bits: int) -> tuple[list, list]:
    with needs("crocbench.chem.ecfp"):
        from rdkit.Chem import rdFingerprintGenerator

    generator = rdFingerprintGenerator.GetMorganGenerator(radius=radius, fpSize=n_bits)
    reasons, rows = [], []
    for s in smiles:
        mol, reason = parse_smiles(s)
        reasons.append(reason)
        counts = {} if mol is None else generator.GetCountFingerprint(mol).GetNonzeroElements()
        cols = np.fromiter(sorted(counts), dtype=np.int32, count=len(counts))
        rows.append((cols, np.fromiter((counts[c] for c in cols.tolist()), dtype=np.uint32, count=cols.size)))
    return reasons, rows


def ecfp_counts(
    smiles: Sequence[str], radius: int = RADIUS, n_bits: int = N_BITS, n_jobs: int = 1, progress=None
) -> tuple[list, sp.csr_matrix]:
    """``(reasons, counts)``: each molecule's folded Morgan counts, a ``uint32`` CSR matrix (rows = molecules).

    Parameters
    ----------
    smiles : sequence of str
        The molecules.
    radius : int, default=2
        The environments' radius (2: ECFP4).
    n_bits : int, default=2048
        The folded width.
    n_jobs : int, default=1
        Processes.
    progress : file-like, default=None
        A stream for a line per chunk of 2,000 molecules.

    Returns
    -------
    reasons : list of (str or None)
        Why each molecule could not be read (None where it was); such a row is empty.
    counts : scipy.sparse.csr_matrix of uint32, shape (len(smiles), n_bits)
        The count of environments on each column; columns sorted within a row.
    """
    radius, n_bits = int(radius), int(n_bits)
    if radius < 0 or n_bits < 1:
        raise ValueError(f"radius must be >= 0 and n_bits >= 1; got {radius} and {n_bits}")
    parts = map_chunks(functools.partial(_chunk, radius=radius, n_bits=n_bits), smiles, n_jobs, 2000, progress, "ECFP")
    reasons = [r for rs, _ in parts for r in rs]
    rows = [row for _, rs in parts for row in rs]
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([cols.size for cols, _ in rows], out=indptr[1:])
    cols = np.concatenate([c for c, _ in rows]) if rows else np.empty(0, dtype=np.int32)
    values = np.concatenate([v for _, v in rows]) if rows else np.empty(0, dtype=np.uint32)
    return reasons, sp.csr_matrix((values, cols, indptr), shape=(len(rows), n_bits))


def save_ecfp(path, counts: sp.csr_matrix, radius: int = RADIUS) -> None:
    """Write :func:`ecfp_counts`' matrix to an ``.npz`` file (deterministic bytes, atomic).

    Parameters
    ----------
    path : path-like
        The file written.
    counts : scipy.sparse.csr_matrix
        The counts.
    radius : int, default=2
        The radius they were computed with (recorded in the file).
    """
    counts = sp.csr_matrix(counts)
    save_arrays(
        path,
        indptr=counts.indptr.astype(np.int64),
        indices=counts.indices.astype(np.int32),
        counts=counts.data.astype(np.uint32),
        shape=np.asarray(counts.shape, dtype=np.int64),
        radius=np.asarray(radius, dtype=np.int64),
    )


def load_ecfp(path) -> sp.csr_matrix:
    """The counts written by :func:`save_ecfp`.

    Parameters
    ----------
    path : path-like
        The file.

    Returns
    -------
    scipy.sparse.csr_matrix of uint32
        The counts, rows = compounds.
    """
    indptr, indices, counts, shape = load_arrays(path, "indptr", "indices", "counts", "shape")
    return sp.csr_matrix((counts, indices, indptr), shape=tuple(int(s) for s in shape))


def ecfp_view(counts: sp.csr_matrix, rows=None, use_counts: bool = False) -> sp.csr_matrix:
    """The ECFP of ``rows`` as a model reads it: 0/1 bits (default) or counts, float32 CSR.

    Parameters
    ----------
    counts : scipy.sparse.csr_matrix
        The counts of every compound (:func:`load_ecfp`).
    rows : array-like of int, default=None
        The compounds (rows); None for all.
    use_counts : bool, default=False
        Counts instead of bits.

    Returns
    -------
    scipy.sparse.csr_matrix of float32, shape (len(rows), n_bits)
        The features.
    """
    out = (counts if rows is None else counts[np.asarray(rows, dtype=np.int64)]).astype(np.float32)
    if not use_counts:
        out.data[:] = 1.0
    return out

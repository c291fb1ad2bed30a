"""The novelty split's graph: every pair of compounds at Tanimoto similarity at or above ``tau``, exact.

The similarities are the project's exact engine's (:class:`crocbench.similarity.FeatureMatrix`: float32, each
one correctly rounded division of exact integer counts), compared with ``tau`` in float32, as
:func:`crocbench.cv.strata` compares its thresholds.  The graph is built tile by tile over the upper triangle:
memory is one ``block x block`` tile plus the edges, never the N x N matrix.

The fingerprints are named (:data:`FINGERPRINTS`): ``ecfp4`` is the bits of RDKit's Morgan counts, radius 2, folded
to 2048 (:func:`crocbench.chem.ecfp.ecfp_counts`), the fingerprint of the cluster split
(:func:`crocbench.chem.clusters.bit_fingerprints`).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .clusters import THRESHOLD, bit_fingerprints, check_threshold
from .fingerprints import Fingerprints

#: The fingerprints a novelty split may declare.
FINGERPRINTS = ("ecfp4",)
#: The novelty split's default threshold: that of the cluster split.
TAU = THRESHOLD


def check_fingerprint(name) -> str:
    """``name`` if it is one of :data:`FINGERPRINTS`, else a one-line ValueError listing them.

    >>> check_fingerprint("maccs")
    Traceback (most recent call last):
    ValueError: unknown fingerprint 'maccs'; known: ecfp4
    """
    if name not in FINGERPRINTS:
        raise ValueError(f"unknown fingerprint {name!r}; known: {', '.join(FINGERPRINTS)}")
    return str(name)


def ecfp4_fingerprints(counts, radius: int, n_bits: int) -> Fingerprints:
    """The ``ecfp4`` fingerprints of a run's ECFP counts (:func:`crocbench.chem.ecfp.load_ecfp`), made with the run's
    ``ecfp:`` settings; settings other than ECFP4's (radius 2, 2048 bits) raise one line: ``crocbench split
    verify`` recomputes the fingerprint from the SMILES with ECFP4's.

    >>> ecfp4_fingerprints(sp.csr_matrix((2, 1024), dtype=np.uint32), radius=2, n_bits=1024)
    Traceback (most recent call last):
    ValueError: the novelty split's ecfp4 is Morgan radius 2 folded to 2048 bits; the run's ecfp: is radius 2, n_bits 1024
    """
    from .ecfp import N_BITS, RADIUS

    if (int(radius), int(n_bits), counts.shape[1]) != (RADIUS, N_BITS, N_BITS):
        raise ValueError(
            f"the novelty split's ecfp4 is Morgan radius {RADIUS} folded to {N_BITS} bits; the run's ecfp: is "
            f"radius {radius}, n_bits {n_bits}"
        )
    return bit_fingerprints(counts)


def named_fingerprints(smiles, fingerprint: str = "ecfp4", ids=None, n_jobs: int = 1) -> Fingerprints:
    """The compounds' fingerprints of the declared name; a SMILES that cannot be read raises one line naming it.

    Parameters
    ----------
    smiles : sequence of str
        The compounds.
    fingerprint : str, default="ecfp4"
        One of :data:`FINGERPRINTS`.
    ids : sequence of str, default=None
        The compounds' ids, to name an unreadable one (None: its row number, from 1).
    n_jobs : int, default=1
        Processes.

    Returns
    -------
    Fingerprints
        One feature set per compound.
    """
    from .ecfp import ecfp_counts

    check_fingerprint(fingerprint)
    reasons, counts = ecfp_counts(list(smiles), n_jobs=n_jobs)
    for i, reason in enumerate(reasons):
        if reason is not None:
            who = f"compound {ids[i]}" if ids is not None else f"compound {i + 1}"
            raise ValueError(f"{who}: its SMILES cannot be read ({reason})")
    return bit_fingerprints(counts)


def tau_graph(fp, tau: float = TAU, block: int | None = None, columns: int | None = None) -> sp.csr_matrix:
    """Every pair at similarity ``>= tau``: a symmetric CSR matrix holding the pairs' float32 similarities.

    Parameters
    ----------
    fp : Fingerprints or crocbench.similarity.FeatureMatrix
        The compounds' feature sets.
    tau : float, default=TAU
        The threshold, in (0, 1].
    block, columns : int, default=None
        Rows and columns of a tile (memory: ``block x columns`` float32, once); None: the engine's
        (:func:`crocbench.similarity.pairs_at_least`).

    Returns
    -------
    scipy.sparse.csr_matrix of float32, shape (n, n)
        Entry ``(i, j)``, ``i != j``, is ``T(i, j)`` where ``T(i, j) >= tau``; the diagonal is empty.

    Examples
    --------
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> g = tau_graph(fp, 0.5)  # T(0, 1) = 1/3, T(0, 2) = 1/2, T(1, 2) = 0
    >>> g.toarray().tolist()
    [[0.0, 0.0, 0.5], [0.0, 0.0, 0.0], [0.5, 0.0, 0.0]]
    """
    from ..similarity import FeatureMatrix, pairs_at_least
    from ..similarity._threshold import symmetric_csr

    t = np.float32(check_threshold(tau, "tau"))
    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    indptr, indices, data = symmetric_csr(fm.n, *pairs_at_least(fm, t, block=block, columns=columns))
    return sp.csr_matrix((data, indices, indptr), shape=(fm.n, fm.n))

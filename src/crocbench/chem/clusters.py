"""Leader (sphere-exclusion) clusters of ECFP4 fingerprints: the groups of a cluster split (:func:`crocbench.cv.fold_table`).

Hartigan's leader algorithm, the sphere exclusion of RDKit's ``LeaderPicker``: the compounds are taken in file
order; a compound whose Tanimoto similarity to every leader so far is below ``threshold`` becomes a leader, and
every other compound joins the first leader (in pick order) within ``threshold`` of it.  So leaders are pairwise
below ``threshold``, and every compound is at least ``threshold`` similar to its cluster's leader.

The leaders are the picks of ``LeaderPicker.LazyBitVectorPick`` at distance ``1 - threshold`` (tested
on DTP AIDS compounds), but computed here with the project's exact Tanimoto engine a block of compounds at a
time: each block against the leaders so far, then the few it leaves uncovered against one another.  That is
``n x leaders`` similarities, as RDKit's, at the engine's speed (``benchmarks/``).  The fingerprints are the bits
of the ``ecfp`` counts (RDKit's Morgan radius 2, folded; :mod:`crocbench.chem.ecfp`).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .fingerprints import Fingerprints

#: The default similarity threshold of a cluster split: ECFP4 Tanimoto.
THRESHOLD = 0.4


def check_threshold(threshold, what: str = "a cluster threshold") -> float:
    """``threshold`` as a float in (0, 1], else a one-line ValueError naming ``what`` it is.

    >>> check_threshold(1.5, "tau")
    Traceback (most recent call last):
    ValueError: tau is a Tanimoto similarity in (0, 1]; got 1.5
    """
    try:
        t = float(threshold)
    except (TypeError, ValueError):
        t = float("nan")
    if not 0.0 < t <= 1.0:
        raise ValueError(f"{what} is a Tanimoto similarity in (0, 1]; got {threshold!r}")
    return t


def bit_fingerprints(counts: sp.csr_matrix) -> Fingerprints:
    """The bits of folded counts (:func:`crocbench.chem.ecfp.load_ecfp`) as fingerprints (column = feature id).

    >>> fp = bit_fingerprints(sp.csr_matrix(np.array([[2, 0, 1], [0, 0, 0]], dtype=np.uint32)))
    >>> fp.indptr.tolist(), fp.ids.tolist()
    ([0, 2, 2], [0, 2])
    """
    counts = sp.csr_matrix(counts)
    counts.sum_duplicates()
    counts.eliminate_zeros()
    counts.sort_indices()
    return Fingerprints(counts.indptr.astype(np.int64), counts.indices.astype(np.uint64))


def leader_clusters(fp, threshold: float = THRESHOLD, block: int = 1024, progress=None) -> np.ndarray:
    """Each compound's cluster: the pick number (0, 1, ...) of the first leader at least ``threshold`` similar.

    Parameters
    ----------
    fp : crocbench.chem.fingerprints.Fingerprints or crocbench.similarity.FeatureMatrix
        The compounds' feature sets, in the order the leaders are picked (file order).
    threshold : float, default=THRESHOLD
        Tanimoto similarity: a compound joins a leader when ``T >= threshold``; leaders are pairwise below it.
    block : int, default=1024
        Compounds compared with the leaders at a time (memory: ``block x leaders`` float32).
    progress : file-like, default=None
        A line per ~50,000 compounds goes there; None for silence.

    Returns
    -------
    ndarray of int64 of shape (n_compounds,)
        The cluster of every compound; cluster ``c``'s leader is the ``c``-th leader picked, and is a member.

    Examples
    --------
    >>> fp = Fingerprints(np.array([0, 2, 4, 6]), np.array([1, 2, 1, 3, 7, 8], dtype=np.uint64))
    >>> leader_clusters(fp, 0.3).tolist()  # T(0, 1) = 1/3 joins 1 to 0; 2 shares nothing
    [0, 0, 1]
    """
    from ..similarity import FeatureMatrix

    t = np.float32(check_threshold(threshold))
    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    cluster = np.full(fm.n, -1, dtype=np.int64)
    leaders = np.empty(0, dtype=np.int64)
    done_report = 0
    for start in range(0, fm.n, int(block)):
        rows = np.arange(start, min(fm.n, start + int(block)))
        if leaders.size:
            near = fm.tanimoto(rows, leaders) >= t
            first = near.argmax(axis=1)
            covered = near[np.arange(rows.size), first]
            cluster[rows[covered]] = first[covered]
            rows = rows[~covered]
        if rows.size:  # the block's uncovered compounds, in order, against one another
            within = fm.tanimoto(rows, rows) >= t
            open_ = np.ones(rows.size, dtype=bool)
            new = []
            for i in range(rows.size):
                if open_[i]:
                    number = leaders.size + len(new)
                    new.append(rows[i])
                    joined = open_ & within[i]
                    joined[i] = True  # itself, even when empty (T = 0)
                    cluster[rows[joined]] = number
                    open_ &= ~joined
            leaders = np.concatenate([leaders, np.asarray(new, dtype=np.int64)])
        if progress is not None and start + block - done_report >= 50_000:
            done_report = min(fm.n, start + int(block))
            print(f"{done_report:,} of {fm.n:,} compounds: {leaders.size:,} leaders", file=progress, flush=True)
    return cluster


def cluster_summary(clusters) -> dict:
    """Clusters, singletons and the largest cluster of a clustering.

    >>> cluster_summary([0, 0, 1, 2, 2, 2])
    {'clusters': 3, 'singletons': 1, 'largest': 3}
    """
    sizes = np.bincount(np.asarray(clusters, dtype=np.int64))
    sizes = sizes[sizes > 0]
    return {"clusters": int(sizes.size), "singletons": int((sizes == 1).sum()), "largest": int(sizes.max(initial=0))}

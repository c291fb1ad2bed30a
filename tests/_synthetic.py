"""Synthetic feature sets shared by the model, similarity and cross-validation tests."""

import numpy as np

from crocbench.fingerprints import Fingerprints


def synthetic(n=300, frac=0.1, seed=0, shared=12):
    """Feature sets where actives share ``shared`` of their 20 features with one cluster of 30 (inactives 2):
    (Fingerprints, labels).  The fewer, the harder the problem."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < frac).astype(np.int8)
    y[:3] = 1
    rows = []
    for label in y:
        if label:
            feats = np.concatenate(
                [rng.choice(30, shared, replace=False), rng.choice(np.arange(30, 400), 20 - shared, replace=False)]
            )
        else:
            feats = np.concatenate(
                [rng.choice(30, 2, replace=False), rng.choice(np.arange(30, 400), 18, replace=False)]
            )
        rows.append(np.unique(feats).astype(np.uint64))
    indptr = np.concatenate([[0], np.cumsum([r.size for r in rows])])
    return Fingerprints(indptr, np.concatenate(rows)), y


def synthetic_ecfp(n=600, frac=0.1, seed=0, shared=8, width=400):
    """``(SimilarityIndex with ECFP, labels)``: :func:`synthetic`'s feature sets as ECFP-like counts (1 to 3 on each
    feature's column, seeded), for the models on ECFP."""
    import scipy.sparse as sp

    from crocbench.similarity import SimilarityIndex

    fp, y = synthetic(n, frac, seed, shared)
    rng = np.random.default_rng(seed + 1)
    cols = fp.ids.astype(np.int64) % width
    counts = sp.csr_matrix((rng.integers(1, 4, cols.size).astype(np.uint32), cols, fp.indptr), shape=(n, width))
    counts.sum_duplicates()
    return SimilarityIndex(fp, ecfp=counts), y


def clustered(n=1500, seed=0, prototypes=20, noise=0.03):
    """Feature sets drawn around ``prototypes`` prototypes of 30 features (25 kept, 5 random added); the
    compounds of the first 4 are active, each label flipped with probability ``noise``: (Fingerprints,
    labels).  Near-copies make most compounds redundant, so an SVM keeps a minority as support vectors."""
    rng = np.random.default_rng(seed)
    protos = [rng.choice(300, 30, replace=False) for _ in range(prototypes)]
    which = rng.integers(0, prototypes, n)
    y = ((which < 4) ^ (rng.random(n) < noise)).astype(np.int8)
    rows = [
        np.unique(np.concatenate([rng.choice(protos[p], 25, replace=False), rng.choice(300, 5)])).astype(np.uint64)
        for p in which
    ]
    indptr = np.concatenate([[0], np.cumsum([r.size for r in rows])])
    return Fingerprints(indptr, np.concatenate(rows)), y

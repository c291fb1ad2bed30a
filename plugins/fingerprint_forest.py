"""An example crocbench plug-in: a random forest on folded fingerprints, the baseline MoleculeNet reports.

Declare it in a config (no change to crocbench)::

    models:
      forest: {class: "fingerprint_forest:FingerprintForest", n_estimators: 500}

crocbench finds this module in the ``plugins/`` folder beside ``config.yaml``
(or anywhere on ``PYTHONPATH``).  It follows the model contract of
``crocbench.models.Model``: ``fit(data, train, y)`` and ``score(data, rows)``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


class FingerprintForest:
    """``sklearn.ensemble.RandomForestClassifier`` on the paper's features folded to ``n_bits`` bits.

    Each feature's 64-bit id is folded modulo ``n_bits`` (as ECFP bit vectors
    are), so the forest sees a fixed-width 0/1 matrix.  The score of a compound
    is the forest's predicted probability of being active.

    Parameters
    ----------
    n_estimators : int
    n_bits : int
        Width of the folded fingerprint (MoleculeNet: 1024).
    max_features : str or float
    min_samples_leaf : int
    class_weight : None or "balanced"
    seed, n_jobs : given by crocbench (the fold's seed; the job's threads)
    """

    label = "RF"

    def __init__(
        self,
        n_estimators: int = 500,
        n_bits: int = 1024,
        max_features="sqrt",
        min_samples_leaf: int = 1,
        class_weight=None,
        seed=0,
        n_jobs: int = 1,
    ):
        if int(n_bits) < 1 or int(n_estimators) < 1:
            raise ValueError(f"n_bits and n_estimators must be positive; got {n_bits} and {n_estimators}")
        self.n_estimators, self.n_bits, self.max_features = int(n_estimators), int(n_bits), max_features
        self.min_samples_leaf, self.class_weight, self.seed, self.n_jobs = (
            int(min_samples_leaf),
            class_weight,
            seed,
            n_jobs,
        )

    def _features(self, data, rows) -> sp.csr_matrix:
        fp = data.fingerprints[rows].tocoo()
        bits = (data.feature_ids[fp.col] % np.uint64(self.n_bits)).astype(np.int64)
        folded = sp.csr_matrix((np.ones(bits.size, dtype=np.float32), (fp.row, bits)), shape=(len(rows), self.n_bits))
        folded.data[:] = 1.0  # several features on one bit: still 1
        return folded

    def fit(self, data, train, y):
        from sklearn.ensemble import RandomForestClassifier

        seed = np.random.SeedSequence(np.atleast_1d(self.seed).astype(np.int64).tolist()).generate_state(1)[0]
        self.forest_ = RandomForestClassifier(
            n_estimators=self.n_estimators,
            max_features=self.max_features,
            min_samples_leaf=self.min_samples_leaf,
            class_weight=self.class_weight,
            n_jobs=self.n_jobs,
            random_state=int(seed),
        ).fit(self._features(data, np.asarray(train)), np.asarray(y))
        return self

    def score(self, data, rows):
        return self.forest_.predict_proba(self._features(data, np.asarray(rows)))[:, 1]

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """The folded matrix is small; the trees take about 1 GB per 100,000 compounds per 100 trees."""
        return {"threads": 2, "mem_mb": int(2000 + n_compounds * self.n_estimators / 1e4)}

    def info(self) -> dict:
        return {
            "n_estimators": self.n_estimators,
            "n_bits": self.n_bits,
            "mean_depth": float(np.mean([t.get_depth() for t in self.forest_.estimators_])),
        }

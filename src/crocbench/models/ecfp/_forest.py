"""The random forest on ECFP4, grown by scikit-learn or by LightGBM's ``rf`` boosting."""

from __future__ import annotations

import numpy as np

from ..._extras import needs
from ._models import EcfpModel, _class_weight


class RandomForest(EcfpModel):
    """A random forest on ECFP; the score is the mean of the trees' probabilities of being active.

    ``max_features`` and ``class_weight`` default to the set-up ``benchmarks/studies/ecfp_defaults.py`` chose (its
    table: ``results/reference/ecfp_rankers/ecfp_defaults.tsv``). Two engines grow the same kind of forest:

    ``sklearn`` (default)
        scikit-learn's ``RandomForestClassifier``: each tree on a bootstrap sample, grown depth first to purity
        (or ``min_samples_leaf``). The trees' votes are summed in the trees' order, so the scores are the same bits
        for any number of threads (scikit-learn's own sum follows the threads' finishing order).
    ``lightgbm``
        LightGBM's ``rf`` boosting on the sparse binned fingerprint: each tree on a sample drawn without
        replacement (``max_samples``'s share; by default 63.2%, the share of distinct compounds a bootstrap
        draws), ``max_features`` tried at each split, grown leaf-wise until its leaves are pure or hold
        ``min_samples_leaf`` (at most ``max_leaves``; :meth:`info` says how many trees reached it). Its split
        gain on the binary objective's constant Hessian is the decrease of the Gini impurity, and a leaf's value is
        an increasing affine map of its share of actives, so the mean of the trees' values ranks as the mean of
        their probabilities does. Deterministic for a given seed and number of threads.

    Parameters
    ----------
    n_estimators : int, default=500
        Trees.
    max_features : {"sqrt", "log2"} or float, default="sqrt"
        Features tried at each split.
    min_samples_leaf : int, default=1
        The smallest leaf.
    class_weight : {None, "balanced", "balanced_subsample"}, default="balanced_subsample"
        Weights of the classes in the trees' impurity (balanced_subsample: within each tree's bootstrap sample;
        ``lightgbm`` weighs both as balanced over all training compounds).
    max_samples : int or float, default=None
        Each tree's sample: that many training compounds (an int), that share of them (a float in (0, 1]), or as
        many as there are (None: a bootstrap; ``lightgbm``: 63.2% of them, and all but one at most, as its ``rf``
        boosting needs a share below 1).  The trees' time and size grow with it.
    engine : {"sklearn", "lightgbm"}, default="sklearn"
        The library that grows the trees.
    max_leaves : int, default=16384
        ``lightgbm``: the most leaves a tree may grow (LightGBM's ``num_leaves``, at most 131,072). LightGBM looks
        for the next leaf to split among all of them at every split, so a bound far above the trees' size costs
        time: trees on 270,873 compounds of ``hsf1_primary`` grew 6,000 to 9,500 leaves, and a bound of 131,072
        took 1.9x the time of 16,384 a tree (2.30 s against 1.22 s).
    counts : bool, default=False
        Counts instead of bits.
    seed : int or tuple of int, default=0
        Given by the workflow.
    n_jobs : int, default=1
        Given by the workflow.
    threads : int, default=2
        A fold job's threads. 1 lets two folds run side by side on two cores.
    """

    name, label = "rf", "RF"
    search_space = {"max_features": ["sqrt", 0.05, 0.2], "min_samples_leaf": [1, 3, 10]}  # the tuning space (Tuned)
    ENGINES = ("sklearn", "lightgbm")

    def __init__(
        self,
        n_estimators: int = 500,
        max_features="sqrt",
        min_samples_leaf: int = 1,
        class_weight="balanced_subsample",
        max_samples=None,
        engine: str = "sklearn",
        max_leaves: int = 16384,
        counts=False,
        seed=0,
        n_jobs=1,
        threads: int = 2,
    ):
        super().__init__(counts, seed, n_jobs, threads)
        if engine not in self.ENGINES:
            raise ValueError(f"engine must be {' or '.join(self.ENGINES)}; got {engine!r}")
        if not 2 <= int(max_leaves) <= 131072:
            raise ValueError(f"max_leaves must lie in [2, 131072]; got {max_leaves}")
        self.engine, self.max_leaves = engine, int(max_leaves)
        if int(n_estimators) < 1 or int(min_samples_leaf) < 1:
            raise ValueError(f"n_estimators and min_samples_leaf must be >= 1; got {n_estimators}, {min_samples_leaf}")
        if not (max_features in ("sqrt", "log2") or (isinstance(max_features, float) and 0 < max_features <= 1)):
            raise ValueError(f"max_features must be sqrt, log2 or a fraction in (0, 1]; got {max_features!r}")
        self.n_estimators, self.max_features = int(n_estimators), max_features
        self.min_samples_leaf = int(min_samples_leaf)
        self.class_weight = _class_weight(class_weight, ("balanced", "balanced_subsample"))
        if isinstance(max_samples, float) and max_samples > 1 and max_samples.is_integer():
            max_samples = int(max_samples)  # 20000.0 (a YAML float) is a count, as the schema reads it
        count = isinstance(max_samples, int) and not isinstance(max_samples, bool) and max_samples >= 1
        if not (max_samples is None or count or (isinstance(max_samples, float) and 0 < max_samples <= 1)):
            raise ValueError(f"max_samples must be null, a count >= 1 or a fraction in (0, 1]; got {max_samples!r}")
        self.max_samples = max_samples

    def estimator(self):
        """The unfitted scikit-learn estimator this model fits.

        Returns
        -------
        sklearn.ensemble.RandomForestClassifier
            The estimator.
        """
        with needs("crocbench.models"):
            from sklearn.ensemble import RandomForestClassifier

        return RandomForestClassifier(
            n_estimators=self.n_estimators,
            max_features=self.max_features,
            min_samples_leaf=self.min_samples_leaf,
            class_weight=self.class_weight,
            max_samples=self.max_samples,
            n_jobs=self.n_jobs,
            random_state=self.random_state,
        )

    def _fit(self, data, train, y):
        if self.engine == "lightgbm":
            return self._fit_lightgbm(self.features(data, train), y)
        forest = self.estimator()
        if isinstance(self.max_samples, int):  # at most the training set (scikit-learn refuses more)
            forest.set_params(max_samples=min(self.max_samples, len(y)))
        self.model_ = forest.fit(self.features(data, train), y)

    def lightgbm_params(self, n_features: int, n_train: int) -> dict:
        """The LightGBM parameters of the ``lightgbm`` engine's fit.

        Parameters
        ----------
        n_features : int
            The input width.
        n_train : int
            The training compounds.

        Returns
        -------
        dict
            Parameters for ``lightgbm.train``.
        """
        tried = {"sqrt": np.sqrt(n_features), "log2": np.log2(n_features)}.get(self.max_features)
        share = self.max_features if tried is None else max(1.0, np.floor(tried)) / n_features
        if self.max_samples is None:
            sample = 1 - np.exp(-1)  # a bootstrap's expected share of distinct compounds
        elif isinstance(self.max_samples, int):
            sample = min(1.0, self.max_samples / n_train)
        else:
            sample = self.max_samples
        return {
            "boosting": "rf",
            "objective": "binary",
            "num_leaves": self.max_leaves,
            "min_data_in_leaf": self.min_samples_leaf,
            "min_sum_hessian_in_leaf": 0.0,
            "min_data_in_bin": 1,
            "feature_pre_filter": False,
            "lambda_l2": 0.0,
            "bagging_fraction": min(sample, 1 - 1e-9),  # rf boosting needs a sample below 1
            "bagging_freq": 1,
            "feature_fraction_bynode": share,
            "histogram_pool_size": 1024,  # MB of cached histograms: a pool for every leaf would be GBs
            "seed": self.random_state,
            "deterministic": True,
            "num_threads": self.n_jobs,
            "verbosity": -1,
        }

    def _fit_lightgbm(self, x, y):
        with needs("crocbench.models"):
            import lightgbm as lgb
            from sklearn.utils.class_weight import compute_sample_weight

        weight = None
        if self.class_weight is not None:  # balanced: n / (2 n_class) per compound, scikit-learn's own weights
            weight = compute_sample_weight("balanced", y)
        data = lgb.Dataset(x, y, weight=weight, params={"min_data_in_bin": 1, "feature_pre_filter": False})
        self.model_ = lgb.train(self.lightgbm_params(x.shape[1], y.size), data, num_boost_round=self.n_estimators)
        self.tree_leaves_ = _tree_leaves(self.model_)

    def _score(self, data, rows):
        x = self.features(data, rows)
        if self.engine == "lightgbm":
            return self.model_.predict(x, raw_score=True)
        out = np.zeros(rows.size)
        for tree in self.model_.estimators_:  # in order: the same sum for any number of threads
            out += tree.predict_proba(x, check_input=False)[:, 1]
        return out / len(self.model_.estimators_)

    def info(self) -> dict:
        """The trees' mean depth and leaves (``sklearn``), or their number, mean leaves and how many reached
        ``max_leaves`` (``lightgbm``).

        Returns
        -------
        dict
            ``mean_depth`` and ``mean_leaves``, or ``engine``, ``trees``, ``mean_leaves`` and
            ``trees_at_max_leaves``.
        """
        if self.engine == "lightgbm":
            return {
                "engine": "lightgbm",
                "trees": int(self.tree_leaves_.size),
                "mean_leaves": float(self.tree_leaves_.mean()),
                "trees_at_max_leaves": int((self.tree_leaves_ >= self.max_leaves).sum()),
            }
        trees = self.model_.estimators_
        return {
            "mean_depth": float(np.mean([t.get_depth() for t in trees])),
            "mean_leaves": float(np.mean([t.get_n_leaves() for t in trees])),
        }

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """``threads``; about 1 GB, plus 1 kB a compound for the features, plus 2 kB a sampled compound per 100
        trees: twice the trees' size on DTP AIDS (about 2,500 leaves a tree from 37,700 training compounds, 80 bytes
        a node: 1 kB a compound per 100 trees; the fold peaked at 567 MiB), taken as growing with each tree's sample
        (``max_samples``, else all).  A fold of 300,971 compounds with 100 trees of 20,000 peaked at 1.21 GB.
        ``lightgbm``: about 5 GB (its histograms and leaf structures: 4.47 GB at 20 trees on 300,971 compounds),
        plus 1 kB a compound, plus 3 kB a sampled compound per 100 trees (500 trees peaked at 6.86 GB there, and at
        4.89 GB on DTP AIDS).

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of folds.

        Returns
        -------
        dict
            ``{"threads": threads, "mem_mb": ...}``.
        """
        if self.engine == "lightgbm":
            n_train = n_compounds * (1 - 1 / n_folds)
            sample = self.lightgbm_params(2048, max(1, int(n_train)))["bagging_fraction"] * n_train
            base, per_tree = 5000, 0.003
        else:
            sample, base, per_tree = n_compounds, 1000, 0.002
            if isinstance(self.max_samples, int):
                sample = min(n_compounds, self.max_samples)
            elif isinstance(self.max_samples, float):
                sample = n_compounds * self.max_samples
        return {
            "threads": self.threads,
            "mem_mb": int(base + 0.001 * n_compounds + per_tree * sample * self.n_estimators / 100),
        }


def _tree_leaves(booster, chunk: int = 50) -> np.ndarray:
    """The leaves of each tree of a LightGBM booster, read from its text model ``chunk`` trees at a time."""
    import re

    leaves = []
    for start in range(0, booster.num_trees(), chunk):
        text = booster.model_to_string(start_iteration=start, num_iteration=chunk)
        leaves += [int(v) for v in re.findall(r"^num_leaves=(\d+)$", text, re.MULTILINE)]
    return np.asarray(leaves, dtype=np.int64)

"""Gradient boosting on ECFP (LightGBM): the binary objective, and a learning-to-rank objective for the top.

LightGBM rather than scikit-learn's ``HistGradientBoostingClassifier``: it trains on the sparse ECFP matrix as it
is (scikit-learn's densifies it to float64, 4.9 GB for 300,000 compounds x 2,048 bits), and it has the
``lambdarank`` objective that :class:`GBMRank` needs (scikit-learn has no ranking objective).  Both models stop
early on the same stratified inner split, by the same crocbench metric, so they differ only in the objective.
"""

from __future__ import annotations

import numpy as np

from ..._extras import needs
from ...metrics import Ranking, parse_metric
from .._base import seed_state
from ._models import EcfpModel, inner_split


class GBM(EcfpModel):
    """Gradient-boosted trees on ECFP with LightGBM's binary (cross-entropy) objective.

    ``stop_fraction`` of the training compounds (stratified, seeded) is held out; boosting stops when
    ``stop_metric`` on them has not improved for ``patience`` rounds, and the model keeps the best round.  The
    score is the booster's raw score (the log-odds).

    Parameters
    ----------
    learning_rate : float, default=0.05
        Shrinkage.
    num_leaves : int, default=31
        Leaves per tree.
    min_child_samples : int, default=20
        The smallest leaf.
    feature_fraction_bynode : float, default=0.5
        Features sampled at each split (LightGBM's ``feature_fraction_bynode``; a share sampled per tree makes
        LightGBM rebuild its binned sparse matrix for every tree, 3.5x the round's time on 300,000 compounds).
    max_rounds : int, default=2000
        Boosting rounds at most.
    patience : int, default=50
        Rounds without improvement before stopping.
    stop_fraction : float, default=0.1
        The share of the training compounds held out for stopping.
    stop_metric : str, default="average_precision"
        The crocbench metric (:func:`crocbench.metrics.parse_metric`) that decides the round.
    counts : bool, default=False
        Counts instead of bits.
    seed : int or tuple of int, default=0
        Given by the workflow.
    n_jobs : int, default=1
        Given by the workflow.
    threads : int, default=2
        A fold job's threads. 1 lets two folds run side by side on two cores.
    """

    name, label = "gbm", "GBM"
    search_space = {  # the tuning space (crocbench.models.Tuned)
        "learning_rate": [0.02, 0.05, 0.1],
        "num_leaves": [15, 31, 63, 127],
        "min_child_samples": [5, 20, 50],
    }

    def __init__(
        self,
        learning_rate: float = 0.05,
        num_leaves: int = 31,
        min_child_samples: int = 20,
        feature_fraction_bynode: float = 0.5,
        max_rounds: int = 2000,
        patience: int = 50,
        stop_fraction: float = 0.1,
        stop_metric: str = "average_precision",
        counts=False,
        seed=0,
        n_jobs=1,
        threads: int = 2,
    ):
        super().__init__(counts, seed, n_jobs, threads)
        if not (float(learning_rate) > 0 and 0 < float(feature_fraction_bynode) <= 1):
            raise ValueError(
                f"learning_rate must be > 0 and feature_fraction_bynode in (0, 1]; got {learning_rate}, "
                f"{feature_fraction_bynode}"
            )
        if min(int(num_leaves) - 1, int(min_child_samples), int(max_rounds), int(patience)) < 1:
            raise ValueError("num_leaves must be >= 2; min_child_samples, max_rounds and patience >= 1")
        self.learning_rate, self.num_leaves = float(learning_rate), int(num_leaves)
        self.min_child_samples, self.feature_fraction_bynode = int(min_child_samples), float(feature_fraction_bynode)
        self.max_rounds, self.patience, self.stop_fraction = int(max_rounds), int(patience), float(stop_fraction)
        if not 0 < self.stop_fraction <= 0.5:
            raise ValueError(f"stop_fraction must lie in (0, 0.5]; got {stop_fraction}")
        self.stop_metric = str(stop_metric)
        parse_metric(self.stop_metric)  # an unknown metric: one line now, not in the fold job

    def params(self) -> dict:
        """The LightGBM parameters of the fit (deterministic, this fold's seed, the job's threads).

        Returns
        -------
        dict
            Parameters for ``lightgbm.train``.
        """
        return {
            "objective": "binary",
            "learning_rate": self.learning_rate,
            "num_leaves": self.num_leaves,
            "min_child_samples": self.min_child_samples,
            "feature_fraction_bynode": self.feature_fraction_bynode,
            "seed": self.random_state,
            "deterministic": True,
            "force_col_wise": True,
            "num_threads": self.n_jobs,
            "metric": "None",
            "verbosity": -1,
        }

    def groups(self, y) -> tuple[np.ndarray, np.ndarray | None]:
        """``(order, group sizes)`` of a training set for LightGBM: the binary objective needs no groups.

        Parameters
        ----------
        y : ndarray of 0/1
            The labels.

        Returns
        -------
        order : ndarray of int64
            The rows' order in the LightGBM dataset.
        sizes : ndarray of int64 or None
            The query groups' sizes, in that order (None: no groups).
        """
        return np.arange(len(y)), None

    def _fit(self, data, train, y):
        with needs("crocbench.models"):
            import lightgbm as lgb

        fit, stop = inner_split(y, self.stop_fraction, (*np.atleast_1d(self.seed).tolist(), 1))
        sets = []
        for part in (fit, stop):
            order, sizes = self.groups(y[part])
            rows = part[order]
            sets.append((self.features(data, train[rows]), y[rows], sizes))
        train_set = lgb.Dataset(sets[0][0], sets[0][1], group=sets[0][2], free_raw_data=False)
        stop_set = lgb.Dataset(sets[1][0], sets[1][1], group=sets[1][2], reference=train_set)
        call = parse_metric(self.stop_metric)

        def metric(preds, dataset):
            return call.key, call.value(Ranking(dataset.get_label(), preds)), True

        self.booster_ = lgb.train(
            self.params(),
            train_set,
            num_boost_round=self.max_rounds,
            valid_sets=[stop_set],
            valid_names=["stop"],
            feval=metric,
            callbacks=[lgb.early_stopping(self.patience, verbose=False)],
        )
        self.best_round_ = int(self.booster_.best_iteration) or self.booster_.current_iteration()
        self.stop_value_ = float(self.booster_.best_score["stop"][call.key]) if self.booster_.best_score else None

    def _score(self, data, rows):
        return self.booster_.predict(self.features(data, rows), num_iteration=self.best_round_, raw_score=True)

    def info(self) -> dict:
        """The round kept and the stopping metric's value there.

        Returns
        -------
        dict
            ``best_round``, ``stop_metric`` and ``stop_value``.
        """
        return {"best_round": self.best_round_, "stop_metric": self.stop_metric, "stop_value": self.stop_value_}

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """``threads``; LightGBM's binned features, about 1 GB plus 4 kB a compound.

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
        return {"threads": self.threads, "mem_mb": int(1500 + 0.004 * n_compounds)}


class GBMRank(GBM):
    """:class:`GBM` trained with LightGBM's ``lambdarank`` objective: NDCG truncated at the top of each query.

    A query holds at most 10,000 rows in LightGBM, so the training compounds are dealt (seeded, each class on its
    own) into queries of about ``group_size`` compounds with equal shares of the actives; lambdarank then weighs the
    pairs whose better-placed compound lies in a query's top ``truncation`` (``truncation / group_size`` of the
    list: 2% by default).  Everything else, stopping included, is :class:`GBM`'s.

    Parameters
    ----------
    group_size : int, default=1000
        Compounds per query (at most 10,000).
    truncation : int, default=20
        LightGBM's ``lambdarank_truncation_level``.
    learning_rate, num_leaves, min_child_samples, feature_fraction_bynode, max_rounds, patience : float or int
        As :class:`GBM`'s.
    stop_fraction, stop_metric, counts, seed, n_jobs, threads : float, str, bool, int or tuple, int, int
        As :class:`GBM`'s.
    """

    name, label = "gbm_rank", "GBM-rank"
    search_space = {  # the tuning space (crocbench.models.Tuned)
        "learning_rate": [0.02, 0.05, 0.1],
        "num_leaves": [15, 31, 63, 127],
        "min_child_samples": [5, 20, 50],
    }

    def __init__(
        self,
        group_size: int = 1000,
        truncation: int = 20,
        learning_rate: float = 0.05,
        num_leaves: int = 31,
        min_child_samples: int = 20,
        feature_fraction_bynode: float = 0.5,
        max_rounds: int = 2000,
        patience: int = 50,
        stop_fraction: float = 0.1,
        stop_metric: str = "average_precision",
        counts=False,
        seed=0,
        n_jobs=1,
        threads: int = 2,
    ):
        super().__init__(
            learning_rate,
            num_leaves,
            min_child_samples,
            feature_fraction_bynode,
            max_rounds,
            patience,
            stop_fraction,
            stop_metric,
            counts,
            seed,
            n_jobs,
            threads,
        )
        if not 2 <= int(group_size) <= 10_000 or not 1 <= int(truncation) <= int(group_size):
            raise ValueError(f"group_size must lie in [2, 10000] and truncation in [1, group_size]; got {group_size}")
        self.group_size, self.truncation = int(group_size), int(truncation)

    def params(self) -> dict:
        """:meth:`GBM.params` with the ``lambdarank`` objective and its truncation.

        Returns
        -------
        dict
            Parameters for ``lightgbm.train``.
        """
        return {**super().params(), "objective": "lambdarank", "lambdarank_truncation_level": self.truncation}

    def groups(self, y) -> tuple[np.ndarray, np.ndarray]:
        """``(order, group sizes)``: the rows dealt into queries of about ``group_size``, each class round-robin.

        Parameters
        ----------
        y : ndarray of 0/1
            The labels.

        Returns
        -------
        order : ndarray of int64
            The rows, query after query.
        sizes : ndarray of int64
            The queries' sizes.

        Examples
        --------
        >>> order, sizes = GBMRank(group_size=3, truncation=1).groups(np.array([1, 0, 0, 1, 0, 0, 0]))
        >>> sizes.tolist(), sorted(order.tolist()) == list(range(7))
        ([3, 2, 2], True)
        """
        y = np.asarray(y)
        n_groups = max(1, -(-y.size // self.group_size))
        rng = np.random.default_rng(seed_state((*np.atleast_1d(self.seed).tolist(), 2)))
        group = np.empty(y.size, dtype=np.int64)
        start = 0
        for label in (1, 0):  # actives first: each query gets its share of them, to within one
            rows = rng.permutation(np.flatnonzero(y == label))
            group[rows] = (start + np.arange(rows.size)) % n_groups
            start += rows.size
        order = np.argsort(group, kind="stable")
        return order, np.bincount(group, minlength=n_groups)

"""The one small interface every model follows, and the seed a model gives its library (:func:`seed_state`)."""

from __future__ import annotations

import numbers

import numpy as np

from ..similarity import SimilarityIndex

#: The fingerprints a ranker may read (a ``models:`` entry's ``features``): ``paper``, the paper's circular
#: fingerprints (``fingerprints.npz``), or ``ecfp4``, the bits of RDKit's Morgan radius 2 folded to 2,048
#: (``ecfp.npz``; :func:`crocbench.chem.graph.ecfp4_fingerprints`, the cluster and novelty splits' fingerprint).
FEATURES = ("paper", "ecfp4")
#: Each fingerprint's name in an arm's label (``kNN/ECFP4``: :func:`crocbench.models.declared_runs`).
FEATURE_LABELS = {"paper": "paper", "ecfp4": "ECFP4"}


class Model:
    """A ranker of compounds, in the spirit of a scikit-learn estimator: the contract every model follows.

    A model is one class, built-in or a user's (declared in ``config.yaml`` as
    ``name: {class: "module:Class", param: value, ...}``; it need not subclass
    this one).  Required:

    ``__init__(**params)``
        Its parameters, as keyword arguments; the config's other keys are
        checked against this signature before any job runs.  A class whose
        signature takes ``seed`` (per fold: ``(cv seed, fold)``), ``progress``
        (a stream for log lines) or ``n_jobs`` (the job's threads) gets them.
    ``fit(self, data, train, y)``
        Learn from the compounds ``train`` (row indices into ``data``) with 0/1
        labels ``y``.
    ``score(self, data, rows) -> array``
        One finite float per row of ``rows``, higher = more likely active.  A
        model never sees the labels of the rows it scores.

    ``data`` (a :class:`~crocbench.similarity.SimilarityIndex`) gives
    ``data.n``, ``data.ids`` and ``data.smiles`` (standardized, indexable by
    row), ``data.fingerprints`` (scipy CSR matrix of the paper's features, rows =
    compounds), ``data.similarities(rows, cols)`` (exact Tanimoto, dense float32),
    ``data.kernel(rows)`` (the square float64 Tanimoto matrix of ``rows``) and
    ``data.neighbours(rows, k, among=train)`` (top-k lists: ``.index``,
    ``.similarity``).

    Optional, read by the workflow:

    ``label``
        Display name in tables and figures (default: the config entry's name).
    ``resources(self, n_compounds, n_folds) -> {"threads": .., "mem_mb": ..}``
        What one fold job needs, so Snakemake schedules it (default: 1 thread, 4 GB).
    ``info(self) -> dict``
        JSON-serializable facts about the fit, written beside each fold's scores.
    ``resources`` may raise ValueError when the model cannot run at that size: the
        workflow calls it before any job runs (when the dataset's size is known) and
        stops with the message.
    ``uses_ecfp``
        True for a model that reads ECFP4 (``data.ecfp(rows, counts=False)``: RDKit's Morgan
        fingerprints of radius 2 folded to 2,048 bits, or their counts): the workflow then builds
        the screen's ``ecfp.npz`` once and loads it into ``data`` (default False).
    ``feature_set``
        The fingerprints the ranker reads by default, one of ``crocbench.models.FEATURES`` (default ``paper``; the ECFP
        rankers ``ecfp4``); a ``models:`` entry's ``features`` sets it on the model
        (:func:`crocbench.models.make_model`). The workflow gives ``data`` that fingerprint: a similarity ranker's
        Tanimoto, neighbour lists and matrix are on it, and an ECFP ranker's ``features`` read it.
    ``baseline``
        True for a ranker that ranks by chance (RANDOM): left out where only rankers are compared, such as the
        SVM sensitivity study's pooling table (default False).
    ``fold_jobs``
        How many jobs the workflow splits a run's folds among, each fitting and scoring its
        consecutive folds one after the other and writing the same per-fold files (each fold's
        fitting and scoring seconds in its info); None (default): a job per fold.  1 suits a
        model whose folds take about a second each, less than starting a job (Python, torch and
        the compiled loops); the SVM on working sets takes one per core (its parameter ``fold_jobs``).
    ``uses_neighbours``
        False for a model that never calls ``data.neighbours``: its fold jobs then start without
        waiting for the neighbour search (default True; the SVM and the ECFP and graph models say False).
    ``uses_matrix``
        True for a model that reads most of the all-pairs similarities (a kernel
        method): the workflow then computes the N x N Tanimoto matrix once per
        dataset (N^2 x 4 bytes on disk, deleted after use) and ``data`` reads
        ``kernel`` and ``similarities`` from it instead of recomputing them in
        every fold (default False).  A method ``uses_matrix(n_compounds,
        n_folds) -> bool`` decides by the dataset's size (the SVM: only when it
        fits its folds exactly).
    """

    name = "model"
    label = None
    uses_matrix = False
    uses_ecfp = False
    feature_set = "paper"
    baseline = False
    fold_jobs = None
    uses_neighbours = True

    def fit(self, data: SimilarityIndex, train, y) -> Model:
        """Learn from the training compounds ``train`` with labels ``y``.

        Parameters
        ----------
        data : SimilarityIndex
            The dataset as the models see it (:class:`~crocbench.similarity.SimilarityIndex`).
        train : array-like of int
            Row indices of the training compounds in ``data``.
        y : array-like of shape (len(train),)
            Their 0/1 labels (1 = active).

        Returns
        -------
        Model
            The fitted model itself.
        """
        train, y = _check_fit(data, train, y)
        self.train_, self.y_ = train, y
        self._fit(data, train, y)
        return self

    def score(self, data: SimilarityIndex, rows) -> np.ndarray:
        """Score compounds: higher means more likely active.

        Parameters
        ----------
        data : SimilarityIndex
            The dataset as the models see it (:class:`~crocbench.similarity.SimilarityIndex`).
        rows : array-like of int
            Row indices of the compounds scored.

        Returns
        -------
        ndarray of float64 of shape (len(rows),)
            One finite score per row.
        """
        if not hasattr(self, "train_"):
            raise RuntimeError(f"{self.name}: call fit before score")
        rows = _check_rows(data, rows)
        return np.asarray(self._score(data, rows), dtype=np.float64)

    def info(self) -> dict:
        """What the fit learned that is worth keeping beside the scores (JSON-serializable).

        Returns
        -------
        dict
            JSON-serializable facts about the fit (empty by default).
        """
        return {}

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """One fold job's threads and memory (MB) on a dataset of ``n_compounds`` split in ``n_folds``.

        The default: 1 thread and 4 GB, more above 300,000 compounds.  The
        neighbour-based models' folds (RANDOM, MAX-SIM, kNN, IRV) peak at about
        0.3 GB plus 8.2 kB a compound (the IRV's: 1.1 GB at 100,000 compounds,
        2.3 GB at 250,000); half again that is declared when it exceeds 4 GB.

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of cross-validation folds.

        Returns
        -------
        dict
            ``{"threads": int, "mem_mb": int}`` of one fold job.
        """
        return {"threads": 1, "mem_mb": max(4000, int(1.5 * (300 + 0.0082 * n_compounds)))}

    def _fit(self, data, train, y) -> None:  # models that only store the training set need nothing more
        pass

    def _score(self, data, rows) -> np.ndarray:
        raise NotImplementedError


def _check_rows(data: SimilarityIndex, rows) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.int64).ravel()
    if rows.size and (rows.min() < 0 or rows.max() >= data.n):
        raise ValueError(f"row indices must lie in [0, {data.n})")
    return rows


def _check_fit(data: SimilarityIndex, train, y) -> tuple[np.ndarray, np.ndarray]:
    train = _check_rows(data, train)
    y = np.asarray(y).ravel()
    if y.shape != train.shape:
        raise ValueError(f"{train.size} training rows but {y.size} labels")
    if not np.isin(y, (0, 1)).all():
        raise ValueError("labels must be 0/1")
    if np.unique(train).size != train.size:
        raise ValueError("training rows must be distinct")
    if y.sum() == 0:
        raise ValueError("the training set has no positive")
    return train, y.astype(np.int8)


def checked_fold_jobs(jobs, where: str = "") -> int | None:
    """``fold_jobs`` as the contract allows it (None, or an integer >= 1), else ValueError naming ``where``."""
    if jobs is None:
        return None
    if not isinstance(jobs, numbers.Integral) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"{where}fold_jobs must be None or an integer >= 1; got {jobs!r}")
    return int(jobs)


def seed_state(seed) -> int:
    """A library's integer seed (0 to 2^31 - 1) from crocbench's seed: an int or a tuple such as ``(seed, fold)``.

    Parameters
    ----------
    seed : int or tuple of int
        The seed.

    Returns
    -------
    int
        numpy's ``SeedSequence`` of the seed's integers, its first 31 bits.

    Examples
    --------
    >>> seed_state((0, 3)) == seed_state((0, 3)) != seed_state((0, 4))
    True
    """
    entropy = [int(s) for s in np.atleast_1d(np.asarray(seed, dtype=np.int64))]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0] >> 1)

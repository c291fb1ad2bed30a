"""The ECFP rankers on ECFP4: the shared base and logistic regression (the forest: ``_forest.py``).

Each reads the compounds' folded Morgan fingerprints (:meth:`SimilarityIndex.ecfp
<crocbench.similarity.SimilarityIndex.ecfp>`: 2,048 bits of radius 2, or their
counts) and says so by ``uses_ecfp``, so the workflow builds the screen's
``ecfp.npz`` once and hands it to their fold jobs.  Their seeds come from the
fold's ``(cv seed, fold)``; the same seed gives the same scores, bit for bit.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..._extras import needs
from ...cv import stratified_folds
from .._base import Model, seed_state


def inner_split(y, fraction: float, seed) -> tuple[np.ndarray, np.ndarray]:
    """``(fit, stop)``: positions of ``y`` for fitting and for early stopping, stratified and seeded.

    The stopping set is one of ``round(1 / fraction)`` stratified folds (:func:`crocbench.cv.stratified_folds`),
    so it holds ``fraction`` of each class to within one compound.

    Parameters
    ----------
    y : array-like of 0/1
        The training labels.
    fraction : float
        The share held out for stopping, in (0, 0.5].
    seed : int or tuple of int
        The seed (:func:`seed_state`).

    Returns
    -------
    fit, stop : ndarray of int64
        Positions into ``y``, sorted.

    Examples
    --------
    >>> fit, stop = inner_split([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], 0.5, 0)
    >>> len(fit), len(stop), sorted(fit.tolist() + stop.tolist()) == list(range(10))
    (5, 5, True)
    """
    if not 0 < fraction <= 0.5:
        raise ValueError(f"the stopping fraction must lie in (0, 0.5]; got {fraction}")
    folds = stratified_folds(np.asarray(y), max(2, round(1 / fraction)), seed_state(seed))
    return np.flatnonzero(folds != 0), np.flatnonzero(folds == 0)


class EcfpModel(Model):
    """The base of the rankers on ECFP: their features, seed and threads.

    Parameters
    ----------
    counts : bool, default=False
        Read the environments' counts instead of bits.
    seed : int or tuple of int, default=0
        Given by the workflow: ``(cv seed, fold)``.
    n_jobs : int, default=1
        Given by the workflow: the job's threads.
    threads : int, default=1
        The threads a fold job declares (``resources``), which the workflow gives back as ``n_jobs``. A change
        of threads reruns the folds (it is one of the run's parameters): LightGBM's and torch's sums may differ
        with the number of threads.
    """

    feature_set = "ecfp4"  # features: paper reads the paper's fingerprints instead (data.fingerprints)
    uses_neighbours = False

    def __init__(self, counts: bool = False, seed=0, n_jobs: int = 1, threads: int = 1):
        self.counts, self.seed, self.n_jobs = bool(counts), seed, max(1, int(n_jobs or 1))
        whole = isinstance(threads, numbers.Integral) or (isinstance(threads, float) and threads.is_integer())
        if isinstance(threads, bool) or not whole or threads < 1:  # 2.0 (a YAML float) is 2, as the schema reads it
            raise ValueError(f"threads must be an integer >= 1; got {threads!r}")
        self.threads = int(threads)

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """:meth:`Model.resources <crocbench.models.Model.resources>`, on ``threads``.

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
        return {**super().resources(n_compounds, n_folds), "threads": self.threads}

    @property
    def uses_ecfp(self) -> bool:
        """Whether the model reads the screen's ECFP (``feature_set`` ``ecfp4``), which the workflow then loads."""
        return self.feature_set == "ecfp4"

    def features(self, data, rows):
        """The model's input: the ECFP of ``rows`` (bits or counts), or with ``feature_set`` ``paper`` the paper's
        fingerprints of ``rows`` (``data.fingerprints[rows]``: one 0/1 column per feature id of the screen), float32
        CSR.

        Parameters
        ----------
        data : SimilarityIndex
            The dataset.
        rows : array-like of int
            The compounds.

        Returns
        -------
        scipy.sparse.csr_matrix
            One row per compound.
        """
        if self.feature_set == "paper":
            return data.fingerprints[np.asarray(rows, dtype=np.int64)]
        return data.ecfp(rows, counts=self.counts)

    @property
    def random_state(self) -> int:
        """The fold's integer seed for the library (:func:`seed_state`)."""
        return seed_state(self.seed)


class LogReg(EcfpModel):
    """L2-regularized logistic regression on ECFP (scikit-learn's ``LogisticRegression``, L-BFGS).

    The score is the decision function ``x w + b`` (monotone in the probability, without its saturation).

    Parameters
    ----------
    C : float, default=0.1
        The inverse regularization strength (the default: the value ``benchmarks/studies/ecfp_defaults.py``
        chose).
    class_weight : {None, "balanced"}, default=None
        Weights of the classes in the loss.
    max_iter : int, default=1000
        L-BFGS iterations.
    counts : bool, default=False
        Counts instead of bits.
    seed : int or tuple of int, default=0
        Given by the workflow (unused by L-BFGS; kept for the contract).
    n_jobs : int, default=1
        Given by the workflow.
    """

    name, label = "logreg", "LogReg"
    search_space = {"C": [0.01, 0.1, 1, 10], "class_weight": [None, "balanced"]}  # the tuning space (Tuned)

    def __init__(self, C: float = 0.1, class_weight=None, max_iter: int = 1000, counts=False, seed=0, n_jobs=1):
        super().__init__(counts, seed, n_jobs)
        if not float(C) > 0 or int(max_iter) < 1:
            raise ValueError(f"C must be > 0 and max_iter >= 1; got {C} and {max_iter}")
        self.C, self.class_weight, self.max_iter = float(C), _class_weight(class_weight), int(max_iter)

    def estimator(self):
        """The unfitted scikit-learn estimator this model fits.

        Returns
        -------
        sklearn.linear_model.LogisticRegression
            The estimator.
        """
        with needs("crocbench.models"):
            from sklearn.linear_model import LogisticRegression

        return LogisticRegression(C=self.C, class_weight=self.class_weight, max_iter=self.max_iter)

    def _fit(self, data, train, y):
        self.model_ = self.estimator().fit(self.features(data, train), y)

    def _score(self, data, rows):
        return self.model_.decision_function(self.features(data, rows))

    def info(self) -> dict:
        """The solver's iterations and the weights' norm.

        Returns
        -------
        dict
            ``n_iter`` and ``coef_norm``.
        """
        return {"n_iter": int(self.model_.n_iter_[0]), "coef_norm": float(np.linalg.norm(self.model_.coef_))}

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """One thread; the sparse matrix and L-BFGS' state, about 1 GB plus 2 kB a compound.

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of folds.

        Returns
        -------
        dict
            ``{"threads": 1, "mem_mb": ...}``.
        """
        return {"threads": 1, "mem_mb": int(1500 + 0.002 * n_compounds)}


def _class_weight(value, allowed=("balanced",)):
    if value in (None, "none"):
        return None
    if value not in allowed:
        raise ValueError(f"class_weight must be null or {' or '.join(allowed)}; got {value!r}")
    return value

"""Support vector machine on the Tanimoto kernel (LIBSVM through scikit-learn): the estimator.

Its memory plan is in :mod:`._plan`, the fit of a fold in :mod:`._fit` (its LIBSVM fits, on one kernel or on
working sets, in :mod:`._libsvm` and :mod:`._working`), the inner-CV selection in :mod:`._select`, the Nystroem
map and the linear SVM of ``large="nystroem"`` in :mod:`._linear`, Platt scaling in :mod:`._platt`, and the
svm_sensitivity study's per-fold grid in :mod:`._grid`.
"""

from __future__ import annotations

import numpy as np

from ..._parallel import available_cores, memory_budget_mb
from ...metrics import parse_metric
from .._base import Model, checked_fold_jobs
from ._fit import fit_fold
from ._plan import _BESIDE_KERNEL_MB, _MIN_LANDMARKS, _n_train, fold_plan
from ._record import fold_info
from ._select import n_rounds


class SVM(Model):
    """``sklearn.svm.SVC(kernel="precomputed")`` on the exact Tanimoto kernel.

    Memory: the float64 training kernel LIBSVM needs (n_train^2 x 8 bytes, 11.4 GB for
    37,715 compounds), or with ``working_set`` that of a working set, is built
    (``data.kernel``: computed from the fingerprints, or read from the all-pairs matrix
    the workflow computes once, as ``uses_matrix`` asks) and freed right after
    training; only the support vectors are kept, and test compounds are scored against
    them alone (:meth:`SimilarityIndex.similarity_dot
    <crocbench.similarity.SimilarityIndex.similarity_dot>`, no block held).

    Parameters
    ----------
    C : float, default=1.0
        The misclassification penalty (without grids).
    class_weight : None or "balanced", default=None
        LIBSVM's per-class C: "balanced" weighs each class by n / (2 n_class).
    C_grid, class_weight_grid : sequence, default=None
        If either is given, (C, class_weight) is chosen among their product (a
        missing grid is the fixed value) by an inner stratified
        ``inner_folds``-fold CV on the training compounds, maximizing
        ``select_metric`` (a metric spec, e.g. ``"roc"`` or ``"croc_exp_80"``) on
        the pooled inner decision values; ties go to the earlier candidate
        (class weights in the order given, then smaller C).  One inner kernel
        at a time, in the memory of the final one.
    inner_folds : int, default=3
        Folds of the inner CV.
    select_metric : str, default="roc"
        The metric spec the inner CV maximizes (:func:`crocbench.metrics.parse_metric`).
    halving : int or None, default=None
        None: every candidate is fitted on the full inner training sets.  An
        integer factor h >= 2: successive halving (the idea of scikit-learn's
        ``HalvingGridSearchCV``) over rounds r = 0..R-1, R = 1 + floor(log_h(#
        candidates)): round r fits the surviving candidates on a stratified
        h^(r+1-R) share of each inner training set (all of it in the last round),
        scores the whole held-out inner fold, and keeps the best ceil(#/h) by
        ``select_metric`` on the pooled inner decision values; the last round
        chooses.  The last round's values equal the full inner CV's, so the choice
        is the full inner CV's whenever its winner survives the earlier rounds.
    halving_rounds : int or None, default=None
        With ``halving``: run only the first ``halving_rounds`` of the R rounds
        (at the same shares) and choose the best of the last one run; None: all
        R.  ``halving=3, halving_rounds=1`` chooses among all candidates fitted
        on a stratified third of each inner training set, in a third of the
        two-round selection's time on ``dtp_aids``; it can differ from the full
        inner CV where candidates nearly tie (README).
    score : {"decision", "platt"}, default="decision"
        The decision function, or Platt's probability ``1 / (1 + exp(A f + B))``
        with (A, B) fitted (:func:`platt_fit`) to this model's own
        decision values on its training compounds.  The map is monotone, so a
        fold's ranking is unchanged, but it puts every fold's model on one
        probability scale, so pooled out-of-fold scores are comparable.  It is
        fitted in-sample (nearly free: the training kernel is still in memory);
        LIBSVM's ``-b 1`` fits it on an inner cross-validation instead, at five
        times the cost, and gives less over-confident probabilities.
    cache_size : float, default=500.0
        LIBSVM's kernel cache (MB).
    max_kernel_gb : float or None, default=None
        The largest float64 training kernel (8 n_train^2 bytes, in GB of 1e9 bytes)
        fitted exactly.  None: this machine's, the workflow's memory budget
        (``crocbench._parallel.memory_budget_mb``) less the 3 GB a fold needs
        beside its kernel.
    large : {"error", "subsample", "nystroem"}, default="error"
        What a fold whose kernel would exceed ``max_kernel_gb`` does: "error"
        stops (the workflow checks before any job runs, from the dataset's size)
        with the size it would need; "subsample" fits exact LIBSVM (with the
        inner CV) on all training positives plus a seeded random subset of
        the negatives, as many as fit; "nystroem" maps every training compound
        to Nystroem features on ``landmarks`` seeded random training compounds
        (``nystroem_map``; fewer if the n_train x m float64 features, an inner
        fold's copy of them and the m x m landmark kernel would exceed ``max_kernel_gb``)
        and fits a linear L2-loss SVM on them (``linear_svm``, with the same inner CV).  The fold says which in
        one log line and in :meth:`info`.
    landmarks : int, default=2000
        Landmark compounds of ``large="nystroem"`` (at most).
    subsample_seed : int, default=0
        Draws another seeded subset of negatives for ``large="subsample"`` (0: the fold's own draw), the split and
        everything else unchanged: the subsample's own spread.
    working_set : int or None, default=None
        None: an exact fit is one LIBSVM fit on the whole training kernel.  An integer w:
        a fold (or inner fit) of more than w training compounds is fitted exactly by
        LIBSVM on working sets of at most w compounds (``crocbench.models.svm._working``): the first
        is, where an inner CV chose the set-up, the w compounds of smallest margin under its inner
        cross-validated decision values (else every positive and seeded negatives up to w / 2);
        after each fit, the decision function on all training compounds picks the next (the support vectors, then the
        others by increasing margin), until none outside violates ``y f(x) >= 1 - tol / 2``.
        The answer is the whole problem's optimum to LIBSVM's tolerance (``tol``,
        1e-3; decision values within about 1e-3 of a single fit's), in the memory of a
        w-compound kernel: 8 w^2 bytes, 3.2 GB at w = 20,000 instead of 11.4 GB for
        37,715 training compounds.  ``max_kernel_gb`` then bounds that kernel.
    fold_jobs : int, "auto" or None, default="auto"
        How many jobs the workflow splits a run's folds among, each fitting its consecutive folds one after the
        other and keeping its kernel memory from fold to fold (``crocbench._memory.keep_kernel_memory``), so
        only its first fold writes fresh memory; None: a job per fold.  "auto": on working sets
        (``working_set`` set), as many jobs as this machine has cores (a job per fold from as many cores as
        folds), else None.  On a cluster, where the folds run on many machines, set None.
    n_jobs : int, default=1
        LIBSVM fits run at a time during the inner CV (threads sharing one kernel).
    seed : int, default=0
        Seeds the inner CV's folds and the subsample or landmarks of a large fold.
    progress : file-like, default=None
        Gets a line per fit and choice; None for silence.
    """

    name, label = "svm", "SVM"
    search_space = {"C": [0.01, 0.1, 1, 10], "class_weight": [None, "balanced"]}  # the tuning space (Tuned)
    uses_neighbours = False  # its folds start without waiting for the neighbour search

    def __init__(
        self,
        C: float = 1.0,
        class_weight=None,
        C_grid=None,
        class_weight_grid=None,
        inner_folds: int = 3,
        select_metric: str = "roc",
        halving: int | None = None,
        halving_rounds: int | None = None,
        score: str = "decision",
        cache_size: float = 500.0,
        max_kernel_gb: float | None = None,
        large: str = "error",
        landmarks: int = 2000,
        subsample_seed: int = 0,
        working_set: int | None = None,
        fold_jobs: int | str | None = "auto",
        n_jobs: int = 1,
        seed: int = 0,
        progress=None,
    ):
        for cw in [class_weight, *(class_weight_grid or [])]:
            if cw not in (None, "balanced"):
                raise ValueError(f"class_weight must be None or 'balanced'; got {cw!r}")
        if score not in ("decision", "platt"):
            raise ValueError(f"score must be 'decision' or 'platt'; got {score!r}")
        if C_grid is not None and (len(C_grid) == 0 or min(C_grid) <= 0):
            raise ValueError(f"C_grid must be a non-empty list of positive numbers; got {C_grid!r}")
        self.C, self.class_weight = float(C), class_weight
        self.C_grid, self.class_weight_grid = C_grid, class_weight_grid
        if halving is not None and (int(halving) != halving or halving < 2):
            raise ValueError(f"halving must be None or an integer factor >= 2; got {halving!r}")
        self.inner_folds, self.select_metric, self.score_kind = int(inner_folds), select_metric, score
        self.halving = None if halving is None else int(halving)
        if halving_rounds is not None and (
            int(halving_rounds) != halving_rounds or halving_rounds < 1 or halving is None
        ):
            raise ValueError(f"halving_rounds must be None or an integer >= 1, with halving; got {halving_rounds!r}")
        self.halving_rounds = None if halving_rounds is None else int(halving_rounds)
        self.cache_size, self.n_jobs, self.seed, self.progress = cache_size, int(n_jobs), seed, progress
        if large not in ("error", "subsample", "nystroem"):
            raise ValueError(f"large must be 'error', 'subsample' or 'nystroem'; got {large!r}")
        if int(landmarks) != landmarks or landmarks < _MIN_LANDMARKS:
            raise ValueError(f"landmarks must be an integer >= {_MIN_LANDMARKS}; got {landmarks!r}")
        self.landmarks = int(landmarks)
        if isinstance(subsample_seed, bool) or int(subsample_seed) != subsample_seed or subsample_seed < 0:
            raise ValueError(f"subsample_seed must be a whole number >= 0; got {subsample_seed!r}")
        self.subsample_seed = int(subsample_seed)
        if working_set is not None and (int(working_set) != working_set or working_set < 2):
            raise ValueError(f"working_set must be None or an integer >= 2; got {working_set!r}")
        self.working_set = None if working_set is None else int(working_set)
        if fold_jobs == "auto":
            fold_jobs = None if self.working_set is None else available_cores()
        self.fold_jobs = checked_fold_jobs(fold_jobs)
        if max_kernel_gb is not None and not max_kernel_gb > 0:
            raise ValueError(f"max_kernel_gb must be positive (GB); got {max_kernel_gb!r}")
        self.max_kernel_gb, self.large = max_kernel_gb, large
        if self.selects:
            parse_metric(select_metric)  # a bad name fails here, not after the inner fits

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """Two threads (two LIBSVM fits at a time; one on working sets) and the float64 kernel of the compounds a
        fold fits on (all
        (1 - 1/n_folds) n_compounds training compounds, or the subsample that fits; with Nystroem, its features
        and landmark kernel; with ``working_set``, the kernel of at most that many compounds) plus 3 GB (the
        fits, the fingerprints).  A kernel above ``max_kernel_gb`` with ``large="error"`` raises ValueError
        here, before any job runs.

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
        n_train = _n_train(n_compounds, n_folds)
        gb = self.plan(n_train)["kernel_gb"]
        # on working sets, one thread: LIBSVM runs on one, and two folds side by side beat one on two threads
        threads = 1 if self.working_set is not None and n_train > self.working_set else 2
        return {"threads": threads, "mem_mb": int(gb * 1e9 / 2**20 + _BESIDE_KERNEL_MB)}

    def uses_matrix(self, n_compounds: int, n_folds: int) -> bool:
        """Whether the folds read the all-pairs matrix: when they fit exactly on one whole training kernel (every
        fold reads its training kernel from it, and with a grid its inner folds' kernels too); a fit on working sets or a subsample computes its smaller
        kernels itself.

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of cross-validation folds.

        Returns
        -------
        bool
            True when the folds fit exactly.
        """
        n_train = _n_train(n_compounds, n_folds)
        if self.working_set is not None and n_train > self.working_set:
            return False  # working sets: kernels computed as needed, smaller than the matrix's
        try:
            return self.plan(n_train)["strategy"] == "exact"
        except ValueError:
            return False

    @property
    def kernel_limit_gb(self) -> float:
        """``max_kernel_gb``, or this machine's: the memory budget less what a fold needs beside its kernel."""
        if self.max_kernel_gb is not None:
            return float(self.max_kernel_gb)
        return max(0.0, (memory_budget_mb() - _BESIDE_KERNEL_MB) * 2**20 / 1e9)

    def plan(self, n_train: int, n_positives: int | None = None) -> dict:
        """How a fold with ``n_train`` training compounds is fitted.

        ``{"strategy": "exact", "fit_compounds": n_train, "kernel_gb": ...}`` when the
        kernel (of at most ``working_set`` compounds, if set) is within :attr:`kernel_limit_gb`; else, with ``large="subsample"``,
        ``{"strategy": "subsample", "fit_compounds": m, "kernel_gb": ..., "kernel_gb_full": ...}``
        with m the most compounds whose kernel fits; with ``large="nystroem"``,
        ``{"strategy": "nystroem", "fit_compounds": n_train, "landmarks": m, "kernel_gb": ...,
        "kernel_gb_full": ...}``, m the most landmarks (up to ``landmarks``) whose features
        (8 n_train m bytes, and an inner fold's copy when selecting) and landmark kernel (8 m^2)
        fit, "kernel_gb" their size.
        Raises ValueError (one line, with the size needed and the options) when the
        working set's kernel would not fit, with ``large="error"``, or when the positives (subsample) or the fewest landmarks
        (nystroem) would not fit.

        Parameters
        ----------
        n_train : int
            The fold's training compounds.
        n_positives : int, default=None
            Its positives (every one is kept by a subsample); None to plan without them.

        Returns
        -------
        dict
            The strategy and its sizes, as above.
        """
        return fold_plan(self, n_train, n_positives)

    @property
    def selects(self) -> bool:
        """Whether (C, class_weight) is chosen by an inner CV (a grid is given)."""
        return bool(self.C_grid or self.class_weight_grid)

    def candidates(self) -> list:
        """The (C, class_weight) set-ups the inner CV chooses among (just the fixed one without grids).

        Returns
        -------
        list of tuple
            The ``(C, class_weight)`` set-ups, in the order ties are broken.
        """
        return [
            (float(C), cw)
            for cw in (self.class_weight_grid or [self.class_weight])
            for C in sorted(self.C_grid or [self.C])
        ]

    def _fit(self, data, train, y) -> None:
        fit_fold(self, data, train, y)

    def _inner_svm(self, C, class_weight) -> SVM:
        """The SVM an exact inner CV fits at a set-up: this one's cache and working set (``choose_setup``)."""
        return SVM(C=C, class_weight=class_weight, cache_size=self.cache_size, working_set=self.working_set)

    def rounds(self, n_candidates: int) -> int:
        """Rounds of the full selection: 1 without halving, else 1 + floor(log_h(n_candidates)); with
        ``halving_rounds``, only the first ``halving_rounds`` of them run.

        Parameters
        ----------
        n_candidates : int
            The number of set-ups.

        Returns
        -------
        int
            The rounds of the full selection.
        """
        return n_rounds(self.halving, n_candidates)

    def info(self) -> dict:
        """What the fit chose and learned: C, class weight, support vectors, intercept, the inner CV's values.

        Returns
        -------
        dict
            JSON-serializable: ``C``, ``class_weight``, ``support_vectors``, ``intercept``, with a grid the
            ``select_metric`` and every set-up's inner-CV value, and the fit's strategy for a large fold.
        """
        return fold_info(self)

    @staticmethod
    def _decision(data, rows, support, dual_coef, intercept) -> np.ndarray:
        return data.similarity_dot(rows, support, dual_coef) + intercept

    def decision(self, data, rows) -> np.ndarray:
        """The SVM's decision function on ``rows`` (whatever ``score`` is).

        Parameters
        ----------
        data : SimilarityIndex
            The dataset as the models see it (:class:`~crocbench.similarity.SimilarityIndex`).
        rows : array-like of int
            Row indices of the compounds scored.

        Returns
        -------
        ndarray of float64 of shape (len(rows),)
            The decision values.
        """
        return self._decision(data, np.asarray(rows), self.support_, self.dual_coef_, self.intercept_)

    def probability(self, decision) -> np.ndarray:
        """Platt's probability of decision values (needs ``score="platt"``).

        Parameters
        ----------
        decision : array-like
            Decision values of this model.

        Returns
        -------
        ndarray of float64
            ``1 / (1 + exp(A f + B))`` with the fitted (A, B).
        """
        if self.platt_ is None:
            raise ValueError("no Platt sigmoid: fit with score='platt'")
        a, b = self.platt_
        return np.exp(-np.logaddexp(0.0, a * np.asarray(decision) + b))  # 1 / (1 + exp(A f + B)), no overflow

    def _score(self, data, rows):
        decision = self.decision(data, rows)
        return decision if self.platt_ is None else self.probability(decision)

"""Fitting the SVM on a fold: exact LIBSVM on all training compounds or a subsample, or a linear SVM on Nystroem
features (the plan of :mod:`._svm_plan`)."""

from __future__ import annotations

import time

import numpy as np

from .._extras import needs
from ..similarity import KernelBuffer
from ..similarity._dot import ordered_dot
from ._linear import inner_linear_decisions, linear_svm, nystroem_map
from ._platt import _fit_platt, platt_fit
from ._svm_working import balanced_weights, working_set_fit


class _SVMFit:
    """The fitting half of :class:`~crocbench.models.SVM` (its parameters, plan and inner CV are the SVM's)."""

    def _say(self, line: str) -> None:
        """One progress line, where the model has a stream for them."""
        if self.progress is not None:
            print(line, file=self.progress, flush=True)

    def _subsample(self, y) -> np.ndarray:
        """Positions of the compounds a large fold fits on: every positive and a seeded random subset of negatives."""
        positives, negatives = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
        take = self.plan_["fit_compounds"] - positives.size
        rng = np.random.default_rng([*np.atleast_1d(self.seed).tolist(), 0x5B])  # apart from the inner CV's draws
        return np.sort(np.concatenate([positives, rng.choice(negatives, take, replace=False)]))

    def _svc(self, C, class_weight):
        with needs("crocbench.models"):
            from sklearn.svm import SVC

        return SVC(C=C, kernel="precomputed", class_weight=class_weight, cache_size=self.cache_size)

    def _fit(self, data, train, y) -> None:
        self.plan_ = self.plan(train.size, int(y.sum()))
        self.support_count_, self.working_rounds_ = None, None
        if self.plan_["strategy"] == "nystroem":
            return self._fit_nystroem(data, train, y)
        if self.plan_["strategy"] == "subsample":
            keep = self._subsample(y)
            self._say(
                f"large: the training kernel of {train.size:,} compounds would need "
                f"{self.plan_['kernel_gb_full']:.1f} GB > {self.kernel_limit_gb:.1f} GB; subsample: exact "
                f"LIBSVM on all {int(y.sum()):,} positives and {keep.size - int(y.sum()):,} of "
                f"{int((y == 0).sum()):,} negatives ({keep.size:,} compounds, {self.plan_['kernel_gb']:.1f} GB)"
            )
            train, y = train[keep], y[keep]
        buffer = KernelBuffer()
        self.inner_values_ = self.inner_decision_ = None
        working = self.plan_["strategy"] == "exact" and self.working_set is not None and train.size > self.working_set
        if self.selects:  # the final kernel's memory, reused by the smaller inner ones first
            buffer.take(self.working_set if working else train.size)
            self.C_, self.class_weight_ = self._select(data, train, y, buffer)
        else:
            self.C_, self.class_weight_ = self.C, self.class_weight
        if working:
            self._fit_working_sets(data, train, y, buffer)
            self.platt_ = platt_fit(self.training_decision_, y) if self.score_kind == "platt" else None
            del buffer
            return
        start = time.perf_counter()
        kernel = data.kernel(train, progress=self.progress, buffer=buffer)
        built = time.perf_counter()
        self._libsvm(kernel, train, y)
        self._say(
            f"final fit: kernel of {train.size} compounds {built - start:.1f} s, LIBSVM "
            f"{time.perf_counter() - built:.1f} s, {self.support_.size} support vectors"
        )
        self.platt_ = None
        if self.score_kind == "platt":
            _fit_platt(kernel, [self], y)
        del kernel, buffer

    def _fit_working_sets(self, data, train, y, buffer=None) -> None:
        """Exact LIBSVM at ``C_``, ``class_weight_`` on all of ``train``, fitted on working sets
        (``working_set_fit`` (``crocbench.models._svm_working``)); the class weights are all of ``train``'s."""
        weights = balanced_weights(y) if self.class_weight_ == "balanced" else None
        svc = self._svc(self.C_, weights)
        # the chosen set-up's inner cross-validated decisions, where an inner CV chose it: the first working set
        guide = getattr(self, "inner_decision_", None)
        if guide is not None and guide.size != train.size:
            guide = None

        def fit_kernel(kernel, y_set):
            svc.fit(kernel, y_set)
            return svc.support_, svc.dual_coef_[0].astype(np.float64), float(svc.intercept_[0])

        start = time.perf_counter()
        local, self.dual_coef_, self.intercept_, self.training_decision_, self.working_rounds_ = working_set_fit(
            fit_kernel,
            data,
            train,
            y,
            self.working_set,
            svc.tol,
            seed=self.seed,
            buffer=buffer,
            progress=self.progress,
            first=self.working_set // 2,
            guide=guide,
        )
        self.support_local_, self.support_ = local, train[local]
        self._say(
            f"fit on working sets: {train.size:,} compounds, {self.working_rounds_} LIBSVM fits of at most "
            f"{self.working_set:,}, {time.perf_counter() - start:.1f} s, {local.size} support vectors"
        )

    def _fit_nystroem(self, data, train, y) -> None:
        """A linear L2-loss SVM on Nystroem features, kept as a kernel expansion over the landmarks."""
        m = self.plan_["landmarks"]
        rng = np.random.default_rng([*np.atleast_1d(self.seed).tolist(), 0x4E])  # apart from the other draws
        pick = np.sort(rng.choice(train.size, m, replace=False))
        start = time.perf_counter()
        features, mapping = nystroem_map(data, train, train[pick])
        self._say(
            f"large: the training kernel of {train.size:,} compounds would need "
            f"{self.plan_['kernel_gb_full']:.1f} GB > {self.kernel_limit_gb:.1f} GB; nystroem: a linear SVM on "
            f"{mapping.shape[1]:,} Nystroem features of {m:,} seeded landmark compounds "
            f"({self.plan_['kernel_gb']:.2f} GB, {time.perf_counter() - start:.1f} s)"
        )
        self.inner_values_ = self.inner_decision_ = None
        if self.selects:

            def inner_cv(setups, share):
                return inner_linear_decisions(features, y, setups, self.inner_folds, self.seed, share)

            self.C_, self.class_weight_ = self._select(data, train, y, inner_cv=inner_cv)
        else:
            self.C_, self.class_weight_ = self.C, self.class_weight
        w, b = linear_svm(features, y, self.C_, self.class_weight_)
        training = features @ w + b
        self.support_local_, self.support_ = pick, train[pick]  # the decision is a kernel expansion on the landmarks
        self.dual_coef_, self.intercept_ = ordered_dot(mapping, w), b
        self.support_count_ = int(np.count_nonzero(np.where(y == 1, training, -training) < 1))
        self.rank_ = int(mapping.shape[1])
        self.platt_ = platt_fit(training, y) if self.score_kind == "platt" else None
        self._say(
            f"final fit: linear SVM on {train.size:,} compounds x {mapping.shape[1]:,} features, "
            f"{time.perf_counter() - start:.1f} s, {self.support_count_} support vectors"
        )

    def _libsvm(self, kernel, train, y) -> None:
        """LIBSVM on a precomputed training kernel (rows and columns = ``train``) at ``C_``, ``class_weight_``."""
        svc = self._svc(self.C_, self.class_weight_).fit(kernel, y)
        self.support_local_ = svc.support_  # positions in ``train``
        self.support_ = train[svc.support_]
        self.dual_coef_ = svc.dual_coef_[0].astype(np.float64)
        self.intercept_ = float(svc.intercept_[0])

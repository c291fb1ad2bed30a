"""Support vector machine on the Tanimoto kernel (LIBSVM through scikit-learn)."""

from __future__ import annotations

import numpy as np

from ._base import Model


class SVM(Model):
    """``sklearn.svm.SVC(kernel="precomputed")`` on the exact Tanimoto kernel.

    Memory: the float64 training kernel LIBSVM needs (n_train^2 x 8 bytes, 11.3 GB for
    37,700 compounds) is built once, directly from the fingerprints, and freed right
    after training; only the support vectors are kept, and test compounds are scored
    against them alone, so a test kernel never sits beside the training one.

    Parameters
    ----------
    C : float
    C_grid : sequence of float, optional
        If given, C is chosen by an inner stratified ``inner_folds``-fold CV on the
        training compounds, maximizing ``select_metric`` on the pooled inner scores.
        Each inner kernel is built and freed in turn (peak memory stays below the
        final fit's).
    class_weight : None or "balanced"
        LIBSVM's per-class C: "balanced" weighs each class by n / (2 n_class).
    score : "decision" or "platt"
        The decision function, or Platt's probability ``1 / (1 + exp(A f + B))``
        with (A, B) fitted (:func:`crocbench.cv.platt_fit`) to this model's own
        decision values on its training compounds.  The map is monotone, so a
        fold's ranking is unchanged, but it puts every fold's model on one
        probability scale, so pooled out-of-fold scores are comparable.  It is
        fitted in-sample (nearly free: the training kernel is still in memory);
        LIBSVM's ``-b 1`` fits it on an inner cross-validation instead, at five
        times the cost, and gives less over-confident probabilities.
    """

    name = "svm"

    def __init__(self, C: float = 1.0, C_grid=None, inner_folds: int = 3, select_metric: str = "roc_auc",
                 class_weight=None, score: str = "decision", cache_size: float = 500.0, seed: int = 0, progress=None):
        if class_weight not in (None, "balanced"):
            raise ValueError(f"class_weight must be None or 'balanced'; got {class_weight!r}")
        if score not in ("decision", "platt"):
            raise ValueError(f"score must be 'decision' or 'platt'; got {score!r}")
        self.C, self.C_grid, self.inner_folds = float(C), C_grid, int(inner_folds)
        self.class_weight, self.score_kind = class_weight, score
        self.select_metric, self.cache_size, self.seed, self.progress = select_metric, cache_size, seed, progress

    def _svc(self, C):
        from sklearn.svm import SVC

        return SVC(C=C, kernel="precomputed", class_weight=self.class_weight, cache_size=self.cache_size)

    def _select_C(self, sim, train, y) -> float:
        from ..cv import stratified_folds
        from ..metrics import Ranking, parse_metric

        metric = parse_metric(self.select_metric)
        inner = stratified_folds(y, self.inner_folds, self.seed)
        scores = {C: np.empty(y.size) for C in self.C_grid}
        for f in range(self.inner_folds):
            fit_rows, held = np.flatnonzero(inner != f), np.flatnonzero(inner == f)
            kernel = sim.kernel(train[fit_rows])
            for C in self.C_grid:
                svc = self._svc(C).fit(kernel, y[fit_rows])
                scores[C][held] = self._decision(sim, train[held], train[fit_rows][svc.support_],
                                                 svc.dual_coef_[0], svc.intercept_[0])
            del kernel
        values = {C: metric.value(Ranking(y, s)) for C, s in scores.items()}
        if self.progress is not None:
            print("inner CV " + ", ".join(f"C={C:g}: {v:.4f}" for C, v in values.items()), file=self.progress)
        return max(self.C_grid, key=lambda C: (values[C], -C))  # ties: the smaller C

    def _fit(self, sim, train, y) -> None:
        self.C_ = self._select_C(sim, train, y) if self.C_grid else self.C
        kernel = sim.kernel(train, progress=self.progress)
        self._fit_kernel(kernel, train, y)
        del kernel

    def _fit_kernel(self, kernel, train, y) -> None:
        """LIBSVM on a precomputed training kernel (rows and columns = ``train``), at ``self.C_``."""
        svc = self._svc(self.C_).fit(kernel, y)
        self.platt_ = None
        if self.score_kind == "platt":
            from ..cv import platt_fit

            dual = np.zeros(kernel.shape[0])  # decision values of the training compounds, without
            dual[svc.support_] = svc.dual_coef_[0]  # copying the kernel's support-vector columns
            self.platt_ = platt_fit(kernel @ dual + svc.intercept_[0], y)
        self.support_ = train[svc.support_]
        self.dual_coef_ = svc.dual_coef_[0].astype(np.float64)
        self.intercept_ = float(svc.intercept_[0])

    @classmethod
    def grid(cls, sim, train, y, test, Cs, class_weights=(None,), progress=None) -> dict:
        """Decision values and Platt probabilities of ``test`` for every (C, class_weight), one kernel.

        The training kernel is built once and shared by every fit (the
        sensitivity study's cost is the kernel plus one LIBSVM fit per set-up).
        Returns ``{(C, class_weight): (decision, probability)}``.
        """
        kernel = sim.kernel(train, progress=progress)
        out = {}
        for class_weight in class_weights:
            for C in Cs:
                model = cls(C=C, class_weight=class_weight, score="platt", progress=progress)
                model.C_ = float(C)
                model._fit_kernel(kernel, train, np.asarray(y))
                decision = model.decision(sim, test)
                out[(float(C), class_weight)] = (decision, model.probability(decision))
                if progress is not None:
                    print(f"C={C:g} class_weight={class_weight}: {model.support_.size} support vectors",
                          file=progress, flush=True)
        del kernel
        return out
    def info(self) -> dict:
        out = {"C": self.C_, "support_vectors": int(self.support_.size), "intercept": self.intercept_}
        if self.platt_ is not None:
            out["platt_A"], out["platt_B"] = self.platt_
        return out

    @staticmethod
    def _decision(sim, rows, support, dual_coef, intercept, block: int = 4096) -> np.ndarray:
        out = np.empty(rows.size)
        for i in range(0, rows.size, block):
            k = sim.similarities(rows[i:i + block], support).astype(np.float64)
            out[i:i + block] = k @ dual_coef + intercept
        return out

    def decision(self, sim, rows) -> np.ndarray:
        """The SVM's decision function on ``rows`` (whatever ``score`` is)."""
        return self._decision(sim, np.asarray(rows), self.support_, self.dual_coef_, self.intercept_)

    def probability(self, decision) -> np.ndarray:
        """Platt's probability of decision values (needs ``score="platt"``)."""
        if self.platt_ is None:
            raise ValueError("no Platt sigmoid: fit with score='platt'")
        a, b = self.platt_
        return np.exp(-np.logaddexp(0.0, a * np.asarray(decision) + b))  # 1 / (1 + exp(A f + B)), no overflow

    def _score(self, sim, rows):
        decision = self.decision(sim, rows)
        return decision if self.platt_ is None else self.probability(decision)

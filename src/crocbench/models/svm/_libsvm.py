"""The SVM's LIBSVM fits, each of an :class:`~crocbench.models.SVM` at its chosen ``C_``, ``class_weight_``: on one
precomputed training kernel (:func:`libsvm`), or exactly in bounded memory on working sets
(:func:`fit_working_sets`, the loop of :mod:`._working`).  The fit of a fold (:mod:`._fit`) and the inner CV
(:mod:`._select`) both call them."""

from __future__ import annotations

import time

import numpy as np

from ..._extras import needs
from ._working import balanced_weights, working_set_fit


def say(model, line: str) -> None:
    """One progress line, where the model has a stream for them."""
    if model.progress is not None:
        print(line, file=model.progress, flush=True)


def svc(model, C, class_weight):
    """scikit-learn's ``SVC`` on a precomputed kernel, at ``C`` and ``class_weight``, with ``model``'s cache."""
    with needs("crocbench.models"):
        from sklearn.svm import SVC

    return SVC(C=C, kernel="precomputed", class_weight=class_weight, cache_size=model.cache_size)


def fit_svc(fitted, kernel, y):
    """``fitted.fit(kernel, y)`` without scikit-learn's pass over every entry of the kernel for NaN and infinity
    (a Tanimoto kernel is finite): the same call of LIBSVM, the same answer."""
    with needs("crocbench.models"):
        from sklearn import config_context  # its configuration is the thread's: fits on other threads unaffected

    with config_context(assume_finite=True):
        return fitted.fit(kernel, y)


def libsvm(model, kernel, train, y) -> None:
    """LIBSVM on a precomputed training kernel (rows and columns = ``train``) at ``model.C_``, ``model.class_weight_``."""
    fitted = fit_svc(svc(model, model.C_, model.class_weight_), kernel, y)
    model.support_local_ = fitted.support_  # positions in ``train``
    model.support_ = train[fitted.support_]
    model.dual_coef_ = fitted.dual_coef_[0].astype(np.float64)
    model.intercept_ = float(fitted.intercept_[0])


def fit_working_sets(model, data, train, y, buffer=None) -> None:
    """Exact LIBSVM at ``model.C_``, ``model.class_weight_`` on all of ``train``, fitted on working sets
    (:func:`~._working.working_set_fit`); the class weights are all of ``train``'s."""
    weights = balanced_weights(y) if model.class_weight_ == "balanced" else None
    fitted = svc(model, model.C_, weights)
    # the chosen set-up's inner cross-validated decisions, where an inner CV chose it: the first working set
    guide = getattr(model, "inner_decision_", None)
    if guide is not None and guide.size != train.size:
        guide = None

    def fit_kernel(kernel, y_set):
        fit_svc(fitted, kernel, y_set)
        return fitted.support_, fitted.dual_coef_[0].astype(np.float64), float(fitted.intercept_[0])

    start = time.perf_counter()
    local, model.dual_coef_, model.intercept_, model.training_decision_, model.working_rounds_ = working_set_fit(
        fit_kernel,
        data,
        train,
        y,
        model.working_set,
        fitted.tol,
        seed=model.seed,
        buffer=buffer,
        progress=model.progress,
        first=model.working_set // 2,
        guide=guide,
    )
    model.support_local_, model.support_ = local, train[local]
    say(
        model,
        f"fit on working sets: {train.size:,} compounds, {model.working_rounds_} LIBSVM fits of at most "
        f"{model.working_set:,}, {time.perf_counter() - start:.1f} s, {local.size} support vectors",
    )

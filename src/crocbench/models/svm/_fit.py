"""Fitting the SVM on a fold: exact LIBSVM on all training compounds (on one kernel or on working sets) or a
subsample, or a linear SVM on Nystroem features (the plan of :mod:`._plan`), with (C, class_weight) chosen by the
inner CV of :mod:`._select` where grids are given.  :meth:`SVM.fit <crocbench.models.SVM.fit>` calls
:func:`fit_fold`."""

from __future__ import annotations

import time

import numpy as np

from ...similarity import KernelBuffer
from ...similarity._dot import ordered_dot
from ._libsvm import fit_working_sets, libsvm, say
from ._linear import inner_linear_decisions, linear_svm, nystroem_map
from ._platt import _fit_platt, platt_fit
from ._select import choose_setup


def subsample(model, y) -> np.ndarray:
    """Positions of the compounds a large fold fits on: every positive and a seeded random subset of negatives (another
    one for each ``subsample_seed``)."""
    positives, negatives = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    take = model.plan_["fit_compounds"] - positives.size
    seed = [*np.atleast_1d(model.seed).tolist(), 0x5B]  # apart from the inner CV's draws
    rng = np.random.default_rng(seed + ([model.subsample_seed] if model.subsample_seed else []))
    return np.sort(np.concatenate([positives, rng.choice(negatives, take, replace=False)]))


def fit_fold(model, data, train, y) -> None:
    """Fit ``model`` (an :class:`~crocbench.models.SVM`) on the fold's training compounds ``train``, labels ``y``."""
    model.plan_ = model.plan(train.size, int(y.sum()))
    model.support_count_, model.working_rounds_ = None, None
    if model.plan_["strategy"] == "nystroem":
        return fit_nystroem(model, data, train, y)
    if model.plan_["strategy"] == "subsample":
        keep = subsample(model, y)
        say(
            model,
            f"large: the training kernel of {train.size:,} compounds would need "
            f"{model.plan_['kernel_gb_full']:.1f} GB > {model.kernel_limit_gb:.1f} GB; subsample: exact "
            f"LIBSVM on all {int(y.sum()):,} positives and {keep.size - int(y.sum()):,} of "
            f"{int((y == 0).sum()):,} negatives ({keep.size:,} compounds, {model.plan_['kernel_gb']:.1f} GB)",
        )
        train, y = train[keep], y[keep]
    buffer = KernelBuffer()
    model.inner_values_ = model.inner_decision_ = None
    working = model.plan_["strategy"] == "exact" and model.working_set is not None and train.size > model.working_set
    if model.selects:  # the final kernel's memory, reused by the smaller inner ones first
        buffer.take(model.working_set if working else train.size)
        model.C_, model.class_weight_ = choose_setup(model, data, train, y, buffer)
    else:
        model.C_, model.class_weight_ = model.C, model.class_weight
    if working:
        fit_working_sets(model, data, train, y, buffer)
        model.platt_ = platt_fit(model.training_decision_, y) if model.score_kind == "platt" else None
        del buffer
        return
    start = time.perf_counter()
    kernel = data.kernel(train, progress=model.progress, buffer=buffer)
    built = time.perf_counter()
    libsvm(model, kernel, train, y)
    say(
        model,
        f"final fit: kernel of {train.size} compounds {built - start:.1f} s, LIBSVM "
        f"{time.perf_counter() - built:.1f} s, {model.support_.size} support vectors",
    )
    model.platt_ = None
    if model.score_kind == "platt":
        _fit_platt(kernel, [model], y)
    del kernel, buffer


def fit_nystroem(model, data, train, y) -> None:
    """A linear L2-loss SVM on Nystroem features, kept as a kernel expansion over the landmarks."""
    m = model.plan_["landmarks"]
    rng = np.random.default_rng([*np.atleast_1d(model.seed).tolist(), 0x4E])  # apart from the other draws
    pick = np.sort(rng.choice(train.size, m, replace=False))
    start = time.perf_counter()
    features, mapping = nystroem_map(data, train, train[pick])
    say(
        model,
        f"large: the training kernel of {train.size:,} compounds would need "
        f"{model.plan_['kernel_gb_full']:.1f} GB > {model.kernel_limit_gb:.1f} GB; nystroem: a linear SVM on "
        f"{mapping.shape[1]:,} Nystroem features of {m:,} seeded landmark compounds "
        f"({model.plan_['kernel_gb']:.2f} GB, {time.perf_counter() - start:.1f} s)",
    )
    model.inner_values_ = model.inner_decision_ = None
    if model.selects:

        def inner_cv(setups, share):
            return inner_linear_decisions(features, y, setups, model.inner_folds, model.seed, share)

        model.C_, model.class_weight_ = choose_setup(model, data, train, y, inner_cv=inner_cv)
    else:
        model.C_, model.class_weight_ = model.C, model.class_weight
    w, b = linear_svm(features, y, model.C_, model.class_weight_)
    training = features @ w + b
    model.support_local_, model.support_ = pick, train[pick]  # the decision is a kernel expansion on the landmarks
    model.dual_coef_, model.intercept_ = ordered_dot(mapping, w), b
    model.support_count_ = int(np.count_nonzero(np.where(y == 1, training, -training) < 1))
    model.rank_ = int(mapping.shape[1])
    model.platt_ = platt_fit(training, y) if model.score_kind == "platt" else None
    say(
        model,
        f"final fit: linear SVM on {train.size:,} compounds x {mapping.shape[1]:,} features, "
        f"{time.perf_counter() - start:.1f} s, {model.support_count_} support vectors",
    )

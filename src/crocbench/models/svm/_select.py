"""The SVM's inner cross-validation: LIBSVM fits sharing one kernel, and the choice of (C, class_weight).

:func:`inner_decisions` gives every set-up's inner cross-validated decision values,
:func:`select_setup` chooses among them, by successive halving if asked, and
:func:`choose_setup` is that choice for an :class:`~crocbench.models.SVM` fitting a fold.
:func:`_fit_all` and :func:`_decisions` (one kernel for many fits, one similarity block
for many models) also serve the sensitivity study's grid (:func:`crocbench.models.svm_grid`).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...cv import stratified_folds
from ...metrics import Ranking, parse_metric
from ._libsvm import fit_working_sets, libsvm


def select_setup(
    setups,
    y,
    inner_cv,
    select_metric: str = "roc",
    inner_folds: int = 3,
    halving: int | None = None,
    halving_rounds: int | None = None,
    progress=None,
) -> tuple:
    """The set-up whose inner cross-validated decision values rank ``y`` best, by successive halving if asked.

    Round r of R = :func:`n_rounds` (or of the first ``halving_rounds``) fits the
    surviving set-ups on 1/share of each inner training set, share = ``halving`` ^
    (R - 1 - r) (1 without halving), and keeps the best ceil(#/``halving``); the last
    round run chooses.  Ties go to the earlier set-up of ``setups``.

    Parameters
    ----------
    setups : list of (C, class_weight)
        The candidates, ties broken by this order.
    y : ndarray of 0/1
        The training labels, in the order of the inner decision values.
    inner_cv : callable
        ``inner_cv(setups, share) -> {setup: decision values}``, pooled over the inner
        folds (:func:`inner_decisions`, or :func:`~crocbench.models.svm._linear.inner_linear_decisions`).
    select_metric : str
        The metric spec maximized, e.g. ``"roc"`` or ``"croc_exp_80"``.
    inner_folds : int
        The inner folds, for the log lines.
    halving, halving_rounds : int or None
        As :class:`~crocbench.models.SVM`'s.
    progress : stream, optional
        One line per round and one for the choice.

    Returns
    -------
    choice : (C, class_weight)
    rounds : list of (share, dict)
        Per round run, the share and every surviving set-up's metric value.
    """
    metric = parse_metric(select_metric)
    rounds = n_rounds(halving, len(setups))
    run = rounds if halving_rounds is None else min(rounds, halving_rounds)
    alive, record = setups, []
    for r in range(run):
        share = 1 if halving is None else halving ** (rounds - 1 - r)  # fit on 1/share
        inner = inner_cv(alive, share)
        values = {setup: float(metric.value(Ranking(y, d))) for setup, d in inner.items()}
        record.append((share, values))
        if progress is not None:
            print(
                f"inner {inner_folds}-fold CV ({metric.key})"
                + (f", round {r + 1}/{run} on 1/{share} of each inner training set" if rounds > 1 else "")
                + ": "
                + ", ".join(f"C={C:g} {cw or 'none'} {v:.4f}" for (C, cw), v in values.items()),
                file=progress,
                flush=True,
            )
        if r < run - 1:
            keep = -(-len(alive) // halving)
            alive = sorted(alive, key=lambda s: (-values[s], setups.index(s)))[:keep]
            alive.sort(key=setups.index)
    best = max(values.values())
    choice = next(s for s in setups if values.get(s) == best)
    if progress is not None:
        print(f"chosen C={choice[0]:g} class_weight={choice[1]}", file=progress, flush=True)
    return choice, record


def choose_setup(model, data, train, y, buffer=None, inner_cv=None) -> tuple:
    """The (C, class_weight) of ``model``'s inner CV (:func:`select_setup` over its candidates, with its metric,
    folds and halving); ``inner_cv(setups, share)`` gives the inner decisions (by default exact LIBSVM's,
    :func:`inner_decisions` of SVMs with ``model``'s cache and working set).  Sets ``model.inner_rounds_``,
    ``model.inner_values_`` (the last round's) and ``model.inner_decision_`` (the chosen set-up's inner
    decisions in the last round, which guide its working sets)."""
    if inner_cv is None:

        def inner_cv(setups, share):
            return inner_decisions(
                model._inner_svm,
                data,
                train,
                y,
                setups,
                model.inner_folds,
                model.seed,
                model.n_jobs,
                buffer,
                model.progress,
                share=share,
            )

    last = {}

    def kept(setups, share):  # the last round's decisions: the chosen set-up's guide the working sets
        last.clear()
        last.update(inner_cv(setups, share))
        return last

    choice, model.inner_rounds_ = select_setup(
        model.candidates(),
        y,
        kept,
        model.select_metric,
        model.inner_folds,
        model.halving,
        model.halving_rounds,
        model.progress,
    )
    model.inner_values_ = model.inner_rounds_[-1][1]
    model.inner_decision_ = last.get(choice)
    return choice


def n_rounds(halving: int | None, n_candidates: int) -> int:
    """Rounds of the full selection: 1 without halving, else 1 + floor(log_halving(n_candidates))."""
    rounds = 1
    while halving is not None and halving**rounds <= n_candidates:
        rounds += 1
    return rounds


def _fit_all(kernel, train, y, models, n_jobs: int = 1, progress=None) -> None:
    """LIBSVM fits of ``models`` (each at its ``C``, ``class_weight``) on one training kernel, ``n_jobs`` at a time."""
    start = time.perf_counter()

    def fit(model):
        model.C_, model.class_weight_ = model.C, model.class_weight
        libsvm(model, kernel, train, y)
        if progress is not None:
            print(
                f"C={model.C:g} class_weight={model.class_weight}: {model.support_.size} support vectors "
                f"({time.perf_counter() - start:.1f} s)",
                file=progress,
                flush=True,
            )

    with ThreadPoolExecutor(max_workers=max(1, int(n_jobs))) as pool:
        list(pool.map(fit, models))


def _decisions(data, rows, reference, models) -> np.ndarray:
    """Decision values of ``rows`` for each model trained on ``reference`` (support_local_ indexes it): (models, rows).

    One pass over the similarities of ``rows`` and the reference compounds that are some model's support vector
    (:meth:`~crocbench.similarity.SimilarityIndex.similarity_dot`), shared by every model, against their
    (compounds x models) matrix of dual coefficients (zero off each model's support vectors), each sum in
    reference order: the same bits on every CPU.  A compound no model keeps would add ``+0.0`` to every sum
    (a sum that starts at ``+0.0`` is never ``-0.0``), so leaving it out changes no bit.  Values equal
    :meth:`SVM.decision` (support vectors only) to rounding.
    """
    duals = _dual_matrix(len(reference), models)
    kept = np.flatnonzero(np.any(duals != 0, axis=1))
    intercepts = np.array([m.intercept_ for m in models])
    return (data.similarity_dot(np.asarray(rows), np.asarray(reference)[kept], duals[kept]) + intercepts).T


def _dual_matrix(n: int, models) -> np.ndarray:
    """(n, models) dual coefficients, each model's at its support vectors' positions, zero elsewhere."""
    duals = np.zeros((n, len(models)))
    for j, m in enumerate(models):
        duals[m.support_local_, j] = m.dual_coef_
    return duals


def inner_decisions(
    estimator,
    data,
    train,
    y,
    setups,
    inner_folds: int = 3,
    seed=0,
    n_jobs: int = 1,
    buffer=None,
    progress=None,
    share: int = 1,
) -> dict:
    """Inner cross-validated decision values of the training compounds for every (C, class_weight) set-up.

    The training compounds are split into ``inner_folds`` stratified folds
    (``seed``); for each, every set-up is fitted on the others (one kernel,
    ``n_jobs`` fits at a time) and scores it.  With ``share`` > 1 the fits use
    only a stratified 1/share of the others (part 0 of their ``share``-fold
    stratified split, seeded by ``seed`` and the inner fold); the held-out fold
    is scored whole.  Returns ``{setup: decision}``, the decisions in ``train``
    order (pooled over the inner folds).  Each set-up is fitted as
    ``estimator(C=C, class_weight=cw)``, an :class:`~crocbench.models.SVM` made by it
    (it imports this module); an inner training set larger than its ``working_set``
    is fitted on working sets, one set-up at a time.
    """
    y = np.asarray(y)
    inner = stratified_folds(y, inner_folds, seed)
    out = {setup: np.empty(y.size) for setup in setups}
    start = time.perf_counter()

    def say(what):
        if progress is not None:
            print(
                f"inner fold {f + 1}/{inner_folds}: {what} ({time.perf_counter() - start:.1f} s)",
                file=progress,
                flush=True,
            )

    for f in range(inner_folds):
        fit_rows, held = np.flatnonzero(inner != f), np.flatnonzero(inner == f)
        if share > 1:
            fit_rows = fit_rows[stratified_folds(y[fit_rows], share, [*np.atleast_1d(seed).tolist(), f]) == 0]
        models = [estimator(C=C, class_weight=cw) for C, cw in setups]
        if models[0].working_set is not None and fit_rows.size > models[0].working_set:
            for model in models:  # each on working sets of its own (their kernels in ``buffer``)
                model.C_, model.class_weight_ = model.C, model.class_weight
                fit_working_sets(model, data, train[fit_rows], y[fit_rows], buffer)
                say(
                    f"C={model.C:g} class_weight={model.class_weight}: on working sets, {model.support_.size} "
                    f"support vectors"
                )
        else:
            kernel = data.kernel(train[fit_rows], buffer=buffer)
            say(f"kernel of {fit_rows.size} compounds")
            _fit_all(kernel, train[fit_rows], y[fit_rows], models, n_jobs, progress)
            del kernel
        for setup, d in zip(setups, _decisions(data, train[held], train[fit_rows], models)):
            out[setup][held] = d
        say(f"{len(setups)} set-ups fitted, {held.size} compounds scored")
    return out

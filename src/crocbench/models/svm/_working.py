"""The SVM's exact fit in bounded memory: LIBSVM on a working set, grown until no training compound violates.

The dual of the SVM (``min 1/2 a'Qa - e'a``, ``0 <= a_i <= C_i``, ``y'a = 0``) is
solved on a working set W of the training compounds, every other compound held at
``a_i = 0`` (the decomposition of Osuna, Freund and Girosi, 1997).  Such a solution
is the full problem's optimum when every compound outside W meets its optimality
condition ``y_i f(x_i) >= 1``, so after each LIBSVM fit on W the decision function
is evaluated on all training compounds; those below ``1 - tol / 2`` join W (the
most violating first), with the support vectors, until none is left.  The answer
meets LIBSVM's own stopping rule on the whole training set to within ``tol / 2``
(LIBSVM stops when the largest violating pair is within ``tol``), so it is the
optimum a single LIBSVM fit finds, to LIBSVM's tolerance; the kernel held is W's,
not the training set's (3.2 GB at 20,000 compounds instead of 11.4 GB at 37,715).

The first working set decides how many fits the loop needs.  Where the set-up was chosen by an inner CV,
its inner cross-validated decision values estimate every training compound's margin before any fit,
and the compounds nearest it or on its wrong side (the likely support vectors) make the first set
(:func:`guided_set`): on ``dtp_aids`` two fits of 20,000 compounds in six of the ten folds and three in four,
instead of three fits (10,000, then 20,000 twice) in every fold.  The answer is the same optimum either way, to
LIBSVM's tolerance.
"""

from __future__ import annotations

import time

import numpy as np

from ...similarity._dot import columns_dot


def balanced_weights(y) -> dict:
    """scikit-learn's ``class_weight="balanced"`` of the labels ``y`` (n / (2 n_class)), as an explicit dict.

    A working set's class shares are not the training set's, so its fits take the training set's weights.
    """
    y = np.asarray(y)
    counts = np.bincount(y.astype(np.int64), minlength=2)
    return {c: y.size / (2 * counts[c]) for c in (0, 1)}


def training_decisions(data, train, support_local, dual_coef, intercept, kernel=None, inside=None) -> np.ndarray:
    """The decision function of a model with support vectors ``train[support_local]`` on every compound of
    ``train``, with the bits :meth:`SVM.decision <crocbench.models.SVM.decision>` gives.

    With ``kernel``, the working set's kernel (rows and columns ``train[inside]``, ``inside`` sorted positions
    holding ``support_local``), the compounds of the set take their similarities to the support vectors from
    it (the same float32 values, widened; summed in the same order: :func:`columns_dot
    <crocbench.similarity._dot.columns_dot>`); only the others' are computed."""
    if kernel is None:
        return data.similarity_dot(train, train[support_local], dual_coef) + intercept
    out = np.empty(train.size)
    outside = np.ones(train.size, dtype=bool)
    outside[inside] = False
    out[outside] = data.similarity_dot(train[outside], train[support_local], dual_coef)
    out[inside] = columns_dot(kernel, np.searchsorted(inside, support_local), dual_coef)
    return out + intercept


def initial_set(y, size: int, seed) -> np.ndarray:
    """The first working set (positions, sorted): every positive, or half the set if they are more, and seeded
    random negatives for the rest (or as many as there are)."""
    positives, negatives = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    n_pos = min(positives.size, max(size - negatives.size, size // 2))
    n_neg = min(negatives.size, size - n_pos)
    rng = np.random.default_rng([*np.atleast_1d(seed).tolist(), 0x57])  # apart from the SVM's other draws
    if n_pos < positives.size:
        positives = rng.choice(positives, n_pos, replace=False)
    return np.sort(np.concatenate([positives, rng.choice(negatives, n_neg, replace=False)]))


def guided_set(y, size: int, guide) -> np.ndarray | None:
    """The first working set from estimated decision values ``guide`` (positions, sorted): the ``size``
    compounds of smallest estimated margin ``y_i guide_i`` (``y_i`` in {-1, +1}; ties by position), or None
    when those hold only one class (LIBSVM needs both).

    Examples
    --------
    >>> guided_set(np.array([1, 0, 0, 1, 0]), 3, np.array([2.0, -0.5, 0.3, 0.1, -2.0])).tolist()
    [1, 2, 3]
    >>> guided_set(np.array([1, 1, 0]), 2, np.array([-1.0, 0.0, -3.0])) is None
    True
    """
    y = np.asarray(y)
    margin = np.where(y == 1, 1.0, -1.0) * np.asarray(guide, dtype=np.float64)
    chosen = np.sort(np.argsort(margin, kind="stable")[:size])
    return chosen if np.unique(y[chosen]).size == 2 else None


def working_set_fit(
    fit_kernel,
    data,
    train,
    y,
    working_set: int,
    tol: float,
    seed=0,
    buffer=None,
    progress=None,
    first=None,
    guide=None,
):
    """Fit the SVM on all of ``train`` through LIBSVM fits on working sets of at most ``working_set`` compounds.

    Parameters
    ----------
    fit_kernel : callable
        ``fit_kernel(kernel, y)`` fits LIBSVM on a precomputed float64 kernel and returns
        ``(support positions, dual coefficients, intercept)``; its class weights must be the
        whole training set's (:func:`balanced_weights`), not the working set's.
    data : SimilarityIndex
        The dataset.
    train : ndarray of int
        The training compounds' rows.
    y : ndarray of {0, 1}
        Their labels.
    working_set : int
        The most compounds fitted at a time (the kernel is ``8 working_set^2`` bytes).
    tol : float
        LIBSVM's stopping tolerance; a compound outside the working set violates when
        ``y_i f(x_i) < 1 - tol / 2`` (``y_i`` in {-1, +1}).
    seed : int or sequence, default=0
        Seeds the first working set's negatives.
    buffer : KernelBuffer, default=None
        Memory for the working sets' kernels.
    progress : file-like, default=None
        Gets one line per fit.
    first : int, default=None
        The size of :func:`initial_set`'s first set (default ``working_set``).
    guide : ndarray of float64, default=None
        Estimated decision values of ``train`` (e.g. the inner CV's): the first set is then
        :func:`guided_set`'s, of ``working_set`` compounds; None (or a guide whose set would hold one class):
        :func:`initial_set`'s, of ``first``.

    Returns
    -------
    support_local : ndarray of int
        The support vectors' positions in ``train``.
    dual_coef, intercept : ndarray of float64, float
        As LIBSVM's.
    decision : ndarray of float64
        The decision function on every training compound.
    rounds : int
        The LIBSVM fits made.

    Raises
    ------
    ValueError
        When the support vectors alone outgrow ``working_set``.
    """
    y = np.asarray(y)
    signs = np.where(y == 1, 1.0, -1.0)
    current = None if guide is None else guided_set(y, min(train.size, working_set), guide)
    how = "the guide's smallest margins"
    if current is None:
        current = initial_set(y, min(train.size, first or working_set), seed)
        how = "every positive and seeded negatives"
    start, rounds = time.perf_counter(), 0
    while True:
        rounds += 1
        kernel = data.kernel(train[current], buffer=buffer)
        support, dual_coef, intercept = fit_kernel(kernel, y[current])
        support_local = current[support]
        decision = training_decisions(data, train, support_local, dual_coef, intercept, kernel, current)
        del kernel
        if current.size == train.size:  # the whole training set: LIBSVM's own answer
            return support_local, dual_coef, intercept, decision, rounds
        margin = signs * decision
        outside = np.ones(train.size, dtype=bool)
        outside[current] = False
        violators = np.flatnonzero(outside & (margin < 1 - tol / 2))
        if progress is not None:
            print(
                f"working set {rounds}" + (f" ({how})" if rounds == 1 else "") + ": "
                f"LIBSVM on {current.size:,} of {train.size:,} compounds, "
                f"{support_local.size:,} support vectors, {violators.size:,} compounds outside it violate "
                f"({time.perf_counter() - start:.1f} s)",
                file=progress,
                flush=True,
            )
        if violators.size == 0:
            return support_local, dual_coef, intercept, decision, rounds
        if support_local.size >= working_set:
            raise ValueError(
                f"the SVM's {support_local.size:,} support vectors fill its working set of {working_set:,} "
                f"compounds; raise the svm's working_set (its kernel is 8 x working_set^2 bytes)"
            )
        # the next set: the support vectors, then the other compounds by increasing margin (the violators first,
        # then those nearest the margin, inside this set or not), up to working_set compounds
        others = np.ones(train.size, dtype=bool)
        others[support_local] = False
        others = np.flatnonzero(others)
        others = others[np.argsort(margin[others], kind="stable")][: working_set - support_local.size]
        current = np.sort(np.concatenate([support_local, others]))

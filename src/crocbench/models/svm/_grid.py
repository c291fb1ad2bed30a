"""The svm_sensitivity study's grid: every (C, class_weight) on one outer fold, as a long table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...cv import fold_rows
from ._platt import _fit_platt
from ._select import _decisions, _fit_all
from ._svm import SVM


def svm_grid(data, train, y, test, Cs, class_weights=(None,), n_jobs: int = 1, buffer=None, progress=None) -> dict:
    """Decision values and Platt probabilities of ``test`` for every (C, class_weight), one kernel.

    The training kernel is built once (in ``buffer``, a
    :class:`~crocbench.similarity.KernelBuffer`, if given) and shared by
    every fit, ``n_jobs`` LIBSVM fits run at a time (threads: LIBSVM
    releases the GIL and the kernel is not copied), the Platt sigmoids take
    one pass over the kernel, and the test compounds' similarities to the
    training set are computed once.  Each set-up's values equal a separate
    ``SVM(C, class_weight, score=...)`` fit (to rounding: ~1e-15 relative).

    Parameters
    ----------
    data : SimilarityIndex
        The dataset as the models see it (:class:`~crocbench.similarity.SimilarityIndex`).
    train : array-like of int
        Row indices of the training compounds.
    y : array-like of shape (len(train),)
        Their 0/1 labels.
    test : array-like of int
        Row indices of the compounds scored.
    Cs : sequence of float
        The C values.
    class_weights : sequence of {None, "balanced"}, default=(None,)
        The class weights.
    n_jobs : int, default=1
        LIBSVM fits at a time.
    buffer : KernelBuffer, default=None
        Reused memory for the training kernel.
    progress : file-like, default=None
        Gets a line per fit.

    Returns
    -------
    dict
        ``{(C, class_weight): (decision, probability)}``.
    """
    y = np.asarray(y)
    models = [SVM(C=C, class_weight=cw, score="platt", progress=progress) for cw in class_weights for C in Cs]
    kernel = data.kernel(train, progress=progress, buffer=buffer)
    _fit_all(kernel, train, y, models, n_jobs, progress)
    _fit_platt(kernel, models, y)
    del kernel
    decisions = _decisions(data, test, train, models)
    return {(m.C, m.class_weight): (d, m.probability(d)) for m, d in zip(models, decisions)}


def grid_fold(
    data, folds: pd.DataFrame, fold: int, Cs, class_weights, n_jobs: int = 1, buffer=None, progress=None, **labels
) -> pd.DataFrame:
    """:func:`svm_grid` on one fold, as a long table.

    Columns id, fold, label, the ``labels`` given (e.g. ``fingerprint=``), C,
    class_weight ("none" or "balanced"), score ("decision" or "platt") and value;
    one row per (test compound, set-up, score).

    Parameters
    ----------
    data : SimilarityIndex
        The dataset as the models see it (:class:`~crocbench.similarity.SimilarityIndex`).
    folds : pandas.DataFrame
        The fold table (:func:`crocbench.cv.fold_table`), rows as in ``data``.
    fold : int
        The test fold.
    Cs : sequence of float
        The C values.
    class_weights : sequence of {None, "balanced"}
        The class weights.
    n_jobs : int, default=1
        LIBSVM fits at a time.
    buffer : KernelBuffer, default=None
        Reused memory for the training kernel.
    progress : file-like, default=None
        Gets a line per fit.
    **labels
        Constant columns added to the table (e.g. ``fingerprint="ecfp4"``).

    Returns
    -------
    pandas.DataFrame
        Columns ``id``, ``fold``, ``label``, the ``labels``, ``C``, ``class_weight``, ``score`` and ``value``.
    """
    y, train, test, base = fold_rows(data, folds, fold)
    grid = svm_grid(data, train, y[train], test, Cs, class_weights, n_jobs=n_jobs, buffer=buffer, progress=progress)
    parts = [
        base.assign(**labels, C=C, class_weight=class_weight or "none", score=kind, value=values)
        for (C, class_weight), scores in grid.items()
        for kind, values in zip(("decision", "platt"), scores)
    ]
    return pd.concat(parts, ignore_index=True)

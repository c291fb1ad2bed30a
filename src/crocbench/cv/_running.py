"""Running models over the folds: each fold's model fitted on the other folds and scoring it (:func:`cross_validate`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ._folds import DROPPED, fold_table, split  # noqa: F401  (fold_table: the examples use it)
from ._pooling import pool_scores


class CrossValidation(NamedTuple):
    """What :func:`cross_validate` returns: per fold, the test compounds' scores and the fitted model.

    Parameters
    ----------
    scores : dict
        ``{fold: DataFrame}``, the test compounds' ``id``, ``fold``, ``label`` and ``score`` per fold run.
    models : dict
        ``{fold: model}``, the model fitted on the other folds.
    """

    scores: dict  # fold -> DataFrame (id, fold, label, score)
    models: dict  # fold -> the model fitted on the other folds

    def pooled(self, folds: pd.DataFrame) -> pd.DataFrame:
        """Every fold's scores pooled in the order of ``folds`` (:func:`pool_scores`): all folds must have run.

        Parameters
        ----------
        folds : pandas.DataFrame
            The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound.

        Returns
        -------
        pandas.DataFrame
            Every fold's scores (:func:`pool_scores`), in the order of ``folds``.
        """
        return pool_scores(self.scores.values(), folds)


def cross_validate(make_model, data, folds: pd.DataFrame, *, only=None, progress=None) -> CrossValidation:
    """The cross-validation driver: for each fold, a fresh model fitted on the other folds scores it.

    The workflow's fold jobs (one fold each: ``only=[k]``), the benchmarks and
    the tests all run their folds through it.

    Parameters
    ----------
    make_model : callable
        ``make_model(fold)`` returns a new, unfitted model for that fold (its
        seed may depend on the fold): any object with ``fit(data, train, y)``
        and ``score(data, rows)`` (:class:`crocbench.models.Model`).
    data : SimilarityIndex
        The models' data view; its rows are the rows of ``folds``.
    folds : DataFrame
        The fold table (:func:`fold_table`).
    only : iterable of int, optional
        The folds to run (default: every fold, in order).
    progress : file, optional
        A line per fold is written there.

    Returns
    -------
    CrossValidation
        ``scores[k]`` (id, fold, label, score of fold k's compounds) and
        ``models[k]`` for each fold run; ``.pooled(folds)`` once all have run.

    Examples
    --------
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> from crocbench.models import MaxSim
    >>> from crocbench.similarity import SimilarityIndex
    >>> features = [[1, 2], [1, 3], [2, 3], [4, 5], [4, 6], [5, 6]]  # three actives alike, three inactives alike
    >>> fp = Fingerprints(np.arange(0, 13, 2), np.array(sum(features, []), dtype=np.uint64))
    >>> folds = fold_table(list("abcdef"), [1, 1, 1, 0, 0, 0], n_folds=3)
    >>> cv = cross_validate(lambda fold: MaxSim(), SimilarityIndex(fp), folds)
    >>> sorted(cv.scores), cv.pooled(folds)["score"].round(3).tolist()
    ([0, 1, 2], [0.333, 0.333, 0.333, 0.0, 0.0, 0.0])
    """
    chosen = sorted(set(np.unique(folds["fold"]).tolist()) - {DROPPED}) if only is None else [int(k) for k in only]
    scores, models = {}, {}
    for k in chosen:
        model = make_model(k)
        scores[k] = score_fold(model, data, folds, k)
        models[k] = model
        if progress is not None:
            print(f"fold {k}: {len(scores[k])} compounds scored", file=progress, flush=True)
    return CrossValidation(scores, models)


def score_fold(model, data, folds: pd.DataFrame, fold: int) -> pd.DataFrame:
    """Fit ``model`` on every fold but ``fold`` and score ``fold``: a table of id, fold, label, score.

    ``folds`` is a fold table (:func:`fold_table`) whose rows are the rows of ``data``.

    Parameters
    ----------
    model : Model
        An unfitted model (:class:`crocbench.models.Model`).
    data : SimilarityIndex
        The models' data view (:class:`crocbench.similarity.SimilarityIndex`); its rows are the rows of ``folds``.
    folds : pandas.DataFrame
        The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound.
    fold : int
        The fold scored.

    Returns
    -------
    pandas.DataFrame
        ``id``, ``fold``, ``label`` and ``score`` of the fold's compounds, in row order.
    """
    y, train, test, rows = fold_rows(data, folds, fold)
    model.fit(data, train, y[train])
    scores = np.asarray(model.score(data, test), dtype=np.float64).ravel()
    name = getattr(model, "name", type(model).__name__)
    if scores.size != test.size:
        raise ValueError(f"{name}: score returned {scores.size} values for {test.size} compounds")
    bad = ~np.isfinite(scores)
    if bad.any():
        raise ValueError(
            f"{name}: {int(bad.sum())} score(s) are not finite, e.g. compound {rows['id'].iloc[np.argmax(bad)]!r}"
        )
    return rows.assign(score=scores)


def fold_rows(data, folds: pd.DataFrame, fold: int):
    """``(y, train, test, rows)`` of one fold: the labels, the row indices, and id/fold/label of its test compounds.

    Parameters
    ----------
    data : SimilarityIndex
        The models' data view; its rows are the rows of ``folds``.
    folds : pandas.DataFrame
        The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound.
    fold : int
        The test fold.

    Returns
    -------
    y : array-like of shape (n_compounds,)
        Every compound's label.
    train : ndarray of int64
        Row indices of the training compounds (the other folds).
    test : ndarray of int64
        Row indices of the fold's compounds.
    rows : pandas.DataFrame
        ``id``, ``fold`` and ``label`` (int8) of the fold's compounds.
    """
    if len(folds) != data.n:
        raise ValueError(f"the fold table has {len(folds)} compounds, the similarity index {data.n}")
    y = folds["label"].to_numpy()
    train, test = split(folds["fold"].to_numpy(), fold)
    rows = pd.DataFrame({"id": folds["id"].to_numpy()[test], "fold": np.int64(fold), "label": y[test].astype(np.int8)})
    return y, train, test, rows

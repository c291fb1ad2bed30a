"""The svm_sensitivity study's grid: every (C, class_weight) on one outer fold, as a long table."""

from __future__ import annotations

import pandas as pd

from ..cv import fold_rows
from ._svm import SVM


def grid_fold(
    data, folds: pd.DataFrame, fold: int, Cs, class_weights, n_jobs: int = 1, buffer=None, progress=None, **labels
) -> pd.DataFrame:
    """:meth:`SVM.grid <crocbench.models.SVM.grid>` on one fold, as a long table.

    Columns id, fold, label, the ``labels`` given (e.g. ``fingerprint=``), C,
    class_weight ("none" or "balanced"), score ("decision" or "platt") and value;
    one row per (test compound, set-up, score).
    """
    y, train, test, base = fold_rows(data, folds, fold)
    grid = SVM.grid(data, train, y[train], test, Cs, class_weights, n_jobs=n_jobs, buffer=buffer, progress=progress)
    parts = [
        base.assign(**labels, C=C, class_weight=class_weight or "none", score=kind, value=values)
        for (C, class_weight), scores in grid.items()
        for kind, values in zip(("decision", "platt"), scores)
    ]
    return pd.concat(parts, ignore_index=True)

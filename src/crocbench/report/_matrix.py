"""A metric of a long table of values (one row per screen and model) as a (screens x models) matrix."""

from __future__ import annotations

import numpy as np
import pandas as pd


def metric_matrix(table: pd.DataFrame, metric: str) -> tuple:
    """A (screens x models) matrix of one metric from a long table.

    Parameters
    ----------
    table : DataFrame
        Columns ``dataset``, ``model`` and ``metric``.
    metric : str

    Returns
    -------
    values : ndarray of shape (n_screens, n_models)
    screens : list
    models : list
    """
    rows, screens = pd.factorize(table["dataset"])  # codes in order of first appearance; a missing key is -1
    cols, models = pd.factorize(table["model"])
    column = table[metric]
    if column.dtype.kind in "fiub" and rows.min(initial=0) >= 0 and cols.min(initial=0) >= 0:
        cells = rows.astype(np.int64) * len(models) + cols
        if np.unique(cells).size == cells.size:  # one value per cell: the matrix without pandas' pivot
            values = np.full((len(screens), len(models)), np.nan)
            values[rows, cols] = column.to_numpy(dtype=float)
            return values, list(screens), list(models)
    wide = table.pivot(index="dataset", columns="model", values=metric)  # duplicates raise; missing keys, other types
    wide = wide.loc[list(dict.fromkeys(table["dataset"])), list(dict.fromkeys(table["model"]))]
    return wide.to_numpy(dtype=float), list(wide.index), list(wide.columns)

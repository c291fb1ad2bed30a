"""The precision at which a benchmark's values are kept, and a value over the repeats of a repeated split.

A benchmark compares values at the precision of the committed references' tables (:data:`VALUE_DIGITS`
significant digits): values that agree to it tie. Where the split repeats, each repeat's value is taken to that
precision first and then averaged, and the mean is taken to it again (:func:`rounded_means`); the reference's
rows (``reference.csv``) and an entry's values are both made so, so an entry that reproduces a reference ranker
repeat by repeat has its values bit for bit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Significant digits of the committed references' tables (``datasets.tsv``, ``datasets_repeats.tsv``), at which
#: a benchmark keeps and compares values.
VALUE_DIGITS = 10


def to_digits(values):
    """Values taken to :data:`VALUE_DIGITS` significant digits (an array or a frame of floats).

    Examples
    --------
    >>> to_digits([0.49651858909999996, 1 / 3]).tolist()
    [0.4965185891, 0.3333333333]
    """
    return np.vectorize(lambda x: float(f"{x:.{VALUE_DIGITS}g}"), otypes=[float])(values)


def at_precision(table: pd.DataFrame, columns) -> pd.DataFrame:
    """``table`` with ``columns`` taken to :data:`VALUE_DIGITS` significant digits (a copy)."""
    columns = list(columns)
    table = table.copy()
    table[columns] = to_digits(table[columns].to_numpy(float))
    return table


def rounded_means(per_repeat: pd.DataFrame, keys, columns) -> pd.DataFrame:
    """Each group's values over the repeats: each repeat's value to :data:`VALUE_DIGITS` significant digits, their
    mean, and the mean to :data:`VALUE_DIGITS` significant digits.

    Parameters
    ----------
    per_repeat : DataFrame
        One row per group and repeat: the ``keys`` columns and the value ``columns`` (a ``repeat`` column and any
        other is left out).
    keys : sequence of str
        The columns naming a group (``dataset``, or ``dataset`` and ``model``), in the order of their first row.
    columns : sequence of str
        The value columns.

    Returns
    -------
    DataFrame
        One row per group: ``keys`` and ``columns``.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["s"] * 3, "repeat": [0, 1, 2], "roc": [0.4965185891, 0.4965185891, 0.4965185891]})
    >>> rounded_means(t, ["dataset"], ["roc"])["roc"].tolist()  # their plain mean is 0.49651858909999996
    [0.4965185891]
    """
    keys, columns = list(keys), list(columns)
    rounded = at_precision(per_repeat[[*keys, *columns]], columns)
    means = rounded.groupby(keys, sort=False)[columns].mean().reset_index()
    return at_precision(means, columns)

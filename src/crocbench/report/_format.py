"""Markdown formatting shared by the report's tables: a DataFrame as a table, numbers and p-values as cells."""

from __future__ import annotations

import numpy as np
import pandas as pd


def number_cell(v, digits: int = 4) -> str:
    """A table cell: floats to ``digits`` decimals, integral floats of 10 or more as integers, NaN empty.

    Examples
    --------
    >>> number_cell(0.12345), number_cell(95.0), number_cell(9.0), number_cell(float("nan")), number_cell("x")
    ('0.1235', '95', '9.0000', '', 'x')
    """
    if isinstance(v, (float, np.floating)):
        if np.isnan(v):
            return ""
        return f"{v:.0f}" if float(v).is_integer() and abs(v) >= 10 else f"{v:.{digits}f}"
    return str(v)


def markdown_table(df: pd.DataFrame, digits: int = 4) -> str:
    """A DataFrame as a GitHub Markdown table (floats to ``digits`` decimals, integral floats as integers)."""
    lines = ["| " + " | ".join(map(str, df.columns)) + " |", "|" + "---|" * df.shape[1]]
    lines += ["| " + " | ".join(number_cell(v, digits) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def p_cell(p: float) -> str:
    """A p-value as a cell: bold below 0.01, italics below 0.05 (as in the paper's Table 2).

    Examples
    --------
    >>> p_cell(0.2), p_cell(0.03), p_cell(0.0004)
    ('0.2', '*0.03*', '**4.0e-04**')
    """
    text = f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"
    return f"**{text}**" if p < 0.01 else f"*{text}*" if p < 0.05 else text


def interval_cell(value, low, high, count: bool) -> str:
    """A value and its interval, ``"value [low, high]"``: 4 and 3 decimals, or whole numbers for a count.

    Examples
    --------
    >>> interval_cell(0.81234, 0.8, 0.82, False), interval_cell(645.0, 610, 680, True), interval_cell(20.5, 18, 23, True)
    ('0.8123 [0.800, 0.820]', '645 [610, 680]', '20.5 [18, 23]')
    """
    if count:
        return (
            f"{value:.0f} [{low:.0f}, {high:.0f}]"
            if float(value).is_integer()
            else f"{value:.1f} [{low:.0f}, {high:.0f}]"
        )
    return f"{value:.4f} [{low:.3f}, {high:.3f}]"

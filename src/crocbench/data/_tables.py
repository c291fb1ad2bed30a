"""Reading tables and labels, with errors that say what is wrong and where."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import first_bad_byte, not_utf8_message

_TRUE = {"1", "1.0", "true", "t", "yes", "y", "active"}
_FALSE = {"0", "0.0", "false", "f", "no", "n", "inactive"}


#: The compressions a table's file may have, by extension, and how each is opened: read transparently by
#: :func:`read_table` (pandas infers them from the same extensions), by ``crocbench score`` and in a submission.
COMPRESSIONS = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}

_SEPARATOR_NAMES = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|", "space": " "}
_SNIFFED = ",\t;|"


def _separator(path: Path, sep: str | None) -> str:
    """The field separator: ``sep`` (a character or a name: tab, comma, semicolon, pipe, space; ``\\t`` as
    typed in a shell); else sniffed from the file's first lines, so a tab-separated ``.csv`` or ``.txt``
    is read right; else from the extension (``.tsv``/``.tab`` tab, otherwise comma)."""
    import csv

    if sep is not None:
        sep = _SEPARATOR_NAMES.get(sep.lower(), sep)
        if len(sep) != 1:
            raise ValueError(f"separator {sep!r}: give one character, or tab, comma, semicolon, pipe or space")
        return sep
    suffixes = [s.lower() for s in path.suffixes]
    opener = COMPRESSIONS.get(suffixes[-1] if suffixes else "", open)
    try:
        with opener(path, "rt", errors="replace") as fh:
            head = fh.read(65536)
    except (OSError, EOFError, lzma.LZMAError):
        head = ""
    lines = head.splitlines()[:50]
    if len(lines) > 1 and len(head) == 65536:
        lines = lines[:-1]  # the last line may be cut short
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=_SNIFFED).delimiter
    except csv.Error:  # one column, or no consistent separator: trust the extension
        plain = [s for s in suffixes if s not in (*COMPRESSIONS, ".zip")]
        return "\t" if plain[-1:] in ([".tsv"], [".tab"]) else ","


def read_table(path, sep: str | None = None, required=(), dtype=None) -> pd.DataFrame:
    """Read a CSV/TSV file (optionally compressed) into a DataFrame of strings and numbers.

    Column names and text cells are stripped of surrounding blanks (NCI pads
    its files with them).

    Parameters
    ----------
    path : str or Path
        The file; a ``.gz`` (or other pandas-readable compression) is read transparently.
    sep : str or None, default=None
        Field separator: a character or ``tab``, ``comma``, ``semicolon``,
        ``pipe``, ``space``; by default sniffed from the first lines, else
        from the extension (``.tsv``/``.tab`` tab, otherwise comma).
    required : iterable of str, default=()
        Columns that must be present.
    dtype : type, dict or None, default=None
        Passed to pandas (``str`` keeps every cell as text, and an empty cell as NaN).

    Returns
    -------
    pandas.DataFrame
        The table, one row per line after the header, with stripped column names and text cells.

    Raises
    ------
    ValueError
        If the file is missing, empty or unreadable, or a required column is
        absent (the message lists the columns found).
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    delimiter = _separator(path, sep)
    try:
        df = pd.read_csv(
            path, sep=delimiter, dtype=dtype, skipinitialspace=True, keep_default_na=dtype is not str, na_values=[""]
        )
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: the file is empty") from None
    except UnicodeDecodeError as exc:  # pandas' position is within a chunk: the file's own offset is found here
        found = None
        if path.suffix.lower() in (".csv", ".tsv", ".tab", ".txt"):
            with open(path, "rb") as fh:
                found = first_bad_byte(iter(lambda: fh.read(1 << 20), b""))
        if found is None:
            raise ValueError(f"{path}: cannot be read as a table: not UTF-8 text ({exc.reason})") from None
        raise ValueError(not_utf8_message(str(path), found)) from None
    except (pd.errors.ParserError, EOFError, OSError) as exc:
        raise ValueError(f"{path}: cannot be read as a table: {str(exc).splitlines()[0]}") from None
    df.columns = [str(c).strip() for c in df.columns]
    for column in df.columns:
        if df[column].dtype == object or pd.api.types.is_string_dtype(df[column]):
            df[column] = _strip(df[column])
    if df.shape[0] == 0:
        raise ValueError(f"{path}: the table has a header but no rows")
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(
            f"{path}: column(s) {', '.join(map(repr, missing))} not found; columns are: "
            + ", ".join(map(str, df.columns))
        )
    return df


def _strip(column: pd.Series) -> pd.Series:
    """Text cells without surrounding blanks; other cells (NaN, numbers in a mixed column) as they are."""
    try:
        stripped = column.str.strip()
    except AttributeError:  # no text cells at all
        return column
    return stripped.where(stripped.notna(), column)


def binary_labels(values, positive=None, *, where: str = "labels") -> np.ndarray:
    """Turn a label column into a bool array (True = positive).

    Parameters
    ----------
    values : array-like
        The labels, one per record; compared as stripped text.
    positive : str, number, list of them or None, default=None
        The value(s) that mark a positive; every other value is a negative.
        Without it the column must be binary (0/1, true/false, yes/no,
        active/inactive, case-insensitive).
    where : str, default="labels"
        Named in error messages.

    Returns
    -------
    numpy.ndarray
        bool, True for a positive, one per value.

    Raises
    ------
    ValueError
        A label is missing; no label equals ``positive`` (the message lists the labels found); or, without
        ``positive``, a label is not one of the binary values.

    Examples
    --------
    >>> binary_labels(["CA", "CI", "CM"], positive=["CA", "CM"]).tolist()
    [True, False, True]
    """
    s = pd.Series(values)
    if s.isna().any():
        rows = np.flatnonzero(s.isna().to_numpy())
        raise ValueError(f"{where}: {rows.size} missing label(s), first at row {rows[0] + 1}")
    codes, distinct = pd.factorize(s)  # decide once per distinct value, not once per row
    text = pd.Series(distinct).astype(str).str.strip()
    if positive is not None:
        wanted = [str(p).strip() for p in (positive if isinstance(positive, (list, tuple, set)) else [positive])]
        is_positive = text.isin(wanted).to_numpy()
        if not is_positive.any():  # name the values rather than report "no positives"
            raise ValueError(
                f"{where}: no label equals the positive value(s) {', '.join(map(repr, wanted))}; "
                f"labels found: {label_summary(text)}"
            )
        return is_positive[codes]
    low = text.str.lower()
    unknown = sorted(set(low) - _TRUE - _FALSE)
    if unknown:
        raise ValueError(
            f"{where}: labels must be binary (0/1, true/false, yes/no or active/inactive); found {unknown[:5]}"
            " — name the positive value(s) to use other labels"
        )
    return low.isin(_TRUE).to_numpy()[codes]


def label_summary(values, shown: int = 10) -> str:
    """The distinct values of a label column, sorted, the first ``shown`` of them.

    Parameters
    ----------
    values : array-like
        The labels; compared as stripped text.
    shown : int, default=10
        How many distinct values to list.

    Returns
    -------
    str
        The values joined by ``", "``, followed by ``", ... (N values)"`` when there are more than ``shown``.

    Examples
    --------
    >>> label_summary(["b", "a", " a", "c"], shown=2)
    'a, b, ... (3 values)'
    """
    found = sorted(set(pd.Series(values).astype(str).str.strip()))
    return ", ".join(found[:shown]) + (f", ... ({len(found)} values)" if len(found) > shown else "")


def numeric_column(df: pd.DataFrame, column: str, *, where: str = "") -> np.ndarray:
    """A column as finite float64.

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    column : str
        The column's name.
    where : str, default=""
        Prefixed to error messages (e.g. ``"scores.csv: "``).

    Returns
    -------
    numpy.ndarray
        float64, the column's values, all finite.

    Raises
    ------
    ValueError
        A value is not a number, or is empty, NaN or infinite; the message names the column, how many rows and
        the first (rows count from 1, the header not included).
    """
    values = pd.to_numeric(df[column], errors="coerce")
    bad = values.isna() & df[column].notna()
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(f"{where}column {column!r}: {df[column].iloc[row]!r} at row {row + 1} is not a number")
    out = values.to_numpy(dtype=np.float64)
    for what, mask in (("empty or NaN", np.isnan(out)), ("infinite", np.isinf(out))):
        if mask.any():
            rows = np.flatnonzero(mask)
            raise ValueError(f"{where}column {column!r}: {rows.size} {what} value(s), first at row {rows[0] + 1}")
    return out

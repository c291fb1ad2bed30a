"""A tolerant reader for MDL SD files, as NCI distributes them (plain or gzipped)."""

from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path

import pandas as pd

TITLE = "_title"
MOLBLOCK = "_molblock"
_FIELD = re.compile(r"^>.*?<([^>]+)>")


def read_bytes(path) -> bytes:
    """The file's content, gunzipped when it starts with the gzip magic (whatever its name).

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    bytes
        Its content, decompressed if it is gzipped.

    Raises
    ------
    ValueError
        The file is missing or empty, or its gzip data are truncated or corrupt.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError, zlib.error) as exc:
            raise ValueError(
                f"{path}: truncated or corrupt gzip data ({exc}); delete it and download it again"
            ) from None
    if not raw.strip():
        raise ValueError(f"{path}: the file is empty")
    return raw


def _record(lines: list[str]) -> dict:
    """One SD record: title, mol block (``M  END`` added when missing) and data fields."""
    start = next((i for i, line in enumerate(lines) if line.startswith(">")), len(lines))
    block = lines[:start]
    while block and not block[-1].strip():
        block.pop()
    if not any(line.startswith("M  END") for line in block):
        block.append("M  END")
    record = {TITLE: lines[0].strip() if lines else "", MOLBLOCK: "\n".join(block) + "\n"}
    name, values = None, []
    for line in lines[start:]:
        match = _FIELD.match(line)
        if match:
            if name is not None:
                record[name] = "\n".join(values).strip()
            name, values = match.group(1).strip(), []
        elif name is not None:
            values.append(line)
    if name is not None:
        record[name] = "\n".join(values).strip()
    return record


def read_sdf(path) -> pd.DataFrame:
    """Read every record of an SD file into a table of strings.

    Columns: ``_title`` (the record's first line), ``_molblock`` (its
    connection table, parsed later) and one column per data field
    (``> <NAME>``), empty where a record lacks the field.  Records that end
    without an ``M  END`` line before their data fields (as some of NCI's do)
    are accepted: the line is added.  A gzipped file is read transparently.

    Parameters
    ----------
    path : str or Path
        The SD file (plain or gzipped, read as Latin-1).

    Returns
    -------
    pandas.DataFrame
        One row per record, in file order; every cell a string.

    Raises
    ------
    ValueError
        The file cannot be read (:func:`read_bytes`), or holds no SD record.

    Examples
    --------
    >>> import tempfile, os
    >>> text = "48\\n  prog\\n\\n  1  0  0  0  0  0  0  0  0  0999 V2000\\n"
    >>> text += "    0.0    0.0    0.0 C   0  0\\n>  <NSC>\\n48\\n\\n$$$$\\n"
    >>> with tempfile.NamedTemporaryFile("w", suffix=".sdf", delete=False) as fh:
    ...     _ = fh.write(text)
    >>> table = read_sdf(fh.name); os.unlink(fh.name)
    >>> table[["_title", "NSC"]].values.tolist()
    [['48', '48']]
    >>> table["_molblock"].iloc[0].splitlines()[-1]
    'M  END'
    """
    text = read_bytes(path).decode("latin-1").replace("\r\n", "\n")
    records, current = [], []
    for line in text.split("\n"):
        if line.startswith("$$$$"):
            records.append(_record(current))
            current = []
        else:
            current.append(line)
    if any(line.strip() for line in current):  # a last record without its $$$$ terminator
        if not records and not any(("V2000" in line or "V3000" in line) for line in current[:10]):
            raise ValueError(f"{path}: no SD records (no '$$$$' separator and no V2000/V3000 counts line)")
        records.append(_record(current))
    return pd.DataFrame.from_records(records).fillna("")

"""An export read back: its spec, each screen's table checked against the spec's sha256 (taken of the table as
the CSV bytes an export writes, :func:`table_bytes`, whatever the file's format), and the reference's values."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from ._spec import REFERENCE_FILE, SPEC_FILE, Spec, read_spec, screen_file, sha256_bytes

#: The columns of a screen's file before its fold columns.
SCREEN_COLUMNS = ("id", "smiles", "label")


def table_bytes(table: pd.DataFrame) -> bytes:
    """A screen's or reference's table as the CSV bytes an export writes (and its sha256 is taken of)."""
    return table.to_csv(index=False, lineterminator="\n").encode()


def _read_csv(source, columns: list) -> pd.DataFrame:
    dtypes = {c: str for c in ("id", "smiles")} | {c: np.int64 for c in columns if c not in ("id", "smiles")}
    return pd.read_csv(source, dtype=dtypes, keep_default_na=False, na_filter=False)


def read_screen(path, spec: Spec, expected: str | None) -> pd.DataFrame:
    """A screen's exported table (CSV or Parquet), its sha256 checked against ``expected``.

    Raises
    ------
    ValueError
        One line: the file is missing, or its content is not the spec's.
    """
    path = Path(path)
    columns = [*SCREEN_COLUMNS, *spec.fold_columns()]
    if not path.is_file():
        raise ValueError(f"{path}: missing; export the benchmark again (crocbench benchmark export {spec.name} ...)")
    if path.suffix == ".parquet":
        table = pd.read_parquet(path)
        digest = sha256_bytes(table_bytes(table))
    else:  # read once: hashed, then parsed once it is the spec's
        data = path.read_bytes()
        digest = sha256_bytes(data)
    if digest != expected:
        raise ValueError(
            f"{path}: not the table benchmark {spec.title} lists (sha256 {digest[:12]}, expected {str(expected)[:12]})"
        )
    if path.suffix != ".parquet":
        table = _read_csv(io.BytesIO(data), columns)
    if list(table.columns) != columns:
        raise ValueError(f"{path}: columns {', '.join(table.columns)}; expected {', '.join(columns)}")
    table["label"] = table["label"].astype(np.int8)
    return table


def export_spec(folder) -> Spec:
    """The spec of the export ``folder`` (its :data:`SPEC_FILE`)."""
    path = Path(folder) / SPEC_FILE
    if not path.is_file():
        raise ValueError(f"{folder}: not a finished benchmark export (no {SPEC_FILE}); run crocbench benchmark export")
    return read_spec(path)


def screen_path(folder, screen: str) -> Path:
    """A screen's file in an export: its CSV, else its Parquet."""
    csv = Path(folder) / screen_file(screen)
    parquet = Path(folder) / f"{screen}.parquet"
    return parquet if parquet.is_file() and not csv.is_file() else csv


def read_reference(folder, spec: Spec) -> pd.DataFrame:
    """The reference rankers' values of an export, checked against the spec's sha256."""
    path = Path(folder) / REFERENCE_FILE
    if not path.is_file():
        raise ValueError(f"{path}: missing; export the benchmark again")
    data = path.read_bytes()
    expected = spec.files.get(REFERENCE_FILE, {}).get("sha256")
    if sha256_bytes(data) != expected:
        raise ValueError(f"{path}: not the reference values benchmark {spec.title} lists")
    return pd.read_csv(path, dtype={"dataset": str, "model": str}, keep_default_na=False)

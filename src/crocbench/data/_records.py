"""Reading a dataset's raw files into one table of records (structures, ids, classes, kept columns)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ._declaration import CLASS_SEPARATOR, ROW, Dataset, Source
from ._sdf import MOLBLOCK, TITLE, read_sdf
from ._tables import read_table


def _read(source: Source, folder: Path, need: list[str]) -> pd.DataFrame:
    """The source's table: its file, or its files one after the other (each must have every needed column)."""
    if len(source.files) > 1:
        parts = [_read_one(source, folder / f, need) for f in source.files]
        return pd.concat(parts, ignore_index=True)
    return _read_one(source, folder / source.files[0], need)


def _read_one(source: Source, path: Path, need: list[str]) -> pd.DataFrame:
    if source.kind == "sdf":
        table = read_sdf(path)
        missing = [c for c in need if c not in table.columns]
        if missing:
            fields = [c for c in table.columns if c not in (MOLBLOCK,)]
            raise ValueError(
                f"{path}: field(s) {', '.join(map(repr, missing))} not found; fields are: {', '.join(fields)}"
            )
        return table
    # a declared format is obeyed; otherwise the separator is sniffed (a tab-separated .txt or .csv reads right)
    sep = {"tsv": "\t", "csv": ","}.get(source.format) if source.format else None
    return read_table(path, sep=sep, required=need, dtype=str)


def _classes(table: pd.DataFrame, columns: tuple) -> pd.Series:
    """Each record's class: its label column's value, or its label columns' values joined by ``"|"``."""
    parts = [table[c].fillna("").astype(str).str.strip() for c in columns]
    return parts[0].str.cat(parts[1:], sep=CLASS_SEPARATOR) if len(parts) > 1 else parts[0]


def _ids(table: pd.DataFrame, column: str | None) -> pd.Series:
    if column in (None, ROW):
        return pd.Series(np.arange(len(table)).astype(str), index=table.index)
    return table[column].fillna("").astype(str).str.strip()


def load_records(dataset: Dataset, folder) -> tuple[pd.DataFrame, dict]:
    """Read a dataset's raw records, and mark those that cannot be used whatever their structure.

    Parameters
    ----------
    dataset : Dataset
        The declaration: where the structures and labels are, which label values are dropped or unknown.
    folder : str or Path
        The folder holding the dataset's raw files.

    Returns
    -------
    records : pandas.DataFrame
        One row per record, in file order: ``id`` (str), ``structure`` (a SMILES or a mol block), ``kind``
        (``"smiles"`` or ``"molblock"``), ``class`` (the label value(s) as text) and ``reason`` (None, or why the
        record cannot be used: missing id, duplicate id, no label, a label the config drops or calls unknown),
        then the ``keep`` columns.
    counts : dict
        ``rows_in`` and ``conflicting_label_ids``, and with a labels file ``labels_in`` and
        ``labels_without_structure``, for the summary.

    Raises
    ------
    ValueError
        A column the declaration needs is missing or not named, a file cannot be read, or an id appears more than
        once in a labels file.
    """
    folder = Path(folder)
    s = dataset.structures
    is_sdf = s.kind == "sdf"
    if not is_sdf and not s.smiles:
        raise ValueError(f"dataset {dataset.name}: 'structures' of a {s.kind} file needs a 'smiles' column name")
    if dataset.labels is None and not s.label:
        raise ValueError(f"dataset {dataset.name}: name a 'label' column in 'structures', or a 'labels' file")
    need = [c for c in (s.id, None if is_sdf else s.smiles, *s.labels, *s.keep) if c and c not in (ROW, TITLE)]
    table = _read(s, folder, need)
    records = pd.DataFrame(
        {
            "id": _ids(table, s.id),
            "structure": table[MOLBLOCK if is_sdf else s.smiles].fillna("").astype(str),
            "kind": "molblock" if is_sdf else "smiles",
        }
    )
    reason = pd.Series(None, index=records.index, dtype=object)
    reason[records["id"] == ""] = "missing id"
    dup = records["id"].duplicated() & (records["id"] != "")
    reason[dup & reason.isna()] = "duplicate id (the first record is kept)"
    counts = {"rows_in": int(len(records))}
    if dataset.labels is None:
        records["class"] = _classes(table, s.labels)
        # an id given twice with different labels: no record of it can be trusted, so none is kept
        named = records["id"] != ""
        classes = records[named].groupby("id")["class"].nunique()
        conflicting = classes.index[classes > 1]
        clash = records["id"].isin(conflicting)
        reason[clash] = "duplicate id with conflicting labels"
        counts["conflicting_label_ids"] = int(conflicting.size)
    else:
        lab = dataset.labels
        if lab.id is None or lab.label is None:
            raise ValueError(f"dataset {dataset.name}: 'labels' needs 'id' and 'label' column names")
        labels = _read(lab, folder, [lab.id, lab.label])
        key = _ids(labels, lab.id)
        repeated = key[key.duplicated()].unique()
        if repeated.size:
            raise ValueError(
                f"{folder / lab.file}: {repeated.size} id(s) appear more than once, e.g. {repeated[0]!r}; "
                "the join with the structures would be ambiguous"
            )
        mapping = pd.Series(labels[lab.label].fillna("").astype(str).str.strip().to_numpy(), index=key.to_numpy())
        records["class"] = records["id"].map(mapping).fillna("")
        reason[(records["class"] == "") & records["id"].isin(mapping.index) & reason.isna()] = "empty label"
        reason[~records["id"].isin(mapping.index) & reason.isna()] = "no label for this id"
        counts["labels_in"] = int(len(mapping))
        counts["labels_without_structure"] = int((~mapping.index.isin(records["id"])).sum())
    counts.setdefault("conflicting_label_ids", 0)  # a labels file has one label per id (checked above)
    reason[(records["class"] == "") & reason.isna()] = "missing label"
    for value in dataset.drop:
        reason[(records["class"] == value) & reason.isna()] = f"dropped label: {value} (config 'drop')"
    for value in dataset.unknown:
        reason[(records["class"] == value) & reason.isna()] = f"unknown label: {value} (config 'unknown')"
    records["reason"] = reason
    for column in s.keep:  # carried into the compounds table as read
        records[column] = table[column].fillna("").astype(str).str.strip().to_numpy()
    return records, counts

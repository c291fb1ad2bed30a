"""Standardizing a dataset into one table of compounds: parsed, canonical, labelled, duplicates resolved."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._extras import needs
from .._parallel import map_chunks
from ._declaration import Dataset
from ._records import load_records
from .sources import Ledger

#: The standardization's version: raised whenever what :func:`standardize` makes of the same raw files changes (the
#: parsing, the canonical SMILES, the labels, the duplicates' resolution). Cached standardized tables are keyed by
#: it (:mod:`crocbench.benchmark._cache`), so a raise makes every cached table stale.
STANDARDIZATION_VERSION = 1


def _parse_chunk(rows: list[tuple[str, str]]) -> list[tuple[str | None, str | None, str | None]]:
    """``(smiles to keep, canonical SMILES, reason)`` of each ``(kind, text)``."""
    with needs("crocbench.data.standardize"):
        from rdkit import Chem

    from ..chem.fingerprints import parse_molblock, parse_smiles

    out = []
    for kind, text in rows:
        mol, reason = parse_smiles(text) if kind == "smiles" else parse_molblock(text)
        if mol is None:
            out.append((None, None, reason))
            continue
        if kind != "smiles":
            try:
                mol = Chem.RemoveHs(mol)
            except Exception:  # keep explicit hydrogens; the fingerprints ignore them anyway
                pass
        canonical = Chem.MolToSmiles(mol)
        out.append((text if kind == "smiles" else canonical, canonical, None))
    return out


def binary_classes(classes: pd.Series, positive, negative, where: str) -> np.ndarray:
    """0/1 labels from class values; a value that is neither positive nor negative raises, listing them.

    Parameters
    ----------
    classes : pandas.Series
        The records' class values (text).
    positive : collection of str
        The positive values; empty: the values must be binary (:func:`binary_labels`).
    negative : collection of str
        The negative values; empty: every value that is not positive.
    where : str
        Named in error messages (e.g. ``"dataset NAME"``).

    Returns
    -------
    numpy.ndarray
        int8, 1 for a positive, 0 for a negative, one per value of ``classes``.

    Raises
    ------
    ValueError
        A value is neither positive nor negative (with ``negative`` given), or, with no ``positive``, the values
        are not binary.
    """
    if not positive:
        from ._tables import binary_labels

        return binary_labels(classes, where=where).astype(np.int8)
    positive = set(positive)
    if negative:
        unknown = classes[~classes.isin(positive | set(negative))].value_counts()
        if unknown.size:
            listed = ", ".join(f"{v!r} ({n})" for v, n in unknown.items())
            raise ValueError(
                f"{where}: label value(s) neither positive {sorted(positive)} nor negative {sorted(negative)}: {listed}"
            )
    return classes.isin(positive).to_numpy().astype(np.int8)


def _check_expected(dataset: Dataset, summary: dict) -> None:
    for key, want in dataset.expected.items():
        have = summary.get(key)
        low, high = (want, want) if not isinstance(want, (list, tuple)) else want
        if have is None or not (low <= have <= high):
            span = f"{low}" if low == high else f"in [{low}, {high}]"
            raise ValueError(
                f"dataset {dataset.name}: {key} = {have}, expected {span} (config 'expected'); "
                "the source file is not the documented one"
            )


#: What a dataset does with records of one structure (identical canonical SMILES, RDKit): ``merge`` (one row,
#: positive if any record is), ``keep`` (a row per record) or ``drop_conflicting`` (merged, and a structure whose
#: records disagree on the label left out).
DUPLICATE_POLICIES = ("merge", "keep", "drop_conflicting")


def resolve_duplicates(
    canonical, labels, policy: str = "merge", rows=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """Which records of a table stay under a duplicate ``policy``, with what label, and why the others go.

    Records are duplicates when their canonical SMILES are identical.  A structure's row is its first record
    (file order); under ``merge`` its label is positive if any record's is (the class text of its first
    positive record).  Under ``drop_conflicting`` a structure whose records disagree is left out whole.

    Parameters
    ----------
    canonical : array-like of str of shape (n_records,)
        Each record's canonical SMILES.
    labels : array-like of int of shape (n_records,)
        Each record's binary label.
    policy : {"merge", "keep", "drop_conflicting"}, default="merge"
        ``DUPLICATE_POLICIES``.
    rows : array-like of int of shape (n_records,), default=None
        Each record's number in its file, as the reasons name it (None: 0, 1, ...).

    Returns
    -------
    kept : ndarray of int64
        The records that stay, in file order.
    source : ndarray of int64 of shape (len(kept),)
        For each, the record whose class it takes: itself, or its structure's first positive record.
    reasons : ndarray of object of shape (n_records,)
        None for a kept record, else why it went (``duplicate structure: merged into record r``, r from ``rows``).
    counts : dict
        ``duplicate_groups`` and ``duplicate_rows`` (structures with two or more records, and their records),
        ``conflicting_label_groups``, ``merged_rows`` and ``conflicting_rows`` (the records each step left out).

    Examples
    --------
    >>> kept, source, why, counts = resolve_duplicates(["C", "CC", "C", "C"], [0, 0, 1, 0])
    >>> kept.tolist(), source.tolist(), counts["merged_rows"], counts["conflicting_label_groups"]
    ([0, 1], [2, 1], 2, 1)
    >>> resolve_duplicates(["C", "CC", "C"], [0, 0, 1], "drop_conflicting")[0].tolist()
    [1]
    """
    if policy not in DUPLICATE_POLICIES:
        raise ValueError(f"unknown duplicates policy {policy!r}; use one of {', '.join(DUPLICATE_POLICIES)}")
    labels = np.asarray(labels, dtype=np.int64)
    rows = np.arange(labels.size) if rows is None else np.asarray(rows, dtype=np.int64)
    group = pd.factorize(pd.Series(np.asarray(canonical, dtype=object)))[0]
    n_groups = int(group.max()) + 1 if group.size else 0
    size = np.bincount(group, minlength=n_groups)
    positives = np.bincount(group, weights=labels, minlength=n_groups).astype(np.int64)
    conflicting = (positives > 0) & (positives < size)
    first = np.full(n_groups, -1, dtype=np.int64)
    first[group[::-1]] = np.arange(group.size)[::-1]  # each group's first record
    first_pos = np.full(n_groups, -1, dtype=np.int64)
    pos_rows = np.flatnonzero(labels == 1)
    first_pos[group[pos_rows[::-1]]] = pos_rows[::-1]
    reasons = np.full(group.size, None, dtype=object)
    counts = {
        "duplicate_groups": int((size > 1).sum()),
        "duplicate_rows": int(size[size > 1].sum()),
        "conflicting_label_groups": int(conflicting.sum()),
        "merged_rows": 0,
        "conflicting_rows": 0,
    }
    if policy == "keep":
        kept = np.arange(group.size, dtype=np.int64)
        return kept, kept, reasons, counts
    is_first = first[group] == np.arange(group.size)
    for r in np.flatnonzero(~is_first).tolist():
        reasons[r] = f"duplicate structure: merged into record {int(rows[first[group[r]]])}"
    if policy == "drop_conflicting":
        for r in np.flatnonzero(conflicting[group]).tolist():
            reasons[r] = "duplicate structure with conflicting labels: left out"
    kept = np.flatnonzero(pd.isna(reasons))
    source = np.where(positives[group[kept]] > 0, first_pos[group[kept]], kept)
    counts["conflicting_rows"] = int(conflicting[group].sum()) if policy == "drop_conflicting" else 0
    counts["merged_rows"] = int(group.size - kept.size - counts["conflicting_rows"])
    return kept, source, reasons, counts


def standardize_files(dataset: Dataset, folder, lock, n_jobs: int = 1, progress=None, n_folds: int | None = None):
    """:func:`standardize` with the raw copies' checks around it, as the workflow runs it.

    Every copy is verified before it is read (its declared sha256, else the one recorded in ``lock``); the
    sha256 of a copy that declares none is recorded only once it has been read completely; and when reading
    fails, a copy not trusted yet is removed (its path is added to the message), so that the next run fetches
    it again: a file fixed in the mirror is then read, never the broken copy.

    Parameters
    ----------
    dataset : Dataset
        The dataset to standardize.
    folder : str or Path
        The folder holding its raw files.
    lock : str or Path
        The ledger file (:class:`crocbench.data.Ledger`) of the sha256 of files that declare none.
    n_jobs : int, default=1
        Processes parsing the structures.
    progress : file-like or None, default=None
        Where a line per parsed chunk goes; None for silence.
    n_folds : int or None, default=None
        The number of cross-validation folds: fewer positives or negatives than this is an error.

    Returns
    -------
    compounds : pandas.DataFrame
        As :func:`standardize` returns it.
    rejected : pandas.DataFrame
        As :func:`standardize` returns it.
    summary : dict
        As :func:`standardize` returns it.

    Raises
    ------
    DownloadError
        A copy is not the declared or recorded file.
    ValueError
        As :func:`standardize` raises it; the message names the copies removed.
    """
    ledger = Ledger(lock)
    ledger.verify(dataset.name, dataset.files, folder)
    try:
        out = standardize(dataset, folder, n_jobs=n_jobs, progress=progress, n_folds=n_folds)
    except Exception as exc:
        removed = ledger.discard_untrusted(dataset.name, dataset.files, folder)
        if removed and exc.args and isinstance(exc.args[0], str):
            note = f"{', '.join(removed)}: not trusted yet, removed; the next run fetches it again"
            exc.args = (f"{exc.args[0]} ({note})", *exc.args[1:])
        raise
    ledger.record(dataset.name, dataset.files, folder)
    return out


def standardize(
    dataset: Dataset, folder, n_jobs: int = 1, progress=None, n_folds: int | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """The dataset as one table of compounds, the rejected records with reasons, and a summary.

    With ``n_folds``, a dataset with fewer positives or negatives than folds
    (none at all, say) is an error here, naming the dataset and its counts,
    before any fingerprint is computed.

    Parameters
    ----------
    dataset : Dataset
        The dataset to standardize.
    folder : str or Path
        The folder holding its raw files.
    n_jobs : int, default=1
        Processes parsing the structures.
    progress : file-like or None, default=None
        Where a line per parsed chunk goes; None for silence.
    n_folds : int or None, default=None
        The number of cross-validation folds: fewer positives or negatives than this is an error.

    Returns
    -------
    compounds : DataFrame
        id (str), smiles (str), label (int8, 1 = positive), class (the
        original label value), in file order: one row per usable record, or per structure where the dataset's
        ``duplicates`` policy merges them (:func:`resolve_duplicates`).
    rejected : DataFrame
        id, row (0-based record number), reason, structure.
    summary : dict
        rows_in, rejected (by reason), kept, positives, negatives, classes, the duplicates policy,
        duplicate_groups/duplicate_rows (identical canonical SMILES),
        conflicting_class_groups/conflicting_label_groups among them, and the rows the policy left out
        (merged_rows, conflicting_rows).

    Raises
    ------
    ValueError
        The records cannot be read (see :func:`load_records`), a class value is neither positive nor negative, a
        count differs from ``expected``, or there are fewer positives or negatives than ``n_folds``.
    """
    records, counts = load_records(dataset, folder)
    usable = records["reason"].isna().to_numpy()
    parsed = [
        r
        for part in map_chunks(
            _parse_chunk,
            list(zip(records["kind"][usable], records["structure"][usable])),
            n_jobs,
            2000,
            progress,
            f"{dataset.name}: parsed",
        )
        for r in part
    ]
    smiles = np.full(len(records), None, dtype=object)
    canonical = np.full(len(records), None, dtype=object)
    reason = records["reason"].to_numpy(dtype=object, copy=True)
    rows = np.flatnonzero(usable)
    smiles[rows] = [p[0] for p in parsed]
    canonical[rows] = [p[1] for p in parsed]
    reason[rows] = [p[2] for p in parsed]
    keep = pd.isna(reason)

    kept = records[keep]
    labels = binary_classes(kept["class"], dataset.positive, dataset.negative, f"dataset {dataset.name}")
    rows_kept = np.flatnonzero(keep)
    stay, source, why, duplicates = resolve_duplicates(canonical[keep], labels, dataset.duplicates, rows_kept)
    reason[rows_kept] = why
    keep = pd.isna(reason)
    labels = labels[source].astype(np.int8)  # a merged structure's first positive record, if it has one
    kept = kept.iloc[stay]
    compounds = pd.DataFrame(
        {
            "id": kept["id"].to_numpy(dtype=str),
            "smiles": smiles[rows_kept[stay]].astype(str),
            "label": labels,
            "class": records["class"].to_numpy(dtype=str)[rows_kept[source]],
            **{column: kept[column].to_numpy(dtype=str) for column in dataset.structures.keep},
        }
    )
    bad = np.flatnonzero(~keep)
    rejected = pd.DataFrame(
        {
            "id": records["id"].to_numpy()[bad],
            "row": bad,
            "reason": reason[bad],
            "structure": [
                s if k == "smiles" else s.split("\n", 1)[0]
                for s, k in zip(records["structure"].to_numpy()[bad], records["kind"].to_numpy()[bad])
            ],
        }
    )
    n_class = (
        pd.Series(records["class"].to_numpy(dtype=str)[rows_kept])
        .groupby(pd.factorize(pd.Series(canonical[rows_kept], dtype=object))[0])
        .nunique()
    )
    summary = {
        "dataset": dataset.name,
        **counts,
        "rejected": int(bad.size),
        "rejected_by_reason": {
            str(k): int(v) for k, v in rejected["reason"].str.split(":").str[0].value_counts().sort_index().items()
        },
        "kept": int(len(compounds)),
        "positives": int(labels.sum()),
        "negatives": int(len(labels) - labels.sum()),
        "classes": {str(k): int(v) for k, v in compounds["class"].value_counts().sort_index().items()},
        "duplicates": dataset.duplicates,
        "duplicate_groups": duplicates["duplicate_groups"],
        "duplicate_rows": duplicates["duplicate_rows"],
        "conflicting_class_groups": int((n_class > 1).sum()),
        "conflicting_label_groups": duplicates["conflicting_label_groups"],
        "merged_rows": duplicates["merged_rows"],
        "conflicting_rows": duplicates["conflicting_rows"],
    }
    _check_expected(dataset, summary)
    if n_folds is not None and min(summary["positives"], summary["negatives"]) < n_folds:
        reasons = "".join(f", {n} {why}" for why, n in summary["rejected_by_reason"].items())
        raise ValueError(
            f"dataset {dataset.name}: {summary['positives']} positives and {summary['negatives']} "
            f"negatives after standardization ({summary['rejected']} of {summary['rows_in']} records "
            f"rejected{reasons}); its {n_folds}-fold cross-validation needs at least {n_folds} of each "
            "(check 'positive' in its config, or lower cv: folds)"
        )
    return compounds, rejected, summary

"""Datasets declared in config.yaml, and their standardization into one table of compounds."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._parallel import map_chunks
from ._sdf import MOLBLOCK, TITLE, read_sdf
from ._tables import read_table
from .sources import Ledger

ROW = "_row"  # id = row number, when the structures have no id column
_FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".txt": "csv", ".sdf": "sdf", ".sd": "sdf", ".mol": "sdf"}
COMPOUND_COLUMNS = ["id", "smiles", "label", "class"]
_INTERNAL = {*COMPOUND_COLUMNS, "structure", "kind", "reason"}  # columns a `keep:` name must not replace


#: Joins the values of several label columns into one class value: ``label: [Primary, Confirmatory]`` gives
#: ``"1|1.0"``, ``"1|"`` (an empty cell), ...; a positive/negative/drop/unknown value given as a list is joined
#: the same way (``[1, 1.0]``, ``[1, null]``).
CLASS_SEPARATOR = "|"


def class_value(value) -> str:
    """A declared label value as the class text it matches: a list joins its parts (None -> empty).

    Parameters
    ----------
    value : str, number, list or tuple
        A value of ``positive``, ``negative``, ``drop`` or ``unknown`` in the config; a list gives one value per
        label column, None for an empty cell.

    Returns
    -------
    str
        The class text: ``str(value)``, or the parts joined by :data:`CLASS_SEPARATOR` (``"|"``).

    Examples
    --------
    >>> class_value("CA"), class_value(1), class_value([1, 1.0]), class_value([1, None])
    ('CA', '1', '1|1.0', '1|')
    """
    if isinstance(value, list | tuple):
        return CLASS_SEPARATOR.join("" if v is None else str(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Source:
    """Where a table's columns are: a file, or files read one after the other, and the column or field names.

    A list given for ``file``, ``label`` or ``keep`` is stored as a tuple.

    Parameters
    ----------
    file : str or tuple of str
        The file, relative to the dataset folder, or several files of one format read one after the other
        (each with every named column).
    id : str or None, default=None
        The column (SD field) of the compounds' ids; ``"_row"`` or None numbers the records from 0, and an SD
        file's ``"_title"`` is each record's first line.
    label : str, tuple of str or None, default=None
        The label column, or several whose values are joined by ``"|"`` into one class value.
    smiles : str or None, default=None
        The column of the SMILES; required for a CSV or TSV file, unused for an SD file (its mol blocks).
    format : {"csv", "tsv", "sdf"} or None, default=None
        The files' format; None tells it from the extension (see :attr:`kind`).
    keep : tuple of str, default=()
        Columns carried into the compounds table as read (e.g. an assay's own score, for a ranker that reads it).
    """

    file: str | tuple
    id: str | None = None
    label: str | tuple | None = None
    smiles: str | None = None
    format: str | None = None
    keep: tuple = ()

    def __post_init__(self):
        for name in ("file", "label", "keep"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))

    @property
    def files(self) -> tuple:
        """The file(s), as a tuple."""
        return self.file if isinstance(self.file, tuple) else (self.file,)

    @property
    def labels(self) -> tuple:
        """The label column(s)."""
        return () if self.label is None else self.label if isinstance(self.label, tuple) else (self.label,)

    @property
    def kind(self) -> str:
        """The files' format: ``format`` as declared, else told from the extension (a ``.gz`` after it ignored).

        ``.csv`` and ``.txt`` are ``"csv"``; ``.tsv`` and ``.tab`` ``"tsv"``; ``.sdf``, ``.sd`` and ``.mol`` ``"sdf"``.
        Reading it raises ValueError for an extension it does not know, or files of several formats.
        """
        if self.format:
            return self.format
        kinds = set()
        for file in self.files:
            suffixes = [s for s in Path(file).suffixes if s.lower() not in (".gz",)]
            ext = suffixes[-1].lower() if suffixes else ""
            if ext not in _FORMATS:
                raise ValueError(f"{file}: cannot tell the format from the name; set 'format' (csv, tsv or sdf)")
            kinds.add(_FORMATS[ext])
        if len(kinds) > 1:
            raise ValueError(f"{', '.join(self.files)}: files of one source must be of one format; got {sorted(kinds)}")
        return kinds.pop()


@dataclass(frozen=True)
class Dataset:
    """One dataset of the config: files to fetch, where the structures and labels are, what is positive.

    Built from config.yaml by :meth:`from_config`, which turns the label values into class texts.

    Parameters
    ----------
    name : str
        The dataset's name (its key under ``datasets:``).
    files : tuple of dict
        The raw files to fetch, each a file entry of :func:`crocbench.data.obtain` (``name``, ``sha256``, a source).
    structures : Source
        Where the structures are (and the labels, when ``labels`` is None).
    labels : Source or None, default=None
        A separate file of labels, joined to the structures by id: one file, one ``id`` and one ``label`` column.
    positive : tuple of str, default=()
        The class values that are positive; empty: the labels must be binary (0/1, true/false, ...).
    negative : tuple of str, default=()
        The class values that are negative; empty: every value that is not positive.
    drop : tuple of str, default=()
        Class values whose records are left out, each listed as rejected (``dropped label``).
    unknown : tuple of str, default=()
        Class values that say nothing (e.g. a hit never re-tested): left out, listed as ``unknown label``.
    expected : dict, default={}
        Counts of the standardization's summary (``rows_in``, ``kept``, ``positives``, ...), each a number or a
        ``[low, high]`` range, that the source files must give.
    description : str, default=""
        What the dataset is, for listings and the report.
    reproduces : str or None, default=None
        The paper whose published numbers apply to the dataset (e.g. ``"swamidass2010"``).
    top : int, float or None, default=None
        "Actives in the top k": a count, or a fraction of the list (:func:`crocbench.metrics.top_cutoff`); None:
        the paper's 1,000 where the dataset reproduces it, else 1% of the list (:attr:`top_cutoff`).
    """

    name: str
    files: tuple[dict, ...]
    structures: Source
    labels: Source | None = None
    positive: tuple = ()
    negative: tuple = ()
    drop: tuple = ()
    unknown: tuple = ()
    expected: dict = field(default_factory=dict)
    description: str = ""
    reproduces: str | None = None
    top: int | float | None = None

    @property
    def top_cutoff(self) -> int | float:
        """``top`` as declared, or its default (1,000 for a dataset that reproduces the paper, else 0.01)."""
        if self.top is not None:
            return self.top
        return 1000 if self.reproduces else 0.01

    @property
    def declaration(self) -> dict:
        """Every part of the declaration the compounds table follows from, as plain data (a workflow param).

        The files (name and declared sha256), where the structures and labels
        are, and the positive, negative and dropped label values: a change to
        any of them rebuilds the table and everything downstream. ``description``,
        ``expected``, ``reproduces`` and ``top`` change no compound and are left out.

        Examples
        --------
        >>> d = Dataset.from_config("x", {"files": [{"name": "a.csv", "url": "u", "sha256": None}],
        ...                               "structures": {"file": "a.csv", "smiles": "s", "label": "y"},
        ...                               "positive": [1], "negative": [0], "description": "not part of it"})
        >>> d.declaration["positive"], d.declaration["files"]
        (['1'], [{'name': 'a.csv', 'sha256': None}])
        """
        return {
            "files": [{"name": f["name"], "sha256": f.get("sha256")} for f in self.files],
            "structures": asdict(self.structures),
            "labels": asdict(self.labels) if self.labels else None,
            "positive": list(self.positive),
            "negative": list(self.negative),
            "drop": list(self.drop),
            "unknown": list(self.unknown),
        }

    @classmethod
    def from_config(cls, name: str, entry: dict) -> Dataset:
        """Build from a ``datasets:`` entry of config.yaml (already schema-validated).

        Parameters
        ----------
        name : str
            The dataset's name.
        entry : dict
            Its entry under ``datasets:``: ``files``, ``structures``, optional ``labels``, ``positive``,
            ``negative``, ``drop``, ``unknown``, ``expected``, ``description``, ``reproduces`` and ``top``.

        Returns
        -------
        Dataset
            The declaration, its label values as class texts (a list joined by ``"|"``).

        Raises
        ------
        ValueError
            A label value is both dropped (or unknown) and positive or negative; ``keep`` names a column of the
            compounds table's own; or ``labels`` has several files, several label columns or ``keep``.
        """
        labels = entry.get("labels")
        values = {
            key: tuple(class_value(v) for v in entry.get(key, ()))
            for key in ("positive", "negative", "drop", "unknown")
        }
        for key in ("drop", "unknown"):
            both = sorted(set(values[key]) & (set(values["positive"]) | set(values["negative"])))
            if both:
                what = "dropped" if key == "drop" else "unknown"
                raise ValueError(f"dataset {name}: label value(s) {both} are both {what} and positive or negative")
        taken = sorted(set(entry["structures"].get("keep", ())) & _INTERNAL)
        if taken:
            raise ValueError(
                f"dataset {name}: keep: {taken} would overwrite the compounds table's own columns; "
                f"keep columns other than {sorted(_INTERNAL)}"
            )
        if labels and (
            isinstance(labels.get("file"), list) or isinstance(labels.get("label"), list) or labels.get("keep")
        ):
            raise ValueError(
                f"dataset {name}: 'labels' takes one file and one label column (no keep); several files "
                "or label columns go under 'structures'"
            )
        return cls(
            name=name,
            files=tuple(entry["files"]),
            structures=Source(**entry["structures"]),
            labels=Source(**labels) if labels else None,
            positive=values["positive"],
            negative=values["negative"],
            drop=values["drop"],
            unknown=values["unknown"],
            expected=dict(entry.get("expected", {})),
            description=entry.get("description", ""),
            reproduces=entry.get("reproduces"),
            top=entry.get("top"),
        )

    def check_folds(self, n_folds: int) -> None:
        """Refuse, before any job, a dataset whose declared counts (``expected``) leave a fold without a
        positive or a negative.

        Parameters
        ----------
        n_folds : int
            The number of cross-validation folds.

        Returns
        -------
        None

        Raises
        ------
        ValueError
            ``expected`` declares fewer ``positives`` or ``negatives`` (at most, for a range) than ``n_folds``.

        Examples
        --------
        >>> d = Dataset.from_config("RNA_binding_confirmed", {"files": [{"name": "a.csv", "url": "u"}],
        ...     "structures": {"file": "a.csv", "smiles": "s", "label": "y"}, "expected": {"positives": 2}})
        >>> d.check_folds(10)
        Traceback (most recent call last):
        ...
        ValueError: dataset RNA_binding_confirmed: 2 positives (config 'expected'): its 10-fold cross-validation needs at least 10
        """
        for key in ("positives", "negatives"):
            want = self.expected.get(key)
            most = max(want) if isinstance(want, list) else want
            if isinstance(most, int) and most < n_folds:
                raise ValueError(
                    f"dataset {self.name}: {most} {key} (config 'expected'): its {n_folds}-fold "
                    f"cross-validation needs at least {n_folds}"
                )

    def file(self, name: str) -> dict:
        """The entry of one of the dataset's files.

        Parameters
        ----------
        name : str
            The file's name.

        Returns
        -------
        dict
            Its entry in ``files``.

        Raises
        ------
        ValueError
            The dataset has no file of that name (the message lists its files).
        """
        for f in self.files:
            if f["name"] == name:
                return f
        raise ValueError(
            f"dataset {self.name}: {name!r} is not one of its files ({', '.join(f['name'] for f in self.files)})"
        )


# --- reading ----------------------------------------------------------------------------


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


# --- standardization -------------------------------------------------------------------


def _parse_chunk(rows: list[tuple[str, str]]) -> list[tuple[str | None, str | None, str | None]]:
    """``(smiles to keep, canonical SMILES, reason)`` of each ``(kind, text)``."""
    from rdkit import Chem

    from ..fingerprints import parse_molblock, parse_smiles

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
        original label value), one row per usable record, in file order.
        Exact duplicate structures are all kept (one row per record).
    rejected : DataFrame
        id, row (0-based record number), reason, structure.
    summary : dict
        rows_in, rejected (by reason), kept, positives, negatives, classes,
        duplicate_groups/duplicate_rows (identical canonical SMILES),
        conflicting_class_groups/conflicting_label_groups among them.

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
    compounds = pd.DataFrame(
        {
            "id": kept["id"].to_numpy(dtype=str),
            "smiles": smiles[keep].astype(str),
            "label": labels,
            "class": kept["class"].to_numpy(dtype=str),
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
    groups = pd.DataFrame({"c": canonical[keep], "class": compounds["class"], "label": labels}).groupby("c")
    size = groups.size()
    dup = size[size > 1].index
    n_class, n_label = groups["class"].nunique(), groups["label"].nunique()
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
        "duplicate_groups": int(dup.size),
        "duplicate_rows": int(size[dup].sum()),
        "conflicting_class_groups": int((n_class[dup] > 1).sum()),
        "conflicting_label_groups": int((n_label[dup] > 1).sum()),
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

"""Datasets as declared in config.yaml: where the structures and labels are, what is positive, what to expect."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

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
    duplicates : {"merge", "keep", "drop_conflicting"}, default="merge"
        Records of one structure (identical canonical SMILES): one row, positive if any record is; a row per
        record; or merged, with the structures whose records disagree left out
        (:func:`crocbench.data.resolve_duplicates`).
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
    duplicates: str = "merge"

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
            "duplicates": self.duplicates,
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
            duplicates=entry.get("duplicates", "merge"),
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

"""Leaderboard entries: an evaluated submission filed under ``results/entries/<benchmark>/<entry>/`` by
:func:`submit`, and its record recomputed from its scores by :func:`verify`.

An entry's folder holds the evaluator's record (:data:`~crocbench.benchmark._record.RESULT_JSON`, the bytes
``evaluate`` wrote), its description (:data:`ENTRY_YAML`: the fields of :data:`ENTRY_FIELDS`, and ``scores``,
written by :func:`submit`) and, when they come to at most :data:`SCORES_LIMIT` bytes compressed, the submission's
score files in ``scores/``: each gzip-compressed (no name, mtime 0, so the same file gives the same bytes), or kept
as it is when it is compressed already or Parquet. ``scores`` names each screen's file, its sha256 and the name it
was submitted under, or is
``null`` when the scores are not committed: the record is then not re-verifiable from the repository alone.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ._record import RESULT_JSON, record_bytes
from ._spec import SPEC_FILE, Spec, committed_specs, sha256_bytes, specs_folder

#: Where the entries are filed, relative to the project: ``<benchmark>/<entry>/``.
ENTRIES = Path("results") / "entries"
ENTRY_YAML = "entry.yaml"
#: The folder of an entry's committed score files, and the most bytes they may take together, compressed.
SCORES, SCORES_LIMIT = "scores", 5 * 2**20
#: The fields of ``entry.yaml``, each required, and what each holds.
ENTRY_FIELDS = {
    "model": "the model's name",
    "description": "one paragraph on what the model is",
    "features": "the features it is trained on",
    "tuning": "none, or budget (how many settings were tried) and tuned_on (the data they were chosen on)",
    "training_cost": "hardware and hours (for the whole benchmark)",
    "code": "a public link to the code (http:// or https://), or none",
    "licence": "the licence of the entry's code and scores",
}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_PACKED = (".gz", ".bz2", ".xz", ".zst", ".zip", ".parquet")


def _fail(where, message: str):
    raise ValueError(f"{where}: {message}")


def check_fields(fields, where) -> dict:
    """``entry.yaml``'s fields checked (:data:`ENTRY_FIELDS`, each filled; ``scores`` as :func:`submit` writes it
    allowed); one line naming the first that is missing or malformed."""
    if not isinstance(fields, dict):
        _fail(where, f"not a mapping of the fields {', '.join(ENTRY_FIELDS)}")
    unknown = [k for k in fields if k not in ENTRY_FIELDS and k != "scores"]
    if unknown:
        _fail(where, f"unknown field {unknown[0]!r}; the fields are {', '.join(ENTRY_FIELDS)}")
    for key, meaning in ENTRY_FIELDS.items():
        value = fields.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            _fail(where, f"no field {key!r} ({meaning})")
    tuning = fields["tuning"]
    if tuning != "none" and not (isinstance(tuning, dict) and tuning.get("budget") and tuning.get("tuned_on")):
        _fail(where, f"tuning is {tuning!r}; give none, or budget and tuned_on")
    cost = fields["training_cost"]
    hours = cost.get("hours") if isinstance(cost, dict) else None
    if not (isinstance(cost, dict) and cost.get("hardware")) or not isinstance(hours, int | float) or hours < 0:
        _fail(where, f"training_cost is {cost!r}; give hardware and hours (a number)")
    if fields["code"] != "none" and not str(fields["code"]).startswith(("http://", "https://")):
        _fail(where, f"code is {fields['code']!r}; give a public http(s) link, or none")
    _check_scores(fields.get("scores"), where)
    return fields


def _check_scores(scores, where) -> None:
    """``scores`` as :func:`submit` writes it, or none: per screen the submitted file's bare name, its copy under
    ``scores/`` (as it is, or gzip-compressed) and that copy's sha256; one line otherwise (a path that leaves the
    entry's folder included)."""
    if scores is None:
        return
    if not isinstance(scores, dict):
        _fail(where, f"scores is {scores!r}; leave it to crocbench benchmark submit")
    for screen, named in scores.items():
        if not isinstance(named, dict) or set(named) != {"file", "sha256", "submitted"}:
            _fail(where, f"scores of {screen!r}: give file, sha256 and submitted, as submit writes them")
        submitted, sha = str(named["submitted"]), str(named["sha256"])
        if Path(submitted).name != submitted or not _NAME.fullmatch(submitted):
            _fail(where, f"scores of {screen!r}: submitted {submitted!r} is not a bare file name")
        if named["file"] not in (f"{SCORES}/{submitted}", f"{SCORES}/{submitted}.gz"):
            _fail(where, f"scores of {screen!r}: file {named['file']!r} is not {SCORES}/{submitted}[.gz]")
        if not re.fullmatch(r"[0-9a-f]{64}", sha):
            _fail(where, f"scores of {screen!r}: sha256 {sha!r} is not 64 hexadecimal digits")


def _yaml():
    from .._extras import needs

    with needs("crocbench benchmark submit and verify"):
        import yaml
    return yaml


def read_fields(path) -> dict:
    """An ``entry.yaml`` read and checked (:func:`check_fields`)."""
    yaml = _yaml()

    path = Path(path)
    if not path.is_file():
        _fail(path, f"no such file; an entry describes its model in {ENTRY_YAML} ({', '.join(ENTRY_FIELDS)})")
    try:
        fields = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        _fail(path, f"not YAML ({' '.join(str(exc).split())})")
    return check_fields(fields, path)


def read_record(path) -> tuple[dict, bytes]:
    """A result record (``result.json``): the record and its bytes."""
    path = Path(path)
    if not path.is_file():
        _fail(path, "no such file; submit the folder that crocbench benchmark evaluate wrote")
    data = path.read_bytes()
    try:
        record = json.loads(data)
        record["benchmark"]["sha256"], record["submission"]["sha256"], record["screens"]  # noqa: B018
    except (ValueError, KeyError, TypeError):
        _fail(path, "not a result record of crocbench benchmark evaluate")
    return record, data


def spec_of(record: dict, where) -> Spec:
    """The committed spec whose sha256 the record names; one line when the repository holds none."""
    named = record["benchmark"]
    for spec in committed_specs().values():
        if spec.sha256 == named["sha256"]:
            return spec
    _fail(
        where,
        f"benchmark {named.get('name')} v{named.get('version')} (sha256 {str(named['sha256'])[:12]}) is a spec the "
        f"repository does not hold ({specs_folder()})",
    )


def score_files(folder, spec: Spec, record: dict) -> dict:
    """``{screen: path}`` of a submission's files, each checked to be the file whose sha256 the record names."""
    from ._submission import check_files

    paths = check_files(folder, spec, record["screens"])
    for screen, path in paths.items():
        digest, named = sha256_bytes(path.read_bytes()), record["submission"]["sha256"].get(screen)
        if digest != named:
            _fail(path, f"sha256 {digest[:12]}; the record names {str(named)[:12]} (not the scores it was made from)")
    return paths


def _packed(path: Path) -> tuple[str, bytes]:
    data = path.read_bytes()
    if path.name.endswith(_PACKED):
        return path.name, data
    return f"{path.name}.gz", gzip.compress(data, mtime=0)


def submit(evaluation, entry: str, root, fields=None, scores=None, benchmark: str | None = None) -> Path:
    """File an evaluated submission as an entry: ``<root>/results/entries/<benchmark>/<entry>/``.

    Parameters
    ----------
    evaluation : path
        The folder ``crocbench benchmark evaluate`` wrote (its ``result.json``).
    entry : str
        The entry's name: letters, digits, ``._+-``; free among the benchmark's entries and its reference rankers.
    root : path
        The project.
    fields : path, optional
        The ``entry.yaml`` (default: the submission's, beside ``evaluation``).
    scores : path, optional
        The submission folder the record was made from (default: ``evaluation``'s parent).
    benchmark : str, optional
        The benchmark the entry is for; a record of another is refused.

    Returns
    -------
    Path
        The entry's folder, written whole (through a folder beside it) or not at all.
    """
    yaml = _yaml()
    evaluation = Path(evaluation)
    where = evaluation / RESULT_JSON
    record, data = read_record(where)
    scores = Path(scores) if scores is not None else evaluation.resolve().parent
    given = read_fields(Path(fields) if fields is not None else scores / ENTRY_YAML)
    if "scores" in given:
        _fail(fields or scores / ENTRY_YAML, "the field 'scores' is written by submit, not given")
    if benchmark is not None and record["benchmark"]["name"] != benchmark:
        _fail(where, f"a result of benchmark {record['benchmark']['name']}, not {benchmark}")
    spec = spec_of(record, where)
    if record.get("subset"):
        _fail(where, f"a result on {len(record['screens'])} of the {len(spec.screens)} screens; an entry has them all")
    if not _NAME.fullmatch(entry):
        _fail(entry, "not an entry name (letters, digits and ._+-, starting with a letter or digit)")
    folder = Path(root) / ENTRIES / spec.name / entry
    if entry in spec.rankers or folder.exists():
        _fail(folder, f"the name {entry!r} is taken on benchmark {spec.name}; give the entry another")
    paths = score_files(scores, spec, record)
    packed = {s: _packed(p) for s, p in paths.items()}
    size = sum(len(b) for _, b in packed.values())
    kept = size <= SCORES_LIMIT
    written = {
        s: {"file": f"{SCORES}/{n}", "sha256": sha256_bytes(b), "submitted": paths[s].name}
        for s, (n, b) in packed.items()
    }
    text = yaml.safe_dump({**given, "scores": written if kept else None}, sort_keys=False, allow_unicode=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{entry}-", dir=folder.parent) as tmp:
        made = Path(tmp) / entry
        (made / SCORES).mkdir(parents=True) if kept else made.mkdir()
        (made / RESULT_JSON).write_bytes(data)
        (made / ENTRY_YAML).write_text(text)
        for name, payload in packed.values() if kept else ():
            (made / SCORES / name).write_bytes(payload)
        os.rename(made, folder)
    return folder


@dataclass(frozen=True)
class Entry:
    """A filed entry: its name, folder, record and ``entry.yaml``'s fields; ``verifiable`` when its scores are
    committed."""

    name: str
    folder: Path
    record: dict
    fields: dict

    @property
    def verifiable(self) -> bool:
        scores = self.fields.get("scores")
        return bool(scores) and all((self.folder / named["file"]).is_file() for named in scores.values())


def read_entry(folder) -> Entry:
    """An entry's folder read and its fields checked."""
    folder = Path(folder)
    record, _ = read_record(folder / RESULT_JSON)
    return Entry(folder.name, folder, record, read_fields(folder / ENTRY_YAML))


def entries(root, benchmark: str) -> list[Entry]:
    """A benchmark's filed entries, by name."""
    folder = Path(root) / ENTRIES / benchmark
    found = sorted(p for p in folder.glob("*") if p.is_dir() and not p.name.startswith(".")) if folder.is_dir() else []
    return [read_entry(p) for p in found]


def _unpacked(entry: Entry, out: Path) -> None:
    """The entry's committed score files, each checked against ``entry.yaml``'s sha256, as submitted, in ``out``."""
    if not entry.verifiable:
        _fail(entry.folder, "not re-verifiable: its scores are not committed; give them with --scores DIR")
    for screen, named in entry.fields["scores"].items():
        path = entry.folder / named["file"]
        if not path.is_file():
            _fail(path, f"missing (screen {screen})")
        data = path.read_bytes()
        if sha256_bytes(data) != named["sha256"]:
            _fail(path, f"sha256 {sha256_bytes(data)[:12]}; {ENTRY_YAML} names {named['sha256'][:12]}")
        if named["submitted"] != path.name:  # compressed by submit
            data = gzip.decompress(data)
        name = named["submitted"]
        (out / name).write_bytes(data)


def verify(folder, scores=None, benchmark=None, root=None) -> dict:
    """Recompute an entry's record from its scores and check it byte for byte.

    Checks, in order: the record names a spec the repository holds (its sha256); each score file (committed, or
    in ``scores``) is the file the record names (sha256; a committed one also against ``entry.yaml``); the record
    recomputed from them is the committed ``result.json``, byte for byte.

    Parameters
    ----------
    folder : path
        The entry's folder.
    scores : path, optional
        A submission folder to recompute from (its files and ``benchmark.json``), in place of the committed scores.
    benchmark : path or str, optional
        The benchmark's export folder, or its name (default: the record's; exported as :func:`load` does).
    root : path, optional
        The project, for a benchmark given by name.

    Returns
    -------
    dict
        The record, verified.
    """
    from . import load

    entry = read_entry(folder)
    where = entry.folder / RESULT_JSON
    record, data = read_record(where)
    spec = spec_of(record, where)
    with tempfile.TemporaryDirectory(prefix="crocbench-verify-") as tmp:
        if scores is None:
            submission = Path(tmp)
            (submission / SPEC_FILE).write_bytes((specs_folder() / f"{spec.name}.json").read_bytes())
            _unpacked(entry, submission)
        else:
            submission = Path(scores)
        score_files(submission, spec, record)  # the spec's sha256, then each file's
        loaded = load(benchmark or spec.name, root, record["screens"])
        if loaded.spec.sha256 != spec.sha256:
            _fail(loaded.folder, f"an export of {loaded.spec.title}, not of {spec.title}")
        again = record_bytes(loaded.evaluate(submission, record["entry"]))
    if again != data:
        old, new = data.decode().splitlines(), again.decode().splitlines()
        line = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        shown = [" ".join(text[line].split()) if line < len(text) else "(no line)" for text in (old, new)]
        _fail(where, f"line {line + 1} is {shown[0]!r}; the scores give {shown[1]!r}")
    return record

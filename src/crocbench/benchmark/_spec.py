"""A benchmark's spec: a frozen, versioned JSON file that names everything an entry is scored on.

A spec names its screens and the file each one is exported to, with the sha256 of that file; the split (kind,
folds, repeats, seed); under a novelty split, its settings and, per screen and repeat, the sha256 of the split's
certificate (:func:`crocbench.cv.certificate`), a file of the export (:meth:`Spec.certificate_files`); the metric of record and the metrics reported; the committed reference it places an entry
against and that reference's rankers; and the config files that declare the screens. The sha256 of the spec file
itself identifies the benchmark: an export, a submission and a result record each carry it.

The committed specs are the package's ``crocbench/benchmark/specs/<name>.json`` (:data:`SPECS`; in the project
``src/crocbench/benchmark/specs/``), written by :func:`write_spec` (sorted keys, two spaces, one final newline), so
that the same spec is always the same bytes. They ship with the package, so an installed crocbench lists them and
checks an export against them from any folder: a spec whose sha256 is none of theirs is unregistered
(:func:`registered`).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..cv import NOVELTY, NOVELTY_SETTINGS, SPLITS

#: The committed specs: the folder of ``<name>.json`` files that ships with the package.
SPECS = Path(__file__).resolve().parent / "specs"
#: The environment variable naming a folder of spec files read in place of :data:`SPECS` (a private registry).
SPECS_ENV = "CROCBENCH_SPECS"
#: How messages, sentences and records name a spec that is none of the committed ones.
UNREGISTERED = "unregistered spec"
#: An export's spec and its reference rankers' values, beside the screens' files.
SPEC_FILE = "benchmark.json"
REFERENCE_FILE = "reference.csv"
FORMATS = ("csv", "parquet")
_KEYS = (
    "name",
    "version",
    "description",
    "config",
    "split",
    "metric_of_record",
    "metrics",
    "reference",
    "rankers",
    "screens",
    "files",
)


def sha256_bytes(data: bytes) -> str:
    """The hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def spec_bytes(spec: dict) -> bytes:
    """The canonical bytes of a spec: JSON, sorted keys, two-space indent, one final newline."""
    return (json.dumps(spec, indent=2, sort_keys=True, allow_nan=False) + "\n").encode()


@dataclass(frozen=True)
class Spec:
    """A benchmark's spec, read and checked (see the module's docstring).

    Parameters
    ----------
    name, version : str, int
        What the benchmark is called, and its version (a new version for any change of what it scores).
    description : str
        One sentence for people.
    config : tuple of str
        The config files after ``config.yaml`` that declare its screens and split, relative to the project.
    split : dict
        ``kind`` (one of ``crocbench.cv.SPLITS``), ``folds``, ``repeats`` and ``seed``; a scaffold split adds
        ``scaffold`` (murcko or generic), a cluster split ``cluster_threshold``, a novelty split ``tau``,
        ``fingerprint`` and ``max_dropped`` (``crocbench.cv.NOVELTY_SETTINGS``).
    metric_of_record : str
        The metric whose comparisons are confirmatory; the others are reported as exploratory.
    metrics : tuple of str
        The metrics scored and placed, keys of the reference's tables (the metric of record among them).
    reference : str
        The committed reference folder, relative to the project (``results/reference/...``).
    rankers : tuple of str
        The reference's rankers an entry is placed among.
    screens : tuple of str
        The screens, in order.
    files : dict
        ``{file name: {"sha256": ..., "compounds": n, "actives": n}}``: each screen's ``<screen>.csv`` and the
        reference rankers' values (:data:`REFERENCE_FILE`); under a novelty split also ``{"sha256": ...}`` of each
        certificate (:meth:`certificate_files`).
    sha256 : str
        The spec file's own sha256: the benchmark's identity.
    """

    name: str
    version: int
    description: str
    config: tuple
    split: dict = field(hash=False)
    metric_of_record: str
    metrics: tuple
    reference: str
    rankers: tuple
    screens: tuple
    files: dict = field(hash=False)
    sha256: str = ""

    @property
    def title(self) -> str:
        """``name v<version> (sha256 <first 12>)``: how messages and records name the benchmark."""
        return f"{self.name} v{self.version} (sha256 {self.sha256[:12]})"

    @property
    def repeats(self) -> int:
        return int(self.split["repeats"])

    def chosen(self, screens=None) -> list[str]:
        """The screens of ``screens`` (default: all), each checked to be one of this benchmark's."""
        chosen = list(self.screens if screens is None else screens)
        unknown = [s for s in chosen if s not in self.screens]
        if unknown:
            raise ValueError(
                f"benchmark {self.name} has no screen {unknown[0]!r}; its screens are {', '.join(self.screens)}"
            )
        return chosen

    def certificate_files(self, screen: str) -> dict:
        """``{fold column: file name}`` of a screen's certificates under a novelty split (``<screen>.certificate.json``,
        or ``<screen>.<fold column>.certificate.json`` with repeats); ``{}`` under the other splits."""
        if self.split["kind"] != NOVELTY:
            return {}
        if self.repeats == 1:
            return {"fold": f"{screen}.certificate.json"}
        return {column: f"{screen}.{column}.certificate.json" for column in self.fold_columns()}

    def unhashed(self) -> list[str]:
        """The screens whose file, or a certificate of, the spec holds no hash for (a freeze not finished), in the
        spec's order."""
        return [s for s in self.screens if not {screen_file(s), *self.certificate_files(s).values()} <= set(self.files)]

    def check_frozen(self) -> None:
        """Raise ``ValueError`` (one line saying how far it is) unless every screen and the reference are hashed."""
        unhashed = self.unhashed()
        if unhashed or REFERENCE_FILE not in self.files:
            raise ValueError(
                f"benchmark {self.name} is not frozen: {len(self.screens) - len(unhashed)} of {len(self.screens)} "
                f"screens hashed, {'and' if REFERENCE_FILE in self.files else 'no'} reference hash "
                "(crocbench benchmark freeze)"
            )

    def fold_columns(self) -> list[str]:
        """The fold columns of a screen's file: ``fold``, or ``fold_0``, ``fold_1``, ... with repeats."""
        return ["fold"] if self.repeats == 1 else [f"fold_{r}" for r in range(self.repeats)]

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "version": self.version,
            "description": self.description,
            "config": list(self.config),
            "split": dict(self.split),
            "metric_of_record": self.metric_of_record,
            "metrics": list(self.metrics),
            "reference": self.reference,
            "rankers": list(self.rankers),
            "screens": list(self.screens),
            "files": {k: dict(v) for k, v in self.files.items()},
        }


def screen_file(screen: str) -> str:
    """The file name of a screen's compounds and folds in an export."""
    return f"{screen}.csv"


def _check(spec: dict, where: str) -> None:
    if not isinstance(spec, dict):
        raise ValueError(f"{where}: not a JSON object")
    unknown = sorted(set(spec) - set(_KEYS))
    missing = [k for k in _KEYS if k not in spec]
    if unknown or missing:
        raise ValueError(f"{where}: {'unknown key ' + repr(unknown[0]) if unknown else 'no key ' + repr(missing[0])}")
    split = spec["split"]
    if not isinstance(split, dict) or split.get("kind") not in SPLITS:
        raise ValueError(f"{where}: split.kind must be one of {', '.join(SPLITS)}")
    if split["kind"] == NOVELTY:
        _check_novelty(split, where)
    for key in ("folds", "repeats", "seed"):
        if not isinstance(split.get(key), int) or split[key] < (2 if key == "folds" else 1 if key == "repeats" else 0):
            raise ValueError(f"{where}: split.{key} must be a whole number (folds >= 2, repeats >= 1, seed >= 0)")
    if spec["metric_of_record"] not in spec["metrics"]:
        raise ValueError(f"{where}: metric_of_record {spec['metric_of_record']!r} is not among its metrics")
    if not spec["screens"] or len(set(spec["screens"])) != len(spec["screens"]):
        raise ValueError(f"{where}: screens must list at least one screen, each once")


def _check_novelty(split: dict, where: str) -> None:
    """One line where a novelty split's settings are missing or out of range."""
    from ..chem.clusters import check_threshold
    from ..chem.graph import check_fingerprint
    from ..cv import check_max_dropped

    missing = [k for k in NOVELTY_SETTINGS if k not in split]
    if missing:
        raise ValueError(f"{where}: a novelty split names {', '.join(NOVELTY_SETTINGS)}; no split.{missing[0]}")
    try:
        check_threshold(split["tau"], "split.tau")
        check_fingerprint(split["fingerprint"])
        check_max_dropped(split["max_dropped"])
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def parse_spec(data: bytes, where: str = "spec") -> Spec:
    """A :class:`Spec` from a spec file's bytes; a bad one raises one line naming ``where``."""
    try:
        spec = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{where}: not JSON ({exc.msg if hasattr(exc, 'msg') else exc})") from None
    _check(spec, where)
    return Spec(
        name=spec["name"],
        version=int(spec["version"]),
        description=spec["description"],
        config=tuple(spec["config"]),
        split=dict(spec["split"]),
        metric_of_record=spec["metric_of_record"],
        metrics=tuple(spec["metrics"]),
        reference=spec["reference"],
        rankers=tuple(spec["rankers"]),
        screens=tuple(spec["screens"]),
        files={k: dict(v) for k, v in spec["files"].items()},
        sha256=sha256_bytes(data),
    )


def read_spec(path) -> Spec:
    """The spec in the file ``path``; a bad one raises one line naming it."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such benchmark spec")
    return parse_spec(path.read_bytes(), str(path))


def write_spec(spec: dict, path) -> Spec:
    """Write a spec's canonical bytes (:func:`spec_bytes`) to ``path``, atomically; returns it read back."""
    from .._io import write_bytes

    data = spec_bytes(spec)
    checked = parse_spec(data, str(path))
    write_bytes(path, data)
    return checked


def specs_folder() -> Path:
    """The folder the committed specs are read from: :data:`SPECS_ENV`'s when it is set, else :data:`SPECS`."""
    named = os.environ.get(SPECS_ENV)
    return Path(named) if named else SPECS


def _where(folder: Path) -> str:
    return f"{folder} ({SPECS_ENV})" if os.environ.get(SPECS_ENV) else str(folder)


def committed_specs(folder=None) -> dict:
    """``{name: Spec}`` of the committed specs, by name.

    Parameters
    ----------
    folder : path, optional
        The folder of ``<name>.json`` spec files (default: ``CROCBENCH_SPECS``, else the shipped specs).

    Raises
    ------
    ValueError
        The folder is missing or holds no spec (one line saying where it looked), or a spec is bad or is not in
        the file its name gives.
    """
    folder = specs_folder() if folder is None else Path(folder)
    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise ValueError(
            f"no benchmark specs in {_where(folder)}: crocbench ships them in crocbench/benchmark/specs/; "
            f"reinstall crocbench, or set {SPECS_ENV} to a folder of <name>.json specs"
        )
    specs = {}
    for path in paths:
        spec = read_spec(path)
        if spec.name != path.stem:
            raise ValueError(f"{path}: names the benchmark {spec.name!r}; its file must be {spec.name}.json")
        specs[spec.name] = spec
    return specs


def find_spec(name: str) -> Spec:
    """The committed spec called ``name``; an unknown name raises one line listing the known ones."""
    specs = committed_specs()
    if name not in specs:
        raise ValueError(f"no benchmark {name!r}; the benchmarks are {', '.join(specs)} ({_where(specs_folder())})")
    return specs[name]


def registered(spec: Spec) -> bool:
    """Whether ``spec`` is a committed spec: its sha256 (its bytes, not its name) is one of theirs. With no
    committed spec at all (an empty ``CROCBENCH_SPECS`` folder), none is."""
    folder = specs_folder()
    if not any(folder.glob("*.json")):
        return False
    return spec.sha256 in {s.sha256 for s in committed_specs(folder).values()}


def check_registered(spec: Spec, where) -> None:
    """Raise one line unless ``spec`` (read from ``where``) is a committed spec (:func:`registered`)."""
    if registered(spec):
        return
    same = committed_specs().get(spec.name)
    why = (
        f"it is not the committed {same.title}: edited, or made by another crocbench"
        if same is not None
        else "no committed spec has that name"
    )
    raise ValueError(
        f"{where}: benchmark {spec.title} is an {UNREGISTERED} ({why}); --unregistered evaluates it anyway, "
        "and its result then says so"
    )

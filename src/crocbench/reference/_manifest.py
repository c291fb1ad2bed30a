"""A reference says what it is: its ``manifest.yaml`` (kind, split, labels, the panel it overlays, its documents).

Every committed reference folder holds one. The code reads it, never the folder's name or the files it holds:

``kind``
    ``paper`` (the DTP AIDS reproduction's tables), ``panel`` (a summary across screens), ``study`` (rankers on one
    dataset) or ``tables`` (a study's own tables, read by its page and tests; no generated blocks).
``split``, ``labels``
    The cross-validation split (:data:`crocbench.cv.SPLITS`: ``random``, ``scaffold``, ``cluster``, ``novelty``)
    and the label definition (``paper``, ``primary`` hits, ``confirmed`` actives).
``novelty``
    A novelty split's record (``split: novelty`` only, and then required): its ``tau``, ``fingerprint`` and
    ``max_dropped``, the ``dropped`` compounds counted by class (``actives``, ``inactives``) and the
    ``certificate_sha256`` of its run's ``folds_certificate.json`` (:func:`crocbench.cv.certificate`).
``overlays``
    The reference whose screens this one asks again under another split or labels (``null`` for none).
``campaign_key``
    How a screen's campaign is named (``campaign``: the dataset less its ``_primary``/``_confirmed``; ``dataset``).
``config``
    The config files of the run, in order.
``documents``
    The pages that hold its generated blocks; ``figures`` the generated figures (path: kind).
``questions``
    The study's declared questions (:class:`crocbench.report.findings.Questions`), for its findings.
``design``
    What a panel's results rest on, as its run wrote it (``tables/design.yaml``; :func:`crocbench.config.study_design`):
    the split (``cv``: split, folds, repeats, seed), the tuning that acted (``tuning``: its settings where the run
    tunes a model; ``chosen_on``, the development panel the models were chosen on, and ``chosen_by``, its settings,
    where they were chosen there; null otherwise), every compared run's parameters
    (``models``, by label), each trained run's fingerprint and the sha256 of the features its fold jobs read on
    each screen (``features``: :func:`crocbench._workflow.features_design`) and the runs its ranks and tests compare
    (``ranked``).
``strata``
    A ``memorization`` reference's strata: ``novel`` and ``analog`` thresholds and the ``metrics`` tabulated
    (the run's ``memorization:`` config).

Kinds: ``paper``, ``panel``, ``study``, ``tables``, and ``memorization`` (one dataset under one split: every ranker
on the strata of its test actives, the tests per stratum, and the dataset's splits compared).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from .._io import read_text
from ..cv import NOVELTY, SPLITS

MANIFEST = "manifest.yaml"
KINDS = ("paper", "panel", "study", "tables", "memorization")
LABELS = ("paper", "primary", "confirmed")
CAMPAIGN_KEYS = ("campaign", "dataset")
FIGURES = ("critical_difference", "memorization", "split_similarity", "novelty_cost")
_KEYS = (
    "kind",
    "split",
    "labels",
    "overlays",
    "campaign_key",
    "config",
    "documents",
    "figures",
    "questions",
    "design",
    "strata",
    "novelty",
)
#: The keys of a novelty split's record (``novelty:``), and those of its ``dropped``.
NOVELTY_KEYS = ("tau", "fingerprint", "max_dropped", "dropped", "certificate_sha256")
DROPPED_KEYS = ("actives", "inactives")


@dataclass(frozen=True)
class Manifest:
    """A reference folder's ``manifest.yaml``, checked (see the module's docstring for the keys)."""

    folder: Path
    kind: str
    split: str | None = None
    labels: str | None = None
    overlays: str | None = None
    campaign_key: str = "dataset"
    config: tuple = ()
    documents: tuple = ()
    figures: dict = field(default_factory=dict, hash=False)
    questions: dict | None = field(default=None, hash=False)
    design: dict | None = field(default=None, hash=False)
    strata: dict | None = field(default=None, hash=False)
    novelty: dict | None = field(default=None, hash=False)

    @property
    def name(self) -> str:
        return self.folder.name

    def as_dict(self) -> dict:
        out = {
            "kind": self.kind,
            "split": self.split,
            "labels": self.labels,
            "overlays": self.overlays,
            "campaign_key": self.campaign_key,
            "config": list(self.config),
            "documents": list(self.documents),
            "figures": dict(self.figures),
        }
        if self.questions is not None:
            out["questions"] = self.questions
        if self.design is not None:
            out["design"] = self.design
        if self.strata is not None:
            out["strata"] = self.strata
        if self.novelty is not None:
            out["novelty"] = self.novelty
        return out


def _one_of(path, key, value, allowed, optional=True):
    if value is None and optional:
        return None
    if value not in allowed:
        raise ValueError(f"{path}: {key} must be one of {', '.join(allowed)}; got {value!r}")
    return value


def read_manifest(folder) -> Manifest:
    """The manifest of the reference ``folder``; a missing or bad one raises one line naming the file and key."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not path.is_file():
        raise ValueError(
            f"{path}: no manifest; a reference says what it is (kind: paper, panel, study, tables or memorization)"
        )
    stat = path.stat()
    return _read(folder, stat.st_mtime_ns, stat.st_size)


def read_yaml(path):
    """A YAML file of a reference or a run (a manifest, a run's declarations); one that is not UTF-8 or not YAML
    raises one line naming it."""
    from .._extras import needs

    with needs("crocbench.reference"):
        import yaml

    try:
        return yaml.safe_load(read_text(path, "YAML"))
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not YAML: {' '.join(str(exc).split())}") from None


@functools.lru_cache(maxsize=256)
def _read(folder: Path, mtime_ns: int, size: int) -> Manifest:
    """:func:`read_manifest`'s work, kept while the file is unchanged (its time and size are the key)."""
    path = folder / MANIFEST
    spec = read_yaml(path)
    if not isinstance(spec, dict):
        raise ValueError(f"{path}: not a mapping")
    unknown = sorted(set(spec) - set(_KEYS))
    if unknown:
        raise ValueError(f"{path}: unknown key {unknown[0]!r}; keys are {', '.join(_KEYS)}")
    figures = dict(spec.get("figures") or {})
    for figure, kind in figures.items():
        _one_of(path, f"figures.{figure}", kind, FIGURES, optional=False)
    manifest = Manifest(
        folder=folder,
        kind=_one_of(path, "kind", spec.get("kind"), KINDS, optional=False),
        split=_one_of(path, "split", spec.get("split"), SPLITS),
        labels=_one_of(path, "labels", spec.get("labels"), LABELS),
        overlays=spec.get("overlays"),
        campaign_key=_one_of(path, "campaign_key", spec.get("campaign_key", "dataset"), CAMPAIGN_KEYS, optional=False),
        config=tuple(spec.get("config") or ()),
        documents=tuple(spec.get("documents") or ()),
        figures=figures,
        questions=spec.get("questions"),
        design=spec.get("design"),
        strata=spec.get("strata"),
        novelty=spec.get("novelty"),
    )
    _check_novelty(path, manifest.split, manifest.novelty)
    if manifest.kind == "memorization":
        strata = manifest.strata or {}
        if not {"novel", "analog", "metrics"} <= set(strata):
            raise ValueError(f"{path}: a memorization reference declares strata: novel, analog and metrics")
    if manifest.overlays is not None and not (folder.parent / manifest.overlays / MANIFEST).is_file():
        raise ValueError(f"{path}: overlays {manifest.overlays!r} is no reference beside it")
    if manifest.questions is not None:
        from ..report.findings import Questions

        try:
            Questions.from_dict(manifest.questions)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
    return manifest


def _check_novelty(path, split, novelty) -> None:
    """One line where a novelty split's record is missing or misshapen, or a record is given for another split."""
    if split != NOVELTY:
        if novelty is not None:
            raise ValueError(f"{path}: novelty: is a novelty split's record; the split is {split}")
        return
    keys = ", ".join(NOVELTY_KEYS)
    if not isinstance(novelty, dict) or set(novelty) != set(NOVELTY_KEYS):
        raise ValueError(f"{path}: a novelty split's reference records novelty: {keys}")
    dropped = novelty["dropped"]
    if not isinstance(dropped, dict) or set(dropped) != set(DROPPED_KEYS):
        raise ValueError(f"{path}: novelty.dropped counts the dropped compounds by class: actives, inactives")
    sha = novelty["certificate_sha256"]
    if not (isinstance(sha, str) and len(sha) == 64 and all(c in "0123456789abcdef" for c in sha)):
        raise ValueError(f"{path}: novelty.certificate_sha256 is 64 hexadecimal digits; got {sha!r}")


def write_manifest(manifest: Manifest) -> Path:
    """Write ``manifest.yaml`` into its folder (atomically); returns its path."""
    from .._extras import needs

    with needs("crocbench.reference"):
        import yaml

    from .._io import write_text

    path = manifest.folder / MANIFEST
    write_text(path, yaml.safe_dump(manifest.as_dict(), sort_keys=False, width=118))
    return path


def manifest_kind(folder) -> str | None:
    """The ``kind`` of the reference ``folder``'s manifest, or None where it has none."""
    return read_manifest(folder).kind if (Path(folder) / MANIFEST).is_file() else None


def references(root) -> list:
    """The manifests of the committed references under ``root`` (``results/reference``: itself, then its folders
    that hold one), by name."""
    root = Path(root)
    folders = [root, *sorted(p for p in root.iterdir() if p.is_dir())]
    return [read_manifest(f) for f in folders if (f / MANIFEST).is_file()]


def is_panel_reference(reference) -> bool:
    """Whether the reference folder is a panel's: its manifest says ``kind: panel``."""
    return manifest_kind(reference) == "panel"


def is_study_reference(reference) -> bool:
    """Whether the reference folder is a study's: its manifest says ``kind: study``."""
    return manifest_kind(reference) == "study"

"""A run against its reference: compared table by table, or written into it (the documented way to refresh it)."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

from .._io import no_empty_folders, read_table, write_table
from ..cv import NOVELTY, NOVELTY_SETTINGS
from ._manifest import (
    MANIFEST,
    Manifest,
    is_panel_reference,
    is_study_reference,
    manifest_kind,
    read_manifest,
    read_yaml,
    write_manifest,
)
from ._panel import added_screens, recomputed_across, summary_frames
from ._tables import (
    MEMORIZATION_FILES,
    OPTIONAL_FILES,
    REFERENCE_FILES,
    SUMMARY_FILES,
    SUMMARY_OPTIONAL,
    compare,
    is_summary,
    reference_files,
    reference_frame,
)


def compare_run(results, reference) -> dict:
    """``{table: difference lines}`` between a run and the reference folder (a missing reference table is
    one line)."""
    out = {}
    memorization = manifest_kind(reference) == "memorization"
    for name in reference_files(results, is_study_reference(reference), memorization):
        if memorization and name in OPTIONAL_FILES and not (Path(results) / "tables" / name).is_file():
            continue
        path = Path(reference) / name
        if not path.is_file():
            out[name] = [f"{name}: not in the reference {reference}"]
            continue
        out[name] = compare(reference_frame(results, name), read_table(path), name)
    return out


#: The keys of a run's ``tables/memorization.yaml`` a memorization reference keeps.
_DECLARED = ("split", "novel", "analog", "metrics")


def _declared_strata(results) -> dict:
    """A run's ``tables/memorization.yaml`` (its split and strata); a missing file, or one without a key of
    :data:`_DECLARED`, raises one line naming the file."""
    path = Path(results) / "tables" / "memorization.yaml"
    if not path.is_file():
        raise ValueError(f"{path}: no such file; a run with memorization: in its config writes it: run the workflow")
    declared = read_yaml(path)
    if not isinstance(declared, dict):
        raise ValueError(f"{path}: not a mapping of {', '.join(_DECLARED)}")
    missing = [key for key in _DECLARED if key not in declared]
    if missing:
        raise ValueError(f"{path}: no key {', '.join(missing)} (it has {', '.join(map(str, declared)) or 'none'})")
    return declared


#: A novelty run's certificate (:func:`crocbench.cv.certificate`), beside its fold table.
CERTIFICATE = "folds_certificate.json"


def _novelty_record(results, declared: dict) -> dict:
    """A novelty run's record for its reference's manifest (``novelty:``): the declared settings, the dropped
    compounds by class and the sha256 of the run's certificate; one line where the certificate is missing or is
    not of the declared tau and fingerprint."""
    path = Path(results) / "tables" / "memorization.yaml"
    settings = declared.get("novelty")
    if not isinstance(settings, dict) or not set(NOVELTY_SETTINGS) <= set(settings):
        raise ValueError(f"{path}: a novelty split declares novelty: {', '.join(NOVELTY_SETTINGS)}")
    cert_path = Path(results) / CERTIFICATE
    if not cert_path.is_file():
        raise ValueError(f"{cert_path}: no such file; a novelty run writes its certificate beside folds.tsv")
    data = cert_path.read_bytes()
    try:
        cert = json.loads(data)
        dropped = {key: int(cert["dropped"][key]) for key in ("actives", "inactives")}
        claimed = (float(cert["tau"]), str(cert["fingerprint"]))
    except (ValueError, TypeError, KeyError):
        raise ValueError(f"{cert_path}: not a novelty split's certificate (crocbench split novelty)") from None
    if claimed != (float(settings["tau"]), str(settings["fingerprint"])):
        raise ValueError(
            f"{cert_path}: certifies tau {claimed[0]:g} with {claimed[1]}; the run declares tau "
            f"{float(settings['tau']):g} with {settings['fingerprint']}"
        )
    return {
        "tau": float(settings["tau"]),
        "fingerprint": str(settings["fingerprint"]),
        "max_dropped": float(settings["max_dropped"]),
        "dropped": dropped,
        "certificate_sha256": hashlib.sha256(data).hexdigest(),
    }


@contextlib.contextmanager
def _staged(folder: Path):
    """A reference folder written whole: yields a folder beside ``folder`` (``.NAME.part``) holding a copy of
    its files, which replaces ``folder`` once the block succeeds; a block that fails leaves ``folder`` as it was
    (or absent) and removes the copy."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder}: is a file; a reference is a folder")
    if not next(p for p in folder.parents if p.exists()).is_dir():  # under a file: said of the folder asked for
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    staging, old = folder.with_name(f".{folder.name}.part"), folder.with_name(f".{folder.name}.old")
    shutil.rmtree(staging, ignore_errors=True)  # a killed write's leftovers
    with no_empty_folders(folder.parent), _removed(staging):
        if folder.is_dir():
            shutil.copytree(folder, staging)
        else:
            staging.mkdir(parents=True)
        yield staging
        shutil.rmtree(old, ignore_errors=True)
        if folder.is_dir():
            os.rename(folder, old)
        os.rename(staging, folder)
        shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def _removed(folder: Path):
    try:
        yield
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_memorization_reference(results, reference) -> dict:
    """Copy a run's memorization tables (``MEMORIZATION_FILES``) into a reference folder of their own, with a
    manifest of kind ``memorization`` saying the run's split and strata (``tables/memorization.yaml``).

    The folder is written whole (``_staged``): a table or a declaration that cannot be read leaves it as it
    was. Returns ``{path written: lines saying what moved against the previous reference}``.
    """
    reference = Path(reference)
    kind = manifest_kind(reference) if reference.is_dir() else None
    if kind not in (None, "memorization"):
        raise ValueError(f"{reference} holds a {kind} reference: a memorization reference needs a folder of its own")
    declared = _declared_strata(results)
    strata = {key: declared[key] for key in ("novel", "analog", "metrics")}
    novelty = _novelty_record(results, declared) if declared["split"] == NOVELTY else None
    written = {}
    with _staged(reference) as staging:
        for name in MEMORIZATION_FILES:
            if name in OPTIONAL_FILES and not (Path(results) / "tables" / name).is_file():
                continue  # a run without `memorization: splits`
            frame, path = reference_frame(results, name), staging / name
            moved = compare(frame, read_table(path), name) if path.is_file() else ["new"]
            write_table(frame, path, sep="\t", index=False, float_format="%.12g")
            written[reference / name] = moved
        old = read_manifest(staging) if kind else Manifest(staging, kind="memorization")
        if kind is None or (old.split, old.strata, old.novelty) != (declared["split"], strata, novelty):
            write_manifest(replace(old, split=declared["split"], strata=strata, novelty=novelty))
            written[reference / MANIFEST] = ["new" if kind is None else "strata"]
    return written


def _write_frames(frames: dict, reference: Path, unchanged: bool = True) -> dict:
    """Write each table into the reference folder: ``{path: lines saying what moved}`` (``["new"]`` for a table it
    did not hold); without ``unchanged``, a table within the tolerances of the one held is left as it is."""
    written = {}
    for name, frame in frames.items():
        path = reference / name
        moved = compare(frame, read_table(path), name) if path.is_file() else ["new"]
        if moved or unchanged:
            write_table(frame, path, sep="\t", index=False, float_format="%.12g")
        written[path] = moved
    return written


def write_recomputed(reference) -> dict:
    """Rewrite a panel's reference's tables across the screens from its own tables of one screen each
    (:func:`crocbench.reference.recomputed_across`), those that moved: ``{path: lines saying what moved}``."""
    frames, reference = recomputed_across(reference), Path(reference)
    with _staged(reference) as staging:
        written = _write_frames(frames, staging, unchanged=False)
    return {reference / path.name: moved for path, moved in written.items()}


def write_reference(results, reference, study: bool = False, add: bool = False) -> dict:
    """Copy a run's tables into the reference folder (the documented way to refresh it on purpose).

    With ``study`` (implied where the folder already holds a study's reference), the tables of a study of rankers
    (:data:`STUDY_FILES`) into a folder of its own. With ``add``, a panel's summary adds its screens to the panel's
    reference (:func:`crocbench.reference.added_screens`): a panel run screen by screen, in several runs.

    The folder is written whole (``_staged``). Returns ``{path written: lines saying what moved against the
    previous reference}``; a table the reference did not hold yet gets ``["new"]``.
    """
    reference = Path(reference)
    study = study or is_study_reference(reference)
    if study and is_summary(results):
        raise ValueError(f"{results} is a panel's summary: a study's reference is of one dataset's run")
    if study and (reference / "published.tsv").is_file():
        raise ValueError(f"{reference} holds a dataset's reference (published.tsv): a study needs a folder of its own")
    other = REFERENCE_FILES if is_summary(results) else SUMMARY_FILES
    mixed = [n for n in other if n != "svm_folds.tsv" and (reference / n).is_file()]
    if mixed:
        kind = "a panel's summary" if is_summary(results) else "a dataset's run"
        raise ValueError(f"{reference} holds another kind of reference ({mixed[0]}): {kind} needs a folder of its own")
    if add:
        if not is_summary(results):
            raise ValueError(f"{results} is not a panel's summary: only a panel's screens are added to its reference")
        if not is_panel_reference(reference):
            raise ValueError(f"{reference}: no panel reference to add screens to (write it first, without --add)")
        design, held = _summary_yaml(results, "design.yaml"), read_manifest(reference).design
        if design is not None and held is not None and _screenless(design) != _screenless(held):
            design, held = _screenless(design), _screenless(held)
            keys = [k for k in dict.fromkeys([*design, *held]) if design.get(k) != held.get(k)]
            raise ValueError(
                f"{results}: its run's design (tables/design.yaml) is not the panel's ({reference}): "
                f"{', '.join(keys)} differ"
            )
        frames = added_screens(results, reference, design, held)
    elif is_summary(results):
        frames = summary_frames(results, _summary_yaml(results, "design.yaml"))
    else:
        frames = {name: reference_frame(results, name) for name in reference_files(results, study)}
    with _staged(reference) as staging:
        written = _write_run(results, frames, staging, study, add)
    return {reference / path.name: moved for path, moved in written.items()}


def _write_run(results, frames: dict, reference: Path, study: bool, add: bool) -> dict:
    """:func:`write_reference`'s writes, into ``reference`` (its staging folder): the tables, the summary tables
    the reference no longer holds removed, the manifest."""
    written = _write_frames(frames, reference)
    if is_summary(results):  # a summary table the panel's reference now lacks would be stale (e.g. the structures
        # shared, not merged screen by screen; the tables across the screens, of a summary of its screens only)
        for name in (*SUMMARY_FILES, *SUMMARY_OPTIONAL):
            if name not in frames and (reference / name).is_file():
                (reference / name).unlink()
                why = "not merged screen by screen" if add else "the summary does not hold it"
                written[reference / name] = [f"{name}: removed ({why})"]
    questions, design = _summary_yaml(results, "questions.yaml"), _summary_yaml(results, "design.yaml")
    if manifest_kind(reference) is None:  # a new reference says what it is; the rest of its manifest is declared
        kind = "panel" if is_summary(results) else "study" if study else "paper"
        written[write_manifest(Manifest(reference, kind=kind, questions=questions, design=design))] = ["new"]
        return written
    manifest, moved = read_manifest(reference), []
    if questions is not None and manifest.questions != questions:
        moved.append(f"{MANIFEST}: questions: {manifest.questions} -> {questions}")
        manifest = replace(manifest, questions=questions)
    if design is not None and manifest.design != design and not add:  # added screens: checked above, not adopted
        moved.append(f"{MANIFEST}: design: {manifest.design} -> {design}")
        manifest = replace(manifest, design=design)
    elif design is not None and add and manifest.design is not None:  # but their features' digests are kept
        merged = _with_digests(manifest.design, design)
        if merged != manifest.design:
            moved.append(f"{MANIFEST}: design: features: the added screens' sha256")
            manifest = replace(manifest, design=merged)
    if moved:
        written[write_manifest(manifest)] = moved
    return written


def _screenless(design: dict) -> dict:
    """``design`` without its features' digests screen by screen (``features``' ``sha256``): what every screen
    added to a panel shares."""
    if not isinstance(design.get("features"), dict):
        return design
    features = {label: {k: v for k, v in arm.items() if k != "sha256"} for label, arm in design["features"].items()}
    return {**design, "features": features}


def _with_digests(held: dict, design: dict) -> dict:
    """The panel's ``held`` design with the features' digests of ``design``'s screens (added screens) merged in."""
    if not isinstance(held.get("features"), dict) or not isinstance(design.get("features"), dict):
        return held
    features = {
        label: {**arm, "sha256": {**arm.get("sha256", {}), **design["features"].get(label, {}).get("sha256", {})}}
        for label, arm in held["features"].items()
    }
    return {**held, "features": features}


def _summary_yaml(results, name: str) -> dict | None:
    """A panel summary's YAML table (``tables/questions.yaml``: the questions its run declared; ``tables/design.yaml``:
    its design), as its run wrote it, or None."""
    path = Path(results) / "tables" / name
    return read_yaml(path) if path.is_file() else None

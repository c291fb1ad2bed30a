"""A benchmark's split: checked against its config, its groups and novelty folds made as the workflow makes them,
and a novelty split's certificates.

Under a novelty split each fold column of a screen has its certificate (:func:`crocbench.cv.certificate`), a file
of the export (:meth:`crocbench.benchmark.Spec.certificate_files`) whose sha256 the spec lists: an export
recomputes it from the screen's compounds and folds, checks it (:func:`crocbench.cv.verify_certificate`: no pair of
two folds at or above tau, the maxima and the dropped compounds as it says) and refuses, in one line, a screen whose
folds are not the ones the spec certifies.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..cv import NOVELTY, NOVELTY_SETTINGS
from ._spec import Spec, sha256_bytes


def check_split(spec: Spec, config: dict) -> None:
    """One line where the spec's split is not its config's ``cv:`` (kind, folds, repeats, seed, the kind's settings)."""
    cv, split = config["cv"], spec.split
    pairs = {"kind": cv["split"], "folds": cv["folds"], "repeats": cv["repeats"], "seed": cv["seed"]}
    if split["kind"] == "scaffold":
        pairs["scaffold"] = cv["scaffold"]
    if split["kind"] == "cluster":
        pairs["cluster_threshold"] = cv["cluster_threshold"]
    if split["kind"] == NOVELTY:
        pairs.update({key: cv["novelty"][key] for key in NOVELTY_SETTINGS})
    for key, value in pairs.items():
        if split.get(key) != value:
            raise ValueError(
                f"benchmark {spec.name}: its split.{key} is {split.get(key)!r} but its config gives {value!r}"
            )


def split_groups(spec: Spec, config: dict, compounds: pd.DataFrame, n_jobs: int, progress) -> dict:
    """The groups of a grouped split, computed as the workflow's ``scaffolds`` and ``clusters`` jobs compute them."""
    kind = spec.split["kind"]
    if kind == "scaffold":
        from ..chem.scaffolds import scaffolds

        return {"scaffolds": scaffolds(compounds["smiles"], spec.split["scaffold"], progress=progress)}
    if kind == "cluster":
        from ..chem.clusters import bit_fingerprints, leader_clusters
        from ..chem.ecfp import ecfp_counts
        from ..chem.fingerprints import require_parsed

        reasons, counts = ecfp_counts(compounds["smiles"], config["ecfp"]["radius"], config["ecfp"]["n_bits"], n_jobs)
        require_parsed(reasons)
        return {"clusters": leader_clusters(bit_fingerprints(counts), spec.split["cluster_threshold"])}
    return {}


def novelty_folds(spec: Spec, table: pd.DataFrame, n_jobs: int = 1):
    """Fill a screen's fold columns (``id``, ``smiles``, ``label`` given) with the spec's novelty split, one per
    repeat (:func:`crocbench.cv.novelty_table`, seed per repeat); returns the compounds' fingerprints
    (:func:`crocbench.chem.graph.named_fingerprints`)."""
    from ..chem.graph import named_fingerprints, tau_graph
    from ..cv import novelty_table, repeat_seed

    split = spec.split
    fp = named_fingerprints(table["smiles"], split["fingerprint"], table["id"].tolist(), n_jobs)
    graph = tau_graph(fp, split["tau"])
    for r, column in enumerate(spec.fold_columns()):
        seed = repeat_seed(split["seed"], r)
        folds = novelty_table(
            table["id"], table["label"], graph, split["tau"], split["folds"], seed, split["max_dropped"]
        )
        table[column] = folds["fold"].to_numpy()
    return fp


def certificates(spec: Spec, screen: str, table: pd.DataFrame, fp, verify: bool = True) -> dict:
    """``{file name: bytes}`` of a screen's certificates under a novelty split, each made from its fold column and
    checked (:func:`crocbench.cv.verify_certificate`); ``{}`` under the other splits. With ``verify``, each must
    have the sha256 the spec lists, else one line: the folds are not the ones certified."""
    from ..cv import certificate, certificate_bytes, verify_certificate

    out = {}
    for column, name in spec.certificate_files(screen).items():
        folds = table[["id", "label", column]].rename(columns={column: "fold"})
        cert = certificate(folds, fp, spec.split["tau"], spec.split["fingerprint"])
        try:
            verify_certificate(cert, folds, fp)
        except ValueError as exc:
            raise ValueError(f"benchmark {spec.title}: screen {screen}'s {column}: {exc}") from None
        out[name] = certificate_bytes(cert)
        certified = spec.files.get(name, {}).get("sha256")
        if verify and sha256_bytes(out[name]) != certified:
            raise ValueError(
                f"benchmark {spec.title}: screen {screen}'s certificate has sha256 {sha256_bytes(out[name])[:12]}, "
                f"the spec lists {str(certified)[:12]}: its folds are not the ones certified (nothing of it written)"
            )
    return out


def holds(path: Path, sha256: str) -> bool:
    """Whether the file ``path`` exists and has the sha256 ``sha256``."""
    return path.is_file() and sha256_bytes(path.read_bytes()) == sha256

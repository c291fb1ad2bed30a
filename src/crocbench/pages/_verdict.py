"""A declared verdict study's block (``<!-- reference:<study>/verdict -->``): its words computed from the values its
reference holds, or, while it has none, what it will test."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

#: The tables of a verdict study's reference the verdict is computed from, by what each family is scored on: every
#: screen's per-repeat values, and its values on the novel actives. A reference grows by screens (``crocbench
#: reference --add``); the verdict across them is computed here, never kept.
VERDICT_VALUES = {"confirmed actives": "datasets_repeats.tsv", "novel actives": "novel.tsv"}


def reference_verdict(folder) -> tuple:
    """``(verdict_table, decomposition_table)`` of a verdict study's reference: the ``verdict:`` declared and its
    arms from its manifest's ``design`` (as the run recorded them: ``crocbench.config.study_design``), its
    values from :data:`VERDICT_VALUES`.

    Parameters
    ----------
    folder : path-like
        The reference folder (``results/reference/<study>``).

    Returns
    -------
    tuple of DataFrame
    """
    from ..reference import read_manifest
    from ..report.findings import Arm, decomposition_table, verdict_table

    folder = Path(folder)
    design = read_manifest(folder).design or {}
    if "verdict" not in design or "arms" not in design:
        raise ValueError(f"{folder}: its manifest's design records no verdict and arms (a verdict study's run does)")
    arms = {label: Arm(**arm) for label, arm in design["arms"].items()}
    values = {on: pd.read_csv(folder / name, sep="\t") for on, name in VERDICT_VALUES.items()}
    return verdict_table(values, design["verdict"], arms), decomposition_table(values, design["verdict"], arms)


def verdict_tables(root) -> dict:
    """``{"<study>/verdict": Markdown}`` for each study config (``config/studies/<study>.yaml``) that declares
    ``verdict:``: where ``results/reference/<study>`` holds its values (:data:`VERDICT_VALUES`), the union's words
    and table and the decompositions (:func:`reference_verdict`, then
    :func:`crocbench.report.findings.verdict_markdown` and :func:`crocbench.report.findings.decomposition_markdown`);
    else what the study awaits
    (:func:`crocbench.report.findings.awaiting_markdown`).

    Parameters
    ----------
    root : path-like
        The repository's root.

    Returns
    -------
    dict
    """
    from .._extras import needs
    from ..report.findings import awaiting_markdown, decomposition_markdown, verdict_markdown

    with needs("crocbench regenerate"):
        import yaml

    root, tables = Path(root), {}
    for path in sorted((root / "config" / "studies").glob("*.yaml")):
        config = yaml.safe_load(path.read_text())
        verdict = config.get("verdict") if isinstance(config, dict) else None
        if not verdict:
            continue
        folder = root / "results" / "reference" / path.stem
        if all((folder / name).is_file() for name in [*VERDICT_VALUES.values(), "manifest.yaml"]):
            table, parts = reference_verdict(folder)
            text = verdict_markdown(table, verdict) + "\n\n" + decomposition_markdown(parts, verdict)
        else:
            text = awaiting_markdown(verdict)
        tables[f"{path.stem}/verdict"] = text
    return tables

"""A declared verdict study's block (``<!-- reference:<study>/verdict -->``): its words from the tables its run
committed, or, while none is, what it will test."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import yaml

#: The tables a verdict study's run writes (``results/summary/tables/``) and its reference keeps.
VERDICT_FILES = ("verdict.tsv", "decomposition.tsv")


def verdict_tables(root) -> dict:
    """``{"<study>/verdict": Markdown}`` for each study config (``config/studies/<study>.yaml``) that declares
    ``verdict:``: where ``results/reference/<study>`` holds its run's :data:`VERDICT_FILES`, the union's words and
    table and the decompositions (:func:`crocbench.report.findings.verdict_markdown`,
    :func:`crocbench.report.findings.decomposition_markdown`); else what the study awaits
    (:func:`crocbench.report.findings.awaiting_markdown`).

    Parameters
    ----------
    root : path-like
        The repository's root.

    Returns
    -------
    dict
    """
    from ..report.findings import awaiting_markdown, decomposition_markdown, verdict_markdown

    root, tables = Path(root), {}
    for path in sorted((root / "config" / "studies").glob("*.yaml")):
        config = yaml.safe_load(path.read_text())
        verdict = config.get("verdict") if isinstance(config, dict) else None
        if not verdict:
            continue
        folder = root / "results" / "reference" / path.stem
        if all((folder / name).is_file() for name in VERDICT_FILES):
            table, parts = (pd.read_csv(folder / name, sep="\t") for name in VERDICT_FILES)
            text = verdict_markdown(table, verdict) + "\n\n" + decomposition_markdown(parts, verdict)
        else:
            text = awaiting_markdown(verdict)
        tables[f"{path.stem}/verdict"] = text
    return tables

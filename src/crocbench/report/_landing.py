"""The published-vs-reproduced summary: the table of every number the paper publishes beside this run's (the
README's block and the run's ``published.md``), and the HTML report's landing page, which leads with it."""

from __future__ import annotations

import numpy as np
import pandas as pd


def quantity_labels() -> dict:
    """Metric key -> its label in the published-vs-reproduced table: the paper panel's own labels of its headline
    areas (AUC[ROC], AUC[CROC(exp)] a=7, ...), and the count of actives and the IRV's epochs."""
    from ..metrics import HEADLINE, paper_metrics

    panel = {c.key: c.label for c in paper_metrics()}
    return {**{k: panel[k] for k in HEADLINE}, "top1000": "actives in top 1,000", "epochs_mean": "epochs"}


def _number(value, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.{digits}g}"


def published_cells(published: pd.DataFrame) -> pd.DataFrame:
    """A run's ``published.tsv`` (:func:`crocbench.paper.published_comparison`) as the cells a reader reads: a row
    per anchor with its model, quantity, published and reproduced value, tolerance (and band around the
    reproduced value, where a known deviation has one) and status."""
    labels = quantity_labels()
    rows = []
    for r in published.itertuples():
        allowed = "" if pd.isna(r.tolerance) else f"{r.tolerance:g}"
        if not pd.isna(r.band_low):
            allowed += f" ({_number(r.band_low)} to {_number(r.band_high)})"
        rows.append(
            {
                "anchor": r.id,
                "model": r.model,
                "quantity": labels.get(r.metric, r.metric),
                "published": "" if pd.isna(r.published) else f"{r.published:g}",
                "reproduced": _number(r.reproduced),
                "tolerance (band)": allowed.strip(),
                "status": r.status,
            }
        )
    return pd.DataFrame(rows, columns=["anchor", "model", "quantity", "published", "reproduced", "tolerance (band)",
                                       "status"])  # fmt: skip


#: The columns of :func:`published_cells` the landing page shows: the page's text column is 32 rem wide beside the
#: workflow's graph (Snakemake's report: ``prose max-w-lg``), so the anchor and the tolerance are left to
#: ``published.html`` under Tables.
LANDING_COLUMNS = ("model", "quantity", "published", "reproduced", "status")


def landing_rst(published: pd.DataFrame, dataset: str) -> str:
    """The HTML report's landing summary of a run that reproduces the paper, as reStructuredText: how many of the
    published numbers the run reproduces within their tolerance, by status, then :func:`published_cells`'
    ``LANDING_COLUMNS`` as a table (``workflow/report/workflow.rst`` shows it; ``published.html`` under Tables
    gives every column, and adds the paper's claims)."""
    cells = published_cells(published)
    counts = cells["status"].value_counts()
    order = ["pass", "known deviation", "in band", "FAIL", "not run"]
    said = "; ".join(f"{s}: {counts[s]}" for s in [*order, *sorted(set(counts.index) - set(order))] if s in counts)
    head = (
        f"**Published vs reproduced** on **{dataset}**, {len(cells)} numbers checked ({said}). A known deviation is "
        "documented and explained, and held to a band around this run's value; *published.html* under Tables gives each "
        "number's anchor and tolerance.\n\n"
    )
    shown = cells[list(LANDING_COLUMNS)]
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in [list(shown.columns), *shown.itertuples(index=False)]:
        lines += [f"   * - {row[0]}"] + [f"     - {cell}" if cell else "     -" for cell in row[1:]]
    return head + "\n".join(lines) + "\n"

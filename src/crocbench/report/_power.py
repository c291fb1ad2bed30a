"""The power study's report: the power table as Markdown, and caveats (the paper's power claims:
:func:`crocbench.paper.power_claims`)."""

from __future__ import annotations

import pandas as pd

from ..stats import TEST_LABELS
from ._format import markdown_table

_TEST_ABBREVIATIONS = {
    "paired_permutation": "PP",
    "unpaired_permutation": "UP",
    "paired_t": "PT",
    "unpaired_t": "UT",
    "paired_wilcoxon": "PW",
    "unpaired_wilcoxon": "UW",
}


def _pair_name(a, b, labels) -> str:
    return f"{labels.get(a, a)} vs {labels.get(b, b)}"


def power_markdown(table: pd.DataFrame, labels: dict | None = None) -> str:
    """The power table as Markdown: per pair, rows = metric, columns = test x subset size (power in %)."""
    labels = labels or {}
    tests = list(dict.fromkeys(table["test"]))
    fractions = sorted(set(table["fraction"]))
    parts = [
        "Power in % (share of subsets rejecting at p < 0.05 in the full-data direction); "
        "in brackets, where not 0, the % rejecting in the opposite direction. Tests: "
        + ", ".join(f"{_TEST_ABBREVIATIONS.get(t, t)} = {TEST_LABELS[t]}" for t in tests)
        + "."
    ]
    for (a, b), part in table.groupby(["a", "b"], sort=False):
        sizes = part.drop_duplicates("fraction").set_index("fraction")
        head = ", ".join(
            f"{100 * f:g}% = {int(sizes.loc[f, 'size'])} compounds ({int(sizes.loc[f, 'positives'])} positives)"
            for f in fractions
        )
        rows = []
        for _, g in part.groupby("metric", sort=False):
            cells = g.set_index(["test", "fraction"])
            row = {"metric": g["label"].iloc[0], "full-data difference": f"{g['full_difference'].iloc[0]:+.4f}"}
            for t in tests:
                for f in fractions:
                    power, wrong = cells.loc[(t, f), "power"], cells.loc[(t, f), "wrong"]
                    row[f"{_TEST_ABBREVIATIONS.get(t, t)} {100 * f:g}%"] = f"{100 * power:.0f}" + (
                        f" [{100 * wrong:.0f}]" if wrong > 0 else ""
                    )
            rows.append(row)
        parts.append(f"### {_pair_name(a, b, labels)}\n\nSubsets: {head}.\n\n" + markdown_table(pd.DataFrame(rows)))
    return "\n\n".join(parts)


def power_notes(table: pd.DataFrame) -> str:
    """Plain-language caveats read off the power table: wrong-direction rejections per test."""
    wrong = table.groupby("test")["wrong"].max().sort_values(ascending=False)
    worst = table.loc[table["wrong"].idxmax()]
    lines = [
        "- Power here is the paper's notion: how often a test on a metric detects the full-data "
        "difference. It mixes the metric's sensitivity with how different the two classifiers really are "
        "on what it measures; a metric whose full-data difference is near 0 for a pair cannot have power there.",
        "- Highest share of subsets rejecting in the direction opposite to the full-data difference, per test: "
        + ", ".join(f"{TEST_LABELS[t]} {w:.2f}" for t, w in wrong.items())
        + f" (worst: {worst['label']}, {worst['a']} vs {worst['b']}, {100 * worst['fraction']:g}% subsets). "
        "The Wilcoxon tests compare the location (median) of the per-positive values, not their mean, "
        "which is what the metric is: they can be significant against the metric's own difference, so "
        "their extra power is not power for the metric.",
    ]
    return "\n".join(lines)

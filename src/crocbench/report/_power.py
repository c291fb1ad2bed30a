"""The power study's report: the power table as Markdown, the paper's power claims checked on it, and caveats."""

from __future__ import annotations

import pandas as pd

from ..metrics import ALPHAS, CUTOFFS
from ._claims import Claim
from ._format import markdown_table

_TEST_ABBREVIATIONS = {
    "paired_permutation": "PP",
    "unpaired_permutation": "UP",
    "paired_t": "PT",
    "unpaired_t": "UT",
    "paired_wilcoxon": "PW",
    "unpaired_wilcoxon": "UW",
}

#: The metrics the paper says AUC[CROC(exp)] has more power than, in the order the evidence lists them.
_COMPETITORS = (
    "roc",
    "proc",
    "slr",
    "rie_20",
    "bedroc_20",
    "bedroc_80",
    *(f"cac_exp_{a:g}" for a in ALPHAS),
    *(f"roc_t{t:g}" for t in CUTOFFS),
    "roc50",
)


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
        + ", ".join(f"{_TEST_ABBREVIATIONS.get(t, t)} = {t.replace('_', ' ')}" for t in tests)
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


def power_claims(table: pd.DataFrame, labels: dict | None = None) -> list[Claim]:
    """The paper's power claims checked on the power table.

    "Power" of a metric is its mean over pairs and subset sizes under the
    paired permutation test; of a test, its mean over metrics, pairs and
    sizes.

    Returns
    -------
    list of Claim
        Without ids (``published.yaml`` has none for them); ``holds`` is True (supported), False, or
        None when the table lacks what a claim needs.
    """
    labels = labels or {}
    pp = table[table["test"] == "paired_permutation"]
    by_metric = pp.groupby("metric")["power"].mean()
    name = dict(zip(table["metric"], table["label"]))
    fmt = lambda keys: ", ".join(f"{name[k]} {by_metric[k]:.2f}" for k in keys)  # noqa: E731
    claims = []
    croc = [k for k in by_metric.index if k.startswith("croc_exp_")]
    others = [k for k in _COMPETITORS if k in by_metric.index]
    text = "AUC[CROC(exp)] has more power than ROC, pROC, SLR, RIE, BEDROC, CAC and the hard-cutoff metrics"
    if croc and others:
        best = max(croc, key=by_metric.get)
        beaten_by = [k for k in others if by_metric[k] > by_metric[best]]
        below = [k for k in others if by_metric[k] <= by_metric[best]]
        evidence = f"best CROC: {fmt([best])}; above it: {fmt(beaten_by) or 'none'}; below it: {fmt(below)}"
        claims.append(Claim(text, not beaten_by, evidence))
    else:
        claims.append(Claim(text, None, "no CROC or no competing metric in the table"))
    pairs = [(f"croc_exp_{a:g}", f"cac_exp_{a:g}") for a in ALPHAS]
    pairs = [p for p in pairs if set(p) <= set(by_metric.index)]
    claims.append(
        Claim(
            "CROC variants have more power than the CAC variants at the same alpha",
            all(by_metric[c] >= by_metric[k] for c, k in pairs) if pairs else None,
            "; ".join(fmt(p) for p in pairs) or "not in the table",
        )
    )
    pairs = [(f"croc_exp_{a:g}", f"roc_t{t:g}") for a, t in zip(ALPHAS, CUTOFFS)]  # the cut-off matching alpha
    pairs = [p for p in pairs if set(p) <= set(by_metric.index)]
    claims.append(
        Claim(
            "hard-cutoff metrics are weaker than the smooth CROC at the matching alpha",
            all(by_metric[c] >= by_metric[k] for c, k in pairs) if pairs else None,
            "; ".join(fmt(p) for p in pairs) or "not in the table",
        )
    )
    by_test = table.groupby("test")["power"].mean().sort_values(ascending=False)
    croc14 = table[table["metric"] == "croc_exp_14"].groupby("test")["power"].mean().sort_values(ascending=False)
    evidence = (
        "mean power over all metrics: "
        + ", ".join(f"{t.replace('_', ' ')} {v:.3f}" for t, v in by_test.items())
        + (
            "; on AUC[CROC(exp)] a=14: " + ", ".join(f"{t.replace('_', ' ')} {v:.3f}" for t, v in croc14.items())
            if len(croc14)
            else ""
        )
    )
    claims.append(
        Claim(
            "the paired permutation test is the most powerful of the six tests",
            bool(by_test.index[0] == "paired_permutation") if "paired_permutation" in by_test else None,
            evidence,
        )
    )
    irv_svm = pp[(pp["a"] == "irv") & (pp["b"] == "svm")]
    if {"roc", "croc_exp_80"} <= set(irv_svm["metric"]):
        at = irv_svm.pivot_table(index="fraction", columns="metric", values="power")
        wrong = irv_svm.pivot_table(index="fraction", columns="metric", values="wrong")
        diff = irv_svm.drop_duplicates("metric").set_index("metric")["full_difference"]
        evidence = "; ".join(
            f"{100 * f:g}%: ROC {at.loc[f, 'roc']:.2f} (wrong {wrong.loc[f, 'roc']:.2f}), "
            f"CROC a=80 {at.loc[f, 'croc_exp_80']:.2f}"
            for f in at.index
        )
        evidence += f"; full-data IRV - SVM: ROC {diff['roc']:+.4f}, CROC a=80 {diff['croc_exp_80']:+.4f}"
        claims.append(
            Claim(
                "on IRV vs SVM, AUC[CROC(exp)] a=80 detects the difference more often than AUC[ROC]",
                bool((at["croc_exp_80"] >= at["roc"]).all()),
                evidence,
            )
        )
    return claims


def power_notes(table: pd.DataFrame) -> str:
    """Plain-language caveats read off the power table: wrong-direction rejections per test."""
    wrong = table.groupby("test")["wrong"].max().sort_values(ascending=False)
    worst = table.loc[table["wrong"].idxmax()]
    lines = [
        "- Power here is the paper's notion: how often a test on a metric detects the full-data "
        "difference. It mixes the metric's sensitivity with how different the two classifiers really are "
        "on what it measures; a metric whose full-data difference is near 0 for a pair cannot have power there.",
        "- Highest share of subsets rejecting in the direction opposite to the full-data difference, per test: "
        + ", ".join(f"{t.replace('_', ' ')} {w:.2f}" for t, w in wrong.items())
        + f" (worst: {worst['label']}, {worst['a']} vs {worst['b']}, {100 * worst['fraction']:g}% subsets). "
        "The Wilcoxon tests compare the location (median) of the per-positive values, not their mean, "
        "which is what the metric is: they can be significant against the metric's own difference, so "
        "their extra power is not power for the metric.",
    ]
    return "\n".join(lines)

"""The paper's claims about the power of its metrics and tests, checked on a power study's table."""

from __future__ import annotations

import pandas as pd

from ..metrics import ALPHAS, CUTOFFS
from ..report import Claim

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

"""The SVM set-up sensitivity study: every (fingerprint, C, class weight, score) on the workflow's folds, and
which set-ups reproduce the paper's SVM numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics import HEADLINE_BEDROC, hits_call, per_fold_metrics
from ._format import markdown_table
from ._tables import named_calls, per_fold_summary

#: The columns that name one SVM set-up of the sensitivity study.
SETUP_COLUMNS = ["fingerprint", "C", "class_weight", "score"]


def sensitivity_keys(n: int, top=1000) -> tuple:
    """The sensitivity and pooling tables' metric keys for a list of ``n``: :data:`crocbench.metrics.HEADLINE_BEDROC` and
    ``top<k>``."""
    return (*HEADLINE_BEDROC, hits_call(top, n).key)


def svm_sensitivity_table(scores: pd.DataFrame, top=1000) -> pd.DataFrame:
    """One row per SVM set-up: each metric on the pooled out-of-fold ranking, and its per-fold mean and SD.

    ``scores`` is long: id, fold, label, fingerprint, C, class_weight, score
    ("decision" or "platt") and value.  Pooling ranks the folds' values
    together: comparable across folds for Platt probabilities, not
    necessarily for raw decision values.
    """
    per_fold, n = {}, scores["id"].nunique()
    for setup, part in scores.groupby(SETUP_COLUMNS, sort=True, dropna=False):
        per_fold[setup] = per_fold_metrics(
            part.rename(columns={"score": "kind", "value": "score"}), named_calls(HEADLINE_BEDROC, n, top)
        )
    table = pooling_table(per_fold, sensitivity_keys(n, top))
    setups = pd.DataFrame(table.pop("model").tolist(), columns=SETUP_COLUMNS)
    return pd.concat([setups, table], axis=1)


def pooling_table(per_fold: dict, keys=HEADLINE_BEDROC) -> pd.DataFrame:
    """Pooled value (fold ``all``) beside the per-fold mean and SD of each metric in ``keys`` that every
    table has (``per_fold``: model label -> its per-fold table)."""
    keys = [k for k in keys if all(k in t.columns for t in per_fold.values())]
    summary = per_fold_summary(per_fold, keys).set_index("model")
    rows = []
    for name, table in per_fold.items():
        pooled = table[table["fold"].astype(str) == "all"].iloc[0]
        rows.append({"model": name, **{k: float(pooled[k]) for k in keys}, **summary.loc[[name]].iloc[0].to_dict()})
    return pd.DataFrame(rows)


def anchor_matches(table: pd.DataFrame, anchors: dict, where: str = "") -> pd.Series:
    """Which set-ups reproduce every anchor (a published number) within its tolerance, pooled (``where=""``)
    or as per-fold means (``where="_mean"``).

    Parameters
    ----------
    table : DataFrame
        :func:`svm_sensitivity_table`'s output.
    anchors : dict
        ``{metric: {"published": value, "tolerance": t}}`` (:func:`crocbench.paper.svm_anchors`).
    where : str, default=""
        The columns' suffix: "" for the pooled values, "_mean" for the per-fold means.

    Returns
    -------
    Series of bool
        One per set-up (row).
    """
    ok = pd.Series(True, index=table.index)
    for anchor in anchors.values():
        column = anchor["metric"] + where
        if column not in table:  # e.g. no top 1,000 on a list shorter than that: no match can be claimed
            return pd.Series(False, index=table.index)
        ok &= (table[column] - anchor["published"]).abs() <= anchor["tolerance"]
    return ok


def svm_choices(infos) -> pd.DataFrame:
    """What the workflow's SVM chose in each outer fold (its fold info: C, class_weight, inner_cv values).

    One row per chosen set-up: C, class weight, the folds that chose it, and
    for every candidate set-up its inner-CV value averaged over the folds
    (``inner <C> <class weight>`` columns; none without an inner CV).
    """
    from ..models import SvmFold

    rows = {}
    inner = {}
    for record in map(SvmFold.from_info, infos):
        rows.setdefault((record.C, record.class_weight), []).append(record.fold)
        for cand in record.inner:
            share = 1.0 if cand.fit_share is None else cand.fit_share  # successive halving: on a share of the sets
            name = f"inner {cand.C:g} {cand.class_weight}" + (f" (1/{1 / share:.0f})" if share < 1 else "")
            inner.setdefault(name, []).append(cand.value)
    table = pd.DataFrame(
        [
            {"C": f"{C:g}", "class_weight": cw, "folds": ", ".join(map(str, sorted(f))), "n_folds": len(f)}
            for (C, cw), f in sorted(rows.items(), key=lambda kv: -len(kv[1]))
        ]
    )
    for col, values in inner.items():
        table[col] = float(np.mean(values))
    return table


def svm_sensitivity_markdown(
    table: pd.DataFrame,
    pooling: pd.DataFrame | None = None,
    choices: pd.DataFrame | None = None,
    select_metric: str = "",
    anchors: dict | None = None,
) -> str:
    """The sensitivity table as Markdown (pooled value, per-fold mean +/- SD beneath); with a paper's published
    SVM numbers (``anchors``, :func:`crocbench.paper.svm_anchors`, where the dataset reproduces it), the set-ups
    that match them are marked."""
    keys = [c for c in table.columns if c not in SETUP_COLUMNS and not c.endswith(("_mean", "_sd"))]

    def cells(row):
        out = {}
        for k in (k for k in keys if k in row):
            digits = 1 if k.startswith("top") else 3  # "actives in the top k": a count
            out[k] = (
                f"{row[k]:.{digits}f}<br>{row[k + '_mean']:.{digits}f} ± {row[k + '_sd']:.{digits}f}"
                if f"{k}_mean" in row
                else f"{row[k]:.{digits}f}"
            )
        return out

    rows = []
    for _, row in table.iterrows():
        rows.append(
            {
                **{c: ("none" if c == "class_weight" and pd.isna(row[c]) else row[c]) for c in SETUP_COLUMNS},
                **cells(row),
            }
        )
    text = "Each cell: pooled value, then per-fold mean ± SD.\n\n"
    if anchors:
        target = ", ".join(f"{k} {a['published']:g} +/- {a['tolerance']:g}" for k, a in anchors.items())
        match_pooled, match_folds = anchor_matches(table, anchors), anchor_matches(table, anchors, "_mean")
        for i, row in zip(table.index, rows):
            row["matches the paper's SVM"] = ", ".join(
                m for m, ok in (("pooled", match_pooled[i]), ("per fold", match_folds[i])) if ok
            )
        text = f"Published SVM: {target} (pooled 10-fold ranking, presumably). " + text
    text += markdown_table(pd.DataFrame(rows))
    if pooling is not None and len(pooling):
        rows = [{"model": r["model"], **cells(r)} for _, r in pooling.iterrows()]
        text += "\n\n### Pooled ranking vs per-fold mean, the workflow's models\n\n" + markdown_table(
            pd.DataFrame(rows)
        )
    if choices is not None and len(choices):
        inner = [c for c in choices.columns if c.startswith("inner ")]
        how = (
            f"chosen in each outer fold by an inner CV on {select_metric} (inner values: mean over the outer folds)"
            if inner
            else "fixed (no inner CV)"
        )
        text += f"\n\n### The workflow's SVM set-up\n\nC and class weight {how}:\n\n" + markdown_table(choices)
    return text

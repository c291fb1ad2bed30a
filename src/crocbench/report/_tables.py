"""The paper's tables 1 and 2: each model's pooled and per-fold metrics, the random expectation, the other
references' metrics and the six tests' p-values for every pair of models."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._io import write_table
from ..metrics import (
    FAMILIES,
    HEADLINE,
    Ranking,
    hits_call,
    other_metrics,
    other_values,
    paper_metrics,
    per_fold_metrics,
    top_cutoff,
)
from ..stats import TEST_LABELS, compare_many
from ._format import markdown_table, p_cell

#: Table 1's last row: the random classifier's exact expectation.
RANDOM_ROW = "random (expected)"


def metric_set_for(scores: pd.DataFrame, top=1000, notes: list | None = None) -> list:
    """The paper's metric set for this list: "top k" from ``top`` (a count capped at the list's size, or a
    fraction of it: :func:`crocbench.metrics.top_cutoff`), and any metric undefined for a list this
    small (e.g. ROC50 with fewer than 50 negatives) left out, with a note."""
    ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
    calls = []
    for call in paper_metrics(top_k=top, n=len(scores)):
        try:
            call.definition(ranking.counts)
        except ValueError as exc:
            if notes is not None:
                notes.append(f"{call.key} left out: {exc}")
            continue
        calls.append(call)
    return calls


def write_pooled(pooled: pd.DataFrame, top, scores_path, per_fold_path, log=None) -> pd.DataFrame:
    """Write a model's pooled out-of-fold scores and its per-fold metrics table (folds and ``all``).

    Metrics undefined for a list this size are left out, with a note in ``log``.  Returns the per-fold table.
    """
    write_table(pooled, scores_path, index=False)
    notes = []
    table = per_fold_metrics(pooled, metric_set_for(pooled, top, notes=notes), notes)
    write_table(table, per_fold_path, sep="\t", index=False, float_format="%.6g")
    if log is not None:
        print("\n".join(notes), file=log)
        print(table.to_string(), file=log)
    return table


def pooled_metrics(scores: pd.DataFrame, keys=HEADLINE, top=1000) -> dict:
    """The paper's metrics named by ``keys``, then "actives in the top k" (key ``top<k>``, k from
    ``top`` as in :func:`metric_set_for`), on a pooled score table (columns label, score)."""
    ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
    return {c.key: c.value(ranking) for c in named_calls(keys, len(scores), top)}


def named_calls(keys, n: int, top) -> list:
    """The paper's metric calls named by ``keys``, then the list's "actives in the top k" (:func:`hits_call`)."""
    calls = {c.key: c for c in paper_metrics(top_k=top, n=n)}
    return [*(calls[k] for k in keys), hits_call(top, n)]


# --- table 1: areas -------------------------------------------------------------------------


def areas_table(pooled: dict, calls) -> pd.DataFrame:
    """Table 1: every metric of ``calls`` on each model's pooled ranking, and the random classifier's exact
    expectation for a list of that size (last row).

    ``pooled`` maps a model label to its pooled score table (label, score); all share the same compounds.
    """
    rows, n, n_pos = [], None, None
    for name, scores in pooled.items():
        ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
        n, n_pos = len(scores), int(scores["label"].sum())
        rows.append({"model": name, **{c.key: c.value(ranking) for c in calls}})
    rows.append({"model": RANDOM_ROW, **{c.key: c.random(n, n_pos).mean for c in calls}})
    return pd.DataFrame(rows)


def other_metrics_table(pooled: dict, top=1000, n: int = 50) -> pd.DataFrame:
    """Table 1b: the other papers' metrics (:func:`crocbench.metrics.other_metrics`) per model.

    Single-list metrics are computed on the pooled ranking; the per-query
    ones (TAP-k, MAP, ROC_n per query, TOP1, rank of the last positive)
    treat each fold as a query.  Long format: model, key, label, family,
    value (NaN when it does not apply), note, in_tests, higher_is_better.
    """
    rows = []
    for name, scores in pooled.items():
        y, s = scores["label"].to_numpy(), scores["score"].to_numpy()
        metric_set = other_metrics(top_k=top_cutoff(top, len(scores)), n=n)
        for r in other_values(y, s, scores["fold"].to_numpy(), metric_set=metric_set):
            rows.append({"model": name, **r, "value": np.nan if r["value"] is None else r["value"]})
    return pd.DataFrame(rows)


def other_metrics_markdown(table: pd.DataFrame) -> str:
    """Table 1b as Markdown: one table per family, models as rows, with the notes beneath."""
    parts = []
    for family in FAMILIES:
        part = table[table["family"] == family]
        if part.empty:
            continue
        labels = list(dict.fromkeys(part["label"]))
        wide = part.pivot(index="model", columns="label", values="value").reindex(
            index=list(dict.fromkeys(part["model"])), columns=labels
        )
        meta = part.drop_duplicates("label").set_index("label")
        wide.columns = [
            f"{c}{'' if meta.loc[c, 'higher_is_better'] else ' (lower is better)'}"
            f"{' *' if meta.loc[c, 'in_tests'] else ''}"
            for c in labels
        ]
        missing = part[part["value"].isna()].groupby(["label", "note"], sort=False)["model"]
        lines = [f"- {label}, {', '.join(models)}: {note}" for (label, note), models in missing]
        text = (
            f"### {family}\n\n"
            + markdown_table(wide.reset_index())
            + "".join(["\n\n" + "\n".join(lines)] if lines else [])
        )
        parts.append(text)
    parts.append(
        "\n\\* a mean over the positives: the six significance tests apply to it "
        "(`crocbench compare --metric NAME`); the other metrics are ratios of counts, "
        "means over queries or functions of probabilities, and are not tested."
    )
    return "\n\n".join(parts)


def per_fold_summary(per_fold: dict, calls) -> pd.DataFrame:
    """Mean and SD over the folds of each metric (``per_fold`` maps a model label to its per-fold table;
    ``calls`` are metric calls or their keys).

    Both are NaN where the metric is undefined on any fold (NaN in the per-fold table, e.g. ROC50 on a
    fold with fewer than 50 negatives): a mean over the other folds would not be a mean over the folds.
    """
    keys = [getattr(c, "key", c) for c in calls]
    rows = []
    for name, table in per_fold.items():
        folds = table[table["fold"].astype(str) != "all"]
        row = {"model": name}
        for key in keys:
            undefined = bool(folds[key].isna().any())
            row[f"{key}_mean"] = np.nan if undefined else float(folds[key].mean())
            row[f"{key}_sd"] = np.nan if undefined else float(folds[key].std(ddof=1))
        rows.append(row)
    return pd.DataFrame(rows)


#: The count parameter each metric's definition checks against a list (``crocbench.metrics._definitions``),
#: and what it counts: ROC-n needs n negatives, "actives in the top k" k compounds.
_NEEDS = {
    "roc_n": ("n", "negatives"),
    "hits_at_k": ("k", "compounds"),
    "precision_at_k": ("k", "compounds"),
    "recall_at_k": ("k", "compounds"),
}


def undefined_per_fold(call) -> str:
    """Why ``call`` has no per-fold mean: ``"a fold has < 50 negatives"`` for ROC50 (n from the call)."""
    need = _NEEDS.get(call.metric)
    if need is None or need[0] not in call.params:
        return "undefined on a fold"
    return f"a fold has < {call.params[need[0]]} {need[1]}"


def areas_markdown(areas: pd.DataFrame, summary: pd.DataFrame, calls) -> str:
    """Table 1 as Markdown: pooled value, and per-fold mean +/- SD beneath it (``n/a (why)`` where the
    metric is undefined on a fold: :func:`undefined_per_fold`)."""
    by_model = summary.set_index("model") if len(summary) else None
    rows = []
    for record in areas.to_dict("records"):
        row = {"model": record["model"]}
        for c in calls:
            count = c.is_count
            text = f"{record[c.key]:.1f}" if count else f"{record[c.key]:.4f}"
            if by_model is not None and record["model"] in by_model.index:
                mean = by_model.loc[record["model"], f"{c.key}_mean"]
                sd = by_model.loc[record["model"], f"{c.key}_sd"]
                if pd.isna(mean):
                    text += f"<br>n/a ({undefined_per_fold(c)})"
                else:
                    text += f"<br>{mean:.1f} ± {sd:.1f}" if count else f"<br>{mean:.3f} ± {sd:.3f}"
            row[c.label] = text
        rows.append(row)
    return markdown_table(pd.DataFrame(rows))


# --- table 2: significance ------------------------------------------------------------------------


def significance_table(pooled: dict, calls, tests, *, n_samples: int = 10_000, seed: int = 0) -> pd.DataFrame:
    """Table 2: for every pair of models (in the given order) and every metric, the six tests' p-values.

    One-sided in the observed direction, as in the paper; ``better`` names the model with the higher value.
    """
    names = list(pooled)
    y = next(iter(pooled.values()))["label"].to_numpy()
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if not np.array_equal(pooled[a]["id"].to_numpy(), pooled[b]["id"].to_numpy()):
                raise ValueError(f"{a} and {b} did not score the same compounds in the same order")
            results = compare_many(
                y,
                pooled[a]["score"].to_numpy(),
                pooled[b]["score"].to_numpy(),
                calls,
                tests=tests,
                n_samples=n_samples,
                seed=seed,
            )
            for c, result in zip(calls, results):
                better = a if result.value_a > result.value_b else b if result.value_b > result.value_a else "="
                row = {
                    "a": a,
                    "b": b,
                    "metric": c.key,
                    "value_a": result.value_a,
                    "value_b": result.value_b,
                    "better": better,
                }
                row.update({t: result.results[t].p_value for t in tests})
                rows.append(row)
    return pd.DataFrame(rows)


def significance_markdown(table: pd.DataFrame, tests) -> str:
    """Table 2 as Markdown, p < 0.01 in bold and 0.01 <= p < 0.05 in italics (as in the paper)."""
    cells = pd.DataFrame(
        {
            "pair": table["a"] + " vs " + table["b"],
            "metric": table["metric"],
            "better": table["better"],
            **{TEST_LABELS[t]: table[t].map(p_cell) for t in tests},
        }
    )
    return markdown_table(cells)

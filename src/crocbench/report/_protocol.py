"""The evaluation protocol's tables: the split (folds, scaffolds), table 1 with bootstrap intervals, and the
repeats (each metric's mean and SD over repeated cross-validations, and the corrected resampled t-tests)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ..cv import fold_summary
from ..metrics import HEADLINE_BEDROC, Ranking
from ..stats import bootstrap, corrected_t_test
from ._format import interval_cell, markdown_table, p_cell

# --- the split ---------------------------------------------------------------------------------


def folds_markdown(
    tables: list,
    split: str,
    scaffold: str,
    seed: int,
    cluster_threshold: float | None = None,
    novelty: dict | None = None,
) -> str:
    """The split described: how it was made, each repeat's folds (compounds and positives) and, for a scaffold
    split, the scaffolds (their number, the largest group, the acyclic compounds); for a cluster split the
    clusters (their number, the largest, the singletons); for a novelty split (``novelty``: its ``tau`` and
    ``fingerprint``) the compounds it dropped and the actives among them, per repeat.

    ``tables`` are the fold tables of the repeats, repeat 0 first.
    """
    summaries = [fold_summary(t) for t in tables]
    first = summaries[0]
    how = {
        "random": "stratified random: each class shuffled and dealt round-robin",
        "scaffold": f"by {scaffold} Bemis-Murcko scaffold: whole scaffold groups to a fold, positives spread as "
        "evenly as the groups allow (each acyclic compound a group of its own)",
        "cluster": f"by leader cluster (ECFP4 Tanimoto >= {cluster_threshold}): whole clusters to a fold, positives "
        "spread as evenly as the clusters allow",
        "novelty": f"by novelty: no pair of compounds in two folds at {(novelty or {}).get('fingerprint')} Tanimoto "
        f">= {(novelty or {}).get('tau')}, the compounds that could not be placed dropped (neither trained on nor "
        "scored; folds_certificate.json certifies it)",
    }[split]
    seeds = ", ".join(str(seed + r) for r in range(len(tables)))
    lines = [
        f"{first['compounds']:,} compounds, {first['positives']:,} positives; {len(first['folds'])} folds, {how}; "
        f"{len(tables)} repeat(s), seed(s) {seeds}.",
        "",
    ]
    if "scaffolds" in first:
        lines += [
            f"Scaffolds: {first['scaffolds']:,} distinct ({scaffold}); the largest group holds "
            f"{first['largest_group']:,} compounds (`{first['largest_scaffold']}`); {first['acyclic']:,} acyclic "
            "compounds.",
            "",
        ]
    if "clusters" in first:
        lines += [
            f"Clusters: {first['clusters']:,}; the largest holds {first['largest_group']:,} compounds; "
            f"{first['singletons']:,} singletons.",
            "",
        ]
    if split == "novelty":
        lines += [
            "Dropped (in no fold): "
            + "; ".join(
                f"repeat {r}: {s.get('dropped', 0):,} compounds, {s.get('dropped_positives', 0):,} of the "
                f"{s['positives']:,} positives"
                for r, s in enumerate(summaries)
            )
            + ".",
            "",
        ]
    rows = {
        f"fold {f['fold']}": {
            f"repeat {r}": f"{s['folds'][i]['compounds']:,} / {s['folds'][i]['positives']:,}"
            for r, s in enumerate(summaries)
        }
        for i, f in enumerate(first["folds"])
    }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "compounds / positives"
    lines.append(markdown_table(table.reset_index()))
    return "\n".join(lines)


# --- table 1 with intervals ----------------------------------------------------------------------

#: The coverage of a study's intervals over compounds (``intervals.tsv``; the workflow's ``intervals_table`` job).
INTERVAL_LEVEL = 0.95


def intervals_table(
    pooled: dict, calls, *, n_resamples: int, seed: int = 0, level: float = INTERVAL_LEVEL
) -> pd.DataFrame:
    """Every metric of ``calls`` on each model's pooled ranking with its ``level`` bootstrap interval
    (:func:`crocbench.stats.bootstrap`): long format, model, key, label, value, low, high, se."""
    rows = []
    for name, scores in pooled.items():
        ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
        for iv in bootstrap(ranking, None, calls, n_resamples=n_resamples, level=level, seed=seed):
            rows.append({"model": name, **iv._asdict()})
    return pd.DataFrame(rows)


def intervals_markdown(table: pd.DataFrame, calls) -> str:
    """Table 1 with intervals as Markdown: a row per metric, a column per model, "value [low, high]"."""
    counts = {c.key: c.is_count for c in calls}
    models = list(dict.fromkeys(table["model"]))
    rows = []
    for c in calls:
        part = table[table["key"] == c.key].set_index("model")
        rows.append(
            {"metric": c.label}
            | {
                m: interval_cell(part.at[m, "value"], part.at[m, "low"], part.at[m, "high"], counts[c.key])
                for m in models
            }
        )
    return markdown_table(pd.DataFrame(rows))


# --- repeats -----------------------------------------------------------------------------------


def repeats_table(pooled_by_repeat: list, calls) -> pd.DataFrame:
    """Each metric of ``calls`` on each model's pooled ranking in every repeat, and its mean, SD (ddof 1),
    minimum and maximum over the repeats: model, key, label, mean, sd, min, max, repeat_0, repeat_1, ..."""
    rows = []
    for name in pooled_by_repeat[0]:
        rankings = [Ranking(p[name]["label"].to_numpy(), p[name]["score"].to_numpy()) for p in pooled_by_repeat]
        for c in calls:
            v = np.array([c.value(r) for r in rankings])
            rows.append(
                {
                    "model": name,
                    "key": c.key,
                    "label": c.label,
                    "mean": v.mean(),
                    "sd": v.std(ddof=1) if v.size > 1 else np.nan,
                    "min": v.min(),
                    "max": v.max(),
                    **{f"repeat_{r}": x for r, x in enumerate(v)},
                }
            )
    return pd.DataFrame(rows)


def repeats_tests(per_fold_by_repeat: list, keys=HEADLINE_BEDROC, n_folds: int | None = None) -> pd.DataFrame:
    """The corrected resampled t-test (:func:`crocbench.stats.corrected_t_test`, two-sided) for every pair of
    models and metric, on the fold-by-fold differences of all repeats.

    ``per_fold_by_repeat``: per repeat, each model's per-fold table (rows fold 0..k-1 and ``all``; a column per
    metric key).  Returns model_a, model_b, key, difference (mean over the folds, a - b), t, df, p_value.
    """
    models = list(per_fold_by_repeat[0])
    rows = []
    for a, b in itertools.combinations(models, 2):
        for key in keys:
            diffs = []
            for tables in per_fold_by_repeat:
                fa, fb = (tables[m][tables[m]["fold"].astype(str) != "all"] for m in (a, b))
                if key not in fa.columns or key not in fb.columns:
                    break
                merged = fa[["fold", key]].merge(fb[["fold", key]], on="fold", suffixes=("_a", "_b"))
                diffs.append((merged[f"{key}_a"] - merged[f"{key}_b"]).to_numpy())
            else:
                d = np.concatenate(diffs)
                d = d[np.isfinite(d)]
                k = n_folds or len(diffs[0])
                if d.size < 2:
                    continue
                r = corrected_t_test(d, test_share=1.0 / (k - 1))
                rows.append({"model_a": a, "model_b": b, "key": key, **r._asdict()})
    return pd.DataFrame(rows, columns=["model_a", "model_b", "key", "difference", "t", "df", "p_value"])


def repeats_markdown(table: pd.DataFrame, tests: pd.DataFrame, calls, repeats: int) -> str:
    """The repeats as Markdown: a row per metric, a column per model, "mean ± SD" over the repeats; then the
    corrected t-tests."""
    models = list(dict.fromkeys(table["model"]))
    by = table.set_index(["model", "key"])
    wide = []
    for c in calls:
        row = {"metric": c.label}
        for m in models:
            mean, sd = by.at[(m, c.key), "mean"], by.at[(m, c.key), "sd"]
            row[m] = f"{mean:.1f} ± {sd:.1f}" if c.is_count else f"{mean:.4f} ± {sd:.4f}"
        wide.append(row)
    labels = {c.key: c.label for c in calls}
    out = [
        f"Each metric on the pooled ranking of each of {repeats} repeats: mean ± SD over the repeats.",
        "",
        markdown_table(pd.DataFrame(wide)),
        "",
        f"Corrected resampled t-test (Nadeau & Bengio 2003), two-sided, on the {repeats} x k fold-by-fold "
        "differences (model a - model b); **p < 0.01**, *p < 0.05*.",
        "",
    ]
    if tests.empty:
        return "\n".join(out + ["(no pair of models)"])
    rows = [
        {
            "model a": t.model_a,
            "model b": t.model_b,
            "metric": labels.get(t.key, t.key),
            "mean difference": f"{t.difference:+.4f}",
            "t": "n/a" if not np.isfinite(t.t) else f"{t.t:.2f}",
            "p": p_cell(t.p_value) if np.isfinite(t.p_value) else "n/a",
        }
        for t in tests.itertuples()
    ]
    return "\n".join(out + [markdown_table(pd.DataFrame(rows))])


# --- splits compared ----------------------------------------------------------------------------


def split_comparison(repeats: dict, keys=("roc", "croc_exp_80")) -> pd.DataFrame:
    """Each model's mean and SD over the repeats under each split, and what the second split loses against the
    first: model, key, label, then ``{split}_mean``, ``{split}_sd`` per split and ``loss`` (first - second).

    ``repeats`` maps a split's name (e.g. "random", "scaffold") to its :func:`repeats_table`.
    """
    names = list(repeats)
    rows = []
    for _, first in repeats[names[0]].iterrows():
        if first["key"] not in keys:
            continue
        row = {"model": first["model"], "key": first["key"], "label": first["label"]}
        for split, table in repeats.items():
            match = table[(table["model"] == first["model"]) & (table["key"] == first["key"])].iloc[0]
            row[f"{split}_mean"], row[f"{split}_sd"] = match["mean"], match["sd"]
        row["loss"] = row[f"{names[0]}_mean"] - row[f"{names[-1]}_mean"]
        rows.append(row)
    return pd.DataFrame(rows)


def split_comparison_markdown(table: pd.DataFrame, splits) -> str:
    """:func:`split_comparison` as Markdown: a row per model, per metric "mean ± SD" under each split and the loss."""
    out = {}
    for row in table.itertuples(index=False):
        r = out.setdefault(row.model, {"model": row.model})
        for split in splits:
            r[f"{row.label} {split}"] = f"{getattr(row, f'{split}_mean'):.4f} ± {getattr(row, f'{split}_sd'):.4f}"
        r[f"{row.label} loss"] = f"{row.loss:+.4f}"
    return markdown_table(pd.DataFrame(list(out.values())))


def split_orders(repeats: dict, key: str = "croc_exp_80") -> dict:
    """Per split, the models ordered by their mean ``key`` over the repeats (best first), and per repeat."""
    out = {}
    for split, table in repeats.items():
        part = table[table["key"] == key]
        columns = sorted(c for c in part.columns if c.startswith("repeat_"))
        out[split] = {
            "mean": part.sort_values("mean", ascending=False)["model"].tolist(),
            **{c: part.sort_values(c, ascending=False)["model"].tolist() for c in columns},
        }
    return out

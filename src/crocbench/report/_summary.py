"""Across datasets (``results/summary/``): each model's metrics per dataset, and which model wins (Demsar 2006)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics import MetricCall, Ranking, paper_panel, top_cutoff
from ..stats import bootstrap, friedman_test, nemenyi_critical_difference, pairwise_wilcoxon
from ._format import interval_cell, markdown_table
from ._tables import HEADLINE_BEDROC_KEYS, named_calls

#: The summary's metrics (paper-panel keys), then "actives in the top 1%" (:data:`SUMMARY_TOP`).
SUMMARY_METRICS = HEADLINE_BEDROC_KEYS
#: The summary's "actives in the top k": 1% of each dataset's list.
SUMMARY_TOP = 0.01
SUMMARY_TOP_KEY = "top_1pct"
#: The enrichment factor at 1% (in the datasets table; it ranks the models as "actives in the top 1%" does).
SUMMARY_EF_KEY = "ef_1pct"


def summary_labels() -> dict:
    """The summary's column keys and their labels."""
    panel = {c.key: c.label for c in paper_panel()}
    return {**{k: panel[k] for k in SUMMARY_METRICS}, SUMMARY_TOP_KEY: "actives in top 1%", SUMMARY_EF_KEY: "EF 1%"}


def summary_calls(n: int) -> list[MetricCall]:
    """The datasets table's metric calls for a list of ``n``: :data:`SUMMARY_METRICS`, the actives in the top 1%
    (key :data:`SUMMARY_TOP_KEY`) and the enrichment factor at 1% (:data:`SUMMARY_EF_KEY`)."""
    *panel, hits = named_calls(SUMMARY_METRICS, n, SUMMARY_TOP)
    return [
        *panel,
        hits._replace(key=SUMMARY_TOP_KEY),
        MetricCall(SUMMARY_EF_KEY, "EF 1%", "enrichment_factor", {"fraction": SUMMARY_TOP}),
    ]


def datasets_table(runs: dict, n_resamples: int | None = None, seed: int = 0) -> pd.DataFrame:
    """One row per (dataset, model): compounds, actives and the summary's metrics on the pooled ranking.

    Parameters
    ----------
    runs : dict
        ``{dataset: {model label: pooled scores (id, label, score)}}``; a
        dataset's models all score the same compounds.
    n_resamples : int, optional
        With it, every metric gets its 95% stratified bootstrap interval
        (:func:`crocbench.stats.bootstrap`, seeded by ``seed``): columns
        ``<key>_low`` and ``<key>_high``.

    Returns
    -------
    DataFrame
        dataset, model, compounds, actives, the :data:`SUMMARY_METRICS`,
        ``top_1pct`` (actives among the top 1% of the list, k rounded half up),
        ``ef_1pct`` (the enrichment factor at 1%), ``top_k`` (that k) and the
        intervals.
    """
    rows = []
    for dataset, pooled in runs.items():
        reference = None
        for model, scores in pooled.items():
            if reference is None:
                reference = scores["id"].to_numpy()
            elif not np.array_equal(reference, scores["id"].to_numpy()):
                raise ValueError(f"dataset {dataset}: {model} did not score the same compounds as the others")
            ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
            calls = summary_calls(len(scores))
            row = {
                "dataset": dataset,
                "model": model,
                "compounds": len(scores),
                "actives": int(scores["label"].sum()),
                **{c.key: c.value(ranking) for c in calls},
                "top_k": top_cutoff(SUMMARY_TOP, len(scores)),
            }
            if n_resamples is not None:
                for iv in bootstrap(ranking, None, calls, n_resamples=n_resamples, seed=seed):
                    row[f"{iv.key}_low"], row[f"{iv.key}_high"] = iv.low, iv.high
            rows.append(row)
    return pd.DataFrame(rows)


def _metric_matrix(table: pd.DataFrame, metric: str) -> tuple[np.ndarray, list, list]:
    """(datasets x models) values of one metric, datasets and models in their first-seen order."""
    wide = table.pivot(index="dataset", columns="model", values=metric)
    datasets, models = list(dict.fromkeys(table["dataset"])), list(dict.fromkeys(table["model"]))
    return wide.loc[datasets, models].to_numpy(dtype=float), datasets, models


def ranks_table(table: pd.DataFrame, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Which model wins across datasets, per summary metric (Demsar 2006).

    Parameters
    ----------
    table : DataFrame
        :func:`datasets_table`'s output (at least 2 datasets and 2 models).
    alpha : float
        The level of the Nemenyi critical difference.

    Returns
    -------
    ranks : DataFrame
        Per (metric, model): mean_rank (1 = best; ties share their mean rank),
        and per metric: datasets, friedman_chi2, friedman_p, iman_davenport_f,
        iman_davenport_p, nemenyi_cd (at ``alpha``).
    pairs : DataFrame
        Per (metric, pair of models): wins, losses, ties over the datasets,
        mean_difference, the two-sided paired Wilcoxon signed-rank p_value and
        p_holm (Holm-adjusted over the metric's pairs).
    """
    rank_rows, pair_rows = [], []
    for metric in (*SUMMARY_METRICS, SUMMARY_TOP_KEY):
        values, datasets, models = _metric_matrix(table, metric)
        if len(datasets) < 2 or len(models) < 2:
            raise ValueError(
                f"ranks across datasets need at least 2 datasets and 2 models; got {len(datasets)} and {len(models)}"
            )
        friedman = friedman_test(values)
        cd = nemenyi_critical_difference(len(models), len(datasets), alpha)
        for model, rank in zip(models, friedman.mean_ranks):
            rank_rows.append(
                {
                    "metric": metric,
                    "model": model,
                    "mean_rank": float(rank),
                    "datasets": len(datasets),
                    "friedman_chi2": friedman.statistic,
                    "friedman_p": friedman.p_value,
                    "iman_davenport_f": friedman.iman_davenport,
                    "iman_davenport_p": friedman.iman_davenport_p,
                    "nemenyi_cd": cd,
                }
            )
        pair_rows += [{"metric": metric, **row} for row in pairwise_wilcoxon(values, models)]
    return pd.DataFrame(rank_rows), pd.DataFrame(pair_rows)


def datasets_markdown(table: pd.DataFrame) -> str:
    """The datasets table as Markdown: a section per dataset, models as rows."""
    labels = summary_labels()
    parts = []
    for dataset, part in table.groupby("dataset", sort=False):
        first = part.iloc[0]
        cells = part[["model", *labels]].rename(columns=labels)
        if f"{SUMMARY_EF_KEY}_low" in part:  # "value [low, high]", as the intervals table writes them
            for key, label in labels.items():
                count = key == SUMMARY_TOP_KEY
                cells[label] = [
                    interval_cell(v, lo, hi, count)
                    for v, lo, hi in zip(part[key], part[f"{key}_low"], part[f"{key}_high"])
                ]
        parts.append(
            f"## {dataset}: {first['compounds']:,} compounds, {first['actives']:,} actives "
            f"(top 1% = top {first['top_k']:,})\n\n" + markdown_table(cells)
        )
    return "\n\n".join(parts)


def ranks_markdown(ranks: pd.DataFrame, pairs: pd.DataFrame, alpha: float = 0.05) -> str:
    """The ranks table as Markdown: per metric, mean ranks, Friedman and Nemenyi, then the pairs' Wilcoxon
    tests."""
    labels = summary_labels()
    parts = []
    for metric, part in ranks.groupby("metric", sort=False):
        first = part.iloc[0]
        order = part.sort_values("mean_rank", kind="stable")
        best = order["mean_rank"].min()
        cells = pd.DataFrame(
            {
                "model": order["model"],
                "mean rank": order["mean_rank"],
                f"within CD of the best ({first['nemenyi_cd']:.2f})": np.where(
                    order["mean_rank"] - best < first["nemenyi_cd"], "yes", "no"
                ),
            }
        )
        pair = pairs[pairs["metric"] == metric]
        pair_cells = pd.DataFrame(
            {
                "pair": pair["a"] + " vs " + pair["b"],
                "wins-losses-ties": [
                    f"{w}-{lost}-{t}" for w, lost, t in zip(pair["wins"], pair["losses"], pair["ties"])
                ],
                "mean difference": pair["mean_difference"],
                "Wilcoxon p": pair["p_value"],
                "Holm p": pair["p_holm"],
            }
        )
        parts.append(
            f"## {labels[metric]}\n\nOver {first['datasets']} datasets: Friedman chi2 = {first['friedman_chi2']:.3f} "
            f"(p = {first['friedman_p']:.3g}), Iman-Davenport F = {first['iman_davenport_f']:.3f} "
            f"(p = {first['iman_davenport_p']:.3g}); Nemenyi critical difference of mean ranks at alpha = "
            f"{alpha:g}: {first['nemenyi_cd']:.3f}.\n\n"
            + markdown_table(cells, digits=2)
            + "\n\n"
            + markdown_table(pair_cells)
        )
    return "\n\n".join(parts)

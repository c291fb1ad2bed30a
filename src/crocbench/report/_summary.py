"""Across datasets (``results/summary/``): each model's metrics per dataset, and which model wins (Demsar 2006).

Computing only: :mod:`._summary_markdown` renders these tables, :mod:`._panels` compares panels.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ..metrics import HEADLINE_BEDROC, MetricCall, Ranking, benchmark_metrics, paper_metrics, top_cutoff
from ..stats import (
    bootstrap,
    conover_friedman,
    friedman_test,
    nemenyi_critical_difference,
    pairwise_wilcoxon,
)
from ._matrix import metric_matrix
from ._tables import named_calls

#: The summary's "actives in the top k": 1% of each dataset's list.
SUMMARY_TOP = 0.01
SUMMARY_TOP_KEY = "top_1pct"
#: The enrichment factor at 1%: it ranks a screen's models as "actives in the top 1%" does, and, unlike that
#: count, its differences compare across screens of different sizes (the Wilcoxon test weighs them).
SUMMARY_EF_KEY = "ef_1pct"
#: The other benchmarks' headline metrics (:func:`crocbench.metrics.benchmark_metrics`): the enrichment factor at
#: 1%, WelQrate's logAUC[0.001, 0.1] and DCG@100.
SUMMARY_BENCHMARK_KEYS = (SUMMARY_EF_KEY, "log_auc_0.001_0.1", "dcg_100")
#: The metrics ranked across datasets (:func:`ranks_table`).
SUMMARY_RANK_METRICS = (*HEADLINE_BEDROC, *SUMMARY_BENCHMARK_KEYS)
#: The metrics of the summary's figure of values per dataset (the critical-difference diagrams: all six of the tables).
SUMMARY_FIGURE_METRICS = ("roc", "croc_exp_80", "bedroc_20", SUMMARY_EF_KEY)
#: The metrics of the panels' tables in the docs and of the critical-difference diagrams: the values figure's four
#: and the other benchmarks' logAUC and DCG@100.
SUMMARY_TABLE_METRICS = (*SUMMARY_FIGURE_METRICS, "log_auc_0.001_0.1", "dcg_100")
#: The tests across screens, as the summary names them (:func:`ranks_table`, :func:`conover_table`).
SUMMARY_TESTS = (
    "Tests across screens: Friedman, then Conover's post-hoc (Holm) and Nemenyi's critical difference; "
    "pairwise Wilcoxon signed-rank with Holm"
)


def summary_labels() -> dict:
    """The summary's column keys and their labels."""
    labels = {c.key: c.label for c in (*paper_metrics(), *benchmark_metrics())}
    return {
        **{k: labels[k] for k in HEADLINE_BEDROC},
        SUMMARY_TOP_KEY: "actives in top 1%",
        **{k: labels[k] for k in SUMMARY_BENCHMARK_KEYS},
    }


def critical_difference_subplots(ranks: pd.DataFrame) -> dict:
    """The critical-difference diagrams of a ranks table, one subplot each: one per metric of :data:`SUMMARY_TABLE_METRICS` it
    holds (a reference of an older run may hold only the first four).

    Parameters
    ----------
    ranks : DataFrame
        :func:`ranks_table`'s ranks (columns metric, model, mean_rank, nemenyi_cd).

    Returns
    -------
    dict
        ``{metric label: ({model: mean rank}, Nemenyi critical difference)}``, for
        :func:`crocbench.plots.plot_critical_difference`.

    Raises
    ------
    ValueError
        When the table ranks none of the six.
    """
    labels, diagrams = summary_labels(), {}
    for metric in SUMMARY_TABLE_METRICS:
        part = ranks[ranks["metric"] == metric]
        if not part.empty:
            diagrams[labels[metric]] = (dict(zip(part["model"], part["mean_rank"])), float(part["nemenyi_cd"].iloc[0]))
    if not diagrams:
        raise ValueError(f"the ranks table ranks none of {', '.join(SUMMARY_TABLE_METRICS)}")
    return diagrams


def summary_calls(n: int) -> list[MetricCall]:
    """The datasets table's metric calls for a list of ``n``: :data:`crocbench.metrics.HEADLINE_BEDROC`, the actives in the top 1%
    (key ``top_1pct``) and the enrichment factor at 1%, logAUC[0.001, 0.1] and DCG@100 (``SUMMARY_BENCHMARK_KEYS``)."""
    *panel, hits = named_calls(HEADLINE_BEDROC, n, SUMMARY_TOP)
    benchmarks = {c.key: c for c in benchmark_metrics()}
    return [*panel, hits._replace(key=SUMMARY_TOP_KEY), *(benchmarks[k] for k in SUMMARY_BENCHMARK_KEYS)]


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
        dataset, model, compounds, actives, the :data:`crocbench.metrics.HEADLINE_BEDROC`,
        ``top_1pct`` (actives among the top 1% of the list, k rounded half up),
        ``ef_1pct`` (the enrichment factor at 1%), ``log_auc_0.001_0.1``, ``dcg_100``, ``top_k`` (the k of
        ``top_1pct``) and the intervals.
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


def _ranked(table: pd.DataFrame, metric: str) -> tuple:
    """``metric_matrix`` of a metric, refused with fewer than 2 datasets or models."""
    values, datasets, models = metric_matrix(table, metric)
    if len(datasets) < 2 or len(models) < 2:
        raise ValueError(
            f"ranks across datasets need at least 2 datasets and 2 models; got {len(datasets)} and {len(models)}"
        )
    return values, datasets, models


def held_metrics(table: pd.DataFrame) -> list:
    """The metrics of :data:`SUMMARY_RANK_METRICS` that a table of per-screen values holds, in that order: all of
    them for a run of this version; fewer for a panel's reference written before a metric joined them."""
    return [m for m in SUMMARY_RANK_METRICS if m in table.columns]


def ranks_table(table: pd.DataFrame, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Which model wins across datasets, per metric of :data:`SUMMARY_RANK_METRICS` the table holds
    (``held_metrics``; Demsar 2006).

    Parameters
    ----------
    table : DataFrame
        :func:`datasets_table`'s output, or each screen's mean over the repeats (:func:`repeat_means`) (at least 2 datasets and 2 models).
    alpha : float
        The level of the Nemenyi critical difference.

    Returns
    -------
    ranks : DataFrame
        Per (metric, model): mean_rank (1 = best; ties share their mean rank),
        and per metric: datasets, friedman_chi2, friedman_p, iman_davenport_f,
        iman_davenport_p, nemenyi_cd (at ``alpha``).
    pairs : DataFrame
        Per (metric, pair of models): :func:`crocbench.stats.pairwise_wilcoxon`'s
        rows (wins, losses, ties over the datasets, mean_difference with its
        95% interval low and high, signed_rank_sum, the two-sided paired
        Wilcoxon signed-rank p_value and p_holm, Holm-adjusted over the
        metric's pairs).
    """
    rank_rows, pair_rows = [], []
    for metric in held_metrics(table):
        values, datasets, models = _ranked(table, metric)
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


def tests_across_screens(
    table: pd.DataFrame, ranked, repeats: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The summary's tests across the screens, of the models ``ranked`` only: :func:`ranks_table`'s ranks and
    pairs, and :func:`conover_table`.

    The summary and a panel's reference (:func:`crocbench.reference.across_screens`) both test the values as the
    tables of one screen each keep them (10 significant digits), so that a panel grown screen by screen has the
    tests of one run of all its screens, ties included.

    Parameters
    ----------
    table : DataFrame
        :func:`datasets_table`'s output (``datasets.tsv``).
    ranked : sequence of str
        The labels of the models ranked and tested (the summary's ``models``); the table's other rows are left out.
    repeats : DataFrame or None
        Each repeat's values of a repeated cross-validation (``datasets_repeats.tsv``): the tests then read each
        screen's mean over the repeats (:func:`repeat_means`) instead of ``table``.

    Returns
    -------
    ranks, pairs, conover : DataFrame
    """
    if repeats is not None:
        table = repeat_means(repeats)
    values = table[table["model"].isin(list(ranked))]
    ranks, pairs = ranks_table(values)
    return ranks, pairs, conover_table(values)


def conover_table(table: pd.DataFrame) -> pd.DataFrame:
    """Conover's post-hoc test after Friedman's for every pair of models, per metric of
    :data:`SUMMARY_RANK_METRICS` the table holds (``held_metrics``; :func:`crocbench.stats.conover_friedman`).

    Parameters
    ----------
    table : DataFrame
        :func:`datasets_table`'s output, or each screen's mean over the repeats (:func:`repeat_means`) (at least 2 datasets and 2 models).

    Returns
    -------
    DataFrame
        Per (metric, pair of models; a before b in the table's order of models, as :func:`ranks_table`'s pairs):
        mean_rank_a and mean_rank_b (1 = best), the two-sided p_value and p_holm (Holm-adjusted over the
        metric's pairs).
    """
    rows = []
    for metric in held_metrics(table):
        values, _, models = _ranked(table, metric)
        ranks = friedman_test(values).mean_ranks
        p = conover_friedman(values, models).to_numpy()
        adjusted = conover_friedman(values, models, p_adjust="holm").to_numpy()
        for i, j in itertools.combinations(range(len(models)), 2):
            rows.append(
                {
                    "metric": metric,
                    "a": models[i],
                    "b": models[j],
                    "mean_rank_a": float(ranks[i]),
                    "mean_rank_b": float(ranks[j]),
                    "p_value": float(p[i, j]),
                    "p_holm": float(adjusted[i, j]),
                }
            )
    return pd.DataFrame(rows)


def repeat_means(per_repeat: pd.DataFrame, bounds: bool = False) -> pd.DataFrame:
    """Each screen's values of each model averaged over the repeats of a repeated cross-validation.

    Parameters
    ----------
    per_repeat : DataFrame
        A panel's ``datasets_repeats.tsv``: ``dataset``, ``model``, ``repeat`` and a column per metric.
    bounds : bool
        Also each column's lowest and highest repeat's value, as ``<column>_low`` and ``<column>_high`` (the
        columns of a value's interval in ``datasets.tsv``), in place of any interval the repeats' table holds.

    Returns
    -------
    DataFrame
        ``dataset``, ``model`` and the mean of every other numeric column, in the table's order: what
        :func:`crocbench.report.findings.family_table` tests for a run with repeats.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["s"] * 4, "model": ["A", "B", "A", "B"], "repeat": [0, 0, 1, 1],
    ...                   "roc": [0.8, 0.7, 0.6, 0.7]})
    >>> repeat_means(t).to_dict("records")
    [{'dataset': 's', 'model': 'A', 'roc': 0.7}, {'dataset': 's', 'model': 'B', 'roc': 0.7}]
    >>> repeat_means(t, bounds=True).round(4).to_dict("records")[0]
    {'dataset': 's', 'model': 'A', 'roc': 0.7, 'roc_low': 0.6, 'roc_high': 0.8}
    """
    values = [c for c in per_repeat.columns if c not in ("dataset", "model", "repeat")]
    numeric = [c for c in values if pd.api.types.is_numeric_dtype(per_repeat[c])]
    if bounds:  # the repeats' range in place of any interval the table holds
        intervals = {f"{c}{s}" for c in numeric for s in ("_low", "_high")}
        numeric = [c for c in numeric if c not in intervals]
    groups = per_repeat.groupby(["dataset", "model"], sort=False)[numeric]
    means = groups.mean()
    if bounds:
        low, high = groups.min().add_suffix("_low"), groups.max().add_suffix("_high")
        means = means.join(low).join(high)[[f"{c}{s}" for c in numeric for s in ("", "_low", "_high")]]
    return means.reset_index()

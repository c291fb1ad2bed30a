"""An entry scored and placed: each screen's metrics with their exact random baselines, and the entry among the
reference's rankers across the screens.

The placement, per metric: the mean ranks with the entry included, Friedman's test, Nemenyi's critical
difference and Conover's post-hoc test (Holm over all pairs); and the entry against each reference ranker, a
two-sided paired Wilcoxon signed-rank test over the screens, Holm-adjusted over the entry's comparisons on that
metric, with its record (wins, losses, ties) and its effect size: the mean paired difference with a 95%
bootstrap interval over the screens (:func:`crocbench.stats.paired_effect`). The metric of record's
comparisons are confirmatory; every other metric's are exploratory. On a benchmark of one screen no test across
screens applies, and the entry is placed by its value alone.

Two steps: :func:`repeat_values` takes the pooled scores to each screen's and repeat's values, and
:func:`screen_values`, :func:`placement` and :func:`value_order` take those values to means (each repeat at
:data:`~crocbench.benchmark._values.VALUE_DIGITS` significant digits, as the reference's rows are made),
ranks, records and places. A model's place on a metric, among the rankers placed, is 1 + the number of rankers
strictly better than it: by mean rank across screens, by value on one screen (:func:`place_of`).
"""

from __future__ import annotations

import pandas as pd

from ._spec import Spec
from ._values import at_precision, rounded_means, to_digits

#: The level of the placement's tests.
ALPHA = 0.05
#: The seed of the effect sizes' intervals (:data:`crocbench.stats.EFFECT_RESAMPLES` resamples).
SEED = 0
CONFIRMATORY, EXPLORATORY = "confirmatory", "exploratory"


def metric_calls(keys, n: int) -> dict:
    """``{key: MetricCall}`` for a list of ``n`` compounds: the summary's metrics and the paper's table 1."""
    from ..metrics import paper_metrics
    from ..report import summary_calls

    calls = {c.key: c for c in paper_metrics()}
    calls.update({c.key: c for c in summary_calls(n)})
    unknown = [k for k in keys if k not in calls]
    if unknown:
        raise ValueError(f"no metric {unknown[0]!r}; the metrics are {', '.join(calls)}")
    return {k: calls[k] for k in keys}


def metric_label(key: str) -> str:
    """The label of a metric key (its size-free form: ``actives in top 1%`` for ``top_1pct``)."""
    from ..report import summary_labels

    labels = summary_labels()
    return labels.get(key) or metric_calls([key], 1000)[key].label


def repeat_values(spec: Spec, pooled: dict) -> pd.DataFrame:
    """One row per screen and repeat: compounds, actives and each metric's value on that repeat's pooled scores
    (full precision).

    Parameters
    ----------
    spec : Spec
    pooled : dict
        ``{screen: [pooled scores (id, fold, label, score) per repeat]}``.
    """
    from ..metrics import Ranking

    rows = []
    for screen, repeats in pooled.items():
        labels = repeats[0]["label"].to_numpy()
        calls = metric_calls(spec.metrics, len(labels))
        for r, p in enumerate(repeats):
            ranking = Ranking(p["label"].to_numpy(), p["score"].to_numpy())
            row = {"dataset": screen, "repeat": r, "compounds": len(labels), "actives": int(labels.sum())}
            rows.append(row | {key: float(call.value(ranking)) for key, call in calls.items()})
    return pd.DataFrame(rows)


def screen_values(spec: Spec, per_repeat: pd.DataFrame) -> pd.DataFrame:
    """One row per screen: compounds, actives, and per metric its value (:func:`rounded_means` over the repeats,
    as the reference's rows are made), the exact random mean and SD (``<key>_random_mean``, ``<key>_random_sd``;
    empty for a metric without one).

    Parameters
    ----------
    spec : Spec
    per_repeat : DataFrame
        :func:`repeat_values`: ``dataset``, ``repeat``, ``compounds``, ``actives`` and a column per metric.
    """
    means = rounded_means(per_repeat, ["dataset"], spec.metrics).set_index("dataset")
    sizes = per_repeat.groupby("dataset", sort=False)[["compounds", "actives"]].first()
    rows = []
    for screen, (n, n_pos) in sizes.iterrows():
        row = {"dataset": screen, "compounds": int(n), "actives": int(n_pos)}
        for key, call in metric_calls(spec.metrics, int(n)).items():
            row[key] = float(means.loc[screen, key])
            try:
                baseline = call.random(int(n), int(n_pos))
                row[f"{key}_random_mean"], row[f"{key}_random_sd"] = baseline.mean, baseline.sd
            except ValueError:  # a metric without an exact baseline
                row[f"{key}_random_mean"] = row[f"{key}_random_sd"] = float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def place_of(better: int) -> int:
    """A model's place given how many of the others are strictly better than it (1 = best; a tie shares the
    better place)."""
    return 1 + int(better)


def _ranked_table(values: pd.DataFrame, reference: pd.DataFrame, spec: Spec, entry: str) -> pd.DataFrame:
    screens = list(values["dataset"])
    ref = reference[reference["dataset"].isin(screens)]
    ours = values[["dataset", *spec.metrics]].assign(model=entry)
    table = pd.concat([ref[["dataset", "model", *spec.metrics]], ours], ignore_index=True)
    table = at_precision(table, spec.metrics)
    table["dataset"] = pd.Categorical(table["dataset"], screens, ordered=True)
    table["model"] = pd.Categorical(table["model"], [*spec.rankers, entry], ordered=True)
    return table.sort_values(["dataset", "model"]).astype({"dataset": str, "model": str}).reset_index(drop=True)


def placement(
    values: pd.DataFrame, reference: pd.DataFrame, spec: Spec, entry: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The entry placed among the reference's rankers on every metric (see the module's docstring), every value
    taken to :data:`~crocbench.benchmark._values.VALUE_DIGITS` significant digits.

    Returns
    -------
    ranks : DataFrame
        Per (metric, model): mean_rank (1 = best), place (:func:`place_of`, by mean rank), and per metric screens,
        friedman_chi2, friedman_p, nemenyi_cd (of every model placed, the entry included).
    versus : DataFrame
        Per (metric, reference ranker): family, the entry's wins, losses, ties, mean_difference (entry - ranker),
        low and high (its interval), signed_rank_sum (W+ - W-: positive where the test's evidence is for the
        entry), p_value and p_holm (Wilcoxon; Holm over the entry's comparisons on the metric), conover_p_holm, and
        its mean rank and the ranker's.
    """
    from ..report._matrix import metric_matrix
    from ..stats import (
        conover_friedman,
        friedman_test,
        holm,
        nemenyi_critical_difference,
        pairwise_wilcoxon,
    )

    table = _ranked_table(values, reference, spec, entry)
    rank_rows, versus_rows = [], []
    for metric in spec.metrics:
        matrix, screens, models = metric_matrix(table, metric)
        friedman = friedman_test(matrix)
        cd = nemenyi_critical_difference(len(models), len(screens), ALPHA)
        means = dict(zip(models, map(float, friedman.mean_ranks)))
        for model in models:
            rank_rows.append(
                {
                    "metric": metric,
                    "model": model,
                    "mean_rank": means[model],
                    "place": place_of(sum(other < means[model] for other in means.values())),
                    "screens": len(screens),
                    "friedman_chi2": friedman.statistic,
                    "friedman_p": friedman.p_value,
                    "nemenyi_cd": cd,
                }
            )
        conover = conover_friedman(matrix, models, p_adjust="holm")
        first = [models.index(entry)] + [i for i, m in enumerate(models) if m != entry]  # entry - ranker rows
        tests = pairwise_wilcoxon(matrix[:, first], [models[i] for i in first], seed=SEED)
        pairs = [r for r in tests if r["a"] == entry]
        adjusted = holm([r["p_value"] for r in pairs])
        for row, p_holm in zip(pairs, adjusted):
            versus_rows.append(
                {
                    "metric": metric,
                    "family": CONFIRMATORY if metric == spec.metric_of_record else EXPLORATORY,
                    "ranker": row["b"],
                    "wins": row["wins"],
                    "losses": row["losses"],
                    "ties": row["ties"],
                    "signed_rank_sum": row["signed_rank_sum"],
                    "mean_difference": row["mean_difference"],
                    "low": row["low"],
                    "high": row["high"],
                    "p_value": row["p_value"],
                    "p_holm": float(p_holm),
                    "conover_p_holm": float(conover.loc[entry, row["b"]]),
                    "entry_rank": means[entry],
                    "ranker_rank": means[row["b"]],
                }
            )
    return pd.DataFrame(rank_rows), pd.DataFrame(versus_rows)


def value_order(values: pd.DataFrame, reference: pd.DataFrame, spec: Spec, entry: str) -> pd.DataFrame:
    """On one screen: per metric, the entry's place by value among the reference's rankers (:func:`place_of`;
    values to :data:`~crocbench.benchmark._values.VALUE_DIGITS` significant digits) and its neighbours above
    and below."""
    screen = values["dataset"].iloc[0]
    ref = reference[reference["dataset"] == screen].set_index("model")
    rows = []
    for metric in spec.metrics:
        mine = float(to_digits(float(values[metric].iloc[0])))
        others = pd.Series(to_digits(ref[metric].to_numpy(float)), index=ref.index)
        above, below = others[others > mine], others[others <= mine]
        rows.append(
            {
                "metric": metric,
                "family": CONFIRMATORY if metric == spec.metric_of_record else EXPLORATORY,
                "value": mine,
                "place": place_of((others > mine).sum()),
                "of": len(others) + 1,
                "above": above.idxmin() if len(above) else "",
                "above_value": float(above.min()) if len(above) else float("nan"),
                "below": below.idxmax() if len(below) else "",
                "below_value": float(below.max()) if len(below) else float("nan"),
            }
        )
    return pd.DataFrame(rows)

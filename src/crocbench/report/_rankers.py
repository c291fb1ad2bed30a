"""A study of rankers on one dataset, from a run's tables: table 1 with intervals, the order each metric gives, and
the six tests for chosen pairs (``docs/studies/ecfp_rankers.md``).

Every function reads the run's long tables as written by the workflow: ``intervals.tsv`` (model, key, label, value,
low, high, ...), ``other_metrics.tsv`` (model, key, label, value, ...) and ``significance.tsv`` (a, b, metric,
value_a, value_b, better and a p-value per test). Which pairs are compared is the caller's to say.
"""

from __future__ import annotations

import pandas as pd

from ..stats import TEST_LABELS
from ._format import interval_cell, markdown_table, number_cell, p_cell
from ._summary import SUMMARY_EF_KEY, SUMMARY_FIGURE_METRICS

#: The metrics of a study of rankers with intervals and tests: the panel summary's (AUC[ROC], AUC[CROC(exp)] a=80,
#: BEDROC(20)) but EF 1% (:data:`SUMMARY_EF_KEY`), which the study reads from ``other_metrics.tsv``.
STUDY_METRICS = tuple(k for k in SUMMARY_FIGURE_METRICS if k != SUMMARY_EF_KEY)


def _labels(intervals: pd.DataFrame, other: pd.DataFrame) -> dict:
    return {
        **dict(zip(intervals["key"], intervals["label"])),
        **dict(zip(other["key"], other["label"])),
    }


def _values(intervals: pd.DataFrame, other: pd.DataFrame, metrics, ef_key) -> pd.DataFrame:
    """Model x metric values (the metrics, then EF), models in the intervals table's order."""
    part = intervals[intervals["key"].isin(metrics)].pivot(index="model", columns="key", values="value")
    ef = other[other["key"] == ef_key].set_index("model")["value"].rename(ef_key)
    models = list(dict.fromkeys(intervals["model"]))
    return part.join(ef).loc[models, [*metrics, ef_key]]


def rankers_markdown(
    intervals: pd.DataFrame, other: pd.DataFrame, metrics=STUDY_METRICS, ef_key: str = SUMMARY_EF_KEY
) -> str:
    """Table 1 of the study: a row per ranker, each metric of ``metrics`` as "value [low, high]" (95% bootstrap
    interval), then ``ef_key``'s value.

    Parameters
    ----------
    intervals : pandas.DataFrame
        The run's ``intervals.tsv``.
    other : pandas.DataFrame
        The run's ``other_metrics.tsv``.
    metrics : sequence of str
        Keys of ``intervals``.
    ef_key : str
        A key of ``other``.

    Returns
    -------
    str
        A Markdown table.

    Examples
    --------
    >>> iv = pd.DataFrame({"model": ["A"], "key": ["roc"], "label": ["AUC[ROC]"], "value": [0.8], "low": [0.75],
    ...                    "high": [0.85]})
    >>> other = pd.DataFrame({"model": ["A"], "key": ["ef_1pct"], "label": ["EF 1%"], "value": [20.5]})
    >>> print(rankers_markdown(iv, other, metrics=("roc",)))
    | ranker | AUC[ROC] | EF 1% |
    |---|---|---|
    | A | 0.8000 [0.750, 0.850] | 20.50 |
    """
    labels, values = _labels(intervals, other), _values(intervals, other, metrics, ef_key)
    bounds = {b: intervals.pivot(index="model", columns="key", values=b) for b in ("low", "high")}
    rows = [
        {
            "ranker": model,
            **{
                labels[k]: interval_cell(row[k], bounds["low"].at[model, k], bounds["high"].at[model, k], False)
                for k in metrics
            },
            labels[ef_key]: f"{row[ef_key]:.2f}",
        }
        for model, row in values.iterrows()
    ]
    return markdown_table(pd.DataFrame(rows))


def orders_markdown(intervals: pd.DataFrame, other: pd.DataFrame, metrics=STUDY_METRICS, ef_key=SUMMARY_EF_KEY) -> str:
    """The rankers in the order each metric gives, best first, side by side: "ranker (value)" per place.

    Ties keep the table's order of the models.

    Parameters
    ----------
    intervals, other : pandas.DataFrame
        The run's ``intervals.tsv`` and ``other_metrics.tsv``.
    metrics : sequence of str
        Keys of ``intervals``, each a column.
    ef_key : str
        A key of ``other``, the last column.

    Returns
    -------
    str
        A Markdown table: place, then a column per metric.

    Examples
    --------
    >>> iv = pd.DataFrame({"model": ["A", "B"], "key": ["roc", "roc"], "label": ["AUC[ROC]"] * 2,
    ...                    "value": [0.8, 0.9], "low": [0, 0], "high": [1, 1]})
    >>> other = pd.DataFrame({"model": ["A", "B"], "key": ["ef_1pct"] * 2, "label": ["EF 1%"] * 2, "value": [20, 10]})
    >>> print(orders_markdown(iv, other, metrics=("roc",)))
    | place | AUC[ROC] | EF 1% |
    |---|---|---|
    | 1 | B (0.9000) | A (20.00) |
    | 2 | A (0.8000) | B (10.00) |
    """
    labels, values = _labels(intervals, other), _values(intervals, other, metrics, ef_key)
    columns = {}
    for key in [*metrics, ef_key]:
        order = values[key].sort_values(ascending=False, kind="stable")
        digits = 2 if key == ef_key else 4
        columns[labels[key]] = [f"{m} ({v:.{digits}f})" for m, v in order.items()]
    return markdown_table(pd.DataFrame({"place": range(1, len(values) + 1), **columns}))


def pair_tests(significance: pd.DataFrame, pairs, metrics=STUDY_METRICS) -> pd.DataFrame:
    """The rows of ``significance`` for the given pairs and metrics, each pair as given (``a`` first).

    Parameters
    ----------
    significance : pandas.DataFrame
        The run's ``significance.tsv``: each unordered pair once, in the run's model order.
    pairs : sequence of (str, str)
        The rankers compared; a pair the table lacks raises ``KeyError``.
    metrics : sequence of str
        Metric keys.

    Returns
    -------
    pandas.DataFrame
        The same columns, pair by pair and metric by metric; where a pair stands the other way round in the table,
        ``a``/``b`` and ``value_a``/``value_b`` are swapped (the one-sided p-values and ``better`` do not depend on
        the order).
    """
    rows = []
    for a, b in pairs:
        for key in metrics:
            hit = significance[(significance["metric"] == key) & (significance["a"] == a) & (significance["b"] == b)]
            back = significance[(significance["metric"] == key) & (significance["a"] == b) & (significance["b"] == a)]
            if len(hit) + len(back) != 1:
                raise KeyError(f"the significance table has no single row for {a} vs {b} on {key}")
            row = (hit if len(hit) else back).iloc[0].copy()
            if not len(hit):
                row["a"], row["b"], row["value_a"], row["value_b"] = a, b, row["value_b"], row["value_a"]
            rows.append(row)
    return pd.DataFrame(rows).reset_index(drop=True)


def pair_tests_markdown(table: pd.DataFrame, labels: dict, tests) -> str:
    """:func:`pair_tests` as Markdown: pair, metric (by ``labels``), both values, the better, the p-value of each
    test (bold below 0.01, italics below 0.05, as in the paper's Table 2)."""
    cells = pd.DataFrame(
        {
            "pair": table["a"] + " vs " + table["b"],
            "metric": table["metric"].map(labels),
            "a": table["value_a"].map(number_cell),
            "b": table["value_b"].map(number_cell),
            "better": table["better"],
            **{TEST_LABELS[t]: table[t].map(p_cell) for t in tests},
        }
    )
    return markdown_table(cells)

"""The summary across datasets as Markdown: per-dataset tables, ranks and pairs, and the compact views of a
panel of many screens (the docs' tables; :func:`crocbench.pages.panel_tables`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats import turned_pair
from ._format import interval_cell, markdown_table
from ._summary import SUMMARY_EF_KEY, SUMMARY_TESTS, SUMMARY_TOP_KEY, summary_labels


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


def conover_markdown(conover: pd.DataFrame, order, alpha: float = 0.05) -> str:
    """One metric's Conover tests (:func:`conover_table`'s rows of it) as a Markdown matrix: a row and a column per
    model in ``order``, each cell the pair's Holm-adjusted p-value, bold below ``alpha``.

    Examples
    --------
    >>> c = pd.DataFrame({"a": ["x", "x", "y"], "b": ["y", "z", "z"], "p_holm": [0.2, 0.004, 0.2]})
    >>> print(conover_markdown(c, ["x", "y", "z"]))
    | Conover p (Holm) | x | y | z |
    |---|---|---|---|
    | x |  | 0.2 | **0.004** |
    | y | 0.2 |  | 0.2 |
    | z | **0.004** | 0.2 |  |
    """
    p = {}
    for row in conover.itertuples(index=False):
        p[(row.a, row.b)] = p[(row.b, row.a)] = row.p_holm
    cell = lambda v: f"**{v:.2g}**" if v < alpha else f"{v:.2g}"  # noqa: E731
    cells = pd.DataFrame(
        {"Conover p (Holm)": list(order)} | {b: ["" if a == b else cell(p[(a, b)]) for a in order] for b in order}
    )
    return markdown_table(cells)


def ranks_markdown(ranks: pd.DataFrame, pairs: pd.DataFrame, alpha: float = 0.05, conover=None) -> str:
    """The ranks table as Markdown: first the tests it reports (:data:`SUMMARY_TESTS`), then per metric, mean
    ranks, Friedman and Nemenyi, the pairs' Wilcoxon tests and, given :func:`conover_table`'s output as
    ``conover``, Conover's p-values of every pair (Holm-adjusted) as a matrix."""
    labels = summary_labels()
    parts = [
        SUMMARY_TESTS + "."
        if conover is not None
        else "Tests across screens: Friedman, then Nemenyi's critical difference; pairwise Wilcoxon signed-rank with "
        "Holm."
    ]
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
                "mean difference [95%]": [
                    _value_cell(metric, d, lo, hi)
                    for d, lo, hi in zip(pair["mean_difference"], pair["low"], pair["high"])
                ],
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
            + (
                ""
                if conover is None
                else "\n\n" + conover_markdown(conover[conover["metric"] == metric], order["model"], alpha)
            )
        )
    return "\n\n".join(parts)


def _value_cell(key: str, value, low=None, high=None) -> str:
    """A metric's value, with its interval when given: counts whole, EF with 2 decimals, areas with 3."""
    digits = 0 if key == SUMMARY_TOP_KEY else 2 if key == SUMMARY_EF_KEY else 3
    text = f"{value:.{digits}f}"
    return text if low is None or pd.isna(low) else f"{text} [{low:.{digits}f}, {high:.{digits}f}]"


#: The width, in characters, of one table of :func:`screens_markdown`: its screens are set side by side, in
#: tables of as many as fit, so that a page's text column (900 px and more) shows every column without scrolling.
SCREENS_TABLE_WIDTH = 96


def screens_markdown(table: pd.DataFrame, metric: str, repeats: int | None = None) -> str:
    """One metric of :func:`datasets_table` as Markdown: a row per model, a column per screen (its compounds and
    actives in the first two rows), each cell the value and, where the table has them, its 95% interval.

    The screens are set side by side in tables of as many as fit in ``SCREENS_TABLE_WIDTH`` characters, in the
    table's order. With ``repeats`` (their number), ``table`` holds each value's mean over the repeats of a repeated
    cross-validation and, as its bounds, the lowest and the highest repeat's value
    (:func:`crocbench.report.repeat_means` with ``bounds``); a first line says so.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["s", "s"], "model": ["A", "B"], "compounds": [1000, 1000],
    ...                   "actives": [20, 20], "roc": [0.7512, 0.6], "roc_low": [0.7, 0.55], "roc_high": [0.8, 0.65]})
    >>> print(screens_markdown(t, "roc"))
    | ranker | s |
    |---|---|
    | *compounds* | 1,000 |
    | *actives* | 20 |
    | A | 0.751 [0.700, 0.800] |
    | B | 0.600 [0.550, 0.650] |
    """
    models = list(dict.fromkeys(table["model"]))
    bounds = f"{metric}_low" in table
    read = [metric, f"{metric}_low", f"{metric}_high"] if bounds else [metric]
    cell = {  # (screen, model) -> its cell
        (dataset, model): _value_cell(metric, *values)
        for dataset, model, *values in table[["dataset", "model", *read]].itertuples(index=False)
    }
    columns = []  # per screen: its header, then its compounds, actives and each model's cell
    firsts = table.drop_duplicates("dataset")  # each screen's first row, in the table's order
    for dataset, compounds, actives in zip(firsts["dataset"], firsts["compounds"], firsts["actives"]):
        cells = [cell[(dataset, m)] for m in models]
        columns.append([str(dataset), f"{compounds:,}", f"{actives:,}", *cells])
    names = ["ranker", "*compounds*", "*actives*", *models]

    def width(cells) -> int:  # a column's characters, with its separators
        return max(map(len, cells)) + 3

    groups, used = [[]], width(names)
    for column in columns:
        if groups[-1] and used + width(column) > SCREENS_TABLE_WIDTH:
            groups.append([])
            used = width(names)
        groups[-1].append(column)
        used += width(column)
    tables = []
    for group in groups:
        rows = [[name, *(column[i] for column in group)] for i, name in enumerate(names)]
        lines = ["| " + " | ".join(rows[0]) + " |", "|---" * (1 + len(group)) + "|"]
        tables.append("\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows[1:]]))
    lead = (
        [] if repeats is None else [f"Each screen's mean over its {repeats} repeats [the lowest repeat, the highest]."]
    )
    return "\n\n".join(lead + tables)


def ranks_overview_markdown(ranks: pd.DataFrame, metrics=None) -> str:
    """:func:`ranks_table`'s ranks in one Markdown table: per metric, the Friedman p-value, the Nemenyi critical
    difference and the models by mean rank (1 = best)."""
    labels = summary_labels()
    lines = ["| metric | screens | Friedman p | Nemenyi CD | mean ranks, best first |", "|---|---|---|---|---|"]
    for metric in metrics or dict.fromkeys(ranks["metric"]):
        part = ranks[ranks["metric"] == metric].sort_values("mean_rank", kind="stable")
        first = part.iloc[0]
        order = ", ".join(f"{m} {r:.2f}" for m, r in zip(part["model"], part["mean_rank"]))
        lines.append(
            f"| {labels[metric]} | {first['datasets']} | {first['friedman_p']:.2g} | {first['nemenyi_cd']:.2f} | "
            f"{order} |"
        )
    return "\n".join(lines)


def pairs_markdown(pairs: pd.DataFrame, metrics=None, alpha: float = 0.05, only=None) -> str:
    """:func:`ranks_table`'s Wilcoxon tests in one Markdown table: a row per pair of models, a column per metric,
    each cell the mean difference (a - b) with its 95% interval over the screens (the pair's own, not adjusted for
    the others), wins-losses(-ties) of a and the Holm-adjusted p-value, bold below
    ``alpha``. ``only``: these ``(a, b)`` pairs, in this order and orientation (a pair the table holds as
    ``(b, a)`` is turned round: the difference negated, wins and losses swapped; the p-values are the same)."""
    labels = summary_labels()
    metrics = list(metrics or dict.fromkeys(pairs["metric"]))
    lines = ["| pair | " + " | ".join(labels[m] for m in metrics) + " |", "|---" * (1 + len(metrics)) + "|"]
    first = pairs[pairs["metric"] == metrics[0]]
    tests = {metric: _by_pair(pairs[pairs["metric"] == metric]) for metric in metrics}
    for a, b in only if only is not None else zip(first["a"], first["b"]):
        cells = []
        for metric in metrics:
            row = _oriented(tests[metric], a, b)
            diff = _value_cell(metric, row["mean_difference"], row["low"], row["high"])
            record = _wins_losses(row)
            p = f"{row['p_holm']:.2g}"
            cells.append(
                f"{'+' if row['mean_difference'] >= 0 else ''}{diff}, {record}, "
                + (f"**p {p}**" if row["p_holm"] < alpha else f"p {p}")
            )
        lines.append(f"| {a} vs {b} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _by_pair(pairs: pd.DataFrame) -> dict:
    """One metric's tests by pair: ``(a, b) -> row``."""
    return {(r["a"], r["b"]): r for r in pairs.to_dict("records")}


def _oriented(where: dict, a: str, b: str) -> dict:
    """The one test of models ``a`` and ``b`` in ``where`` (one metric's tests, :func:`_by_pair`), as ``a`` against
    ``b``."""
    if (a, b) in where:
        return dict(where[(a, b)])
    if (b, a) not in where:
        raise ValueError(f"no test of {a} against {b}")
    return turned_pair(dict(where[(b, a)]))


def claims_across_markdown(table: pd.DataFrame) -> str:
    """:func:`crocbench.paper.claims_across`'s table as Markdown: per claim, the screens where it holds and the test across them."""
    mark = {True: "supported", False: "not supported", None: "not checked"}
    cells = pd.DataFrame(
        {
            "claim": table["text"],
            "holds in": [f"{h} of {n}" for h, n in zip(table["holds_in"], table["screens"])],
            "across the screens": [mark[None if pd.isna(v) else bool(v)] for v in table["supported_across"]],
            "evidence": table["evidence"],
        }
    )
    return markdown_table(cells)


def _wins_losses(row: dict) -> str:
    """A pair's record over the screens, a's wins-losses, with -ties where there are any."""
    return f"{row['wins']}-{row['losses']}" + (f"-{row['ties']}" if row["ties"] else "")

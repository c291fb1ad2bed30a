"""The declared family across screens: a panel's per-screen values (``datasets.tsv``) tested pair by pair, with
effects and their bootstrap intervals over the screens, and the answers written from them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import holm, pairwise_wilcoxon, screens_needed, turned_pair
from .._matrix import metric_matrix
from .._summary_markdown import _wins_losses
from ._questions import (
    VERDICTS,
    Questions,
    _label,
    _listed,
    _number,
    _signed,
    _status,
    verdict_cell,
    verdict_counts,
    verdict_lines,
)


def family_table(datasets: pd.DataFrame, questions: Questions) -> pd.DataFrame:
    """Every test of the declared family, computed from a panel's per-screen values.

    Parameters
    ----------
    datasets : DataFrame
        The panel's ``datasets.tsv``: columns ``dataset``, ``model`` and a column per metric.
    questions : Questions

    Returns
    -------
    DataFrame
        One row per pair and metric, in declared order: ``a``, ``b``, ``metric``, ``screens``, ``wins``,
        ``losses``, ``ties`` (a against b), ``effect`` (mean of a - b), ``low`` and ``high`` (its interval),
        ``p_value`` (two-sided Wilcoxon signed-rank), ``p_holm`` (over the family), ``threshold``, ``ahead``
        (the ranker the signed ranks favour, where they favour one) and ``verdict`` (:data:`VERDICTS`): a
        difference is beyond the threshold where Holm's p is below alpha and the whole interval lies beyond the
        threshold on the side of the ranker ahead.
    """
    models = set(datasets["model"])
    for pair in questions.pairs:
        for model in pair:
            if model not in models:
                raise ValueError(f"questions: {model!r} is not a ranker of the panel ({', '.join(sorted(models))})")
    for m in questions.metrics:
        if m not in datasets.columns:
            raise ValueError(f"questions: the panel has no metric {m!r}")
    rows, matrices = [], {m: metric_matrix(datasets, m) for m in questions.metrics}
    for a, b in questions.pairs:
        for m in questions.metrics:
            values, screens, ranked = matrices[m]
            i, j = sorted((ranked.index(a), ranked.index(b)))  # the summary's order: its row, turned where need be
            pair = values[:, [i, j]]
            if np.isnan(pair).any():
                raise ValueError(f"questions: {a} or {b} lacks {m} on a screen of the panel")
            test = pairwise_wilcoxon(
                pair, [ranked[i], ranked[j]], level=questions.level, n_resamples=questions.resamples,
                seed=questions.seed,
            )[0]  # fmt: skip
            test = test if test["a"] == a else turned_pair(test)
            ahead = a if test["signed_rank_sum"] > 0 else b if test["signed_rank_sum"] < 0 else ""
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "metric": m,
                    "screens": len(screens),
                    "wins": test["wins"],
                    "losses": test["losses"],
                    "ties": test["ties"],
                    "effect": test["mean_difference"],
                    "low": test["low"],
                    "high": test["high"],
                    "p_value": test["p_value"],
                    "threshold": float(questions.thresholds[m]),
                    "ahead": ahead,
                }
            )
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p_value"].to_numpy())
    sign = np.where(table["ahead"] == table["a"], 1.0, -1.0)
    beyond = np.minimum(sign * table["low"], sign * table["high"]) >= table["threshold"]
    significant = (table["p_holm"] < questions.alpha) & (table["ahead"] != "")
    table["verdict"] = np.where(significant & beyond, VERDICTS[0], np.where(significant, VERDICTS[1], VERDICTS[2]))
    return table[
        [*table.columns.drop(["p_holm", "threshold", "ahead", "verdict"]), "p_holm", "threshold", "ahead", "verdict"]
    ]


def repeats_agreeing(per_repeat: pd.DataFrame, questions: Questions, table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (the family on the repeats' means, :func:`family_table`) with ``repeats`` and ``agreeing``: in how
    many repeats the family tested on that repeat's values alone (Holm over the family) gives the same verdict with
    the same ranker ahead.

    Parameters
    ----------
    per_repeat : DataFrame
        ``datasets_repeats.tsv`` (see :func:`crocbench.report.repeat_means`).
    questions : Questions
    table : DataFrame
        :func:`family_table` of :func:`crocbench.report.repeat_means` of ``per_repeat``.

    Returns
    -------
    DataFrame
    """
    agreeing = np.zeros(len(table), dtype=int)
    repeats = sorted(per_repeat["repeat"].unique())
    for r in repeats:
        own = family_table(per_repeat[per_repeat["repeat"] == r].drop(columns="repeat"), questions)
        agreeing += (own["verdict"].to_numpy() == table["verdict"].to_numpy()) & (
            own["ahead"].to_numpy() == table["ahead"].to_numpy()
        )
    return table.assign(repeats=len(repeats), agreeing=agreeing)


def repeat_spread(per_repeat: pd.DataFrame, metrics) -> pd.DataFrame:
    """Each ranker's spread over the repeats of a repeated cross-validation (each repeat its own split and seeds),
    per metric: the SD over the repeats of each screen's value, its mean and its largest over the screens, and the
    SD over the repeats of the ranker's mean over the screens (what a verdict on the panel's mean moves by).

    Parameters
    ----------
    per_repeat : DataFrame
        ``datasets_repeats.tsv`` (see :func:`crocbench.report.repeat_means`), two or more repeats.
    metrics : list of str
        Columns of ``per_repeat``.

    Returns
    -------
    DataFrame
        A row per (model, metric), in the table's order of models: ``repeats``, ``screens``, ``sd_mean``,
        ``sd_max``, ``sd_max_screen`` (its screen, the first on a tie) and ``panel_sd``; every SD with ddof 1.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["s", "t"] * 2, "model": ["A"] * 4, "repeat": [0, 0, 1, 1],
    ...                   "roc": [0.8, 0.6, 0.6, 0.6]})
    >>> r = repeat_spread(t, ["roc"]).iloc[0]
    >>> [round(float(r[c]), 4) for c in ("sd_mean", "sd_max", "panel_sd")], r.sd_max_screen
    ([0.0707, 0.1414, 0.0707], 's')
    """
    repeats = per_repeat["repeat"].nunique()
    if repeats < 2:
        raise ValueError(f"the spread over repeats needs two or more repeats; the table holds {repeats}")
    rows = []
    for model, part in per_repeat.groupby("model", sort=False):
        for metric in metrics:
            wide = part.pivot(index="dataset", columns="repeat", values=metric)
            wide = wide.reindex(list(dict.fromkeys(part["dataset"])))
            sd = _sd(wide)
            rows.append(
                {
                    "model": model,
                    "metric": metric,
                    "repeats": repeats,
                    "screens": len(wide),
                    "sd_mean": float(sd.mean()),
                    "sd_max": float(sd.max()),
                    "sd_max_screen": str(sd.idxmax()),
                    "panel_sd": float(_sd(wide.mean(axis=0).to_frame().T).iloc[0]),
                }
            )
    return pd.DataFrame(rows)


def _sd(wide: pd.DataFrame) -> pd.Series:
    """Each row's SD over its columns (ddof 1), taken about the row's first value: the same SD, but exactly 0 for
    equal values (about their mean, three equal 0.7s give 1.4e-16)."""
    return wide.sub(wide.iloc[:, 0], axis=0).std(axis=1, ddof=1)


def spread_markdown(table: pd.DataFrame) -> str:
    """:func:`repeat_spread` as a Markdown table, a row per ranker and metric."""
    first = table.iloc[0]
    lines = [
        f"| ranker | metric | SD over {first.repeats} repeats, mean over {first.screens} screens | largest (screen) "
        "| SD of the mean over the screens |",
        "|---|---|---:|---|---:|",
    ]
    for r in table.itertuples():
        largest = f"{_number(r.sd_max)} ({r.sd_max_screen})" if r.sd_max > 0 else "0"  # no screen: all are 0
        lines.append(f"| {r.model} | {_label(r.metric)} | {_number(r.sd_mean)} | {largest} | {_number(r.panel_sd)} |")
    return "\n".join(lines)


def _record(row) -> str:
    return _wins_losses({"wins": row.wins, "losses": row.losses, "ties": row.ties})


def family_markdown(table: pd.DataFrame, questions: Questions) -> str:
    """:func:`family_table` as a Markdown table: a row per test, the effect with its interval beside its Holm p, and
    the verdict against the metric's threshold (the unadjusted p-values are in the table itself)."""
    level = f"{questions.level:.0%}"
    repeats = "agreeing" in table.columns  # a run with repeats: the family on their means, and each repeat's own
    lines = [
        f"| pair | metric | record | mean difference [{level}] | Holm p ({len(table)} tests) | verdict |"
        + (" same in repeats |" if repeats else ""),
        "|---|---|---|---|---|---|" + ("---|" if repeats else ""),
    ]
    for r in table.itertuples():
        lines.append(
            f"| {r.a} vs {r.b} | {_label(r.metric)} | {_record(r)} | {_signed(r.effect)} [{_number(r.low)}, "
            f"{_number(r.high)}] | {r.p_holm:.2g} | {verdict_cell(r)} |"
            + (f" {r.agreeing} of {r.repeats} |" if repeats else "")
        )
    return "\n".join(lines)


def _leaders(ranks: pd.DataFrame, metric: str) -> tuple:
    """(names, mean rank): the rankers at the best mean rank by ``metric`` (several where they tie)."""
    part = ranks[ranks["metric"] == metric]
    best = part["mean_rank"].min()
    return list(part.loc[part["mean_rank"] == best, "model"]), float(best)


def _difference(r) -> str:
    winner, loser, sign = (r.a, r.b, 1) if r.ahead == r.a else (r.b, r.a, -1)
    low, high = sorted((sign * r.low, sign * r.high))
    return (
        f"{winner} over {loser} on {_label(r.metric)} by {_number(sign * r.effect)} "
        f"({_number(low)} to {_number(high)}; {_tested(r, turned=sign == -1)})"
    )


def _undecided(r) -> str:
    return (
        f"{r.a} vs {r.b} on {_label(r.metric)}: {_signed(r.effect)} ({_number(r.low)} to {_number(r.high)}; "
        f"{_tested(r, repeats=False)})"
    )


def _tested(r, turned: bool = False, repeats: bool = True) -> str:
    """A test's record (of the second named, when ``turned``), its Holm p and, with ``repeats`` where the table has
    them, in how many repeats on their own it gives the same verdict."""
    wins, losses = (r.losses, r.wins) if turned else (r.wins, r.losses)
    agreeing = repeats and hasattr(r, "agreeing")
    return f"{wins}-{losses}{f'-{r.ties}' if r.ties else ''}, Holm p {r.p_holm:.2g}" + (
        f"; the same in {r.agreeing} of {r.repeats} repeats on their own" if agreeing else ""
    )


def _needed(questions: Questions) -> int:
    """The fewest screens on which a unanimous record passes the declared family's Holm adjustment."""
    return screens_needed(tests=questions.size, alpha=questions.alpha)


def answers_markdown(ranks: pd.DataFrame, table: pd.DataFrame, questions: Questions) -> str:
    """The study's answers in a few lines: the metric of record's leader, and each verdict of the family.

    Parameters
    ----------
    ranks : DataFrame
        The panel's ``ranks.tsv`` (columns ``metric``, ``model``, ``mean_rank``, ``datasets``).
    table : DataFrame
        :func:`family_table`'s.
    questions : Questions
    """
    record = questions.metric_of_record
    screens = int(table["screens"].iloc[0])
    leaders, best = _leaders(ranks, record)
    lines = [
        f"- Metric of record: {_label(record)}. Over {screens} screens the first by mean rank is "
        f"{_listed(leaders)} ({best:.2f})"
        + (
            f"; by {_label('roc')}, {_listed(_leaders(ranks, 'roc')[0])} ({_leaders(ranks, 'roc')[1]:.2f})."
            if "roc" in set(ranks["metric"]) and record != "roc"
            else "."
        )
    ]
    needed = _needed(questions)
    lines.append(
        f"- The declared family: {len(questions.pairs)} pairs x {len(questions.metrics)} metrics = {questions.size} "
        f"tests, Holm-adjusted together at {questions.alpha:g} (the p-values; every interval here is a pair's own, "
        f"unadjusted for multiplicity); a unanimous record can pass from {needed} screens "
        f"(`crocbench.stats.screens_needed(tests={questions.size})`), and this panel has {screens}"
        + (", too few for any of its tests to pass" if screens < needed else "")
        + f". The answers are {_status(questions)}."
    )
    undecided = (
        f"Not significant after Holm's adjustment; the mean difference, first named minus second, with its "
        f"{questions.level:.0%} interval over the screens, unadjusted for multiplicity (it may exclude zero where the "
        f"adjusted p does not pass)",
        _undecided,
    )
    lines += verdict_lines(
        table, _difference, "Significant, but the interval reaches within the practical threshold", undecided
    )
    return "\n".join(lines)


def headline_markdown(ranks: pd.DataFrame, table: pd.DataFrame, questions: Questions, what: str = "") -> str:
    """One sentence for the README: the metric of record's leader and the count of the family's verdicts, after
    ``what`` (the panel, as :func:`describe` words it)."""
    leaders, _ = _leaders(ranks, questions.metric_of_record)
    screens = int(table["screens"].iloc[0])
    needed = _needed(questions)
    few = f"; no test of the family can pass on fewer than {needed} screens" if screens < needed else ""
    return (
        (f"{what}, " if what else "")
        + f"{screens} screens: first by mean rank on the metric of record, {_label(questions.metric_of_record)}, "
        f"{_listed(leaders)}; {verdict_counts(table, questions)} ({_status(questions)}{few})."
    )

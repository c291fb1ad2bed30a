"""The declared family on one dataset: a study's paired permutation tests (``significance.tsv``) with each ranker's
bootstrap interval over compounds (``intervals.tsv``), and the answers written from them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import holm
from .._protocol import INTERVAL_LEVEL
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


def study_family_table(significance: pd.DataFrame, intervals: pd.DataFrame, questions: Questions) -> pd.DataFrame:
    """The declared family on one dataset: a study's ``significance.tsv`` (the paper's six tests of every pair)
    and ``intervals.tsv`` (each ranker's value with its bootstrap interval over compounds).

    The test is the paired permutation test, one-sided in the observed direction (the paper's), Holm-adjusted over
    the family. The reference holds each ranker's interval, not the interval of a difference, so a significant
    difference is beyond the threshold where the point difference is; the table gives both rankers' intervals.

    Returns
    -------
    DataFrame
        One row per pair and metric, in declared order: ``a``, ``b``, ``metric``, ``value_a``, ``low_a``,
        ``high_a``, ``value_b``, ``low_b``, ``high_b``, ``effect`` (a - b), ``p_value``, ``p_holm``,
        ``threshold``, ``ahead`` and ``verdict`` (:data:`VERDICTS`).
    """
    models = set(intervals["model"])
    for pair in questions.pairs:
        for model in pair:
            if model not in models:
                raise ValueError(f"questions: {model!r} is not a ranker of the study ({', '.join(sorted(models))})")
    held = set(significance["metric"])
    for m in questions.metrics:
        if m not in held:
            raise ValueError(f"questions: the study's tests hold no metric {m!r} ({', '.join(sorted(held))})")
    iv = intervals.set_index(["model", "key"])
    rows = []
    for a, b in questions.pairs:
        for m in questions.metrics:
            tests = significance[significance["metric"] == m]
            row = tests[((tests["a"] == a) & (tests["b"] == b)) | ((tests["a"] == b) & (tests["b"] == a))]
            if len(row) != 1:
                raise ValueError(f"questions: the study holds no test of {a} against {b} on {m}")
            p_value = float(row["paired_permutation"].iloc[0])  # one-sided in the observed direction: either order
            effect = float(iv.at[(a, m), "value"] - iv.at[(b, m), "value"])
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "metric": m,
                    **{
                        f"{k}_a": float(iv.at[(a, m), c])
                        for k, c in (("value", "value"), ("low", "low"), ("high", "high"))
                    },
                    **{
                        f"{k}_b": float(iv.at[(b, m), c])
                        for k, c in (("value", "value"), ("low", "low"), ("high", "high"))
                    },
                    "effect": effect,
                    "p_value": p_value,
                    "threshold": float(questions.thresholds[m]),
                    "ahead": a if effect > 0 else b if effect < 0 else "",
                }
            )
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p_value"].to_numpy())
    significant = (table["p_holm"] < questions.alpha) & (table["ahead"] != "")
    beyond = table["effect"].abs() >= table["threshold"]
    table["verdict"] = np.where(significant & beyond, VERDICTS[0], np.where(significant, VERDICTS[1], VERDICTS[2]))
    order = [c for c in table.columns if c not in ("threshold", "ahead", "verdict", "p_holm")]
    return table[[*order, "p_holm", "threshold", "ahead", "verdict"]]


def _each(r, first: str) -> str:
    """Both rankers' values with their intervals, side ``first`` (``"a"`` or ``"b"``) first, and the Holm p."""
    sides = (first, "b" if first == "a" else "a")
    values = [f"{getattr(r, s)} {_valued(*(getattr(r, f'{k}_{s}') for k in ('value', 'low', 'high')))}" for s in sides]
    return f"{', '.join(values)}; Holm p {r.p_holm:.2g}"


def _difference(r) -> str:
    win, lose, first = (r.a, r.b, "a") if r.ahead == r.a else (r.b, r.a, "b")
    return f"{win} over {lose} on {_label(r.metric)} by {_number(abs(r.effect))} ({_each(r, first)})"


def _undecided(r) -> str:
    return f"{r.a} vs {r.b} on {_label(r.metric)}: {_signed(r.effect)} ({_each(r, 'a')})"


def _valued(value: float, low: float, high: float) -> str:
    return f"{value:.4g} [{low:.3g}, {high:.3g}]"


def study_family_markdown(table: pd.DataFrame, questions: Questions) -> str:
    """:func:`study_family_table` as a Markdown table: each ranker's value with its interval, the difference, its
    Holm p and the verdict against the metric's threshold."""
    level = f"{INTERVAL_LEVEL:.0%}"
    lines = [
        f"| pair | metric | first [{level}] | second [{level}] | difference | Holm p ({len(table)} tests) | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in table.itertuples():
        lines.append(
            f"| {r.a} vs {r.b} | {_label(r.metric)} | {_valued(r.value_a, r.low_a, r.high_a)} | "
            f"{_valued(r.value_b, r.low_b, r.high_b)} | {_signed(r.effect)} | {r.p_holm:.2g} | {verdict_cell(r)} |"
        )
    return "\n".join(lines)


def study_answers_markdown(intervals: pd.DataFrame, table: pd.DataFrame, questions: Questions) -> str:
    """A study's answers on one dataset in a few lines: the metric of record's first ranker (and ROC's), and each
    verdict of the declared family."""
    values = intervals.pivot(index="model", columns="key", values="value")
    record = questions.metric_of_record

    def first(metric):
        best = values[metric].max()
        return _listed(sorted(values.index[values[metric] == best])), best

    who, best = first(record)
    lines = [f"- Metric of record: {_label(record)}. The first is {who} ({best:.4g})"]
    if "roc" in values.columns and record != "roc":
        lines[0] += f"; by {_label('roc')}, {first('roc')[0]} ({first('roc')[1]:.4g})"
    lines[0] += "."
    lines.append(
        f"- The declared family: {len(questions.pairs)} pairs x {len(questions.metrics)} metrics = {questions.size} "
        f"tests, the paired permutation test (one-sided in the observed direction), Holm-adjusted together at "
        f"{questions.alpha:g} (the p-values; every interval here is unadjusted for multiplicity). The answers are "
        f"{_status(questions)}."
    )
    undecided = (
        f"Not significant after Holm's adjustment; the difference, first named minus second, and each ranker's "
        f"{INTERVAL_LEVEL:.0%} interval over compounds, unadjusted for multiplicity",
        _undecided,
    )
    lines += verdict_lines(table, _difference, "Significant, but within the practical threshold", undecided)
    return "\n".join(lines)


def study_headline_markdown(intervals: pd.DataFrame, table: pd.DataFrame, questions: Questions, what: str = "") -> str:
    """One sentence for an index page: a study's first ranker on the metric of record and the count of the family's
    verdicts, after ``what`` (the study, as :func:`describe` words it)."""
    values = intervals.pivot(index="model", columns="key", values="value")[questions.metric_of_record]
    leaders = sorted(values.index[values == values.max()])
    return (
        (f"{what}, one dataset" if what else "One dataset")
        + f": first on the metric of record, {_label(questions.metric_of_record)}, {_listed(leaders)}; "
        f"{verdict_counts(table, questions)} ({_status(questions)})."
    )

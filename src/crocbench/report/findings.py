"""A study's answers, written from its tables and its declared questions: numbers and verdicts by code, never by hand.

A study declares its questions before it runs (:class:`Questions`, the config's ``questions:``): the metric of
record, the confirmatory family (pairs of rankers x metrics, Holm-adjusted together) and a practical-significance
threshold per metric. From a panel's per-screen values (``datasets.tsv``) this module computes, for every test of
the family, the record over the screens, the effect (:func:`crocbench.stats.paired_effect`: the mean paired
difference with its bootstrap interval over the screens), the Wilcoxon signed-rank p-value and its Holm adjustment
over the whole family, and a verdict (:func:`family_table`); and writes them as Markdown (:func:`answers_markdown`,
:func:`family_markdown`, :func:`headline_markdown`). Everything else a page says of the ranks is exploratory
(:func:`exploratory_markdown`).

A family declared after the run (``declared: after the run``) is tested the same way, and every answer says it is
exploratory. No function here asserts a result: when a number moves, the words follow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..stats import holm, paired_effect, pairwise_wilcoxon, screens_needed
from ._summary import SUMMARY_EF_KEY, summary_labels
from ._summary_markdown import _oriented, _wins_losses

#: When a study's questions were declared: before the run (its family is confirmatory), or after it (exploratory).
DECLARED = ("before the run", "after the run")
_KEYS = {"declared", "metric_of_record", "pairs", "metrics", "thresholds", "alpha", "level", "resamples", "seed"}


@dataclass(frozen=True)
class Questions:
    """A study's declared questions (the config's ``questions:``).

    Parameters
    ----------
    metric_of_record : str
        The metric the study's headline is stated on (a key of ``datasets.tsv``: ``croc_exp_80``).
    pairs : tuple of (str, str)
        The confirmatory pairs, each ``(a, b)`` by the rankers' labels; the effect is ``a - b``.
    metrics : tuple of str
        The family's metrics; every pair is tested on each, and all are Holm-adjusted together.
    thresholds : dict
        Metric -> the smallest mean difference that matters in practice (in the metric's own units).
    declared : str
        ``"before the run"`` or ``"after the run"`` (then every answer is exploratory).
    alpha : float, default=0.05
        The family-wise significance level.
    level : float, default=0.95
        The effects' interval coverage.
    resamples : int, default=10000
        Bootstrap resamples of the screens per effect.
    seed : int, default=0
        The bootstrap's seed.
    """

    metric_of_record: str
    pairs: tuple
    metrics: tuple
    thresholds: dict = field(hash=False)
    declared: str
    alpha: float = 0.05
    level: float = 0.95
    resamples: int = 10_000
    seed: int = 0

    @classmethod
    def from_dict(cls, spec: dict) -> Questions:
        """The questions of a config's ``questions:`` mapping, checked; a bad entry raises one line naming it.

        Examples
        --------
        >>> q = Questions.from_dict({"declared": "before the run", "metric_of_record": "roc", "pairs": [["A", "B"]],
        ...                          "metrics": ["roc"], "thresholds": {"roc": 0.01}})
        >>> q.size, q.pairs
        (1, (('A', 'B'),))
        >>> Questions.from_dict({**q.as_dict(), "thresholds": {}})
        Traceback (most recent call last):
        ...
        ValueError: questions: no threshold for metric 'roc' (thresholds: give one per metric of the family)
        """
        if not isinstance(spec, dict):
            raise ValueError(f"questions: must be a mapping; got {type(spec).__name__}")
        unknown = sorted(set(spec) - _KEYS)
        if unknown:
            raise ValueError(f"questions: unknown key {unknown[0]!r}; keys are {', '.join(sorted(_KEYS))}")
        for key in ("declared", "metric_of_record", "pairs", "metrics", "thresholds"):
            if key not in spec:
                raise ValueError(f"questions: {key} is required")
        if spec["declared"] not in DECLARED:
            raise ValueError(
                f"questions: declared must be {' or '.join(map(repr, DECLARED))}; got {spec['declared']!r}"
            )
        pairs = tuple(tuple(p) for p in spec["pairs"])
        if not pairs or any(len(p) != 2 or p[0] == p[1] for p in pairs):
            raise ValueError("questions: pairs must be a non-empty list of two different rankers each")
        if len(set(map(frozenset, pairs))) != len(pairs):
            raise ValueError("questions: a pair is declared twice")
        metrics = tuple(spec["metrics"])
        if not metrics or len(set(metrics)) != len(metrics):
            raise ValueError("questions: metrics must be a non-empty list without repeats")
        if spec["metric_of_record"] not in metrics:
            raise ValueError(f"questions: the metric of record {spec['metric_of_record']!r} must be one of metrics")
        thresholds = dict(spec["thresholds"])
        for m in metrics:
            if m not in thresholds:
                raise ValueError(
                    f"questions: no threshold for metric {m!r} (thresholds: give one per metric of the family)"
                )
            if not isinstance(thresholds[m], int | float) or not thresholds[m] >= 0:
                raise ValueError(f"questions: the threshold of {m!r} must be a number >= 0; got {thresholds[m]!r}")
        extra = sorted(set(thresholds) - set(metrics))
        if extra:
            raise ValueError(f"questions: a threshold for {extra[0]!r}, which is not a metric of the family")
        q = cls(
            metric_of_record=spec["metric_of_record"],
            pairs=pairs,
            metrics=metrics,
            thresholds=thresholds,
            declared=spec["declared"],
            alpha=float(spec.get("alpha", 0.05)),
            level=float(spec.get("level", 0.95)),
            resamples=int(spec.get("resamples", 10_000)),
            seed=int(spec.get("seed", 0)),
        )
        if not (0 < q.alpha < 1 and 0 < q.level < 1):
            raise ValueError(f"questions: alpha and level must be in (0, 1); got {q.alpha} and {q.level}")
        return q

    def as_dict(self) -> dict:
        """The mapping :meth:`from_dict` reads (as a manifest keeps it)."""
        return {
            "declared": self.declared,
            "metric_of_record": self.metric_of_record,
            "pairs": [list(p) for p in self.pairs],
            "metrics": list(self.metrics),
            "thresholds": dict(self.thresholds),
            "alpha": self.alpha,
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
        }

    @property
    def size(self) -> int:
        """The number of tests in the family (pairs x metrics)."""
        return len(self.pairs) * len(self.metrics)

    @property
    def confirmatory(self) -> bool:
        """Whether the family was declared before the run."""
        return self.declared == DECLARED[0]


#: A test's verdicts: a difference beyond the practical threshold, one significant but not shown beyond it, none.
VERDICTS = ("beyond the threshold", "within the threshold", "not significant")


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
    rows = []
    for a, b in questions.pairs:
        for m in questions.metrics:
            wide = datasets.pivot(index="dataset", columns="model", values=m)[[a, b]]
            if wide.isna().any().any():
                raise ValueError(f"questions: {a} or {b} lacks {m} on a screen of the panel")
            test = pairwise_wilcoxon(wide.to_numpy(), [a, b])[0]
            effect = paired_effect(
                wide[a].to_numpy(), wide[b].to_numpy(), level=questions.level, n_resamples=questions.resamples,
                seed=questions.seed,
            )  # fmt: skip
            ahead = a if test["signed_rank_sum"] > 0 else b if test["signed_rank_sum"] < 0 else ""
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "metric": m,
                    "screens": effect.screens,
                    "wins": test["wins"],
                    "losses": test["losses"],
                    "ties": test["ties"],
                    "effect": effect.mean,
                    "low": effect.low,
                    "high": effect.high,
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


def _label(metric: str) -> str:
    return summary_labels().get(metric, metric)


def _number(x: float) -> str:
    return f"{x:.3g}"


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "−") + _number(abs(x))


def _record(row) -> str:
    return _wins_losses({"wins": row.wins, "losses": row.losses, "ties": row.ties})


def _status(questions: Questions) -> str:
    return "confirmatory" if questions.confirmatory else "exploratory: the family was declared after the run"


def family_markdown(table: pd.DataFrame, questions: Questions) -> str:
    """:func:`family_table` as a Markdown table: a row per test, the effect with its interval beside every p."""
    level = f"{questions.level:.0%}"
    lines = [
        f"| pair | metric | record | mean difference ({level} interval) | threshold | Wilcoxon p | "
        f"Holm p (family of {len(table)}) | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in table.itertuples():
        lines.append(
            f"| {r.a} vs {r.b} | {_label(r.metric)} | {_record(r)} | {_signed(r.effect)} ({_signed(r.low)} to "
            f"{_signed(r.high)}) | {_number(r.threshold)} | {r.p_value:.2g} | {r.p_holm:.2g} | "
            + (f"{r.ahead} ahead, {r.verdict}" if r.verdict != VERDICTS[2] else r.verdict)
            + " |"
        )
    return "\n".join(lines)


def _listed(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _leaders(ranks: pd.DataFrame, metric: str) -> tuple:
    """(names, mean rank): the rankers at the best mean rank by ``metric`` (several where they tie)."""
    part = ranks[ranks["metric"] == metric]
    best = part["mean_rank"].min()
    return list(part.loc[part["mean_rank"] == best, "model"]), float(best)


def _difference(r) -> str:
    winner, loser, sign = (r.a, r.b, 1) if r.ahead == r.a else (r.b, r.a, -1)
    record = f"{r.wins}-{r.losses}" if sign == 1 else f"{r.losses}-{r.wins}"
    return (
        f"{winner} over {loser} on {_label(r.metric)} by {_number(sign * r.effect)} "
        f"({_number(min(sign * r.low, sign * r.high))} to {_number(max(sign * r.low, sign * r.high))}; "
        f"{record}{f'-{r.ties}' if r.ties else ''}, Holm p {r.p_holm:.2g})"
    )


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
    needed = screens_needed(tests=questions.size, alpha=questions.alpha)
    lines.append(
        f"- The declared family: {len(questions.pairs)} pairs x {len(questions.metrics)} metrics = {questions.size} "
        f"tests, Holm-adjusted together at {questions.alpha:g}; a unanimous record can pass from {needed} screens "
        f"(`crocbench.stats.screens_needed(tests={questions.size})`), and this panel has {screens}. The answers are "
        f"{_status(questions)}."
    )
    for verdict, words in (
        (VERDICTS[0], "Differences beyond the practical threshold"),
        (VERDICTS[1], "Significant, but the interval reaches within the practical threshold"),
    ):
        hits = [r for r in table.itertuples() if r.verdict == verdict]
        if hits:
            lines.append(f"- {words}: " + "; ".join(_difference(r) for r in hits) + ".")
    none = table[table["verdict"] == VERDICTS[2]]
    if len(none):
        cells = [f"{a} vs {b} on {_label(m)}" for a, b, m in zip(none["a"], none["b"], none["metric"])]
        lines.append(f"- No significant difference: {_listed(cells)}.")
    return "\n".join(lines)


def headline_markdown(ranks: pd.DataFrame, table: pd.DataFrame, questions: Questions, what: str = "") -> str:
    """One sentence for the README: the metric of record's leader and the count of the family's verdicts, after
    ``what`` (the panel, as :func:`describe` words it)."""
    leaders, _ = _leaders(ranks, questions.metric_of_record)
    screens = int(table["screens"].iloc[0])
    counts = table["verdict"].value_counts()
    beyond, below = int(counts.get(VERDICTS[0], 0)), int(counts.get(VERDICTS[1], 0))
    return (
        (f"{what}, " if what else "")
        + f"{screens} screens: first by mean rank on the metric of record, {_label(questions.metric_of_record)}, "
        f"{_listed(leaders)}; {beyond} of the {questions.size} declared tests show a difference beyond the practical "
        f"threshold, {below} a significant one within it ({_status(questions)})."
    )


def _pair_record(row: dict, alpha: float) -> str:
    """A pair's wins-losses(-ties) over the screens and its Holm p (over all pairs of the metric), as prose."""
    return (
        f"{_wins_losses(row)} ({'Holm p' if row['p_holm'] < alpha else 'not significant, Holm p'} {row['p_holm']:.2g})"
    )


def exploratory_markdown(
    ranks: pd.DataFrame,
    pairs: pd.DataFrame,
    metrics,
    trained=(),
    baseline: str | None = None,
    left_out=(),
    alpha: float = 0.05,
) -> str:
    """What the ranks and every pair's tests say beyond a declared family, as Markdown bullets: exploratory.

    Every number comes from ``ranks`` (:func:`crocbench.report.ranks_table`: mean ranks) and ``pairs`` (its
    Wilcoxon tests, Holm-adjusted over all pairs of a metric, not over a declared family):

    - which ranker has the best mean rank by each of ``metrics`` (all of them where they tie), and how each other
      metric's pick (the first named, where several tie) fares against the first metric's (ROC's) where the two
      differ;
    - for each ``(trained for the top, plain)`` pair of ``trained``, its record and Holm p per metric;
    - for ``baseline`` (MAX-SIM), where the ranks hold it, its place by each metric (a range where it ties) and,
      where the metrics hold the enrichment factor at 1%, its record there against every ranker but itself and
      ``left_out``; the direction of a significant difference is the signed-rank test's (its signed-rank sum).

    A pair's record is the first named against the second: wins-losses(-ties) over the screens.
    """
    labels = summary_labels()
    metrics = list(metrics)
    by_metric = {m: ranks[ranks["metric"] == m].sort_values("mean_rank", kind="stable") for m in metrics}
    screens = int(by_metric[metrics[0]]["datasets"].iloc[0])
    best = {m: list(t["model"][t["mean_rank"] == t["mean_rank"].iloc[0]]) for m, t in by_metric.items()}
    named = {m: f"{' and '.join(best[m])} ({by_metric[m]['mean_rank'].iloc[0]:.2f})" for m in metrics}
    first = metrics[0]
    lines = [
        f"- Best by mean rank over {screens} screens: by {labels[first]} {named[first]}; "
        + "; ".join(f"by {labels[m]} {named[m]}" for m in metrics[1:])
        + "."
    ]
    for m in metrics[1:]:
        if not set(best[m]) & set(best[first]):  # the metric's pick is not the first's: the two tested
            top, picked = best[m][0], best[first][0]
            row = _oriented(pairs[pairs["metric"] == m], top, picked)
            lines.append(
                f"- By {labels[m]}, {top} against {labels[first]}'s pick {picked}: {_pair_record(row, alpha)}."
            )
    for fancy, plain in trained:
        cells = [
            f"{labels[m]} {_pair_record(_oriented(pairs[pairs['metric'] == m], fancy, plain), alpha)}" for m in metrics
        ]
        lines.append(f"- {fancy} against {plain}: " + "; ".join(cells) + ".")
    if baseline is not None and baseline in set(ranks["model"]):
        places = []
        for m in metrics:
            mine = by_metric[m].loc[by_metric[m]["model"] == baseline, "mean_rank"].iloc[0]
            low, high = (
                int((by_metric[m]["mean_rank"] < mine).sum()) + 1,
                int((by_metric[m]["mean_rank"] <= mine).sum()),
            )
            places.append(f"{labels[m]} {low if low == high else f'{low}-{high} (tied)'} of {len(by_metric[m])}")
        lines.append(f"- {baseline}'s place by mean rank: " + "; ".join(places) + ".")
        if SUMMARY_EF_KEY in metrics:
            ef = pairs[pairs["metric"] == SUMMARY_EF_KEY]
            others = [m for m in by_metric[first]["model"] if m != baseline and m not in left_out]
            rows = {m: _oriented(ef, baseline, m) for m in others}
            below = [m for m, r in rows.items() if r["signed_rank_sum"] < 0 and r["p_holm"] < alpha]
            above = [m for m, r in rows.items() if r["signed_rank_sum"] > 0 and r["p_holm"] < alpha]
            lines.append(
                f"- By {labels[SUMMARY_EF_KEY]}, {baseline} is significantly below {len(below)} of the {len(others)} "
                f"other rankers (Holm p < {alpha:g}) and above {len(above)}; its record against each: "
                + "; ".join(f"{m} {_pair_record(r, alpha)}" for m, r in rows.items())
                + "."
            )
    return "\n".join(lines)


def describe(split: str | None, labels: str | None) -> str:
    """A panel's split and labels in words, capitalized ("Primary hits, random split").

    Examples
    --------
    >>> describe("scaffold", "confirmed"), describe("random", "paper")
    ('Confirmed actives, scaffold split', 'Random split')
    """
    words = {"primary": "primary hits", "confirmed": "confirmed actives", "paper": "the paper's labels"}
    parts = [words.get(labels, labels), f"{split} split" if split else None]
    parts = parts if labels != "paper" else parts[1:]  # the paper's labels go without saying
    text = ", ".join(p for p in parts if p)
    return text[:1].upper() + text[1:]


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


def _valued(name: str, value: float, low: float, high: float) -> str:
    return f"{name} {value:.4g} [{low:.3g}, {high:.3g}]"


def study_family_markdown(table: pd.DataFrame, questions: Questions) -> str:
    """:func:`study_family_table` as a Markdown table: each ranker's value with its interval beside every p."""
    lines = [
        f"| pair | metric | a [{questions.level:.0%} interval] | b [{questions.level:.0%} interval] | difference | "
        f"threshold | paired permutation p | Holm p (family of {len(table)}) | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in table.itertuples():
        lines.append(
            f"| {r.a} vs {r.b} | {_label(r.metric)} | {_valued(r.a, r.value_a, r.low_a, r.high_a)} | "
            f"{_valued(r.b, r.value_b, r.low_b, r.high_b)} | {_signed(r.effect)} | {_number(r.threshold)} | "
            f"{r.p_value:.2g} | {r.p_holm:.2g} | "
            + (f"{r.ahead} ahead, {r.verdict}" if r.verdict != VERDICTS[2] else r.verdict)
            + " |"
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
        f"{questions.alpha:g}. The answers are {_status(questions)}."
    )
    for verdict, words in (
        (VERDICTS[0], "Differences beyond the practical threshold"),
        (VERDICTS[1], "Significant, but within the practical threshold"),
    ):
        hits = [r for r in table.itertuples() if r.verdict == verdict]
        if hits:
            cells = []
            for r in hits:
                win, lose = (r.a, r.b) if r.ahead == r.a else (r.b, r.a)
                cells.append(
                    f"{win} over {lose} on {_label(r.metric)} by {_number(abs(r.effect))} (Holm p {r.p_holm:.2g})"
                )
            lines.append(f"- {words}: " + "; ".join(cells) + ".")
    none = table[table["verdict"] == VERDICTS[2]]
    if len(none):
        cells = [f"{a} vs {b} on {_label(m)}" for a, b, m in zip(none["a"], none["b"], none["metric"])]
        lines.append(f"- No significant difference: {_listed(cells)}.")
    return "\n".join(lines)


def study_headline_markdown(intervals: pd.DataFrame, table: pd.DataFrame, questions: Questions, what: str = "") -> str:
    """One sentence for an index page: a study's first ranker on the metric of record and the count of the family's
    verdicts, after ``what`` (the study, as :func:`describe` words it)."""
    values = intervals.pivot(index="model", columns="key", values="value")[questions.metric_of_record]
    leaders = sorted(values.index[values == values.max()])
    counts = table["verdict"].value_counts()
    beyond, below = int(counts.get(VERDICTS[0], 0)), int(counts.get(VERDICTS[1], 0))
    return (
        (f"{what}, one dataset" if what else "One dataset")
        + f": first on the metric of record, {_label(questions.metric_of_record)}, {_listed(leaders)}; {beyond} of the "
        f"{questions.size} declared tests show a difference beyond the practical threshold, {below} a significant one "
        f"within it ({_status(questions)})."
    )

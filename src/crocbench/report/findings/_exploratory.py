"""What a panel's ranks and every pair's Wilcoxon tests say beyond a declared family: exploratory, as Markdown."""

from __future__ import annotations

import pandas as pd

from .._summary import SUMMARY_EF_KEY, summary_labels
from .._summary_markdown import _by_pair, _oriented, _wins_losses
from ._questions import _number, _signed


def _pair_record(row: dict, alpha: float) -> str:
    """A pair's mean difference (first named minus second) with its 95% interval over the screens, its
    wins-losses(-ties) and its Holm p (over all pairs of the metric), as prose."""
    return (
        f"{_signed(row['mean_difference'])} ({_number(row['low'])} to {_number(row['high'])}; {_wins_losses(row)}, "
        f"{'Holm p' if row['p_holm'] < alpha else 'not significant, Holm p'} {row['p_holm']:.2g})"
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

    A pair's record is the first named against the second: the mean difference with its 95% percentile bootstrap
    interval over the screens (``pairs``' ``low`` and ``high``: the pair's own, not adjusted for the other pairs as
    its p-value is), and wins-losses(-ties) over the screens.
    """
    labels = summary_labels()
    metrics = list(metrics)
    by_metric = {m: ranks[ranks["metric"] == m].sort_values("mean_rank", kind="stable") for m in metrics}
    tests = {m: _by_pair(pairs[pairs["metric"] == m]) for m in metrics}
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
            row = _oriented(tests[m], top, picked)
            lines.append(
                f"- By {labels[m]}, {top} against {labels[first]}'s pick {picked}: {_pair_record(row, alpha)}."
            )
    for fancy, plain in trained:
        cells = [f"{labels[m]} {_pair_record(_oriented(tests[m], fancy, plain), alpha)}" for m in metrics]
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
            others = [m for m in by_metric[first]["model"] if m != baseline and m not in left_out]
            rows = {m: _oriented(tests[SUMMARY_EF_KEY], baseline, m) for m in others}
            below = [m for m, r in rows.items() if r["signed_rank_sum"] < 0 and r["p_holm"] < alpha]
            above = [m for m, r in rows.items() if r["signed_rank_sum"] > 0 and r["p_holm"] < alpha]
            lines.append(
                f"- By {labels[SUMMARY_EF_KEY]}, {baseline} is significantly below {len(below)} of the {len(others)} "
                f"other rankers (Holm p < {alpha:g}) and above {len(above)}; its record against each: "
                + "; ".join(f"{m} {_pair_record(r, alpha)}" for m, r in rows.items())
                + "."
            )
    return "\n".join(lines)

"""The sentences that state an evaluation's result, generated from its tables: the confirmatory verdict on the
metric of record first, then one exploratory line per other metric."""

from __future__ import annotations

import pandas as pd

from ..report.findings._questions import _listed, _number, _signed
from ._evaluate import ALPHA, CONFIRMATORY, metric_label
from ._spec import UNREGISTERED


def _p(p: float) -> str:
    return f"{p:.2g}"


def _comparison(row) -> str:
    return (
        f"{row.ranker} ({row.wins}-{row.losses}"
        + (f"-{row.ties}" if row.ties else "")
        + f", {_signed(row.mean_difference)} [{_signed(row.low)}, {_signed(row.high)}], Holm p {_p(row.p_holm)})"
    )


def _metric_lines(result, metric: str) -> str:
    ranks = result.ranks[result.ranks["metric"] == metric]
    versus = result.versus[result.versus["metric"] == metric]
    first = ranks.iloc[0]
    own = ranks[ranks["model"] == result.entry].iloc[0]
    mine, place = float(own["mean_rank"]), int(own["place"])
    # the direction is the signed-rank test's (W+ - W-), not the mean's, which one outlying screen can flip
    better = [_comparison(r) for r in versus.itertuples() if r.p_holm < ALPHA and r.signed_rank_sum > 0]
    worse = [_comparison(r) for r in versus.itertuples() if r.p_holm < ALPHA and r.signed_rank_sum < 0]
    unresolved = [r.ranker for r in versus.itertuples() if not (r.p_holm < ALPHA and r.signed_rank_sum != 0)]
    text = (
        f"On {metric_label(metric)}, {result.entry} has mean rank {mine:.2f}, place {place} of {len(ranks)} "
        f"over {int(first['screens'])} screens (Friedman p {_p(float(first['friedman_p']))}, Nemenyi critical "
        f"difference {float(first['nemenyi_cd']):.2f})."
    )
    if better:
        text += f" It is better than {_listed(better)}."
    if worse:
        text += f" It is worse than {_listed(worse)}."
    if unresolved:
        text += (
            f" The tests do not separate it from {_listed(unresolved)} "
            f"(Wilcoxon-Holm over its {len(versus)} comparisons, alpha {ALPHA})."
        )
    return text


def _one_screen_line(result, row) -> str:
    values = result.values.iloc[0]
    mean, sd = values[f"{row.metric}_random_mean"], values[f"{row.metric}_random_sd"]
    baseline = f" (random {_number(mean)} +/- {_number(sd)})" if pd.notna(mean) else ""
    around = []
    if row.above:
        around.append(f"below {row.above} ({_number(row.above_value)})")
    if row.below:
        around.append(f"at or above {row.below} ({_number(row.below_value)})")
    return (
        f"On {metric_label(row.metric)}, {result.entry} scores {_number(row.value)}{baseline}: place {row.place} of "
        f"{row.of}, {' and '.join(around)}."
    )


def verdicts(result) -> list[str]:
    """The result's sentences: ``CONFIRMATORY: ...`` for the metric of record, ``Exploratory: ...`` for the
    others, after a line that says which screens they rest on."""
    spec = result.spec
    scope = (
        f"{result.entry} on {len(result.screens)} of the {len(spec.screens)} screens of benchmark {spec.title}"
        + ("" if result.registered else f", an {UNREGISTERED} (its sha256 is none of the committed specs')")
        + (f"; a subset: {', '.join(result.screens)}" if result.subset else "")
        + "."
    )
    lines = [scope]
    metrics = [spec.metric_of_record, *[m for m in spec.metrics if m != spec.metric_of_record]]
    if result.order.empty:
        for metric in metrics:
            head = "Confirmatory" if metric == spec.metric_of_record else "Exploratory"
            lines.append(f"{head}: {_metric_lines(result, metric)}")
    else:
        lines.append("One screen: no test across screens applies; the entry is placed by its value.")
        rows = {r.metric: r for r in result.order.itertuples()}
        for metric in metrics:
            head = "Metric of record" if metric == spec.metric_of_record else "Also"
            lines.append(f"{head}: {_one_screen_line(result, rows[metric])}")
    return lines


__all__ = ["CONFIRMATORY", "verdicts"]

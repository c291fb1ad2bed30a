"""``crocbench score``: every metric of one ranked list, with its random baseline, as a table or JSON."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ..metrics import FAMILIES, Ranking, benchmark_metrics, other_metrics, other_values, paper_metrics
from ..metrics._other_metrics import BENCHMARKS  # the second table's title: benchmark_metrics's family
from ..stats import bootstrap
from ._input import _check_positive_values, _load, _requested_calls, _shown
from ._output import _for_users, _format_table, _number, _plot_path, _print_json

#: How ``--ci`` intervals are made, as ``--json`` reports it.
CI_METHOD = {"level": 0.95, "method": "percentile interval of a stratified bootstrap over compounds"}


def _interval(row) -> str:
    if row.get("ci_low") is None:
        return "n/a"
    return f"[{_number(row['ci_low'], row['count'])}, {_number(row['ci_high'], row['count'])}]"


def _degenerate(n_pos: int, n_neg: int) -> str | None:
    """Why a stratified bootstrap cannot give intervals here, or None: a class of one compound is that same
    compound in every resample, so its side of the variability is never sampled."""
    ones = [f"1 {kind}" for count, kind in ((n_pos, "positive"), (n_neg, "negative")) if count == 1]
    if not ones:
        return None
    which = "that one compound" if len(ones) == 1 else "those two compounds"
    return (
        f"{' and '.join(ones)}: every bootstrap resample repeats {which}, so the intervals say nothing about "
        "uncertainty; shown as n/a"
    )


def _score(args) -> int:
    calls = _requested_calls(args)
    plot = _plot_path(args.plot) if args.plot else None
    df, y, s = _load(args.file, args, extra=[("--group", args.group)] if args.group else ())
    name = _shown(args.file)
    _check_positive_values(args, [df])
    groups = None
    if args.group:
        column = df[args.group]
        if column.isna().any():
            raise ValueError(f"{name}: column {args.group!r} has {int(column.isna().sum())} empty query id(s)")
        groups = column.astype(str).to_numpy()
    ranking = Ranking(y, s)
    n, n_pos, _ = ranking.counts
    rows, defined = [], []
    if calls:
        metric_sets = [("Requested metrics", calls)]
    else:
        metric_sets = [("CROC paper areas", paper_metrics(top_k=min(args.top_k, n))), (BENCHMARKS, benchmark_metrics())]
    for title, call in ((title, call) for title, part in metric_sets for call in part):
        row = {"key": call.key, "metric": call.label, "metric_set": title, "value": None, "count": call.is_count}
        try:
            row["value"] = call.value(ranking, args.ties)
        except ValueError as exc:  # e.g. ROC50 on a list with fewer than 50 negatives
            row["note"] = _for_users(str(exc))
        else:
            defined.append((row, call))
            try:
                base = call.random(n, n_pos)
                row.update(
                    random_mean=base.mean, random_sd=base.sd, z=base.z_score(row["value"]) if base.sd > 0 else None
                )
            except ValueError:  # no exact random baseline (e.g. average precision)
                pass
        rows.append(row)
    degenerate = _degenerate(n_pos, n - n_pos) if args.ci is not None else None
    if degenerate:
        print(f"crocbench: warning: {degenerate}", file=sys.stderr)
        for row, _ in defined:
            row.update(ci_low=None, ci_high=None, se=None)
    elif args.ci is not None:
        intervals = bootstrap(
            ranking, None, [c for _, c in defined], n_resamples=args.ci, seed=args.seed, ties=args.ties
        )
        for (row, _), iv in zip(defined, intervals):
            row.update(ci_low=iv.low, ci_high=iv.high, se=iv.se)
    # the benchmarks' family of the other papers' metrics is shown above, with its random baselines
    others = [m for m in other_metrics(top_k=min(args.top_k, n), n=args.n_negatives) if m.family != BENCHMARKS]
    other = [] if calls else other_values(y, s, groups, args.ties, others)
    for r in other:
        r["note"] = _for_users(r["note"])
    n_queries = None if groups is None else int(np.unique(groups).size)
    if args.json:
        _print_json(
            {
                "file": name,
                "n": n,
                "n_pos": n_pos,
                "ties": args.ties,
                "queries": n_queries,
                "ci": None
                if args.ci is None
                else {
                    **CI_METHOD,
                    "resamples": args.ci,
                    "seed": args.seed,
                    **({"warning": degenerate} if degenerate else {}),
                },
                "metrics": rows,
                "other_metrics": other,
            }
        )
    else:
        queries = "" if groups is None else f", {n_queries} queries in column {args.group!r}"
        print(f"{name}: {n} compounds, {n_pos} positives, ties {args.ties}{queries}")
        header = ["metric", "value", *(["95% interval"] if args.ci is not None else []), "random", "random sd", "z"]
        for title, _ in metric_sets:
            table = [
                [
                    r["metric"],
                    _number(r["value"], r["count"]),
                    *([_interval(r)] if args.ci is not None else []),
                    _number(r.get("random_mean"), r["count"]),
                    _number(r.get("random_sd")),
                    "n/a" if r.get("z") is None else f"{r['z']:.1f}",
                ]
                for r in rows
                if r["metric_set"] == title
            ]
            title += " (all queries ranked as one list)" if groups is not None else ""
            print(f"\n{title}\n" + _format_table(header, table))
        if degenerate:  # said on stderr too, but a table saved without it should say why
            print(f"\n95% intervals: n/a ({degenerate.split(';')[0]})")
        elif args.ci is not None:
            print(f"\n95% intervals: {CI_METHOD['method']}, {args.ci} resamples, seed {args.seed}")
        for r in rows:
            if r["value"] is None:
                print(f"note: {r['metric']}: {r['note']}")
        for family in FAMILIES:
            part = [r for r in other if r["family"] == family]
            if part:
                table = [
                    [
                        r["label"],
                        _number(r["value"]),
                        "higher" if r["higher_is_better"] else "lower",
                        "yes" if r["in_tests"] else "no",
                        r["note"],
                    ]
                    for r in part
                ]
                print(f"\n{family}\n" + _format_table(["metric", "value", "better", "in tests", "note"], table))
    if plot is not None:
        from ..plots import plot_roc_croc

        plot_roc_croc({Path(name).name: (y, s)}, plot, alpha=args.alpha)
        print(f"wrote {plot}", file=sys.stderr)
    return 0

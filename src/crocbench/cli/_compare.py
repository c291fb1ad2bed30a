"""``crocbench compare``: two rankings of the same compounds, matched by id, compared with the six tests."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics import parse_metric
from ..stats import TESTS, compare_many
from ._input import STDIN, _check_positive_values, _load, _requested_calls, _shown
from ._output import _format_table, _number, _p_value, _print_json
from ._samples import check_samples


def _compare(args) -> int:
    calls = _requested_calls(args) or [parse_metric("roc_auc"), parse_metric("croc_exp_80")]
    tests = [t.strip() for t in args.tests.split(",") if t.strip()]
    unknown = [t for t in tests if t not in TESTS]
    if unknown:
        raise ValueError(f"unknown test(s) {', '.join(unknown)}; known: {', '.join(TESTS)}")
    if args.file_a == args.file_b == STDIN:
        raise ValueError("file_a and file_b are both -: standard input can be read once; save one table to a file")
    frames, tables = [], []
    for path in (args.file_a, args.file_b):
        df, y, s = _load(path, args, extra=[("--id-col", args.id_col)], text=[args.id_col])  # ids are text: 01 is not 1
        missing = df[args.id_col].isna().to_numpy()
        if missing.any():
            rows = np.flatnonzero(missing)
            raise ValueError(
                f"{_shown(path)}: column {args.id_col!r}: {rows.size} missing id(s) (empty or NA), "
                f"first at row {rows[0] + 1}; every compound needs an id to be matched"
            )
        frames.append((df[args.id_col].astype(str).to_numpy(), y, s))
        tables.append(df)
    _check_positive_values(args, tables)
    (ids_a, y_a, s_a), (ids_b, y_b, s_b) = frames
    file_a, file_b = _shown(args.file_a), _shown(args.file_b)
    # a hash join: one pass over both id columns, linear in the number of compounds
    codes, distinct = pd.factorize(np.concatenate([ids_a, ids_b]))
    codes_a, codes_b = codes[: ids_a.size], codes[ids_a.size :]
    for path, ids, c in ((file_a, ids_a, codes_a), (file_b, ids_b, codes_b)):
        seen = np.zeros(distinct.size, dtype=bool)
        seen[c] = True
        if np.count_nonzero(seen) < ids.size:
            dup = pd.Series(ids)[pd.Series(c).duplicated()]
            raise ValueError(f"{path}: {len(dup)} duplicate id(s) in column {args.id_col!r}, e.g. {dup.iloc[0]!r}")
    row_b = np.full(distinct.size, -1)
    row_b[codes_b] = np.arange(ids_b.size)
    idx = row_b[codes_a]  # row of B for each row of A, -1 when B lacks it
    matched = np.zeros(ids_b.size, dtype=bool)
    matched[idx[idx >= 0]] = True
    only_a, only_b = ids_a[idx < 0], ids_b[~matched]
    if only_a.size or only_b.size:
        raise ValueError(
            f"the files must score the same compounds: {only_a.size} id(s) only in {file_a}, "
            f"{only_b.size} only in {file_b} (e.g. {(list(only_a[:1]) + list(only_b[:1]))[0]!r})"
        )
    if np.any(y_a != y_b[idx]):
        k = int(np.flatnonzero(y_a != y_b[idx])[0])
        raise ValueError(f"the files disagree on the label of compound {ids_a[k]!r}")
    check_samples(args.samples, int(y_a.sum()), len(calls), tests)  # refused above its limit, or announced
    alternative = "two-sided" if args.two_sided else "observed"
    out = []
    for call, c in zip(
        calls,
        compare_many(
            y_a,
            s_a,
            s_b[idx],
            calls,
            tests=tests,
            ties=args.ties,
            n_samples=args.samples,
            seed=args.seed,
            alternative=alternative,
        ),
    ):
        out.append(
            {
                "metric": call.label,
                "value_a": c.value_a,
                "value_b": c.value_b,
                "p_values": {t: r.p_value for t, r in c.results.items()},
                "alternative": next(iter(c.results.values())).alternative,
            }
        )
    if args.json:
        _print_json(
            {
                "file_a": file_a,
                "file_b": file_b,
                "n": int(ids_a.size),
                "n_pos": int(y_a.sum()),
                "samples": args.samples,
                "seed": args.seed,
                "comparisons": out,
            }
        )
        return 0
    print(
        f"A = {file_a}\nB = {file_b}\n{ids_a.size} compounds, {int(y_a.sum())} positives; "
        f"p-values {'two-sided' if args.two_sided else 'one-sided in the observed direction'}, "
        f"{args.samples:,} permutation samples"
    )
    rows = [
        [
            o["metric"],
            _number(o["value_a"], c.is_count),
            _number(o["value_b"], c.is_count),
            *(_p_value(o["p_values"][t]) for t in tests),
        ]
        for o, c in zip(out, calls)
    ]
    print(_format_table(["metric", "A", "B", *tests], rows))
    return 0

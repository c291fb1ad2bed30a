"""Reading the file arguments: tables (``-`` is standard input), labels and scores, ``--positive`` and ``--metric``.

A problem with the input raises :class:`ValueError` with the message that :func:`crocbench.cli.main` prints.
"""

from __future__ import annotations

import inspect
import shutil
import sys
import tempfile
from pathlib import Path

import pandas as pd

from ..data import binary_labels, label_summary, numeric_column, read_table
from ..metrics import METRICS, MetricCall, parse_metric

STDIN = "-"  # a file argument that reads the table from standard input


def _shown(path: str) -> str:
    """A file argument as messages and output name it."""
    return "<stdin>" if path == STDIN else path


def _read(path: str, args, required, dtype=None) -> pd.DataFrame:
    """:func:`read_table` of a file argument: ``-`` is standard input (copied to a temporary file, which the
    messages call <stdin>); a folder is an error of its own, not "no such file"."""
    if path == STDIN:
        with tempfile.TemporaryDirectory(prefix="crocbench-") as folder:
            copy = Path(folder) / "stdin"
            with open(copy, "wb") as fh:
                shutil.copyfileobj(sys.stdin.buffer, fh)
            try:
                return read_table(copy, sep=args.sep, required=required, dtype=dtype)
            except ValueError as exc:
                raise ValueError(str(exc).replace(str(copy), _shown(path))) from None
    if Path(path).is_dir():
        raise ValueError(f"{path}: is a directory; give a CSV/TSV file (or - for standard input)")
    return read_table(path, sep=args.sep, required=required, dtype=dtype)


def _load(path: str, args, extra=(), text=()) -> tuple:
    """The table, labels and scores of a file argument; the columns in ``text`` are read as text, verbatim
    (``01`` stays ``01``), an empty or NA cell there becoming NaN."""
    df = _read(path, args, [args.score_col, args.label_col, *extra], dtype={c: str for c in text} or None)
    name = _shown(path)
    positive = _positive_values(args)
    y = binary_labels(df[args.label_col], positive, where=f"{name}: column {args.label_col!r}")
    if y.all() or not y.any():  # the metrics need both classes: say which file and column lack one
        found, lacking = ("positive", "negatives") if y.all() else ("negative", "positives")
        raise ValueError(
            f"{name}: column {args.label_col!r} has no {lacking} (all {y.size} row(s) {found}); "
            f"the metrics need both positives and negatives (check --label-col and --positive)"
        )
    s = numeric_column(df, args.score_col, where=f"{name}: ")
    return df, y, s


def _positive_values(args) -> list | None:
    return [v.strip() for v in args.positive.split(",") if v.strip()] if args.positive else None


def _check_positive_values(args, frames: list) -> None:
    """Every --positive value must be a label of at least one of the files read (a typo is an error,
    not fewer positives)."""
    wanted = _positive_values(args)
    if not wanted:
        return
    seen = set()
    for df in frames:
        seen |= set(df[args.label_col].astype(str).str.strip())
    absent = [v for v in wanted if v not in seen]
    if absent:
        raise ValueError(
            f"--positive {args.positive}: no label in column {args.label_col!r} equals "
            f"{', '.join(map(repr, absent))}; labels found: {label_summary(list(seen))}"
        )


def _metric_call(spec: str) -> MetricCall:
    """:func:`parse_metric`, with an unknown or missing parameter named against the metric's own list."""
    name, colon, rest = spec.strip().partition(":")
    if name in METRICS:
        params = list(inspect.signature(METRICS[name]).parameters.values())[1:]  # after the counts
        valid = [q.name for q in params]
        given = [item.partition("=")[0].strip() for item in filter(None, rest.split(","))]
        for key in given:
            if key and key not in valid:
                raise ValueError(
                    f"metric {name}: unknown parameter {key!r} "
                    f"(valid: {', '.join(valid) if valid else 'none, it takes no parameters'})"
                )
        for q in params:
            if q.default is q.empty and q.name not in given:
                raise ValueError(f"metric {name}: parameter {q.name!r} is required (e.g. {name}:{q.name}=VALUE)")
    return parse_metric(spec)


def _requested_calls(args) -> list[MetricCall] | None:
    """The --metric calls, parsed before any data is read (None: the command's default)."""
    return [_metric_call(m) for m in args.metric] if args.metric else None

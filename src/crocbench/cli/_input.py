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
from ._files import _as_text, _check_header, _not_utf8

STDIN = "-"  # a file argument that reads the table from standard input


def _shown(path: str) -> str:
    """A file argument as messages and output name it."""
    return "<stdin>" if path == STDIN else path


def _read(path: str, args, columns: list[tuple[str, str]], dtype=None) -> pd.DataFrame:
    """:func:`read_table` of a file argument, after a look at its bytes (:mod:`._files`): ``-`` is standard
    input (copied to a temporary file, which the messages call <stdin>); a folder is an error of its own, not
    "no such file"; UTF-16/UTF-32 text is read through a UTF-8 copy; ``columns`` are the (option, column name)
    pairs the command needs."""
    name = _shown(path)
    if path != STDIN and Path(path).is_dir():
        raise ValueError(f"{path}: is a directory; give a CSV/TSV file (or - for standard input)")
    with tempfile.TemporaryDirectory(prefix="crocbench-") as folder:
        file = Path(path)
        if path == STDIN:
            file = Path(folder) / "stdin"
            with open(file, "wb") as fh:
                shutil.copyfileobj(sys.stdin.buffer, fh)
        try:
            if file.is_file():
                file = _as_text(file, name, folder)
                _check_header(file, name, args.sep, columns)
            return read_table(file, sep=args.sep, required=[c for _, c in columns], dtype=dtype)
        except ValueError as exc:
            message = str(exc)
            if "can't decode" in message:  # pandas met a byte that is not UTF-8 beyond the first lines
                message = _not_utf8(file, name) or message
            if file != Path(path):
                message = message.replace(str(file), name)
            raise ValueError(message) from None


def _column_options(args, extra=()) -> list[tuple[str, str]]:
    """The (option, column name) pairs of a command: --score-col, --label-col, then ``extra`` (e.g. --id-col);
    one column named by two of them is an error naming both (the same column cannot be scores and labels)."""
    columns = [("--score-col", args.score_col), ("--label-col", args.label_col), *extra]
    seen = {}
    for option, column in columns:
        if column in seen:
            raise ValueError(f"{seen[column]} and {option} name the same column {column!r}")
        seen[column] = option
    return columns


def _load(path: str, args, extra=(), text=()) -> tuple:
    """The table, labels and scores of a file argument; ``extra``: more (option, column name) pairs the
    command needs; the columns in ``text`` are read as text, verbatim (``01`` stays ``01``), an empty or NA
    cell there becoming NaN."""
    df = _read(path, args, _column_options(args, extra), dtype={c: str for c in text} or None)
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

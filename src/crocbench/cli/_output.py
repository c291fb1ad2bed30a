"""What the commands write: plain-text tables, numbers and p-values, strict JSON, where ``--plot`` draws, and the
library's messages in the command line's words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from .._extras import needs


def _format_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(
        str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))
    )
    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def _finite(value):
    """JSON-safe: non-finite floats (NaN, inf) become None (null), recursively."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value


def _print_json(payload) -> None:
    print(json.dumps(_finite(payload), indent=2, allow_nan=False))


def _number(value, count: bool = False) -> str:
    """A value for the tables: n/a when undefined, a count as a whole number (or 1 decimal when it is an
    expectation over tied orderings), else 4 decimals."""
    if value is None or not np.isfinite(value):
        return "n/a"
    if count:
        return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"
    return f"{value:.4f}"


def _p_value(p: float) -> str:
    return f"{p:.2e}"


def _plot_path(path: str) -> Path:
    """Where --plot writes: the path given, with .png added when it has no extension; a missing folder or an
    image format matplotlib cannot write is an error before anything runs."""
    with needs("crocbench score --plot"):
        from matplotlib.figure import Figure

    out = Path(path)
    if out.is_dir():  # not "SOMEDIR.png" beside it
        raise ValueError(f"--plot {path}: is a directory; give an image file name, e.g. {out / 'curves.png'}")
    if not out.suffix:
        out = out.with_suffix(".png")
    formats = Figure().canvas.get_supported_filetypes()
    if out.suffix[1:].lower() not in formats:
        raise ValueError(
            f"--plot {path}: cannot write {out.suffix} images; use one of "
            + ", ".join(f".{f}" for f in sorted(formats))
        )
    if not out.parent.is_dir():
        raise ValueError(f"--plot {path}: folder {out.parent} does not exist")
    return out


#: The library's argument names in its messages, and what a command-line user knows them as.
_LIBRARY_NAMES = (("y_true", "the labels"), ("y_score", "the scores"), ("y_prob", "the scores"))


def _for_users(message: str) -> str:
    """A library message (a metric's note, an error) in the command line's words: the file's labels and
    scores, never the Python arguments ``y_true``/``y_score``; a query without one class named as such."""
    message = re.sub(
        r"^(query .+?): y_true has no (positives|negatives): the metrics are undefined$",
        r"\1 has no \2: the metric needs positives and negatives in every query",
        message,
    )
    message = re.sub(r"\by_true has no (positives|negatives)", r"the list has no \1", message)
    for name, words in _LIBRARY_NAMES:
        message = re.sub(rf"\b{name} has\b", f"{words} have", message)
        message = re.sub(rf"\b{name}\b", words, message)
    return message

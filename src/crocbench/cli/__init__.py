"""Command-line interface: ``crocbench score`` and ``crocbench compare``.

Errors in the input become a one-line message on stderr and exit code 2; so do the file system's errors (the line
names the file), a file that cannot be downloaded, and a command whose extra is not installed (``explain``,
``synthesize`` and ``reference`` need ``pip install 'crocbench[workflow]'``, as does ``score --plot``): the line names
the extra (:mod:`._errors` says which errors and in what words). ``crocbench --debug`` shows their tracebacks
instead; an unexpected error (a bug) always shows one. Ctrl-C stops a command with one line and exit code 130.

This module holds :func:`main`, the argument parser and its argument types; one concern per module besides:

- :mod:`._input`: the file arguments read (``-`` is standard input), labels, scores, ``--positive`` and
  ``--metric``;
- :mod:`._files`: a file argument's bytes before pandas reads them: workbooks, UTF-16/UTF-32 text, bytes that
  are not UTF-8, a column name given twice, a missing header row;
- :mod:`._errors`: the errors a user can hit, each in one line;
- :mod:`._output`: plain-text tables, numbers and p-values, strict JSON, the ``--plot`` path, the library's
  messages in the command line's words (no ``y_true``/``y_score``);
- :mod:`._score`: ``crocbench score``;
- :mod:`._compare`: ``crocbench compare``;
- :mod:`._samples`: ``compare --samples``: its limit (:data:`MAX_SAMPLES`) and how long the samples take here;
- :mod:`._tools`: ``crocbench explain``, ``synthesize`` and ``reference``, the commands around a workflow run;
- :mod:`._benchmark`: ``crocbench benchmark list``, ``export``, ``evaluate`` and ``freeze``;
- :mod:`._tuning`: ``crocbench tuning choose``;
- :mod:`._split`: ``crocbench split novelty`` and ``verify``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

from .. import __version__
from ..metrics import METRICS, TIES, paper_metrics
from ..stats import DEFAULT_RESAMPLES, MIN_RESAMPLES, TESTS, check_resamples
from ._benchmark import _benchmark, add_benchmark_parser
from ._compare import _compare
from ._errors import error_line
from ._input import STDIN
from ._samples import ANNOUNCE_SAMPLES, MAX_SAMPLES
from ._score import _score
from ._split import _split, add_split_parser
from ._tools import _explain, _reference, _regenerate, _synthesize
from ._tuning import _tuning, add_tuning_parser

__all__ = ["EXIT_USAGE", "MAX_SAMPLES", "STDIN", "main"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line, exit 2
        self.exit(EXIT_USAGE, f"crocbench: error: {message}\n")


def _columns_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--score-col", default="score", help="column with the scores, higher = more likely positive (default: score)"
    )
    p.add_argument("--label-col", default="label", help="column with the labels (default: label)")
    p.add_argument(
        "--positive",
        default=None,
        help="comma-separated label value(s) that mark a positive (default: labels must be binary: 0/1, "
        "true/false, yes/no or active/inactive)",
    )
    p.add_argument(
        "--sep",
        default=None,
        help="field separator: a character, or tab, comma, semicolon, pipe (default: sniffed from the "
        "file's first lines, else from the extension)",
    )
    p.add_argument("--ties", choices=TIES, default="expected", help="how tied scores are resolved (default: expected)")
    p.add_argument(
        "--metric",
        action="append",
        default=None,
        metavar="SPEC",
        help="a metric as NAME or NAME:key=value,... (names: " + ", ".join(METRICS) + ") or a key of the paper's "
        "metric set (" + ", ".join(c.key for c in paper_metrics()) + "); repeatable",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1; got {value}")
    return value


def _seed(text: str) -> int:
    """A seed of numpy's generators (``default_rng``): a whole number >= 0, of any size."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative whole number; got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative whole number; got {value}")
    return value


def _resamples(text: str) -> int:
    """A number of bootstrap resamples: a whole number, at least MIN_RESAMPLES."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    try:
        return check_resamples(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number > 0; got {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="crocbench", description="Early-retrieval metrics and significance tests (CROC framework).")
    parser.add_argument("--version", action="version", version=f"crocbench {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show an error's traceback instead of its one line (for a bug report)"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("score", help="print every metric of one ranked list")
    p.add_argument("file", help="CSV/TSV with a score column and a label column; - reads it from standard input")
    _columns_args(p)
    p.add_argument(
        "--top-k",
        type=_positive_int,
        default=1000,
        help="k for 'actives in top k' and the precision/recall/F1 at k (default: 1000, capped at N)",
    )
    p.add_argument(
        "--group",
        metavar="COLUMN",
        default=None,
        help="column of query (block) ids: adds the per-query metrics (TAP-k, MAP, ROC_n per query) "
        "and makes TOP1 and the last positive's rank per query",
    )
    p.add_argument(
        "--n-negatives",
        type=_positive_int,
        default=50,
        metavar="N",
        help="negatives of ROC_n and TAP-k in the other metrics (default: 50)",
    )
    p.add_argument(
        "--ci",
        type=_resamples,
        nargs="?",
        const=DEFAULT_RESAMPLES,
        default=None,
        metavar="B",
        help=f"add a 95%% interval to every metric: a stratified bootstrap over compounds with B resamples "
        f"(default {DEFAULT_RESAMPLES}, at least {MIN_RESAMPLES})",
    )
    p.add_argument("--seed", type=_seed, default=0, help="seed of the bootstrap (--ci; default: 0)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--plot", metavar="OUT", help="also draw ROC and CROC(exp) curves into this image file")
    p.add_argument(
        "--alpha", type=_positive_float, default=14.0, help="magnification of the plotted CROC (default: 14)"
    )

    p = sub.add_parser("compare", help="compare two rankings of the same compounds with the six tests")
    p.add_argument("file_a", help="CSV/TSV of ranking A (id, score and label columns); - reads it from standard input")
    p.add_argument("file_b", help="CSV/TSV of ranking B, the same compounds; - reads it from standard input")
    _columns_args(p)
    p.add_argument("--id-col", default="id", help="column that identifies a compound in both files (default: id)")
    p.add_argument(
        "--tests", default=",".join(TESTS), help=f"comma-separated tests (default: all six: {','.join(TESTS)})"
    )
    p.add_argument(
        "--samples",
        type=_positive_int,
        default=10_000,
        help=f"permutation samples (default: 10000, at most {MAX_SAMPLES}; above {ANNOUNCE_SAMPLES} the command "
        "first prints how long it expects to take, timed on this machine)",
    )
    p.add_argument("--seed", type=_seed, default=0, help="seed of the permutation tests (default: 0)")
    p.add_argument(
        "--two-sided", action="store_true", help="two-sided p-values (default: one-sided in the observed direction)"
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")

    p = sub.add_parser("explain", help="an IRV prediction, neighbour by neighbour (needs a workflow run's results)")
    p.add_argument("results", help="a dataset's results folder, e.g. results/dtp_aids")
    p.add_argument("id", help="the compound's id (column id of compounds.parquet)")
    p.add_argument("--k", type=int, default=20, help="neighbours (default: 20)")

    p = sub.add_parser(
        "synthesize", help="write a seeded synthetic screen (id,smiles,label) derived from real compounds"
    )
    p.add_argument("--n", type=_positive_int, required=True, help="distinct molecules to write")
    p.add_argument("--seed", type=_seed, default=0, help="seed (default: 0): the same seed, the same file")
    p.add_argument("--out", required=True, help="CSV to write (written whole, or not at all)")
    p.add_argument(
        "--source",
        default=None,
        help="CSV of the real compounds (columns smiles, activity; CA/CM positive), default: "
        "HIV_41913.csv in $CROCBENCH_MIRROR or ../shared/mirror",
    )
    p.add_argument("--jobs", type=_positive_int, default=min(2, os.cpu_count() or 1), help="processes (default: 2)")

    p = sub.add_parser(
        "reference", help="refresh the committed regression reference from a finished run (or --check a run)"
    )
    p.add_argument(
        "results", help="a dataset's results folder (results/dtp_aids) or a panel's summary (results/summary)"
    )
    p.add_argument(
        "--out",
        help="reference folder (default: results/reference for a dataset; a panel's summary needs its own, "
        "e.g. results/reference/pubchem_hts)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="compare the run with the reference and write nothing; exit 1 when a number moved",
    )
    p.add_argument(
        "--add",
        action="store_true",
        help="add a panel summary's screens to the panel reference in --out (a screen it holds is replaced) and "
        "recompute the tables across the screens from all of them: a panel run some screens at a time",
    )
    p.add_argument(
        "--recompute",
        action="store_true",
        help="RESULTS is a panel's reference: recompute its tables across the screens from its own tables of one "
        "screen each, in place (after a change to what they hold)",
    )
    p.add_argument(
        "--study",
        action="store_true",
        help="a study of rankers (e.g. config/examples/ecfp_rankers.yaml's run): keep its areas, other metrics, intervals "
        "and tests in a folder of its own (--out results/reference/ecfp_rankers_random); implied where --out holds one",
    )
    p.add_argument(
        "--memorization",
        action="store_true",
        help="keep the run's memorization tables (strata of the test actives, the tests per stratum, the splits "
        "compared) in a folder of their own (--out results/reference/memorization_random); implied where --out "
        "holds one",
    )
    p.add_argument(
        "--readme",
        metavar="PATH",
        nargs="+",
        help="also rewrite the results tables (<!-- reference:NAME --> blocks) in these Markdown files "
        "(README.md and the docs pages that hold one)",
    )

    p = sub.add_parser(
        "regenerate",
        help="rewrite every generated block and figure of README.md and docs/ from the committed references",
    )
    p.add_argument("--root", default=".", help="the repository's root (default: the current folder)")
    p.add_argument("--check", action="store_true", help="write nothing; list what is stale and exit 1 when anything is")

    add_benchmark_parser(sub)
    add_tuning_parser(sub)
    add_split_parser(sub, _seed, _positive_int)
    return parser


def main(argv=None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors (already printed)
        return int(exc.code or 0)
    try:
        return {
            "score": _score,
            "compare": _compare,
            "explain": _explain,
            "reference": _reference,
            "regenerate": _regenerate,
            "synthesize": _synthesize,
            "benchmark": _benchmark,
            "tuning": _tuning,
            "split": _split,
        }[args.command](args)
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback (every file is written whole or not at all)
        print("crocbench: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader stopped early (e.g. `| head -1`): not an error, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        return 0
    except Exception as exc:
        line = None if args.debug else error_line(exc)
        if line is None:  # --debug, or a bug: the traceback
            raise
        print(f"crocbench: error: {line}", file=sys.stderr)
        return EXIT_USAGE

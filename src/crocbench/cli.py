"""Command-line interface: ``crocbench score`` and ``crocbench compare``.

Errors in the input become a one-line message on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from . import __version__
from .data import binary_labels, label_summary, numeric_column, read_table
from .metrics import FAMILIES, METRICS, TIES, MetricCall, Ranking, other_panel, other_values, paper_panel, parse_metric
from .stats import TESTS, compare_many

EXIT_USAGE = 2
STDIN = "-"  # a file argument that reads the table from standard input


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line, exit 2
        self.exit(EXIT_USAGE, f"crocbench: error: {message}\n")


def _columns_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--score-col", default="score", help="column with the scores, higher = more likely positive (default: score)")
    p.add_argument("--label-col", default="label", help="column with the labels (default: label)")
    p.add_argument(
        "--positive",
        default=None,
        help="comma-separated label value(s) that mark a positive (default: labels must be binary: 0/1, "
             "true/false, yes/no or active/inactive)",
    )
    p.add_argument("--sep", default=None,
                   help="field separator: a character, or tab, comma, semicolon, pipe (default: sniffed from the "
                        "file's first lines, else from the extension)")
    p.add_argument("--ties", choices=TIES, default="expected", help="how tied scores are resolved (default: expected)")
    p.add_argument(
        "--metric",
        action="append",
        default=None,
        metavar="SPEC",
        help="a metric as NAME or NAME:key=value,... (names: " + ", ".join(METRICS) + ") or a key of the paper's "
             "panel (" + ", ".join(c.key for c in paper_panel()) + "); repeatable",
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
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("score", help="print every metric of one ranked list")
    p.add_argument("file", help="CSV/TSV with a score column and a label column; - reads it from standard input")
    _columns_args(p)
    p.add_argument("--top-k", type=_positive_int, default=1000,
                   help="k for 'actives in top k' and the precision/recall/F1 at k (default: 1000, capped at N)")
    p.add_argument("--group", metavar="COLUMN", default=None,
                   help="column of query (block) ids: adds the per-query metrics (TAP-k, MAP, ROC_n per query) "
                        "and makes TOP1 and the last positive's rank per query")
    p.add_argument("--n-negatives", type=_positive_int, default=50, metavar="N",
                   help="negatives of ROC_n and TAP-k in the other metrics (default: 50)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--plot", metavar="OUT", help="also draw ROC and CROC(exp) curves into this image file")
    p.add_argument("--alpha", type=_positive_float, default=14.0, help="magnification of the plotted CROC (default: 14)")

    p = sub.add_parser("compare", help="compare two rankings of the same compounds with the six tests")
    p.add_argument("file_a", help="CSV/TSV of ranking A (id, score and label columns); - reads it from standard input")
    p.add_argument("file_b", help="CSV/TSV of ranking B, the same compounds; - reads it from standard input")
    _columns_args(p)
    p.add_argument("--id-col", default="id", help="column that identifies a compound in both files (default: id)")
    p.add_argument("--tests", default=",".join(TESTS), help=f"comma-separated tests (default: all six: {','.join(TESTS)})")
    p.add_argument("--samples", type=_positive_int, default=10_000, help="permutation samples (default: 10000)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the permutation tests (default: 0)")
    p.add_argument("--two-sided", action="store_true", help="two-sided p-values (default: one-sided in the observed direction)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")

    p = sub.add_parser("explain", help="an IRV prediction, neighbour by neighbour (needs a workflow run's results)")
    p.add_argument("results", help="a dataset's results folder, e.g. results/dtp_aids")
    p.add_argument("id", help="the compound's id (column id of compounds.parquet)")
    p.add_argument("--k", type=int, default=20, help="neighbours (default: 20)")

    p = sub.add_parser("synthesize", help="write a seeded synthetic screen (id,smiles,label) derived from real compounds")
    p.add_argument("--n", type=_positive_int, required=True, help="distinct molecules to write")
    p.add_argument("--seed", type=_seed, default=0, help="seed (default: 0): the same seed, the same file")
    p.add_argument("--out", required=True, help="CSV to write (written whole, or not at all)")
    p.add_argument("--source", default=None,
                   help="CSV of the real compounds (columns smiles, activity; CA/CM positive), default: "
                        "HIV_41913.csv in $CROCBENCH_MIRROR or ../shared/mirror")
    p.add_argument("--jobs", type=_positive_int, default=min(2, os.cpu_count() or 1), help="processes (default: 2)")

    p = sub.add_parser("reference", help="refresh the committed regression reference from a finished run")
    p.add_argument("results", help="a dataset's results folder, e.g. results/dtp_aids")
    p.add_argument("--out", default="results/reference", help="reference folder (default: results/reference)")
    p.add_argument("--readme", metavar="PATH", help="also rewrite the results tables in this README (README.md)")
    return parser


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
        raise ValueError(f"{name}: column {args.label_col!r} has no {lacking} (all {y.size} row(s) {found}); "
                         f"the metrics need both positives and negatives (check --label-col and --positive)")
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
        raise ValueError(f"--positive {args.positive}: no label in column {args.label_col!r} equals "
                         f"{', '.join(map(repr, absent))}; labels found: {label_summary(list(seen))}")


def _metric_call(spec: str) -> MetricCall:
    """:func:`parse_metric`, with an unknown or missing parameter named against the metric's own list."""
    name, colon, rest = spec.strip().partition(":")
    if name in METRICS:
        params = list(inspect.signature(METRICS[name]).parameters.values())[1:]  # after the counts
        valid = [q.name for q in params]
        given = [item.partition("=")[0].strip() for item in filter(None, rest.split(","))]
        for key in given:
            if key and key not in valid:
                raise ValueError(f"metric {name}: unknown parameter {key!r} "
                                 f"(valid: {', '.join(valid) if valid else 'none, it takes no parameters'})")
        for q in params:
            if q.default is q.empty and q.name not in given:
                raise ValueError(f"metric {name}: parameter {q.name!r} is required (e.g. {name}:{q.name}=VALUE)")
    return parse_metric(spec)


def _requested_calls(args) -> list[MetricCall] | None:
    """The --metric calls, parsed before any data is read (None: the command's default)."""
    return [_metric_call(m) for m in args.metric] if args.metric else None


def _format_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
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
    from matplotlib.figure import Figure

    out = Path(path)
    if out.is_dir():  # not "SOMEDIR.png" beside it
        raise ValueError(f"--plot {path}: is a directory; give an image file name, e.g. {out / 'curves.png'}")
    if not out.suffix:
        out = out.with_suffix(".png")
    formats = Figure().canvas.get_supported_filetypes()
    if out.suffix[1:].lower() not in formats:
        raise ValueError(f"--plot {path}: cannot write {out.suffix} images; use one of "
                         + ", ".join(f".{f}" for f in sorted(formats)))
    if not out.parent.is_dir():
        raise ValueError(f"--plot {path}: folder {out.parent} does not exist")
    return out


def _score(args) -> int:
    calls = _requested_calls(args)
    plot = _plot_path(args.plot) if args.plot else None
    df, y, s = _load(args.file, args, extra=[args.group] if args.group else ())
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
    rows = []
    for call in calls or paper_panel(top_k=min(args.top_k, n)):
        row = {"key": call.key, "metric": call.label, "value": None, "count": call.is_count}
        try:
            row["value"] = call.value(ranking, args.ties)
        except ValueError as exc:  # e.g. ROC50 on a list with fewer than 50 negatives
            row["note"] = str(exc)
        else:
            try:
                base = call.random(n, n_pos)
                row.update(random_mean=base.mean, random_sd=base.sd,
                           z=base.z_score(row["value"]) if base.sd > 0 else None)
            except ValueError:  # no exact random baseline (e.g. average precision)
                pass
        rows.append(row)
    other = [] if calls else other_values(
        y, s, groups, args.ties, other_panel(top_k=min(args.top_k, n), n=args.n_negatives))
    n_queries = None if groups is None else int(np.unique(groups).size)
    if args.json:
        _print_json({"file": name, "n": n, "n_pos": n_pos, "ties": args.ties, "queries": n_queries,
                     "metrics": rows, "other_metrics": other})
    else:
        queries = "" if groups is None else f", {n_queries} queries in column {args.group!r}"
        print(f"{name}: {n} compounds, {n_pos} positives, ties {args.ties}{queries}")
        table = [[r["metric"], _number(r["value"], r["count"]), _number(r.get("random_mean"), r["count"]),
                  _number(r.get("random_sd")), "n/a" if r.get("z") is None else f"{r['z']:.1f}"] for r in rows]
        title = "Requested metrics" if calls else "CROC paper areas"
        title += " (all queries ranked as one list)" if groups is not None else ""
        print(f"\n{title}\n" + _format_table(["metric", "value", "random", "random sd", "z"], table))
        for r in rows:
            if r["value"] is None:
                print(f"note: {r['metric']}: {r['note']}")
        for family in FAMILIES:
            part = [r for r in other if r["family"] == family]
            if part:
                table = [[r["label"], _number(r["value"]), "higher" if r["higher_is_better"] else "lower",
                          "yes" if r["in_tests"] else "no", r["note"]] for r in part]
                print(f"\n{family}\n" + _format_table(["metric", "value", "better", "in tests", "note"], table))
    if plot is not None:
        from .plots import plot_roc_croc

        plot_roc_croc({Path(name).name: (y, s)}, plot, alpha=args.alpha)
        print(f"wrote {plot}", file=sys.stderr)
    return 0


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
        df, y, s = _load(path, args, extra=[args.id_col], text=[args.id_col])  # ids are text: 01 is not 1
        missing = df[args.id_col].isna().to_numpy()
        if missing.any():
            rows = np.flatnonzero(missing)
            raise ValueError(f"{_shown(path)}: column {args.id_col!r}: {rows.size} missing id(s) (empty or NA), "
                             f"first at row {rows[0] + 1}; every compound needs an id to be matched")
        frames.append((df[args.id_col].astype(str).to_numpy(), y, s))
        tables.append(df)
    _check_positive_values(args, tables)
    (ids_a, y_a, s_a), (ids_b, y_b, s_b) = frames
    file_a, file_b = _shown(args.file_a), _shown(args.file_b)
    # a hash join: one pass over both id columns, linear in the number of compounds
    codes, distinct = pd.factorize(np.concatenate([ids_a, ids_b]))
    codes_a, codes_b = codes[:ids_a.size], codes[ids_a.size:]
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
    alternative = "two-sided" if args.two_sided else "observed"
    out = []
    for call, c in zip(calls, compare_many(y_a, s_a, s_b[idx], calls, tests=tests, ties=args.ties,
                                           n_samples=args.samples, seed=args.seed, alternative=alternative)):
        out.append({"metric": call.label, "value_a": c.value_a, "value_b": c.value_b,
                    "p_values": {t: r.p_value for t, r in c.results.items()},
                    "alternative": next(iter(c.results.values())).alternative})
    if args.json:
        _print_json({"file_a": file_a, "file_b": file_b, "n": int(ids_a.size), "n_pos": int(y_a.sum()),
                     "samples": args.samples, "seed": args.seed, "comparisons": out})
        return 0
    print(f"A = {file_a}\nB = {file_b}\n{ids_a.size} compounds, {int(y_a.sum())} positives; "
          f"p-values {'two-sided' if args.two_sided else 'one-sided in the observed direction'}, "
          f"{args.samples:,} permutation samples")
    rows = [[o["metric"], _number(o["value_a"], c.is_count), _number(o["value_b"], c.is_count),
             *(_p_value(o["p_values"][t]) for t in tests)] for o, c in zip(out, calls)]
    print(_format_table(["metric", "A", "B", *tests], rows))
    return 0


def _explain(args) -> int:
    from .cv import split
    from .fingerprints import load_fingerprints
    from .models import IRV
    from .similarity import SimilarityIndex, load_neighbours

    folder = Path(args.results)
    needed = [folder / "fingerprints.npz", folder / "folds.tsv"]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        raise ValueError(f"{', '.join(missing)} not found: run the workflow first (snakemake --cores 2)")
    folds = pd.read_csv(folder / "folds.tsv", sep="\t", dtype={"id": str})
    where = np.flatnonzero(folds["id"].to_numpy() == args.id)
    if where.size == 0:
        raise ValueError(f"compound {args.id!r} is not in {folder / 'folds.tsv'}")
    row = int(where[0])
    cached = sorted(folder.glob("neighbours_k*.npz"))
    sim = SimilarityIndex(load_fingerprints(needed[0]), load_neighbours(cached[-1]) if cached else None)
    y, fold = folds["label"].to_numpy(), int(folds["fold"].iloc[row])
    train, _ = split(folds["fold"].to_numpy(), fold)
    irv = IRV(k=args.k).fit(sim, train, y[train])
    logit = float(irv.score(sim, [row])[0])
    table = irv.explain(sim, row, ids=folds["id"].to_numpy())
    print(f"compound {args.id} (label {y[row]}, fold {fold}); IRV trained on the other folds: "
          f"logit {logit:.4f} = w_z {irv.weights_['w_z']:.4f} + sum of influences; "
          f"P(active) = {np.exp(-np.logaddexp(0.0, -logit)):.4f}")
    rows = [[str(r.rank), str(r.neighbour), f"{r.similarity:.4f}", str(r.active), f"{r.relevance:.4f}",
             f"{r.vote:+.4f}", f"{r.influence:+.4f}"] for r in table.itertuples()]
    print(_format_table(["rank", "neighbour", "similarity", "active", "relevance", "vote", "influence"], rows))
    return 0


def _synthesize(args) -> int:
    from .data import resolve_mirror
    from .data._synthesize import main_summary, source_screen, synthesize, write_screen

    source = Path(args.source) if args.source else resolve_mirror("../shared/mirror", Path.cwd()) / "HIV_41913.csv"
    if not source.is_file():
        raise ValueError(f"source file {source} not found; give --source (a CSV with smiles and activity columns)")
    smiles, labels = source_screen(source)
    table = synthesize(args.n, smiles, labels, seed=args.seed, n_jobs=args.jobs, progress=sys.stderr)
    write_screen(table, args.out)
    main_summary((smiles, labels), table)
    print(f"wrote {args.out}: {len(table):,} molecules, {int(table['label'].sum()):,} positive", file=sys.stderr)
    return 0


def _reference(args) -> int:
    from .reference import missing_tables, update_readme, write_reference

    missing = missing_tables(args.results)
    if missing:
        raise ValueError(f"{args.results} lacks {', '.join(missing)}: run the workflow first")
    for path, moved in write_reference(args.results, args.out).items():
        print(f"wrote {path}: " + ("unchanged" if not moved else "\n" + "\n".join(moved)))
    if args.readme:
        changed = update_readme(args.readme, args.out)
        print(f"{args.readme}: " + (f"rewrote the {' and '.join(changed)} table(s)" if changed else "tables unchanged"))
    return 0


def main(argv=None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors (already printed)
        return int(exc.code or 0)
    try:
        return {"score": _score, "compare": _compare, "explain": _explain, "reference": _reference,
                "synthesize": _synthesize}[args.command](args)
    except ValueError as exc:
        print(f"crocbench: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader stopped early (e.g. `| head -1`): not an error, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

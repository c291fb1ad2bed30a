"""``crocbench benchmark``: list the committed benchmarks, export one, evaluate a submission, file it as an entry
(``submit``) and check an entry's record again (``verify``), freeze a spec."""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = (
    "the crocbench checkout whose config files and reference an export reads (default: the current folder if it is "
    "one, else the checkout crocbench is installed from)"
)


def add_benchmark_parser(sub) -> None:
    """The ``benchmark`` command and its six subcommands."""
    p = sub.add_parser("benchmark", help="export a frozen benchmark, or evaluate a submission against it")
    commands = p.add_subparsers(dest="benchmark_command", required=True, parser_class=type(p))

    commands.add_parser(
        "list", help="the committed benchmarks (shipped with crocbench): name, version, screens, sha256"
    )

    q = commands.add_parser(
        "export", help="write a benchmark's screens (id, smiles, label, fold) and its spec, from the mirror"
    )
    q.add_argument("name", help="a committed benchmark (crocbench benchmark list)")
    q.add_argument("out", help="the export folder (an interrupted export resumes)")
    q.add_argument("--screens", help="comma-separated subset of the screens (default: all)")
    q.add_argument("--format", choices=("csv", "parquet"), default="csv", help="the screens' files (default: csv)")
    q.add_argument("--root", help=_ROOT)

    q = commands.add_parser(
        "evaluate", help="score a submission (one id,score file per screen) and place it among the reference's rankers"
    )
    q.add_argument("submission", help="a folder: <screen>.csv (id, score) per screen, and the export's benchmark.json")
    q.add_argument(
        "--benchmark",
        required=True,
        help="an export folder, or a committed benchmark's name (its export in data/benchmarks/NAME, made there first "
        "when missing)",
    )
    q.add_argument("--screens", help="comma-separated subset of the screens evaluated (the result says so)")
    q.add_argument("--name", help="the entry's name (default: the submission folder's name)")
    q.add_argument(
        "--out",
        help="where result.json, result.md and critical_difference.png go (default: SUBMISSION/evaluation)",
    )
    q.add_argument(
        "--unregistered",
        action="store_true",
        help="evaluate an export whose spec is none of the committed ones; the result says 'unregistered spec'",
    )
    q.add_argument("--root", help=_ROOT)

    q = commands.add_parser(
        "submit",
        help="file a finished evaluation as an entry: results/entries/BENCHMARK/ENTRY (record, entry.yaml, scores)",
    )
    q.add_argument("evaluation", help="the folder evaluate wrote (SUBMISSION/evaluation, with result.json)")
    q.add_argument("--entry", required=True, help="the entry's name (free among the benchmark's entries and rankers)")
    q.add_argument("--yaml", help="the entry's description (default: SUBMISSION/entry.yaml)")
    q.add_argument("--scores", help="the submission folder the result was made from (default: SUBMISSION)")
    q.add_argument("--benchmark", help="the benchmark the entry is for; a result of another is refused")
    q.add_argument("--root", help="the project the entry is filed in (default: the current folder)")

    q = commands.add_parser(
        "verify", help="recompute an entry's record from its score files and check it byte for byte"
    )
    q.add_argument("entry", help="the entry's folder (results/entries/BENCHMARK/ENTRY)")
    q.add_argument("--scores", help="a submission folder to recompute from, in place of the committed scores")
    q.add_argument(
        "--benchmark", help="the benchmark's export folder (default: its export in data/benchmarks, made when missing)"
    )
    q.add_argument("--root", help=_ROOT)

    q = commands.add_parser(
        "freeze", help="recompute a spec's file hashes from a fresh export (a spec moves only on purpose)"
    )
    q.add_argument("spec", help="the spec file: src/crocbench/benchmark/specs/NAME.json for a committed one")
    which = q.add_mutually_exclusive_group()
    which.add_argument("--screens", help="comma-separated screens to hash; the others keep their hashes")
    which.add_argument("--missing", action="store_true", help="hash only the screens with no hash (resume a freeze)")
    which.add_argument(
        "--recipe",
        action="store_true",
        help="write only the spec's recipe (its config and reference, read by an export) from the checkout",
    )
    q.add_argument("--root", help=_ROOT)


def _screens(text):
    if text is None:
        return None
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise ValueError("--screens names no screen")
    return names


def _benchmark(args) -> int:
    from .. import benchmark as bm
    from .._io import no_empty_folders

    command = args.benchmark_command
    if command == "list":
        for spec in bm.committed_specs().values():
            print(
                f"{spec.name}\tv{spec.version}\t{len(spec.screens)} screens\t{spec.split['kind']} split\t{spec.sha256}"
            )
        return 0
    if command == "export":
        spec = bm.find_spec(args.name)
        with no_empty_folders(args.out):
            bm.export(spec, args.out, args.root, _screens(args.screens), args.format)
        print(f"{spec.title} exported to {args.out}", file=sys.stderr)
        return 0
    if command == "freeze" and args.recipe:
        print(f"{args.spec}: recipe {bm.freeze_recipe(args.spec, args.root)}")
        return 0
    if command == "freeze":
        spec = bm.freeze(args.spec, args.root, _screens(args.screens), args.missing)
        print(f"{args.spec}: {spec.title}")
        return 0
    if command in ("submit", "verify"):
        return _entry(args)
    from ..benchmark._submission import check_files

    submission, screens = Path(args.submission), _screens(args.screens)
    if not Path(args.benchmark).is_dir():  # a name: the submission is checked before its export may be made
        check_files(submission, bm.find_spec(args.benchmark), screens)
    out = Path(args.out) if args.out else submission / "evaluation"
    with no_empty_folders(out, bm.checkout(args.root) / bm.EXPORTS / args.benchmark):
        loaded = bm.load(args.benchmark, args.root, screens, unregistered=args.unregistered)
        result = loaded.evaluate(submission, args.name or submission.resolve().name)
        paths = result.write(out)
    print("\n".join(result.verdicts()))
    print(f"written: {', '.join(str(p) for p in paths)}", file=sys.stderr)
    return 0


def _entry(args) -> int:
    from ..benchmark import _entries

    if args.benchmark_command == "submit":
        root = Path(args.root) if args.root else Path.cwd()
        folder = _entries.submit(args.evaluation, args.entry, root, args.yaml, args.scores, args.benchmark)
        kept = "with" if _entries.read_entry(folder).verifiable else "without"
        print(f"{folder}: entry {args.entry} filed, {kept} its scores", file=sys.stderr)
        return 0
    record = _entries.verify(args.entry, args.scores, args.benchmark, args.root)
    print(f"{args.entry}: verified: the record of {record['entry']} is what its scores give")
    return 0

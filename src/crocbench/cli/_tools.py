"""The commands around a workflow run: ``explain`` (an IRV prediction), ``synthesize`` (a seeded synthetic
screen), ``reference`` (refresh the committed regression reference) and ``regenerate`` (the README's and the
docs' generated blocks and figures, from the committed references)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from .._extras import require
from ._output import _format_table


def _explain(args) -> int:
    require("crocbench explain", "numba", "torch")
    from ..chem.fingerprints import load_fingerprints
    from ..cv import DROPPED, split
    from ..models import IRV
    from ..similarity import SimilarityIndex, load_neighbours

    folder = Path(args.results)
    needed = [folder / "fingerprints.npz", folder / "folds.tsv"]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        raise ValueError(f"{', '.join(missing)} not found: run the workflow first (snakemake --cores 2)")
    folds = pd.read_csv(folder / "folds.tsv", sep="\t", dtype={"id": str})
    lacking = [c for c in ("id", "label", "fold") if c not in folds.columns]
    if lacking:
        raise ValueError(
            f"{folder / 'folds.tsv'}: no {', '.join(lacking)} column (it has {', '.join(map(str, folds.columns))}); "
            "it is not the workflow's folds table: run the workflow again"
        )
    where = np.flatnonzero(folds["id"].to_numpy() == args.id)
    if where.size == 0:
        raise ValueError(f"compound {args.id!r} is not in {folder / 'folds.tsv'}")
    row = int(where[0])
    if int(folds["fold"].iloc[row]) == DROPPED:
        raise ValueError(f"compound {args.id!r} is in no fold (dropped by the novelty split): it was never scored")
    cached = sorted(folder.glob("neighbours_k*.npz"))
    sim = SimilarityIndex(load_fingerprints(needed[0]), load_neighbours(cached[-1]) if cached else None)
    y, fold = folds["label"].to_numpy(), int(folds["fold"].iloc[row])
    train, _ = split(folds["fold"].to_numpy(), fold)
    irv = IRV(k=args.k).fit(sim, train, y[train])
    logit = float(irv.score(sim, [row])[0])
    table = irv.explain(sim, row, ids=folds["id"].to_numpy())
    print(
        f"compound {args.id} (label {y[row]}, fold {fold}); IRV trained on the other folds: "
        f"logit {logit:.4f} = w_z {irv.weights_['w_z']:.4f} + sum of influences; "
        f"P(active) = {np.exp(-np.logaddexp(0.0, -logit)):.4f}"
    )
    rows = [
        [
            str(r.rank),
            str(r.neighbour),
            f"{r.similarity:.4f}",
            str(r.active),
            f"{r.relevance:.4f}",
            f"{r.vote:+.4f}",
            f"{r.influence:+.4f}",
        ]
        for r in table.itertuples()
    ]
    print(_format_table(["rank", "neighbour", "similarity", "active", "relevance", "vote", "influence"], rows))
    return 0


def _synthesize(args) -> int:
    require("crocbench synthesize", "rdkit", "threadpoolctl")
    from ..data import resolve_mirror
    from ..data._synthesize import main_summary, source_screen, synthesize, write_screen

    out = Path(args.out)
    if out.is_dir() or args.out.endswith(("/", "\\")) or out.name in ("", ".", ".."):
        raise ValueError(f"--out {args.out}: is a folder; name the CSV to write (e.g. {out / 'screen.csv'})")
    if not out.resolve().parent.is_dir():
        raise ValueError(f"--out {args.out}: its folder {out.resolve().parent} does not exist; create it first")
    source = Path(args.source) if args.source else resolve_mirror("../shared/mirror", Path.cwd()) / "HIV_41913.csv"
    if not source.is_file():
        raise ValueError(f"source file {source} not found; give --source (a CSV with smiles and activity columns)")
    smiles, labels = source_screen(source)
    table = synthesize(args.n, smiles, labels, seed=args.seed, n_jobs=args.jobs, progress=sys.stderr)
    write_screen(table, args.out)
    main_summary((smiles, labels), table)
    print(f"wrote {args.out}: {len(table):,} molecules, {int(table['label'].sum()):,} positive", file=sys.stderr)
    return 0


def _print_written(written: dict, rewrites_unchanged: bool = True) -> None:
    """One line per table a reference command wrote (``{path: lines saying what moved}``), with what moved below it;
    without ``rewrites_unchanged``, a table that did not move was left as it is, and says so."""
    for path, moved in written.items():
        if not moved:
            print(f"wrote {path}: unchanged" if rewrites_unchanged else f"{path}: unchanged (left as it is)")
        else:
            print(f"wrote {path}: new" if moved == ["new"] else f"wrote {path}:\n" + "\n".join(moved))


def _reference(args) -> int:
    require("crocbench reference", "yaml")
    from ..pages import update_readme
    from ..reference import (
        compare_run,
        holds_across,
        is_study_reference,
        is_summary,
        manifest_kind,
        missing_tables,
        panel_screens,
        write_memorization_reference,
        write_recomputed,
        write_reference,
    )

    if args.recompute:
        given = {"--out": args.out, "--check": args.check, "--add": args.add, "--study": args.study}
        given |= {"--memorization": args.memorization, "--readme": args.readme}
        extra = [flag for flag, on in given.items() if on]
        if extra:
            raise ValueError(f"--recompute rewrites RESULTS, a panel's reference, in place: leave out {extra[0]}")
        _print_written(write_recomputed(args.results), rewrites_unchanged=False)
        return 0
    if args.out is None:
        if is_summary(args.results):
            raise ValueError(f"{args.results} is a panel's summary: name its reference folder with --out")
        if args.study or args.memorization:
            kind = "a study's" if args.study else "a memorization"
            raise ValueError(f"{kind} reference needs a folder of its own: name it with --out")
        args.out = "results/reference"
    study = args.study or is_study_reference(args.out)
    memorization = args.memorization or manifest_kind(args.out) == "memorization"
    missing = missing_tables(args.results, study, memorization)
    if missing:
        raise ValueError(f"{args.results} lacks {', '.join(missing)}: run the workflow first")
    if args.check:
        if args.readme or args.add:
            raise ValueError(f"--check writes nothing: leave out {'--readme' if args.readme else '--add'} (or --check)")
        if not Path(args.out).is_dir():
            raise ValueError(f"{args.out}: no such reference folder")
        moved = [line for lines in compare_run(args.results, args.out).values() for line in lines]
        print("\n".join(moved) if moved else f"{args.results} equals the reference {args.out}")
        return 1 if moved else 0
    if memorization and args.add:
        raise ValueError("--add adds a panel's screens: leave it out of a memorization reference")
    writing = (
        write_memorization_reference(args.results, args.out)
        if memorization
        else write_reference(args.results, args.out, study, add=args.add)
    )
    _print_written(writing)
    if is_summary(args.results):  # a panel grown screen by screen: where it stands
        screens = panel_screens(args.out)
        across = (
            ", and the tables across them"
            if holds_across(args.out)
            else " (the tables across the screens come with a second)"
        )
        print(f"{args.out} holds {len(screens)} screen(s): {', '.join(screens)}{across}")
    if args.readme:
        changed = update_readme(args.readme, args.out)
        done = ", ".join(f"{name} in {document}" for document, name in changed)
        print(f"rewrote the table(s): {done}" if changed else f"{', '.join(args.readme)}: tables unchanged")
    return 0


def _regenerate(args) -> int:
    require("crocbench regenerate", "yaml", "matplotlib")
    from ..pages import regenerate_documents

    root = Path(args.root)
    if not (root / "results" / "reference").is_dir() or not (root / "README.md").is_file():
        raise ValueError(f"{root}: not the repository's root (no README.md and results/reference/)")
    changed = regenerate_documents(root, check=args.check)
    for document, name in changed:
        print(f"{'stale' if args.check else 'rewrote'}: {document}: {name}")
    if not changed:
        print("every generated block and figure is its reference's")
    return 1 if args.check and changed else 0

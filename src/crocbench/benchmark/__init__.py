"""Benchmarks: frozen, versioned screens and splits that anyone can train on and enter in minutes.

A benchmark is a spec (``_spec``): its screens and their files' sha256, the split, the metric of record and
the metrics reported, and the committed reference whose rankers an entry is placed among. The sha256 of the spec
identifies it. The committed specs ship with the package (:data:`SPECS`); an export whose spec is none of them is
refused unless it is loaded as unregistered, and its result then says so.

- :func:`load` gives a benchmark's screens (compounds, labels, folds) to train on: from an export folder, or by
  name, exported into ``data/benchmarks/<name>`` from the mirror or a download when not there yet.
- :meth:`Benchmark.evaluate` scores an entry's out-of-fold scores on every screen, with exact ties and exact
  random baselines, and places it among the reference's rankers (``_evaluate``): a :class:`Result`, written
  as a record (JSON), a page (Markdown) and a critical-difference figure (``_record``).
- ``crocbench benchmark export`` and ``crocbench benchmark evaluate`` are the same from the command line.
- ``crocbench benchmark submit`` files an evaluation as a leaderboard entry (``results/entries/<benchmark>/<entry>``:
  its record, ``entry.yaml`` and, when small enough, its scores), and ``crocbench benchmark verify`` recomputes an
  entry's record from its scores (``_entries``).

One concern per module: ``_spec`` (the spec file), ``_export`` (screens exported, specs frozen), ``_read`` (an
export read back and checked), ``_submission`` (an entry's files checked), ``_evaluate`` (scores and placement),
``_words`` (the verdicts' sentences), ``_record`` (record, page and figure), ``_result`` (an evaluated entry,
on top of the three), ``_entries`` (entries filed and verified, on top of all), ``_values`` (the precision of values and their means over repeats, at the bottom),
``_recipe`` (what an export reads: a checkout's config and reference, or the recipe frozen beside a committed
spec), ``_cache`` (the standardized tables and screen files kept in the user's cache) and ``_scratch`` (an export's
scratch folder).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ._evaluate import CONFIRMATORY, EXPLORATORY
from ._export import checkout, export, freeze, freeze_recipe
from ._read import export_spec, read_reference, read_screen, screen_path
from ._result import Result, evaluate_pooled, place
from ._spec import (
    REFERENCE_FILE,
    SPEC_FILE,
    SPECS,
    SPECS_ENV,
    Spec,
    check_registered,
    committed_specs,
    find_spec,
    read_spec,
    registered,
    screen_file,
)

#: Where :func:`load` keeps a benchmark exported by name, relative to the project.
EXPORTS = Path("data") / "benchmarks"


@dataclass(frozen=True)
class Screen:
    """One screen of a benchmark: ``table`` has ``id, smiles, label`` and its fold columns."""

    name: str
    table: pd.DataFrame

    def folds(self, repeat: int = 0):
        """``(fold, train rows, test rows)`` for each fold of a repeat: positions in ``table``."""
        column = "fold" if "fold" in self.table.columns else f"fold_{repeat}"
        folds = self.table[column].to_numpy()
        for fold in np.unique(folds):
            yield int(fold), np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark: its spec, its export folder, its screens, its reference's values, and whether its spec
    is a committed one (:func:`crocbench.benchmark.registered`)."""

    spec: Spec
    folder: Path
    screens: dict
    reference: pd.DataFrame
    registered: bool = True

    def evaluate(self, scores, name: str = "entry") -> Result:
        """Score and place an entry.

        Parameters
        ----------
        scores : dict or path
            ``{screen: DataFrame with id and score}`` (out-of-fold scores; optional ``fold``, and ``repeat`` where
            the split repeats) for each screen loaded, or a submission folder (:meth:`Benchmark.write_submission`).
        name : str, default="entry"
            The entry's name in the tables and sentences.

        Returns
        -------
        Result
        """
        from ._submission import frames_submission, read_submission

        tables = {s: screen.table for s, screen in self.screens.items()}
        if isinstance(scores, dict):
            pooled, digests = frames_submission(scores, self.spec, tables)
        else:
            pooled, digests = read_submission(scores, self.spec, tables, list(self.screens))
        return evaluate_pooled(self.spec, self.reference, pooled, name, digests, self.registered)

    def write_submission(self, scores: dict, folder) -> Path:
        """Write ``{screen: DataFrame (id, score)}`` as a submission folder: ``<screen>.csv`` each and the spec."""
        from .._io import write_table

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for screen, frame in scores.items():
            write_table(pd.DataFrame(frame), folder / screen_file(screen), index=False)
        (folder / SPEC_FILE).write_bytes((self.folder / SPEC_FILE).read_bytes())
        return folder


def _is_export(value) -> bool:
    return (Path(value) / SPEC_FILE).is_file()


def load(benchmark, root=None, screens=None, data=None, progress=sys.stderr, unregistered: bool = False) -> Benchmark:
    """A benchmark's screens to train on, and its reference's values to place an entry against.

    Parameters
    ----------
    benchmark : str or path
        An export folder (``crocbench benchmark export``), or a committed benchmark's name: then its export in
        ``data`` (default ``<root>/data/benchmarks/<name>``), made there first when it is missing or is not the
        committed spec's (minutes: the screens are standardized from the mirror or a download).
    root : path, optional
        The crocbench checkout, for a name: its config files and reference, and ``data/benchmarks``; default
        :func:`crocbench.benchmark.checkout`'s (the current folder, or the checkout crocbench is imported from).
    screens : sequence of str, optional
        A subset of the screens (default: all; of an export folder, those it holds, and its result says it is a
        subset when that is fewer than the benchmark's).
    data : path, optional
        The export folder of a benchmark given by name.
    progress : file-like or None
        Where the export's lines go.
    unregistered : bool, default=False
        Load an export whose spec is not a committed one (:func:`registered`); else that raises ``ValueError``.
        Its result says "unregistered spec".

    Returns
    -------
    Benchmark
    """
    if _is_export(benchmark) or (data is None and Path(str(benchmark)).is_dir()):
        folder = Path(benchmark)
        spec = export_spec(folder)
        if not unregistered:
            check_registered(spec, folder / SPEC_FILE)
        if screens is None:  # an export of a subset (export --screens) gives that subset, which results then say
            screens = [s for s in spec.screens if screen_path(folder, s).is_file()] or None
        chosen = spec.chosen(screens)
    else:
        spec = find_spec(str(benchmark))
        root = checkout(root)
        folder = Path(data) if data is not None else root / EXPORTS / spec.name
        chosen = spec.chosen(screens)
        spec.check_frozen()  # before anything of an earlier export is touched
        current = _is_export(folder) and export_spec(folder).sha256 == spec.sha256
        if not current or not all(screen_path(folder, s).is_file() for s in chosen):
            if _is_export(folder) and not current:
                (folder / SPEC_FILE).unlink()  # another version's export: nothing of it is read
            export(spec, folder, root, chosen, progress=progress)
    loaded = {
        s: Screen(s, read_screen(screen_path(folder, s), spec, spec.files[screen_file(s)]["sha256"])) for s in chosen
    }
    return Benchmark(spec, folder, loaded, read_reference(folder, spec), registered(spec))


__all__ = [
    "CONFIRMATORY",
    "EXPLORATORY",
    "EXPORTS",
    "REFERENCE_FILE",
    "SPECS",
    "SPECS_ENV",
    "SPEC_FILE",
    "Benchmark",
    "Result",
    "Screen",
    "Spec",
    "checkout",
    "committed_specs",
    "export",
    "find_spec",
    "freeze",
    "freeze_recipe",
    "load",
    "place",
    "read_spec",
    "registered",
]

"""A submission read and checked: per screen, one file of ``id, score`` (out-of-fold scores, higher = more
likely active), and the spec it was made for.

Every failure is one line naming the screen, the file and the count, raised before anything is scored.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..data._tables import COMPRESSIONS
from ._spec import SPEC_FILE, Spec, parse_spec, screen_file, sha256_bytes

#: The file kinds a submission's screens may come in: CSV or TSV, plain or compressed (``.csv.gz``, ...), or Parquet.
SUFFIXES = (*(f"{t}{c}" for t in (".csv", ".tsv") for c in ("", *COMPRESSIONS)), ".parquet")


def _screen_of(name: str) -> str | None:
    """The screen a file of a submission is for (its name without a :data:`SUFFIXES` ending), or None."""
    ending = next((s for s in sorted(SUFFIXES, key=len, reverse=True) if name.endswith(s)), None)
    return name[: -len(ending)] if ending else None


def _check_spec(folder: Path, spec: Spec) -> None:
    path = folder / SPEC_FILE
    if not path.is_file():
        raise ValueError(
            f"{folder}: no {SPEC_FILE}; copy the export's {SPEC_FILE} into the submission (it names the benchmark "
            "version the scores were made for)"
        )
    data = path.read_bytes()
    if sha256_bytes(data) != spec.sha256:
        try:
            made_for = parse_spec(data, str(path)).title
        except ValueError:
            made_for = f"an unreadable spec (sha256 {sha256_bytes(data)[:12]})"
        raise ValueError(f"{path}: the submission was made for benchmark {made_for}, not {spec.title}")


def _file(folder: Path, screen: str) -> Path | None:
    found = [folder / f"{screen}{s}" for s in SUFFIXES if (folder / f"{screen}{s}").is_file()]
    if len(found) > 1:
        raise ValueError(f"screen {screen}: {len(found)} files ({', '.join(p.name for p in found)}); give one")
    return found[0] if found else None


def read_scores(path, screen: str) -> pd.DataFrame:
    """One screen's submitted file as read (:func:`crocbench.data.read_table`: column names and ids stripped, the
    separator sniffed; or Parquet), ids as text."""
    from ..data import read_table

    path = Path(path)
    where = f"screen {screen} ({path})"
    if path.stat().st_size == 0:
        raise ValueError(f"{where}: empty file (0 bytes)")
    try:
        table = pd.read_parquet(path) if path.suffix == ".parquet" else read_table(path, dtype={"id": str})
    except (ValueError, OSError) as exc:  # read_table's one line names the file; pyarrow's errors do not
        message = " ".join(str(exc).split()).replace(f"{path}: ", "")
        raise ValueError(f"{where}: {message}") from None
    if table.empty:
        raise ValueError(f"{where}: no rows (0 of the screen's compounds scored)")
    if "score" not in table.columns and "label" in table.columns:
        raise ValueError(
            f"{where}: a label column and no score column; a submission gives each compound's score "
            "(higher = more likely active), not a label"
        )
    return table


def check_scores(table: pd.DataFrame, folds: pd.DataFrame, spec: Spec, screen: str, path) -> list[pd.DataFrame]:
    """A screen's scores matched to its compounds, one pooled table (``id, fold, label, score``) per repeat.

    Every compound exactly once (per ``repeat`` where the split repeats), known ids, finite scores, and where the
    file has a ``fold`` column, the export's folds: repeat ``r``'s rows against the export's ``fold_r`` column.
    """
    from ..cv import import_scores

    where = f"screen {screen} ({path})"
    columns = spec.fold_columns()
    if spec.repeats == 1:
        parts = [(table, columns[0])]
    else:
        if "repeat" not in table.columns:
            raise ValueError(
                f"{where}: no repeat column; the split repeats {spec.repeats} times (0 to {spec.repeats - 1})"
            )
        repeat = pd.to_numeric(table["repeat"], errors="coerce")
        bad = ~repeat.isin(range(spec.repeats))
        if bad.any():
            raise ValueError(f"{where}: {int(bad.sum())} row(s) with a repeat other than 0 to {spec.repeats - 1}")
        parts = [(table[repeat.to_numpy() == r], columns[r]) for r in range(spec.repeats)]
    pooled = []
    for r, (part, column) in enumerate(parts):
        source = where if spec.repeats == 1 else f"{where}, repeat {r}"
        reference = folds[["id", "label", column]].rename(columns={column: "fold"})
        given = part.rename(columns={"fold": "fold_given"}) if "fold" in part.columns else part
        fold = "fold_given" if "fold" in part.columns else None
        folds_name = f"the export's (its {screen_file(screen)}'s {column} column)"
        pooled.append(import_scores(given, reference, "id", "score", fold, source, folds_name))
    return pooled


def check_files(folder, spec: Spec, screens=None) -> list:
    """The checks a submission passes before any file is read: the spec it was made for, no file of a screen the
    benchmark has not, and a file for every screen evaluated; returns ``{screen: its file}`` of those screens."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such submission folder")
    _check_spec(folder, spec)
    chosen = spec.chosen(screens)
    strays = sorted(
        p.name
        for p in folder.iterdir()
        if p.is_file() and _screen_of(p.name) is not None and _screen_of(p.name) not in spec.screens
    )
    if strays:
        raise ValueError(
            f"{folder / strays[0]}: no screen of benchmark {spec.name} is called {_screen_of(strays[0])!r}"
        )
    paths = {s: _file(folder, s) for s in chosen}
    missing = [s for s, path in paths.items() if path is None]
    if missing:
        raise ValueError(
            f"screen {missing[0]}: no file {folder / (missing[0] + '.csv')} ({len(missing)} of the {len(chosen)} "
            f"screens evaluated have none; --screens evaluates a subset)"
        )
    return paths


def read_submission(folder, spec: Spec, tables: dict, screens=None) -> tuple[dict, dict]:
    """A submission folder read and checked against the benchmark.

    Parameters
    ----------
    folder : path
        ``<screen>.csv`` (or ``.tsv``, either compressed, ``.csv.gz`` ...; or ``.parquet``: :data:`SUFFIXES`) per
        screen and the spec it was made for (:data:`SPEC_FILE`).
    spec : Spec
    tables : dict
        ``{screen: exported table}`` of the screens evaluated.
    screens : sequence of str, optional
        The subset evaluated (default: every screen of the benchmark, each required).

    Returns
    -------
    pooled : dict
        ``{screen: [pooled scores per repeat]}``.
    digests : dict
        ``{screen: sha256 of its file}``.
    """
    pooled, digests = {}, {}
    for screen, path in check_files(folder, spec, screens).items():
        pooled[screen] = check_scores(read_scores(path, screen), tables[screen], spec, screen, path)
        digests[screen] = sha256_bytes(path.read_bytes())
    return pooled, digests


def frames_submission(scores: dict, spec: Spec, tables: dict) -> tuple[dict, dict]:
    """:func:`read_submission` for scores given in Python: ``{screen: DataFrame (id, score[, fold, repeat])}``;
    the digest of each is the sha256 of its table as CSV."""
    from ._read import table_bytes

    pooled, digests = {}, {}
    for screen, frame in scores.items():
        if screen not in tables:
            raise ValueError(f"screen {screen!r}: not a screen evaluated ({', '.join(tables)})")
        frame = pd.DataFrame(frame).copy()
        if "id" in frame.columns:
            frame["id"] = frame["id"].astype(str)
        pooled[screen] = check_scores(frame, tables[screen], spec, screen, "scores")
        digests[screen] = sha256_bytes(table_bytes(frame))
    missing = [s for s in tables if s not in scores]
    if missing:
        raise ValueError(
            f"screen {missing[0]}: no scores ({len(missing)} of the {len(tables)} screens evaluated have none)"
        )
    return pooled, digests

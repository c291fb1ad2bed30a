"""What a reference holds (the tables of a run it keeps) and how one of its tables is compared cell by cell."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import read_table

#: Tables of a run kept in the reference.  Most are ``tables/<name>``; ``svm_folds.tsv`` is built
#: from the SVM's per-fold records (the chosen C and class weight, the inner-CV values).
REFERENCE_FILES = (
    "areas.tsv",
    "areas_per_fold.tsv",
    "other_metrics.tsv",
    "significance.tsv",
    "irv_training.tsv",
    "published.tsv",
    "power.tsv",
    "svm_folds.tsv",
)
#: The summary tables of a panel run (``results/summary/tables/``) kept in the panel's reference folder.
SUMMARY_FILES = ("datasets.tsv", "ranks.tsv", "wilcoxon.tsv", "conover.tsv", "claims.tsv", "claims_per_screen.tsv")
#: Those of one screen each (rows named by ``dataset``): all a summary of its screens only holds (the target
#: ``screen_tables``, on any number of screens); the others are across the screens.
PER_SCREEN = ("datasets.tsv", "claims_per_screen.tsv")
#: The paper's claims, per screen and across the screens: a summary holds them only where its run ranks the paper's
#: five rankers (:func:`holds_claims`).
CLAIMS_FILES = ("claims.tsv", "claims_per_screen.tsv")
#: Summary tables a panel run writes for a repeated cross-validation, ``summary: pains``, the novel actives and the
#: structures its screens share: kept where the run has them (each repeat's values only where there are two or more
#: repeats).
SUMMARY_OPTIONAL = (
    "datasets_repeats.tsv",
    "pains.tsv",
    "datasets_without_pains.tsv",
    "novel.tsv",
    "shared.tsv",
    "shared_pairs.tsv",
)
#: Those across the screens (the structures the screens share): not merged screen by screen.
OPTIONAL_ACROSS = ("shared.tsv", "shared_pairs.tsv")
#: The tables a study of rankers on one dataset keeps (its folder holds ``intervals.tsv``): table 1 and the other
#: metrics, with intervals, and the six tests of every pair.
STUDY_FILES = ("areas.tsv", "other_metrics.tsv", "intervals.tsv", "significance.tsv")
#: The tables a memorization reference keeps (one dataset under one split): every ranker per stratum of the test
#: actives, the tests per stratum, and the dataset's splits compared.
MEMORIZATION_FILES = (
    "memorization.tsv",
    "memorization_tests.tsv",
    "split_similarity.tsv",
    "split_similarity_curves.tsv",
)
#: Those a run without `memorization: splits` does not write.
OPTIONAL_FILES = ("split_similarity.tsv", "split_similarity_curves.tsv")
#: The columns that name a row of each table, in the lines that say what moved.
ROW_KEYS = {
    "memorization.tsv": ["model", "stratum", "key"],
    "memorization_tests.tsv": ["stratum", "a", "b", "metric"],
    "split_similarity.tsv": ["split", "measure"],
    "split_similarity_curves.tsv": ["split", "measure", "level"],
    "datasets.tsv": ["dataset", "model"],
    "datasets_repeats.tsv": ["dataset", "model", "repeat"],
    "datasets_without_pains.tsv": ["dataset", "model", "repeat"],
    "pains.tsv": ["dataset"],
    "novel.tsv": ["dataset", "model"],
    "shared.tsv": ["screens"],
    "shared_pairs.tsv": ["a", "b"],
    "ranks.tsv": ["metric", "model"],
    "wilcoxon.tsv": ["metric", "a", "b"],
    "conover.tsv": ["metric", "a", "b"],
    "claims.tsv": ["id"],
    "claims_per_screen.tsv": ["dataset", "id"],
    "areas.tsv": ["model"],
    "areas_per_fold.tsv": ["model"],
    "other_metrics.tsv": ["model", "key"],
    "intervals.tsv": ["model", "key"],
    "significance.tsv": ["a", "b", "metric"],
    "irv_training.tsv": ["scheme"],
    "published.tsv": ["id"],
    "power.tsv": ["a", "b", "metric", "test", "fraction"],
    "svm_folds.tsv": ["fold"],
}
#: Floats agree to this relative difference (the tables hold 10 significant digits).
RELATIVE_TOLERANCE = 1e-9
#: ... or to this absolute difference, for values near 0.
ABSOLUTE_FLOOR = 1e-12
#: Columns with their own absolute tolerance.  The SVM's inner-CV values come from BLAS matrix
#: products (fast, but their last bits depend on the CPU's kernels): a duplicate pair tied on one
#: CPU and split on another moves an inner AUC[ROC] by 1/(n_pos n_neg), about 4e-8 on dtp_aids;
#: 1e-6 allows 25 such pairs and is still 1,000 times below the smallest gap between two set-ups.
COLUMN_TOLERANCES = {("svm_folds.tsv", "inner_"): 1e-6}
#: Wall-clock columns: never compared.
TIMING_COLUMNS = ("train_seconds",)
_SHOWN = 8  # moved cells listed per table


def svm_folds_frame(results) -> pd.DataFrame:
    """One row per outer fold of the workflow's SVM: chosen C and class weight, support vectors, and the
    inner-CV value of every candidate set-up (``inner_<C>_<class weight>``; with successive halving, in
    the last round it reached, on the share ``fit_share_<C>_<class weight>`` of the inner training sets)."""
    from ..models import SvmFold

    paths = sorted(Path(results, "scores", "svm").glob("fold_*.json"), key=lambda p: int(p.stem[5:]))
    rows = [SvmFold.from_info(json.loads(path.read_text())).row() for path in paths]
    if not rows:
        raise FileNotFoundError(f"{results}/scores/svm/fold_*.json: no SVM fold records")
    return pd.DataFrame(rows)


def is_summary(results) -> bool:
    """Whether ``results`` is a panel's summary folder (``results/summary``, or a copy: it has
    ``tables/datasets.tsv``) rather than one dataset's."""
    return Path(results).name == "summary" or (Path(results) / "tables" / "datasets.tsv").is_file()


def reference_files(results, study: bool = False, memorization: bool = False) -> tuple:
    """The tables kept in a reference of the run at ``results``: :data:`SUMMARY_FILES` for a panel's summary (only
    :data:`PER_SCREEN` for a summary of its screens only: :func:`holds_across`), and the ``optional_summary_files``
    it holds; :data:`STUDY_FILES` for a study (``study``), ``MEMORIZATION_FILES`` for a memorization reference
    (``memorization``), :data:`REFERENCE_FILES` for one dataset."""
    if memorization:
        return MEMORIZATION_FILES
    if is_summary(results):
        return panel_files(results) + optional_summary_files(results)
    return STUDY_FILES if study else REFERENCE_FILES


def panel_files(folder) -> tuple:
    """The :data:`SUMMARY_FILES` a panel's summary folder or reference folder holds: all of them, or only its tables
    of one screen each (:data:`PER_SCREEN`, :func:`holds_across`); the paper's claims only where it ranks the
    paper's five (:func:`holds_claims`)."""
    names = SUMMARY_FILES if holds_across(folder) else PER_SCREEN
    return names if holds_claims(folder) else tuple(n for n in names if n not in CLAIMS_FILES)


def holds_claims(folder) -> bool:
    """Whether a panel's summary folder (its ``tables/``) or reference folder holds the paper's claims
    (``claims_per_screen.tsv``: its run ranks the paper's five rankers; the workflow removes an earlier run's)."""
    return _holds(folder, "claims_per_screen.tsv")


def holds_across(folder) -> bool:
    """Whether a panel's summary folder (its ``tables/``) or reference folder holds the tables across its screens
    (``ranks.tsv`` and the others of :data:`SUMMARY_FILES`), or only its tables of one screen each."""
    return _holds(folder, "ranks.tsv")


def _holds(folder, name: str) -> bool:
    """Whether a summary folder (in its ``tables/``) or a reference folder (at its top) holds the table ``name``."""
    folder = Path(folder)
    return (folder / "tables" / name).is_file() or (folder / name).is_file()


def optional_summary_files(results) -> tuple:
    """The :data:`SUMMARY_OPTIONAL` tables a panel's summary at ``results`` holds (``datasets_repeats.tsv`` only
    with two or more repeats)."""
    tables = Path(results) / "tables"
    kept = []
    across = holds_across(results)
    for name in SUMMARY_OPTIONAL:
        path = tables / name
        if name in OPTIONAL_ACROSS and not across:  # left from another run: a summary of its screens has none
            continue
        if path.is_file() and (name != "datasets_repeats.tsv" or read_table(path)["repeat"].nunique() > 1):
            kept.append(name)
    return tuple(kept)


def reference_frame(results, name: str) -> pd.DataFrame:
    """A run's table as kept in the reference (wall-clock columns dropped)."""
    if name == "svm_folds.tsv":
        return svm_folds_frame(results)
    table = read_table(Path(results) / "tables" / name)
    return table.drop(columns=[c for c in TIMING_COLUMNS if c in table.columns])


def missing_tables(results, study: bool = False, memorization: bool = False) -> list:
    """Reference tables the run at ``results`` (a dataset's folder or a panel's ``summary``) lacks."""
    names = reference_files(results, study, memorization)
    optional = ("svm_folds.tsv", *OPTIONAL_FILES) if memorization else ("svm_folds.tsv",)
    missing = [n for n in names if n not in optional and not (Path(results) / "tables" / n).is_file()]
    if "svm_folds.tsv" in names and not any(Path(results, "scores", "svm").glob("fold_*.json")):
        missing.append("scores/svm/fold_*.json")
    return missing


def _row_name(frame: pd.DataFrame, i: int, name: str) -> str:
    keys = [c for c in ROW_KEYS.get(name, frame.columns[:1]) if c in frame.columns]
    return (
        " / ".join(
            f"{frame[c].iloc[i]:g}" if isinstance(frame[c].iloc[i], float) else str(frame[c].iloc[i]) for c in keys
        )
        or f"row {i + 1}"
    )


def _cell(value) -> str:
    return repr(value.item() if hasattr(value, "item") else value)


def _tolerance(name: str, column: str) -> float | None:
    for (table, prefix), tol in COLUMN_TOLERANCES.items():
        if table == name and column.startswith(prefix):
            return tol
    return None


def compare(
    run: pd.DataFrame, ref: pd.DataFrame, name: str, rtol: float = RELATIVE_TOLERANCE, atol: float = ABSOLUTE_FLOOR
) -> list[str]:
    """The differences between a run's table and the reference's, as lines (empty: they agree).

    Floats agree to ``rtol`` of the reference's value or ``atol``, whichever is larger (a column of
    :data:`COLUMN_TOLERANCES` to its own); every other cell exactly.

    Examples
    --------
    >>> ref = pd.DataFrame({"model": ["IRV", "SVM"], "roc": [0.8443, 0.8531], "top1000": [641, 625]})
    >>> compare(ref.assign(roc=[0.8443, 0.8531 + 1e-13]), ref, "areas.tsv")
    []
    >>> compare(ref.assign(top1000=[641, 626]), ref, "areas.tsv")
    ['areas.tsv: top1000 moved in 1 of 2 rows', '  SVM: 625 -> 626']
    """
    if list(run.columns) != list(ref.columns):
        gone = [c for c in ref.columns if c not in run.columns]
        new = [c for c in run.columns if c not in ref.columns]
        return [f"{name}: columns changed (missing: {', '.join(gone) or 'none'}; new: {', '.join(new) or 'none'})"]
    if len(run) != len(ref):
        return [f"{name}: {len(run)} rows, reference {len(ref)}"]
    lines = []
    for column in ref.columns:
        a, b = run[column], ref[column]
        if pd.api.types.is_float_dtype(b) or pd.api.types.is_float_dtype(a):
            x, y = a.to_numpy(float), b.to_numpy(float)
            tol = _tolerance(name, column)
            limit = tol if tol is not None else np.maximum(rtol * np.abs(y), atol)
            with np.errstate(invalid="ignore"):  # inf - inf: equal infinities are the same, as are two NaN
                near = np.isfinite(x) & np.isfinite(y) & (np.abs(x - y) <= limit)
                same = (x == y) | near | (np.isnan(x) & np.isnan(y))
        else:
            same = a.fillna("").astype(str).to_numpy() == b.fillna("").astype(str).to_numpy()
        bad = np.flatnonzero(~same)
        if bad.size:
            lines.append(f"{name}: {column} moved in {bad.size} of {len(ref)} rows")
            lines += [f"  {_row_name(ref, i, name)}: {_cell(b.iloc[i])} -> {_cell(a.iloc[i])}" for i in bad[:_SHOWN]]
            if bad.size > _SHOWN:
                lines.append(f"  ... and {bad.size - _SHOWN} more")
    return lines

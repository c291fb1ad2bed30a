"""The committed regression reference (``results/reference/``): what it holds, how a run is compared with it.

A run's tables are compared cell by cell: text and integer columns (counts,
fold numbers, chosen set-ups) must be equal; floating-point columns must
agree to :data:`RELATIVE_TOLERANCE` (relative, with :data:`ABSOLUTE_FLOOR`
near 0), or to a column's own declared tolerance (:data:`COLUMN_TOLERANCES`).
The tables are written with 10 significant digits, and their values are
reproducible across CPUs to far better than that: the Tanimoto kernel and
every count are exact, the SVM's decision values are summed in a fixed order,
and the rank tests treat values within 1e-12 (relative) as ties.

:func:`compare` returns the differences as readable lines (row, column, old,
new); ``pytest -m regression`` fails with them and ``crocbench reference``
prints them when it rewrites the reference.

A panel of screens has a reference of its own (``results/reference/<panel>/``, e.g. ``pubchem_hts``): the
summary's tables (:data:`SUMMARY_FILES`, from ``results/summary/tables/``), compared the same way, and the
docs' tables of the panel generated from it (:func:`crocbench.pages.panel_tables`; blocks ``<!-- reference:<panel>/<table> -->``).
A study of rankers on one dataset (a run of its own, e.g. ``config/examples/ecfp_rankers.yaml``) keeps :data:`STUDY_FILES`
in a folder of its own (``results/reference/<study>/``, written with ``crocbench reference RUN --out DIR --study``),
and its page's tables come from them (:func:`crocbench.pages.study_tables`; blocks ``<!-- reference:<study>/<table> -->``).
An overlay's reference (the panel under a scaffold split, or its confirmed definitions) is also compared with the
panel beside it, on the campaigns they share (:func:`crocbench.pages.compared_panels`; block ``<panel>/vs_<other panel>``).
A panel run in parts (some screens a run) grows its reference screen by screen: :func:`added_screens` keeps
each screen's rows and recomputes the tables across the screens from all of them (``crocbench reference
results/summary --out DIR --add``); ``crocbench reference DIR --recompute`` recomputes them from the screens a
reference holds (:func:`recomputed_across`), after a change to what they hold.

Each reference says what it is in its ``manifest.yaml`` (:func:`read_manifest`: kind, split, labels, the panel it
overlays, its documents and figures, its declared questions); the code reads it, never a folder's name. The pages
written from references (the README's and the docs' generated blocks) are :mod:`crocbench.pages`'.

Four modules, imported one way (``_tables`` and ``_manifest`` at the bottom): ``_manifest`` (what a reference is),
``_tables`` (what a reference holds, and a table compared cell by cell), ``_panel`` (a panel's reference screen by
screen) and ``_runs`` (a run compared with its reference, or written into it).
"""

from ._manifest import (
    MANIFEST,
    Manifest,
    is_panel_reference,
    is_study_reference,
    manifest_kind,
    read_manifest,
    references,
    write_manifest,
)
from ._panel import across_screens, added_screens, panel_screens, recomputed_across
from ._runs import compare_run, write_memorization_reference, write_recomputed, write_reference
from ._tables import (
    ABSOLUTE_FLOOR,
    CLAIMS_FILES,
    COLUMN_TOLERANCES,
    PER_SCREEN,
    REFERENCE_FILES,
    RELATIVE_TOLERANCE,
    ROW_KEYS,
    STUDY_FILES,
    SUMMARY_FILES,
    TIMING_COLUMNS,
    compare,
    holds_across,
    holds_claims,
    is_summary,
    missing_tables,
    reference_files,
    reference_frame,
    svm_folds_frame,
)

__all__ = [
    "ABSOLUTE_FLOOR",
    "MANIFEST",
    "Manifest",
    "read_manifest",
    "references",
    "write_manifest",
    "CLAIMS_FILES",
    "COLUMN_TOLERANCES",
    "PER_SCREEN",
    "REFERENCE_FILES",
    "RELATIVE_TOLERANCE",
    "ROW_KEYS",
    "STUDY_FILES",
    "SUMMARY_FILES",
    "TIMING_COLUMNS",
    "across_screens",
    "added_screens",
    "compare",
    "compare_run",
    "holds_across",
    "holds_claims",
    "is_panel_reference",
    "is_study_reference",
    "manifest_kind",
    "is_summary",
    "missing_tables",
    "panel_screens",
    "recomputed_across",
    "reference_files",
    "reference_frame",
    "svm_folds_frame",
    "write_memorization_reference",
    "write_recomputed",
    "write_reference",
]

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
docs' tables of the panel generated from it (:func:`panel_tables`; blocks ``<!-- reference:<panel>/<table> -->``).
A study of rankers on one dataset (a run of its own, e.g. ``config/examples/modern.yaml``) keeps :data:`STUDY_FILES`
in a folder of its own (``results/reference/<study>/``, written with ``crocbench reference RUN --out DIR --study``),
and its page's tables come from them (:func:`study_tables`; blocks ``<!-- reference:<study>/<table> -->``).
An overlay's reference (the panel under a scaffold split, or its confirmed definitions) is also compared with the
panel beside it, on the campaigns they share (:func:`compared_panels`; block ``<panel>/vs_<other panel>``).
A panel run in parts (some screens a run) grows its reference screen by screen: :func:`added_screens` keeps
each screen's rows and recomputes the tables across the screens from all of them (``crocbench reference
results/summary --out DIR --add``).

Each reference says what it is in its ``manifest.yaml`` (:func:`read_manifest`: kind, split, labels, the panel it
overlays, its documents and figures, its declared questions); the code reads it, never a folder's name.
:func:`regenerate_documents` (``crocbench regenerate``) rewrites every generated block and figure of the README and
the docs from the committed references alone.

Four modules: ``_manifest`` (what a reference is), ``_compare`` (what a reference holds, the comparison cell by
cell, writing it), ``_panel`` (a panel's reference screen by screen) and ``_documents`` (the README's and the docs'
tables, answers and figures generated from it, and the blocks they are written into).
"""

from ._compare import (
    ABSOLUTE_FLOOR,
    COLUMN_TOLERANCES,
    REFERENCE_FILES,
    RELATIVE_TOLERANCE,
    ROW_KEYS,
    STUDY_FILES,
    SUMMARY_FILES,
    TIMING_COLUMNS,
    compare,
    compare_run,
    is_panel_reference,
    is_study_reference,
    is_summary,
    missing_tables,
    reference_files,
    reference_frame,
    svm_folds_frame,
    write_reference,
)
from ._documents import (
    TRAINED_FOR_THE_TOP,
    compared_panels,
    comparison_markdown,
    critical_difference_figure,
    document_tables,
    documents_of,
    kept_tables,
    panel_tables,
    readme_tables,
    reference_blocks,
    regenerate_documents,
    study_tables,
    update_readme,
)
from ._manifest import MANIFEST, Manifest, read_manifest, references, write_manifest
from ._panel import across_screens, added_screens

__all__ = [
    "ABSOLUTE_FLOOR",
    "MANIFEST",
    "Manifest",
    "documents_of",
    "kept_tables",
    "read_manifest",
    "references",
    "regenerate_documents",
    "write_manifest",
    "COLUMN_TOLERANCES",
    "REFERENCE_FILES",
    "RELATIVE_TOLERANCE",
    "ROW_KEYS",
    "STUDY_FILES",
    "SUMMARY_FILES",
    "TIMING_COLUMNS",
    "TRAINED_FOR_THE_TOP",
    "across_screens",
    "added_screens",
    "compare",
    "compare_run",
    "compared_panels",
    "comparison_markdown",
    "critical_difference_figure",
    "document_tables",
    "is_panel_reference",
    "is_study_reference",
    "is_summary",
    "missing_tables",
    "panel_tables",
    "readme_tables",
    "reference_blocks",
    "reference_files",
    "reference_frame",
    "study_tables",
    "svm_folds_frame",
    "update_readme",
    "write_reference",
]

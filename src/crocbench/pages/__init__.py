"""The README's and the docs' generated pages: tables, answers and figures written from the committed references.

Publishing lives here, apart from the regression baseline (:mod:`crocbench.reference`, which says what a reference
holds and compares a run with it). A page holds generated blocks::

    <!-- reference:pubchem_hts_ecfp/answers -->
    ... written by the library ...
    <!-- /reference:pubchem_hts_ecfp/answers -->

:func:`document_tables` gives every block a reference writes, by its manifest's kind; :func:`update_readme` rewrites
one reference's blocks (``crocbench reference ... --readme``); :func:`regenerate_documents` rewrites every block and
figure of the README and the docs from the committed references alone (``crocbench regenerate``).

Modules: ``_tables`` (what each kind of reference writes), ``_compare`` (which panels a panel is set beside, and
their comparison), ``_leaderboard`` (a benchmark's reference rankers and filed entries, ``leaderboard/<name>``),
``_splits`` (the splits' table), ``_verdict`` (a declared verdict study's block, ``<study>/verdict``) and
``_blocks`` (the blocks and their regeneration).
"""

from ._blocks import documents_of, reference_blocks, regenerate_documents, update_readme
from ._compare import TRAINED_FOR_THE_TOP, compared_panels, comparison_markdown, panel_values
from ._tables import (
    critical_difference_figure,
    document_tables,
    kept_tables,
    memorization_tables,
    panel_tables,
    readme_tables,
    reference_figure,
    study_tables,
)
from ._verdict import VERDICT_VALUES, reference_verdict, verdict_tables

__all__ = [
    "TRAINED_FOR_THE_TOP",
    "VERDICT_VALUES",
    "reference_verdict",
    "compared_panels",
    "comparison_markdown",
    "critical_difference_figure",
    "document_tables",
    "documents_of",
    "kept_tables",
    "memorization_tables",
    "panel_tables",
    "panel_values",
    "readme_tables",
    "reference_blocks",
    "reference_figure",
    "regenerate_documents",
    "study_tables",
    "update_readme",
    "verdict_tables",
]

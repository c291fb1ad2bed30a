"""One shared, seeded, stratified k-fold split; pooling of out-of-fold scores, trained here or imported.

One concern per module:

- ``_folds``: the folds, stratified (:func:`stratified_folds`) or grouped (:func:`grouped_folds`), the fold
  table (:func:`fold_table`, :func:`fold_summary`), the repeats' seeds (:func:`repeat_seed`) and a fold's
  rows (:func:`split`);
- ``_overlap``: what a split lets a ranker remember: each compound's similarity to its training folds
  (:func:`train_test_similarity`) and the strata of the test actives (:func:`strata`);
- ``_novelty``: the novelty split, no pair of two folds at or above tau (:func:`novelty_table`,
  :func:`novelty_groups`; dropped compounds have fold ``DROPPED`` (-1)), and what it keeps at each tau
  (:func:`kept_by_tau`, from one graph cut down by :func:`graph_at`);
- ``_certificate``: its certificate (:func:`certificate`) and its check (:func:`verify_certificate`);
- ``_pooling``: out-of-fold scores pooled into one table (:func:`pool_scores`, :func:`import_scores`);
- ``_running``: models run over the folds (:func:`cross_validate`, :func:`score_fold`, :func:`fold_rows`).
"""

from ._certificate import (
    certificate,
    certificate_bytes,
    fold_maxima,
    fold_table_bytes,
    fold_table_sha256,
    verify_certificate,
)
from ._folds import (
    DROPPED,
    FOLD_COLUMNS,
    NOVELTY,
    PROMISES,
    SPLITS,
    fold_summary,
    fold_table,
    grouped_folds,
    repeat_seed,
    split,
    stratified_folds,
)
from ._novelty import (
    MAX_DROPPED,
    NOVELTY_SETTINGS,
    check_max_dropped,
    graph_at,
    kept_by_tau,
    novelty_groups,
    novelty_table,
)
from ._overlap import (
    ALL_ACTIVES,
    MEASURES,
    OVERLAP_COLUMNS,
    STRATA,
    check_strata_thresholds,
    read_split_groups,
    split_overlaps,
    strata,
    train_test_similarity,
)
from ._pooling import SCORE_COLUMNS, import_scores, pool_scores
from ._running import CrossValidation, cross_validate, fold_rows, score_fold

__all__ = [
    "FOLD_COLUMNS",
    "SCORE_COLUMNS",
    "SPLITS",
    "PROMISES",
    "stratified_folds",
    "grouped_folds",
    "fold_table",
    "repeat_seed",
    "fold_summary",
    "split",
    "ALL_ACTIVES",
    "MEASURES",
    "OVERLAP_COLUMNS",
    "read_split_groups",
    "STRATA",
    "check_strata_thresholds",
    "split_overlaps",
    "strata",
    "train_test_similarity",
    "DROPPED",
    "MAX_DROPPED",
    "NOVELTY",
    "NOVELTY_SETTINGS",
    "check_max_dropped",
    "graph_at",
    "kept_by_tau",
    "novelty_groups",
    "novelty_table",
    "certificate",
    "certificate_bytes",
    "fold_maxima",
    "fold_table_bytes",
    "fold_table_sha256",
    "verify_certificate",
    "pool_scores",
    "import_scores",
    "CrossValidation",
    "cross_validate",
    "score_fold",
    "fold_rows",
]

"""Pooling out-of-fold scores into one table per model, from per-fold tables or imported from outside crocbench."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._folds import DROPPED, fold_table  # noqa: F401  (fold_table: the examples use it)

SCORE_COLUMNS = ["id", "fold", "label", "score"]


def pool_scores(parts, folds: pd.DataFrame) -> pd.DataFrame:
    """Pool per-fold score tables into one, checking every compound is scored exactly once by its own fold.

    Returns the pooled table in the order of ``folds`` (columns id, fold, label, score).

    Parameters
    ----------
    parts : iterable of pandas.DataFrame
        Per-fold score tables with the columns ``id``, ``fold``, ``label`` and ``score``.
    folds : pandas.DataFrame
        The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound.

    Returns
    -------
    pandas.DataFrame
        The pooled table, columns ``id``, ``fold``, ``label``, ``score``, in the order of ``folds``.
    """
    pooled = pd.concat(list(parts), ignore_index=True)
    missing = [c for c in SCORE_COLUMNS if c not in pooled.columns]
    if missing:
        raise ValueError(f"score tables lack column(s) {missing}")
    merged = _match_ids(pooled[SCORE_COLUMNS], folds, "scored")
    wrong = (merged["fold"] != merged["fold_scored"]) | (merged["label"] != merged["label_scored"])
    if wrong.any():
        raise ValueError(
            f"{int(wrong.sum())} compound(s) scored in another fold or with another label, "
            f"e.g. {merged['id'][wrong].iloc[0]!r}"
        )
    return merged[SCORE_COLUMNS].reset_index(drop=True)


def import_scores(
    table: pd.DataFrame,
    folds: pd.DataFrame,
    id: str = "id",
    score: str = "score",
    fold: str | None = None,
    source: str = "the scores",
    folds_name: str = "folds.tsv's",
) -> pd.DataFrame:
    """Out-of-fold scores computed outside crocbench, checked against the fold table and pooled like a model's.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per compound: its id (column ``id``), its score (column ``score``, higher = more likely
        active) and, optionally, the fold it was scored in (column ``fold``).
    folds : pandas.DataFrame
        The dataset's fold table (:func:`fold_table`, ``results/{dataset}/folds.tsv``).
    id : str, default="id"
        The name of ``table``'s id column.
    score : str, default="score"
        The name of ``table``'s score column.
    fold : str, default=None
        The name of ``table``'s fold column, checked against the fold table; None if it has none.
    source : str, default="the scores"
        Names the file in error messages.
    folds_name : str, default="folds.tsv's"
        Names the folds a wrong fold differs from, in its error message.

    Returns
    -------
    DataFrame
        id, fold, label, score in the order of ``folds`` (the pooled table of a trained model).

    Raises
    ------
    ValueError
        One line naming the count and an example id: a compound scored twice,
        an id not in the dataset, a compound without a score, a score that is
        not a finite number, or (with ``fold``) a fold other than the fold table's.

    Examples
    --------
    >>> folds = fold_table(["a", "b", "c", "d"], [1, 0, 1, 0], n_folds=2)
    >>> import_scores(pd.DataFrame({"id": ["d", "c", "b", "a"], "score": [0.1, 0.9, 0.2, 0.8]}), folds)["score"].tolist()
    [0.8, 0.2, 0.9, 0.1]
    >>> import_scores(pd.DataFrame({"id": ["a", "b", "c"], "score": [1.0, 0.0, 1.0]}), folds)
    Traceback (most recent call last):
    ...
    ValueError: the scores: 1 compound(s) of the dataset have no score, e.g. 'd'
    """
    columns = [id, score] + ([fold] if fold else [])
    absent = [c for c in columns if c not in table.columns]
    if absent:
        raise ValueError(
            f"{source}: no column(s) {', '.join(map(repr, absent))}; columns are {', '.join(map(str, table.columns))}"
        )
    given = pd.DataFrame(
        {
            "id": table[id].astype(str).str.strip(),
            "score": pd.to_numeric(table[score], errors="coerce").astype(np.float64),
        }
    )
    bad = ~np.isfinite(given["score"].to_numpy())
    if bad.any():
        raise ValueError(
            f"{source}: {int(bad.sum())} score(s) are not finite numbers (NaN, inf or text), "
            f"e.g. id {given['id'][bad].iloc[0]!r}"
        )
    if fold:
        given["fold_given"] = pd.to_numeric(table[fold], errors="coerce")
    try:
        merged = _match_ids(given, folds, "imported")
    except ValueError as exc:
        raise ValueError(f"{source}: {exc}") from None
    if fold:
        wrong = merged["fold_given"] != merged["fold"]
        if wrong.any():
            raise ValueError(
                f"{source}: {int(wrong.sum())} compound(s) have a fold other than {folds_name}, "
                f"e.g. {merged['id'][wrong].iloc[0]!r}"
            )
    return merged[SCORE_COLUMNS].reset_index(drop=True)


def _match_ids(scored: pd.DataFrame, folds: pd.DataFrame, suffix: str) -> pd.DataFrame:
    """``folds``' compounds in a fold left-joined with ``scored`` on id, after checking each is there exactly once
    (and no compound of fold ``DROPPED`` (-1), in no fold, is scored).

    Columns of ``scored`` other than id and score that ``folds`` also has get ``_{suffix}``.
    """
    repeated = scored["id"][scored["id"].duplicated()]
    if repeated.size:
        raise ValueError(f"{repeated.nunique()} compound(s) scored more than once, e.g. {repeated.iloc[0]!r}")
    dropped = scored["id"].isin(folds["id"][folds["fold"] == DROPPED])
    if dropped.any():
        raise ValueError(
            f"{int(dropped.sum())} scored compound(s) are in no fold (dropped by the split), e.g. "
            f"{scored['id'][dropped].iloc[0]!r}"
        )
    folds = folds[folds["fold"] != DROPPED]
    unknown = ~scored["id"].isin(folds["id"])
    if unknown.any():
        raise ValueError(
            f"{int(unknown.sum())} scored id(s) are not in the dataset, e.g. {scored['id'][unknown].iloc[0]!r}"
        )
    merged = folds.merge(scored, on="id", how="left", suffixes=("", f"_{suffix}"), validate="one_to_one")
    unscored = merged["score"].isna()
    if unscored.any():
        raise ValueError(
            f"{int(unscored.sum())} compound(s) of the dataset have no score, e.g. {merged['id'][unscored].iloc[0]!r}"
        )
    return merged

"""One shared, seeded, stratified k-fold split; pooling of out-of-fold scores, trained here or imported."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

FOLD_COLUMNS = ["id", "label", "fold"]
SCORE_COLUMNS = ["id", "fold", "label", "score"]


def stratified_folds(y, n_folds: int = 10, seed: int = 0) -> np.ndarray:
    """The fold (0..n_folds-1) of every compound: each class shuffled (seeded) and dealt round-robin.

    Every fold gets the same number of positives and of negatives, to within one.

    Parameters
    ----------
    y : array-like of shape (n_compounds,)
        Class labels (any values; each class is dealt on its own).
    n_folds : int, default=10
        The number of folds, at least 2.
    seed : int, default=0
        Seeds the shuffle; the same seed gives the same folds.

    Returns
    -------
    ndarray of int64 of shape (n_compounds,)
        The fold of every compound, 0 to ``n_folds - 1``.

    Examples
    --------
    >>> f = stratified_folds([1, 1, 0, 0, 0, 0], n_folds=2, seed=0)
    >>> sorted(f[:2].tolist()), sorted(f[2:].tolist())
    ([0, 1], [0, 0, 1, 1])
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ValueError("y must be a non-empty 1-d array of labels")
    n_folds = int(n_folds)
    counts = np.unique(y, return_counts=True)[1]
    if n_folds < 2 or counts.min() < n_folds:
        raise ValueError(
            f"{n_folds} folds need at least that many compounds of each class; the smallest class has {counts.min()}"
        )
    rng = np.random.default_rng(seed)
    folds = np.empty(y.size, dtype=np.int64)
    offset = 0
    for value in np.unique(y):  # deal each class on from where the previous one stopped
        members = rng.permutation(np.flatnonzero(y == value))
        folds[members] = (offset + np.arange(members.size)) % n_folds
        offset += members.size
    return folds


def grouped_folds(y, groups, n_folds: int = 10, seed: int = 0) -> np.ndarray:
    """The fold of every compound, whole groups to a fold, positives spread over the folds as evenly as the groups
    allow; deterministic for a seed.

    Groups are dealt greedily, those with the most positives first (then the largest; equal ones in a seeded
    random order): a group holding positives goes to the fold with the fewest positives so far, any other group
    to the fold with the fewest negatives (ties: the fold with the fewest compounds, then the first).  So the
    first ``n_folds`` groups with positives open one fold each, and every fold gets a positive whenever at least
    ``n_folds`` groups hold one.

    Parameters
    ----------
    y : array-like of shape (n_compounds,)
        Binary labels (1 = positive).
    groups : array-like of shape (n_compounds,)
        The group (e.g. scaffold) of every compound; a group never spans two folds.
    n_folds : int, default=10
        The number of folds, at least 2.
    seed : int, default=0
        Seeds the shuffle; the same seed gives the same folds.

    Returns
    -------
    ndarray of int64 of shape (n_compounds,)
        The fold of every compound, 0 to ``n_folds - 1``.

    Raises
    ------
    ValueError
        One line: fewer than ``n_folds`` groups hold a positive (or a negative), so some fold would have none.

    Examples
    --------
    >>> y = [1, 1, 1, 0, 0, 0, 0, 0]
    >>> grouped_folds(y, ["a", "a", "b", "a", "c", "c", "d", "e"], n_folds=2, seed=0).tolist()
    [0, 0, 1, 0, 1, 1, 1, 0]
    """
    y, groups = np.asarray(y), np.asarray(groups)
    if y.ndim != 1 or y.size == 0 or groups.shape != y.shape:
        raise ValueError("y and groups must be non-empty 1-d arrays of the same length")
    n_folds = int(n_folds)
    if n_folds < 2:
        raise ValueError(f"a split needs at least 2 folds; got {n_folds}")
    _, g = np.unique(groups, return_inverse=True)
    size = np.bincount(g)
    pos = np.bincount(g, weights=(y == 1)).astype(np.int64)
    neg = size - pos
    for count, what in (((pos > 0).sum(), "positives"), ((neg > 0).sum(), "negatives")):
        if count < n_folds:
            raise ValueError(
                f"the {int((pos if what == 'positives' else neg).sum())} {what} lie in only {count} of the "
                f"{size.size} groups: {n_folds} folds need {what} in at least {n_folds} groups"
            )
    order = np.random.default_rng(seed).permutation(size.size)
    order = order[np.lexsort((-size[order], -pos[order]))]  # stable: most positives, then largest, then shuffled
    fold_pos, fold_neg = np.zeros(n_folds, np.int64), np.zeros(n_folds, np.int64)
    assign = np.empty(size.size, dtype=np.int64)
    weight = int(y.size) + 1  # key = count x weight + fold size: the count first, the size breaks ties
    for group in order.tolist():
        key = (fold_pos if pos[group] else fold_neg) * weight + fold_pos + fold_neg
        f = int(np.argmin(key))
        assign[group] = f
        fold_pos[f] += pos[group]
        fold_neg[f] += neg[group]
    if not (fold_neg > 0).all():  # negatives only in groups that also hold positives: a rare layout
        raise ValueError(f"the groups leave fold {int(np.argmin(fold_neg))} without negatives")
    return assign[g]


def fold_table(ids, y, n_folds: int = 10, seed: int = 0, scaffolds=None) -> pd.DataFrame:
    """``id, label, fold`` for every compound, in input order.

    With ``scaffolds`` (one per compound, :mod:`crocbench.scaffolds`), a scaffold split: whole scaffold groups to
    a fold (:func:`grouped_folds`; an acyclic compound is a group of its own), and a ``scaffold`` column.

    Parameters
    ----------
    ids : array-like of shape (n_compounds,)
        The compounds' ids.
    y : array-like of shape (n_compounds,)
        Binary labels (1 = active).
    n_folds : int, default=10
        The number of folds, at least 2.
    seed : int, default=0
        Seeds the shuffle; the same seed gives the same folds.
    scaffolds : array-like of str of shape (n_compounds,), default=None
        Each compound's scaffold ("" for an acyclic compound) for a scaffold split; None for a stratified
        split (:func:`stratified_folds`).

    Returns
    -------
    pandas.DataFrame
        Columns ``id``, ``label`` (int8), ``fold`` and, for a scaffold split, ``scaffold``.

    Examples
    --------
    >>> fold_table(["a", "b", "c", "d"], [1, 0, 1, 0], n_folds=2)["fold"].tolist()
    [0, 0, 1, 1]
    """
    y = np.asarray(y)
    ids = np.asarray(ids, dtype=str)
    if scaffolds is None:
        return pd.DataFrame({"id": ids, "label": y.astype(np.int8), "fold": stratified_folds(y, n_folds, seed)})
    from .scaffolds import scaffold_groups

    try:
        folds = grouped_folds(y, scaffold_groups(ids, scaffolds), n_folds, seed)
    except ValueError as exc:
        raise ValueError(f"scaffold split: {exc}") from None
    return pd.DataFrame({"id": ids, "label": y.astype(np.int8), "fold": folds, "scaffold": np.asarray(scaffolds)})


def repeat_seed(seed: int, repeat: int) -> int:
    """The seed of repeat ``repeat`` (0, 1, ...) of a repeated cross-validation: ``seed + repeat``.

    Repeat 0 is the single run's own seed, so one repeat gives exactly the files of an unrepeated run.

    Parameters
    ----------
    seed : int
        The run's seed.
    repeat : int
        The repeat, 0, 1, ...

    Returns
    -------
    int
        ``seed + repeat``.

    Examples
    --------
    >>> repeat_seed(0, 0), repeat_seed(7, 2)
    (0, 9)
    """
    return int(seed) + int(repeat)


def fold_summary(folds: pd.DataFrame) -> dict:
    """What a fold table says of its split: per fold its compounds and positives; for a scaffold split the
    number of scaffolds (acyclic compounds apart), the largest scaffold group and the acyclic compounds.

    Parameters
    ----------
    folds : pandas.DataFrame
        The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound; for a
        scaffold split also ``scaffold``.

    Returns
    -------
    dict
        ``compounds``, ``positives`` and ``folds`` (a list of ``{"fold", "compounds", "positives"}``); for a
        scaffold split also ``scaffolds``, ``largest_group``, ``largest_scaffold`` and ``acyclic``.

    Examples
    --------
    >>> fold_summary(fold_table(list("abcd"), [1, 0, 1, 0], n_folds=2))["folds"]
    [{'fold': 0, 'compounds': 2, 'positives': 1}, {'fold': 1, 'compounds': 2, 'positives': 1}]
    """
    per_fold = folds.groupby("fold")["label"].agg(["size", "sum"])
    out = {
        "compounds": len(folds),
        "positives": int(folds["label"].sum()),
        "folds": [
            {"fold": int(f), "compounds": int(row["size"]), "positives": int(row["sum"])}
            for f, row in per_fold.iterrows()
        ],
    }
    if "scaffold" in folds.columns:
        s = folds["scaffold"].fillna("").astype(str)
        ringed = s[s != ""]
        counts = ringed.value_counts()
        out.update(
            scaffolds=int(counts.size),
            largest_group=int(counts.iloc[0]) if counts.size else 0,
            largest_scaffold=str(counts.index[0]) if counts.size else "",
            acyclic=int((s == "").sum()),
        )
    return out


def split(folds: np.ndarray, fold: int) -> tuple[np.ndarray, np.ndarray]:
    """``(train, test)`` row indices of one fold.

    Parameters
    ----------
    folds : ndarray of shape (n_compounds,)
        The fold of every compound.
    fold : int
        The test fold.

    Returns
    -------
    train : ndarray of int64
        Row indices of the other folds' compounds.
    test : ndarray of int64
        Row indices of the fold's compounds.

    Examples
    --------
    >>> split(np.array([0, 1, 0, 1]), 1)
    (array([0, 2]), array([1, 3]))
    """
    folds = np.asarray(folds)
    if fold not in set(np.unique(folds).tolist()):
        raise ValueError(f"fold {fold} does not exist; folds are {sorted(set(folds.tolist()))}")
    return np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)


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
                f"{source}: {int(wrong.sum())} compound(s) have a fold other than folds.tsv's, "
                f"e.g. {merged['id'][wrong].iloc[0]!r}"
            )
    return merged[SCORE_COLUMNS].reset_index(drop=True)


def _match_ids(scored: pd.DataFrame, folds: pd.DataFrame, suffix: str) -> pd.DataFrame:
    """``folds`` left-joined with ``scored`` on id, after checking each compound is there exactly once.

    Columns of ``scored`` other than id and score that ``folds`` also has get ``_{suffix}``.
    """
    repeated = scored["id"][scored["id"].duplicated()]
    if repeated.size:
        raise ValueError(f"{repeated.nunique()} compound(s) scored more than once, e.g. {repeated.iloc[0]!r}")
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


class CrossValidation(NamedTuple):
    """What :func:`cross_validate` returns: per fold, the test compounds' scores and the fitted model.

    Parameters
    ----------
    scores : dict
        ``{fold: DataFrame}``, the test compounds' ``id``, ``fold``, ``label`` and ``score`` per fold run.
    models : dict
        ``{fold: model}``, the model fitted on the other folds.
    """

    scores: dict  # fold -> DataFrame (id, fold, label, score)
    models: dict  # fold -> the model fitted on the other folds

    def pooled(self, folds: pd.DataFrame) -> pd.DataFrame:
        """Every fold's scores pooled in the order of ``folds`` (:func:`pool_scores`): all folds must have run.

        Parameters
        ----------
        folds : pandas.DataFrame
            The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound.

        Returns
        -------
        pandas.DataFrame
            Every fold's scores (:func:`pool_scores`), in the order of ``folds``.
        """
        return pool_scores(self.scores.values(), folds)


def cross_validate(make_model, data, folds: pd.DataFrame, *, only=None, progress=None) -> CrossValidation:
    """The cross-validation driver: for each fold, a fresh model fitted on the other folds scores it.

    The workflow's fold jobs (one fold each: ``only=[k]``), the benchmarks and
    the tests all run their folds through it.

    Parameters
    ----------
    make_model : callable
        ``make_model(fold)`` returns a new, unfitted model for that fold (its
        seed may depend on the fold): any object with ``fit(data, train, y)``
        and ``score(data, rows)`` (:class:`crocbench.models.Model`).
    data : SimilarityIndex
        The models' data view; its rows are the rows of ``folds``.
    folds : DataFrame
        The fold table (:func:`fold_table`).
    only : iterable of int, optional
        The folds to run (default: every fold, in order).
    progress : file, optional
        A line per fold is written there.

    Returns
    -------
    CrossValidation
        ``scores[k]`` (id, fold, label, score of fold k's compounds) and
        ``models[k]`` for each fold run; ``.pooled(folds)`` once all have run.

    Examples
    --------
    >>> from crocbench.fingerprints import Fingerprints
    >>> from crocbench.models import MaxSim
    >>> from crocbench.similarity import SimilarityIndex
    >>> features = [[1, 2], [1, 3], [2, 3], [4, 5], [4, 6], [5, 6]]  # three actives alike, three inactives alike
    >>> fp = Fingerprints(np.arange(0, 13, 2), np.array(sum(features, []), dtype=np.uint64))
    >>> folds = fold_table(list("abcdef"), [1, 1, 1, 0, 0, 0], n_folds=3)
    >>> cv = cross_validate(lambda fold: MaxSim(), SimilarityIndex(fp), folds)
    >>> sorted(cv.scores), cv.pooled(folds)["score"].round(3).tolist()
    ([0, 1, 2], [0.333, 0.333, 0.333, 0.0, 0.0, 0.0])
    """
    chosen = sorted(set(np.unique(folds["fold"]).tolist())) if only is None else [int(k) for k in only]
    scores, models = {}, {}
    for k in chosen:
        model = make_model(k)
        scores[k] = score_fold(model, data, folds, k)
        models[k] = model
        if progress is not None:
            print(f"fold {k}: {len(scores[k])} compounds scored", file=progress, flush=True)
    return CrossValidation(scores, models)


def score_fold(model, data, folds: pd.DataFrame, fold: int) -> pd.DataFrame:
    """Fit ``model`` on every fold but ``fold`` and score ``fold``: a table of id, fold, label, score.

    ``folds`` is a fold table (:func:`fold_table`) whose rows are the rows of ``data``.

    Parameters
    ----------
    model : Model
        An unfitted model (:class:`crocbench.models.Model`).
    data : SimilarityIndex
        The models' data view (:class:`crocbench.similarity.SimilarityIndex`); its rows are the rows of ``folds``.
    folds : pandas.DataFrame
        The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound.
    fold : int
        The fold scored.

    Returns
    -------
    pandas.DataFrame
        ``id``, ``fold``, ``label`` and ``score`` of the fold's compounds, in row order.
    """
    y, train, test, rows = fold_rows(data, folds, fold)
    model.fit(data, train, y[train])
    scores = np.asarray(model.score(data, test), dtype=np.float64).ravel()
    name = getattr(model, "name", type(model).__name__)
    if scores.size != test.size:
        raise ValueError(f"{name}: score returned {scores.size} values for {test.size} compounds")
    bad = ~np.isfinite(scores)
    if bad.any():
        raise ValueError(
            f"{name}: {int(bad.sum())} score(s) are not finite, e.g. compound {rows['id'].iloc[np.argmax(bad)]!r}"
        )
    return rows.assign(score=scores)


def fold_rows(data, folds: pd.DataFrame, fold: int):
    """``(y, train, test, rows)`` of one fold: the labels, the row indices, and id/fold/label of its test compounds.

    Parameters
    ----------
    data : SimilarityIndex
        The models' data view; its rows are the rows of ``folds``.
    folds : pandas.DataFrame
        The fold table (:func:`fold_table`): columns ``id``, ``label`` and ``fold``, one row per compound.
    fold : int
        The test fold.

    Returns
    -------
    y : array-like of shape (n_compounds,)
        Every compound's label.
    train : ndarray of int64
        Row indices of the training compounds (the other folds).
    test : ndarray of int64
        Row indices of the fold's compounds.
    rows : pandas.DataFrame
        ``id``, ``fold`` and ``label`` (int8) of the fold's compounds.
    """
    if len(folds) != data.n:
        raise ValueError(f"the fold table has {len(folds)} compounds, the similarity index {data.n}")
    y = folds["label"].to_numpy()
    train, test = split(folds["fold"].to_numpy(), fold)
    rows = pd.DataFrame({"id": folds["id"].to_numpy()[test], "fold": np.int64(fold), "label": y[test].astype(np.int8)})
    return y, train, test, rows

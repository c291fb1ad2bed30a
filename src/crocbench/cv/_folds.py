"""The folds of a cross-validation: stratified and grouped (scaffold, cluster) splits, fold tables, repeat seeds, a fold's rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

FOLD_COLUMNS = ["id", "label", "fold"]
#: The fold of a compound in no fold (dropped by a novelty split, :mod:`crocbench.cv._novelty`): neither trained on
#: nor scored.
DROPPED = -1


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


#: The name of the novelty split (:func:`crocbench.cv.novelty_table`).
NOVELTY = "novelty"
#: The splits of a cross-validation: the paper's stratified random split, whole Bemis-Murcko scaffolds to a
#: fold, whole leader clusters (:mod:`crocbench.chem.clusters`) to a fold (these three by :func:`fold_table`), and
#: the novelty split: no pair of two folds at or above tau (:func:`crocbench.cv.novelty_table`).
SPLITS = ("random", "scaffold", "cluster", NOVELTY)
#: What each split guarantees of its folds, in words (the protocol page's table of the splits).
PROMISES = {
    "random": "nothing of similarity: each class shuffled and dealt round-robin, every fold with the screen's share "
    "of actives (the paper's protocol)",
    "scaffold": "no Bemis-Murcko scaffold in two folds; analogues whose scaffolds differ (by one ring atom) may be "
    "in two folds",
    "cluster": "no leader cluster in two folds; it does not keep neighbours apart across clusters: two compounds "
    "of two clusters may be at any similarity, up to identical fingerprints",
    NOVELTY: "no pair of compounds in two folds at Tanimoto >= tau on its fingerprint (ECFP4 bits), certified; the "
    "compounds it cannot place are dropped (neither trained on nor scored)",
}


def fold_table(ids, y, n_folds: int = 10, seed: int = 0, scaffolds=None, clusters=None) -> pd.DataFrame:
    """``id, label, fold`` for every compound, in input order.

    With ``scaffolds`` (one per compound, :mod:`crocbench.chem.scaffolds`), a scaffold split: whole scaffold groups to
    a fold (:func:`grouped_folds`; an acyclic compound is a group of its own), and a ``scaffold`` column.  With
    ``clusters`` (one per compound, :func:`crocbench.chem.clusters.leader_clusters`), a cluster split: whole clusters
    to a fold, dealt the same way, and a ``cluster`` column.

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
        Each compound's scaffold ("" for an acyclic compound) for a scaffold split.
    clusters : array-like of int of shape (n_compounds,), default=None
        Each compound's cluster for a cluster split.  With neither, a stratified split (:func:`stratified_folds`).

    Returns
    -------
    pandas.DataFrame
        Columns ``id``, ``label`` (int8), ``fold`` and, for a scaffold split, ``scaffold``; for a cluster split,
        ``cluster``.

    Examples
    --------
    >>> fold_table(["a", "b", "c", "d"], [1, 0, 1, 0], n_folds=2)["fold"].tolist()
    [0, 0, 1, 1]
    >>> fold_table(list("abcd"), [1, 0, 1, 0], n_folds=2, clusters=[0, 0, 1, 1])["fold"].tolist()
    [0, 0, 1, 1]
    """
    y = np.asarray(y)
    ids = np.asarray(ids, dtype=str)
    if scaffolds is not None and clusters is not None:
        raise ValueError("a split is by scaffold or by cluster, not both")
    table = pd.DataFrame({"id": ids, "label": y.astype(np.int8)})
    if scaffolds is None and clusters is None:
        return table.assign(fold=stratified_folds(y, n_folds, seed))
    if scaffolds is not None:
        from ..chem.scaffolds import scaffold_groups

        kind, groups, column = "scaffold", scaffold_groups(ids, scaffolds), np.asarray(scaffolds)
    else:
        kind, groups = "cluster", np.asarray(clusters, dtype=np.int64)
        column = groups
    try:
        folds = grouped_folds(y, groups, n_folds, seed)
    except ValueError as exc:
        raise ValueError(f"{kind} split: {exc}") from None
    return table.assign(fold=folds, **{kind: column})


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
        scaffold split also ``scaffolds``, ``largest_group``, ``largest_scaffold`` and ``acyclic``; for a cluster
        split ``clusters``, ``largest_group`` and ``singletons``; where compounds are in no fold (``DROPPED`` (-1)),
        ``dropped`` and ``dropped_positives``, and the folds count the others.

    Examples
    --------
    >>> fold_summary(fold_table(list("abcd"), [1, 0, 1, 0], n_folds=2))["folds"]
    [{'fold': 0, 'compounds': 2, 'positives': 1}, {'fold': 1, 'compounds': 2, 'positives': 1}]
    >>> s = fold_summary(pd.DataFrame({"id": list("abc"), "label": [1, 1, 0], "fold": [0, -1, 1]}))
    >>> len(s["folds"]), s["dropped"], s["dropped_positives"]
    (2, 1, 1)
    """
    dropped = folds["fold"] == DROPPED
    per_fold = folds[~dropped].groupby("fold")["label"].agg(["size", "sum"])
    out = {
        "compounds": len(folds),
        "positives": int(folds["label"].sum()),
        "folds": [
            {"fold": int(f), "compounds": int(row["size"]), "positives": int(row["sum"])}
            for f, row in per_fold.iterrows()
        ],
    }
    if dropped.any():
        out.update(dropped=int(dropped.sum()), dropped_positives=int(folds["label"][dropped].sum()))
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
    if "cluster" in folds.columns:
        counts = folds["cluster"].value_counts()
        out.update(
            clusters=int(counts.size),
            largest_group=int(counts.iloc[0]) if counts.size else 0,
            singletons=int((counts == 1).sum()),
        )
    return out


def split(folds: np.ndarray, fold: int) -> tuple[np.ndarray, np.ndarray]:
    """``(train, test)`` row indices of one fold; a compound of fold ``DROPPED`` (-1) is in neither.

    Parameters
    ----------
    folds : ndarray of shape (n_compounds,)
        The fold of every compound (``DROPPED`` (-1): in no fold).
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
    >>> split(np.array([0, 1, -1, 1]), 1)  # compound 2 is dropped: trained on by no fold
    (array([0]), array([1, 3]))
    """
    folds = np.asarray(folds)
    real = set(np.unique(folds).tolist()) - {DROPPED}
    if fold not in real:
        raise ValueError(f"fold {fold} does not exist; folds are {sorted(real)}")
    return np.flatnonzero((folds != fold) & (folds != DROPPED)), np.flatnonzero(folds == fold)

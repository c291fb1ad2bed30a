"""What a split lets a ranker remember: each test compound's similarity to its training folds, and the strata of
the test actives by their nearest training active (analog, middle, novel).

The similarities are the project's exact Tanimoto similarities of the paper's fingerprints (the ones the rankers
read), through :meth:`crocbench.similarity.SimilarityIndex.neighbours`: exact, from the workflow's top-k lists
where they reach, else computed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._folds import DROPPED
from ._folds import split as fold_split

#: The strata of the test actives, from the most to the least like a training active.
STRATA = ("analog", "middle", "novel")
#: The columns of :func:`train_test_similarity`'s table.
OVERLAP_COLUMNS = ["id", "label", "fold", "to_train", "to_train_actives"]
#: Its two measures of a split's train-to-test similarity: the column, and what it measures.
MEASURES = {
    "to_train": "test compound to nearest training compound",
    "to_train_actives": "test active to nearest training active",
}
#: The name of the list of every test active, beside the strata.
ALL_ACTIVES = "all"


def read_split_groups(ids, scaffolds=None, clusters=None) -> dict:
    """The groups of the grouped splits, read from the workflow's files and checked against the compounds.

    Parameters
    ----------
    ids : array-like of str
        The compounds' ids, in the compounds table's order.
    scaffolds, clusters : path-like, default=None
        ``scaffolds/{kind}.parquet`` (``id``, ``scaffold``) and ``clusters.parquet`` (``id``, ``cluster``).

    Returns
    -------
    dict
        ``scaffolds`` and ``clusters`` arrays for those given, as :func:`crocbench.cv.fold_table` takes them.

    Raises
    ------
    ValueError
        A file does not list the compounds in their order.
    """
    ids = np.asarray(ids, dtype=object)
    out = {}
    for name, column, path in (("scaffolds", "scaffold", scaffolds), ("clusters", "cluster", clusters)):
        if path is None:
            continue
        table = pd.read_parquet(path)
        if not np.array_equal(table["id"].to_numpy(dtype=object), ids):
            raise ValueError(f"{path} does not list the compounds of the compounds table, in its order")
        out[name] = table[column].to_numpy()
    return out


def train_test_similarity(data, folds: pd.DataFrame, progress=None) -> pd.DataFrame:
    """Each compound's highest similarity, in the fold where it is tested, to that fold's training compounds and
    to its training actives.

    Parameters
    ----------
    data : SimilarityIndex
        The dataset's fingerprints (and top-k lists), one row per compound, in the order of ``folds``.
    folds : pandas.DataFrame
        The fold table (:func:`crocbench.cv.fold_table`): ``id``, ``label`` and ``fold``.
    progress : file-like, default=None
        A line per fold goes there; None for silence.

    Returns
    -------
    pandas.DataFrame
        ``OVERLAP_COLUMNS``: ``to_train`` the highest Tanimoto similarity to a compound of the other folds,
        ``to_train_actives`` the highest to an active of the other folds; float32, one row per compound in a
        fold (a compound of fold ``DROPPED`` (-1) has none), in input order.

    Examples
    --------
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> from crocbench.similarity import SimilarityIndex
    >>> fp = Fingerprints(np.array([0, 2, 4, 5, 6]), np.array([7, 9, 7, 11, 9, 11], dtype=np.uint64))
    >>> folds = pd.DataFrame({"id": list("abcd"), "label": [1, 0, 1, 0], "fold": [0, 0, 1, 1]})
    >>> t = train_test_similarity(SimilarityIndex(fp), folds)
    >>> t["to_train"].round(3).tolist(), t["to_train_actives"].round(3).tolist()
    ([0.5, 0.5, 0.5, 0.5], [0.5, 0.0, 0.5, 0.0])
    """
    if len(folds) != data.n:
        raise ValueError(f"a fold table of {len(folds)} compounds for fingerprints of {data.n}")
    fold = folds["fold"].to_numpy()
    label = folds["label"].to_numpy() == 1
    to_train = np.zeros(data.n, dtype=np.float32)
    to_actives = np.zeros(data.n, dtype=np.float32)
    for f in sorted(set(np.unique(fold).tolist()) - {DROPPED}):
        train, test = fold_split(fold, f)
        to_train[test] = data.neighbours(test, 1, among=train).similarity[:, 0]
        actives = train[label[train]]
        if actives.size:
            to_actives[test] = data.neighbours(test, 1, among=actives).similarity[:, 0]
        if progress is not None:
            print(f"fold {f}: {test.size:,} test compounds", file=progress, flush=True)
    kept = fold != DROPPED
    return pd.DataFrame(
        {
            "id": folds["id"].to_numpy()[kept],
            "label": folds["label"].to_numpy().astype(np.int8)[kept],
            "fold": fold[kept],
            "to_train": to_train[kept],
            "to_train_actives": to_actives[kept],
        }
    )


def split_overlaps(data, ids, y, splits, n_folds: int, seed: int, groups: dict | None = None, progress=None):
    """Each split's overlap table (:func:`train_test_similarity`), the splits made here with the run's settings.

    Parameters
    ----------
    data : SimilarityIndex
        The dataset's fingerprints (and top-k lists).
    ids, y : array-like of shape (n_compounds,)
        The compounds' ids and binary labels.
    splits : sequence of str
        Names from ``SPLITS``.
    n_folds, seed : int
        As the run's ``cv:``.
    groups : dict, default=None
        ``scaffolds`` and ``clusters`` (one per compound) for the grouped splits; ``novelty`` for the novelty split:
        ``fingerprints`` (its ECFP4 bits, :func:`crocbench.chem.graph.ecfp4_fingerprints`), ``tau`` and
        ``max_dropped``. The novelty split's overlap is measured on those fingerprints, so that its strata agree
        with it (every test active below ``tau``); the other splits' on ``data``.
    progress : file-like, default=None
        Progress lines go there.

    Returns
    -------
    overlaps : dict
        A split's name -> its overlap table, for the splits that could be made.
    notes : dict
        A split's name -> why it could not be made (e.g. fewer scaffold groups with positives than folds).
    """
    from ._folds import NOVELTY, fold_table

    groups = groups or {}
    arguments = {
        "random": {},
        "scaffold": {"scaffolds": groups.get("scaffolds")},
        "cluster": {"clusters": groups.get("clusters")},
        NOVELTY: {"novelty": groups.get("novelty")},
    }
    overlaps, notes = {}, {}
    for split in splits:
        if any(v is None for v in arguments[split].values()):
            raise ValueError(f"a {split} split needs its groups ({', '.join(arguments[split])})")
        measured = data
        try:
            if split == NOVELTY:
                folds, measured = _novelty_folds(ids, y, n_folds, seed, groups["novelty"])
            else:
                folds = fold_table(ids, y, n_folds, seed, **arguments[split])
        except ValueError as exc:
            notes[split] = str(exc)
            continue
        if progress is not None:
            print(f"{split} split:", file=progress, flush=True)
        overlaps[split] = train_test_similarity(measured, folds, progress=progress)
    return overlaps, notes


def _novelty_folds(ids, y, n_folds: int, seed: int, novelty: dict):
    """The novelty split's fold table (:func:`crocbench.cv.novelty_table`) and the index of its fingerprints."""
    from ..chem.graph import tau_graph
    from ..similarity import SimilarityIndex
    from ._novelty import novelty_table

    fp, tau = novelty["fingerprints"], novelty["tau"]
    folds = novelty_table(ids, y, tau_graph(fp, tau), tau, n_folds, seed, novelty["max_dropped"])
    return folds, SimilarityIndex(fp)


def check_strata_thresholds(novel: float, analog: float) -> tuple[float, float]:
    """The strata's thresholds, checked: ``0 < novel <= analog <= 1``, else a one-line ValueError.

    Parameters
    ----------
    novel, analog : float
        The thresholds of :func:`strata`.

    Returns
    -------
    tuple of float
        ``(novel, analog)`` as floats.
    """
    novel, analog = float(novel), float(analog)
    if not 0.0 < novel <= analog <= 1.0:
        raise ValueError(f"strata thresholds need 0 < novel <= analog <= 1; got novel {novel}, analog {analog}")
    return novel, analog


def strata(similarity, novel: float = 0.4, analog: float = 0.7) -> np.ndarray:
    """The stratum of each test active from its highest similarity to a training active.

    ``analog`` at or above ``analog``; ``novel`` below ``novel``; ``middle`` in between.  The thresholds are
    compared with the float32 similarities in float32 (a similarity of exactly 0.7 is an analog).

    Parameters
    ----------
    similarity : array-like of float
        Each active's ``to_train_actives`` (:func:`train_test_similarity`).
    novel, analog : float, default=0.4, 0.7
        The thresholds, ``0 < novel <= analog <= 1``.

    Returns
    -------
    ndarray of str (object)
        One of ``STRATA`` per active.

    Examples
    --------
    >>> strata([0.9, 0.7, 0.5, 0.4, 0.1]).tolist()
    ['analog', 'analog', 'middle', 'middle', 'novel']
    """
    novel, analog = check_strata_thresholds(novel, analog)
    s = np.asarray(similarity, dtype=np.float32)
    out = np.full(s.shape, "middle", dtype=object)
    out[s >= np.float32(analog)] = "analog"
    out[s < np.float32(novel)] = "novel"
    return out

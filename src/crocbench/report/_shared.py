"""How much a panel's screens share: the structures two or more screens hold. Tests across screens take the screens
as independent; screens drawn from one compound library (the MLSMR's, for the PubChem campaigns) are not."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd


def structure_keys(smiles) -> np.ndarray:
    """Each distinct structure of a screen as a 64-bit key of its standardized SMILES (pandas' hash), sorted.

    Examples
    --------
    >>> structure_keys(["CCO", "c1ccccc1", "CCO"]).size
    2
    """
    keys = pd.util.hash_pandas_object(pd.Series(list(smiles), dtype=object), index=False).to_numpy()
    return np.unique(keys)


def shared_structures(keys: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The structures the screens share.

    Parameters
    ----------
    keys : dict
        ``{screen: structure_keys(its compounds' SMILES)}``, in the panel's order.

    Returns
    -------
    counts : DataFrame
        ``screens`` (k, 1 to the number of screens) and ``structures``: how many structures exactly k screens hold.
    pairs : DataFrame
        ``a``, ``b``, ``structures_a``, ``structures_b`` and ``shared`` for every pair of screens.

    Examples
    --------
    >>> counts, pairs = shared_structures({"x": np.array([1, 2, 3]), "y": np.array([2, 3, 4]), "z": np.array([3])})
    >>> counts["structures"].tolist(), pairs["shared"].tolist()
    ([2, 1, 1], [2, 1, 1])
    """
    every = np.concatenate(list(keys.values()))
    _, held = np.unique(every, return_counts=True)
    counts = pd.DataFrame({"screens": np.arange(1, len(keys) + 1)})
    counts["structures"] = [int((held == k).sum()) for k in counts["screens"]]
    rows = [
        {
            "a": a,
            "b": b,
            "structures_a": int(keys[a].size),
            "structures_b": int(keys[b].size),
            "shared": int(np.intersect1d(keys[a], keys[b], assume_unique=True).size),
        }
        for a, b in itertools.combinations(keys, 2)
    ]
    return counts, pd.DataFrame(rows, columns=["a", "b", "structures_a", "structures_b", "shared"])


def shared_markdown(counts: pd.DataFrame, pairs: pd.DataFrame) -> str:
    """One paragraph: how many structures two or more screens and all of them hold, and what share of the smaller
    screen of a pair the pair shares (median and largest), with what that means for the tests across screens.

    Examples
    --------
    >>> counts, pairs = shared_structures({"x": np.array([1, 2, 3]), "y": np.array([2, 3, 4]), "z": np.array([3])})
    >>> print(shared_markdown(counts, pairs))  # doctest: +NORMALIZE_WHITESPACE
    The 3 screens hold 4 distinct structures; 2 of them (50%) are in two or more screens and 1 in all 3. A pair of
    screens shares a median 100% of the smaller screen's structures (at most 100%). The tests across screens take the
    screens as independent samples; sharing compounds, they are not, so their p-values are optimistic.
    """
    n = int(counts["screens"].max())
    total = int(counts["structures"].sum())
    several = int(counts.loc[counts["screens"] >= 2, "structures"].sum())
    everywhere = int(counts.loc[counts["screens"] == n, "structures"].sum())
    share = pairs["shared"] / np.minimum(pairs["structures_a"], pairs["structures_b"]).clip(lower=1)
    return (
        f"The {n} screens hold {total:,} distinct structures; {several:,} of them ({100 * several / total:.0f}%) are in "
        f"two or more screens and {everywhere:,} in all {n}. A pair of screens shares a median "
        f"{100 * share.median():.0f}% of the smaller screen's structures (at most {100 * share.max():.0f}%). The tests "
        "across screens take the screens as independent samples; sharing compounds, they are not, so their p-values "
        "are optimistic."
    )

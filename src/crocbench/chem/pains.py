"""PAINS flags (RDKit's ``FilterCatalog``): the compounds a screen's hits are often false positives among.

Baell and Holloway (2010) listed 480 substructures, in three families (PAINS A, B and C), that turn up as hits of
many unrelated assays through reactivity, redox cycling, aggregation or interference with the read-out. RDKit
ships them as a filter catalog. A compound is *flagged* when any of them matches it; a study then reports its
verdict with the flagged compounds removed, so that no ranker leads by finding assay artefacts.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._extras import needs
from .._parallel import map_chunks

#: The separator of a compound's alert names in :func:`pains_table`.
SEPARATOR = ";"
#: Compounds a process checks at a time (and a progress line each).
CHUNK = 5_000


@functools.cache
def _catalog():
    with needs("crocbench.chem.pains"):
        from rdkit.Chem import FilterCatalog

    params = FilterCatalog.FilterCatalogParams()
    params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.PAINS)
    return FilterCatalog.FilterCatalog(params)


def _alerts(smiles: Sequence[str]) -> list:
    """:func:`pains_alerts` of one chunk, in one process (its catalog built once, or inherited from the parent)."""
    with needs("crocbench.chem.pains"):
        from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")  # the compounds were standardized: RDKit's warnings would be noise
    catalog = _catalog()
    out = []
    for s in smiles:
        mol = Chem.MolFromSmiles(s)
        if mol is None:
            raise ValueError(f"SMILES {s!r} does not parse")
        out.append(tuple(sorted({m.GetDescription() for m in catalog.GetMatches(mol)})))
    return out


def pains_alerts(smiles, progress=None, n_jobs: int = 1) -> list:
    """The PAINS alerts of each compound: a tuple of the matching filters' names (e.g. ``ene_rhod_A(235)``), empty
    for none.

    Parameters
    ----------
    smiles : iterable of str
        The compounds, standardized.
    progress : file-like, default=None
        Gets a line every :data:`CHUNK` compounds.
    n_jobs : int, default=1
        Processes that check chunks of :data:`CHUNK` compounds at once; the result does not depend on it.

    Returns
    -------
    list of tuple of str

    Raises
    ------
    ValueError
        A SMILES that does not parse.

    Examples
    --------
    >>> pains_alerts(["O=C1NC(=S)SC1=Cc1ccccc1", "c1ccccc1O"])
    [('ene_rhod_A(235)',), ()]
    """
    parts = map_chunks(_alerts, smiles, n_jobs, CHUNK, progress, "compounds checked for PAINS")
    return [alerts for part in parts for alerts in part]


def pains_table(ids, smiles, progress=None, n_jobs: int = 1) -> pd.DataFrame:
    """``id``, ``pains`` (flagged: any alert) and ``alerts`` (their names, ``;``-separated) of each compound
    (:func:`pains_alerts`, on ``n_jobs`` processes).

    Examples
    --------
    >>> pains_table(["a", "b"], ["Oc1ccccc1O", "CCO"]).to_dict("records")
    [{'id': 'a', 'pains': True, 'alerts': 'catechol_A(92)'}, {'id': 'b', 'pains': False, 'alerts': ''}]
    """
    alerts = pains_alerts(smiles, progress, n_jobs)
    return pd.DataFrame(
        {
            "id": np.asarray(ids, dtype=str),
            "pains": np.array([bool(a) for a in alerts], dtype=bool),
            "alerts": [SEPARATOR.join(a) for a in alerts],
        }
    )


def without_flagged(scores: pd.DataFrame, flags: pd.DataFrame) -> pd.DataFrame:
    """A run's pooled scores without the flagged compounds, in the same order.

    Parameters
    ----------
    scores : DataFrame
        Pooled scores (``id``, ``label``, ``score``, ...).
    flags : DataFrame
        :func:`pains_table`'s output for the same screen (``id``, ``pains``).

    Returns
    -------
    DataFrame

    Raises
    ------
    ValueError
        A scored compound that ``flags`` does not list.

    Examples
    --------
    >>> s = pd.DataFrame({"id": ["a", "b", "c"], "label": [1, 0, 1], "score": [0.2, 0.5, 0.9]})
    >>> without_flagged(s, pd.DataFrame({"id": ["c", "a", "b"], "pains": [False, True, False]}))["id"].tolist()
    ['b', 'c']
    """
    flagged = flags.set_index("id")["pains"]
    ids = scores["id"].astype(str)
    missing = ~ids.isin(flagged.index)
    if missing.any():
        raise ValueError(f"{int(missing.sum())} scored compounds have no PAINS flag (first: {ids[missing].iloc[0]!r})")
    keep = ~flagged.loc[ids].to_numpy(dtype=bool)
    return scores[keep].reset_index(drop=True)


def flag_counts(flags: pd.DataFrame, scores: pd.DataFrame) -> dict:
    """A screen's compounds and actives, and how many of each are flagged.

    Parameters
    ----------
    flags : DataFrame
        :func:`pains_table`'s output.
    scores : DataFrame
        A run's pooled scores of the screen (``id``, ``label``).

    Returns
    -------
    dict
        ``compounds``, ``flagged``, ``actives``, ``flagged_actives``.

    Examples
    --------
    >>> s = pd.DataFrame({"id": ["a", "b", "c"], "label": [1, 0, 1]})
    >>> flag_counts(pd.DataFrame({"id": ["a", "b", "c"], "pains": [True, True, False]}), s)
    {'compounds': 3, 'flagged': 2, 'actives': 2, 'flagged_actives': 1}
    """
    flagged = flags.set_index("id")["pains"].loc[scores["id"].astype(str)].to_numpy(dtype=bool)
    label = scores["label"].to_numpy() == 1
    return {
        "compounds": int(label.size),
        "flagged": int(flagged.sum()),
        "actives": int(label.sum()),
        "flagged_actives": int((flagged & label).sum()),
    }

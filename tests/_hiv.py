"""A sample of the real DTP AIDS screen for the tests that need real chemistry (the mirror's HIV_41913.csv)."""

from __future__ import annotations

import pandas as pd


def hiv_sample(mirror, step: int) -> pd.DataFrame:
    """Every ``step``-th record of the screen that RDKit parses, labelled CA/CM active (``label``), with ids
    ``m0, m1, ...`` (``id``), in file order."""
    from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    table = pd.read_csv(mirror / "HIV_41913.csv").iloc[::step]
    table = table[[Chem.MolFromSmiles(s) is not None for s in table["smiles"]]].reset_index(drop=True)
    table["label"] = table["activity"].isin(["CA", "CM"]).astype(int)
    table["id"] = [f"m{i}" for i in range(len(table))]
    return table

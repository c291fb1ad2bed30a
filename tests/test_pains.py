"""crocbench.chem.pains: PAINS flags of compounds Baell and Holloway name, the scores without them, the counts, and
their Markdown."""

import io

import pandas as pd
import pytest

from crocbench.chem.pains import flag_counts, pains_alerts, pains_table, without_flagged
from crocbench.report.findings import pains_markdown

# Structures of PAINS families named by Baell and Holloway (2010), and compounds of no family
PAINS = {
    "O=C1NC(=S)SC1=Cc1ccccc1": "ene_rhod",  # 5-benzylidene rhodanine
    "Oc1ccccc1O": "catechol",
    "O=C1C=CC(=O)C=C1": "quinone",  # p-benzoquinone
    "CN(C)c1ccc(N=Nc2ccccc2)cc1": "azo",  # 4-dimethylaminoazobenzene
}
CLEAN = ["CC(=O)Oc1ccccc1C(=O)O", "CCO", "c1ccccc1", "CC(C)Cc1ccc(C(C)C(=O)O)cc1"]  # aspirin, ethanol, ibuprofen


def test_the_named_families_are_flagged_and_plain_drugs_are_not():
    alerts = pains_alerts([*PAINS, *CLEAN])
    for found, family in zip(alerts, PAINS.values()):
        assert any(a.startswith(family) for a in found), (family, found)
    assert alerts[len(PAINS) :] == [()] * len(CLEAN)
    table = pains_table(list("abcdefgh"), [*PAINS, *CLEAN])
    assert table["pains"].tolist() == [True] * 4 + [False] * 4
    assert table["alerts"][4:].tolist() == [""] * 4 and all(table["alerts"][:4].str.len() > 0)
    with pytest.raises(ValueError, match="does not parse"):
        pains_alerts(["C1CC"])


def test_chunks_on_two_processes_give_what_rdkit_gives_in_order(monkeypatch):
    """Chunks of 3 on two processes: each compound's alerts in input order, flagged where RDKit's own PAINS catalog
    has a match, and the same alerts as one process; a bad SMILES in a worker's chunk still stops it."""
    from rdkit import Chem
    from rdkit.Chem import FilterCatalog

    import crocbench.chem.pains as pains

    params = FilterCatalog.FilterCatalogParams()
    params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.PAINS)
    catalog = FilterCatalog.FilterCatalog(params)
    smiles = [*PAINS, *CLEAN, *reversed(list(PAINS)), "Oc1ccc(O)cc1"]  # 13 compounds: 5 chunks
    monkeypatch.setattr(pains, "CHUNK", 3)
    lines = io.StringIO()
    two = pains_alerts(smiles, progress=lines, n_jobs=2)
    assert [bool(a) for a in two] == [catalog.HasMatch(Chem.MolFromSmiles(s)) for s in smiles]
    assert two == pains_alerts(smiles) and two[8:12] == two[:4][::-1]
    assert lines.getvalue().splitlines()[-1] == "compounds checked for PAINS: 13/13"
    with pytest.raises(ValueError, match="SMILES 'C1CC' does not parse"):
        pains_alerts([*CLEAN, "C1CC"], n_jobs=2)


def test_scores_without_the_flagged_compounds_and_the_counts():
    scores = pd.DataFrame({"id": list("abcde"), "label": [1, 0, 1, 0, 1], "score": [5.0, 4, 3, 2, 1]})
    flags = pd.DataFrame({"id": list("edcba"), "pains": [True, True, True, False, False]})  # c, d and e flagged
    kept = without_flagged(scores, flags)
    assert kept["id"].tolist() == ["a", "b"] and kept["score"].tolist() == [5.0, 4]
    assert flag_counts(flags, scores) == {"compounds": 5, "flagged": 3, "actives": 3, "flagged_actives": 2}
    with pytest.raises(ValueError, match="1 scored compounds have no PAINS flag \\(first: 'e'\\)"):
        without_flagged(scores, flags[flags["id"] != "e"])


def test_the_markdown_counts_every_screen_and_tests_the_declared_family_without_them():
    counts = pd.DataFrame(
        [
            {"dataset": "s1", "compounds": 1000, "flagged": 50, "actives": 40, "flagged_actives": 10},
            {"dataset": "s2", "compounds": 2000, "flagged": 100, "actives": 20, "flagged_actives": 0},
        ]
    )
    without = pd.DataFrame(
        {
            "dataset": ["s1", "s1", "s2", "s2"],
            "model": ["A", "B", "A", "B"],
            "roc": [0.8, 0.7, 0.75, 0.7],
        }
    )
    text = pains_markdown(counts, without)
    assert "150 of 3,000 compounds and 10 of 60 actives over 2 screens" in text
    assert (
        "| s1 | 1000 | 50 | 5.0% | 40 | 10 | 25.0% |" in text and "| s2 | 2000 | 100 | 5.0% | 20 | 0 | 0.0% |" in text
    )
    assert "declared family" not in text
    questions = {
        "declared": "before the run",
        "metric_of_record": "roc",
        "pairs": [["A", "B"]],
        "metrics": ["roc"],
        "thresholds": {"roc": 0.01},
    }
    text = pains_markdown(counts, without, questions)
    # A - B on the two screens: 0.1 and 0.05, mean 0.075; two wins
    assert "The declared family (before the run)" in text and "| A vs B | AUC[ROC] | 2-0 | +0.075 [" in text

"""Seeded synthetic screens (``crocbench synthesize``) and dataset files built by a command."""

import pandas as pd
import pytest
from rdkit import Chem

from crocbench.cli import main
from crocbench.data._synthesize import synthesize

SOURCE = [
    "CCOc1ccc(CC(=O)O)cc1",
    "Nc1ncnc2c1ncn2C1CC(N=[N+]=[N-])C(CO)O1",
    "CC(C)Cc1ccc(C(C)C(=O)O)cc1",
    "O=C(O)c1ccccc1O",
    "CN1CCC[C@H]1c1cccnc1",
    "Clc1ccc(Cl)cc1",
    "OCC(O)CO",
    "c1ccc2[nH]ccc2c1",
]
LABELS = [0, 1, 0, 0, 1, 0, 0, 0]


def test_synthesize_distinct_parseable_deterministic_whatever_the_processes():
    a = synthesize(600, SOURCE, LABELS, seed=3, n_jobs=1, chunk=64)
    b = synthesize(600, SOURCE, LABELS, seed=3, n_jobs=2, chunk=64)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["id", "smiles", "label"] and a["id"].is_unique and a["smiles"].is_unique
    assert a["id"].iloc[0] == "syn001" and len(a) == 600
    assert all(Chem.MolFromSmiles(s) is not None for s in a["smiles"])
    assert not a.equals(synthesize(600, SOURCE, LABELS, seed=4, chunk=64))
    # the first n of a larger screen are the smaller screen (chunks are drawn in order)
    pd.testing.assert_frame_equal(
        synthesize(100, SOURCE, LABELS, seed=3, chunk=64), a.iloc[:100].reset_index(drop=True)
    )


def test_synthetic_labels_are_their_sources():
    # one source positive, the others negative: a molecule is positive iff it was made from it; its edits keep the
    # azide (N=[N+]=[N-]) or sugar-nucleoside core often enough to tell: every positive has the purine's 5 N
    screen = synthesize(300, SOURCE, LABELS, seed=0, chunk=64)
    for smiles, label in zip(screen["smiles"], screen["label"]):
        n_nitrogen = sum(a.GetAtomicNum() == 7 for a in Chem.MolFromSmiles(smiles).GetAtoms())
        if label == 1 and n_nitrogen < 1:
            pytest.fail(f"{smiles}: a positive with no nitrogen (both positive sources have several)")
    rate = screen["label"].mean()
    assert 0.1 < rate < 0.45  # 2 of 8 sources: 25% expected


def test_synthesize_command_line(tmp_path, capsys, monkeypatch):
    """The command's arguments reach :func:`synthesize` (its chunks of 64 draws here, not 4,000: the same code on
    the draws 50 molecules need)."""
    import crocbench.data._synthesize as module

    calls = []

    def small_chunks(*args, **kwargs):
        calls.append((args, kwargs))
        return synthesize(*args, **kwargs, chunk=64)

    monkeypatch.setattr(module, "synthesize", small_chunks)
    source = tmp_path / "src.csv"
    pd.DataFrame({"smiles": SOURCE, "activity": ["CI", "CA", "CI", "CI", "CM", "CI", "CI", "CI"]}).to_csv(source)
    out = tmp_path / "screen.csv"
    assert main(["synthesize", "--n", "50", "--seed", "1", "--source", str(source), "--out", str(out)]) == 0
    assert len(calls) == 1 and calls[0][0][0] == 50 and calls[0][1]["seed"] == 1
    table = pd.read_csv(out)
    assert len(table) == 50 and set(table["label"]) <= {0, 1}
    pd.testing.assert_frame_equal(table, synthesize(50, SOURCE, LABELS, seed=1, chunk=64), check_dtype=False)
    err = capsys.readouterr().err
    assert "synthetic: 50 molecules" in err and "% positive, features per molecule" in err
    assert main(["synthesize", "--n", "5", "--source", str(tmp_path / "nope.csv"), "--out", str(out)]) == 2
    assert "source file" in capsys.readouterr().err

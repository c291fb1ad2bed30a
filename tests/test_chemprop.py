"""chemprop (the gnn extra): the same D-MPNN built and trained directly with Chemprop gives the same scores, and
the same seed the same bits on the CPU. Skipped where Chemprop is not installed (CI installs envs/gnn.txt)."""

import numpy as np
import pandas as pd
import pytest

from crocbench.chem.fingerprints import fingerprints_from_smiles
from crocbench.models import make_model, seed_state
from crocbench.similarity import SimilarityIndex

chemprop = pytest.importorskip("chemprop")
SCREEN = pd.read_csv(__import__("pathlib").Path(__file__).resolve().parents[1] / ".test" / "data" / "screen.csv")
SMALL = {"epochs": 2, "hidden": 32, "ffn_hidden": 16, "batch_size": 16}


@pytest.fixture(scope="module")
def data():
    smiles = SCREEN["smiles"].tolist()
    y = SCREEN["activity"].isin(["CA", "CM"]).astype(int).to_numpy()
    sim = SimilarityIndex(fingerprints_from_smiles(smiles)[1], smiles=smiles)
    return sim, y, np.arange(0, 96, 2), np.arange(1, 96, 2)


def _direct(smiles_train, y, smiles_test, seed):
    """Chemprop's own recipe (its docs' training example), written out: the logits of the test molecules."""
    import lightning.pytorch as pl
    import torch
    from chemprop import data as cdata
    from chemprop import featurizers, models, nn

    torch.set_num_threads(1)
    state = seed_state(seed)
    pl.seed_everything(state, workers=True, verbose=False)
    mpnn = models.MPNN(
        nn.BondMessagePassing(d_h=32, depth=3),
        nn.MeanAggregation(),
        nn.BinaryClassificationFFN(input_dim=32, hidden_dim=16),
    )
    featurizer = featurizers.SimpleMoleculeMolGraphFeaturizer()

    def loader(smiles, labels, shuffle):
        points = [cdata.MoleculeDatapoint.from_smi(s, np.array([float(v)])) for s, v in zip(smiles, labels)]
        return cdata.build_dataloader(
            cdata.MoleculeDataset(points, featurizer), batch_size=16, num_workers=0, seed=state, shuffle=shuffle
        )

    trainer = pl.Trainer(
        max_epochs=2, accelerator="cpu", devices=1, deterministic=True, logger=False, enable_checkpointing=False
    )
    trainer.fit(mpnn, loader(smiles_train, y, True))
    mpnn.eval()
    with torch.no_grad():
        probabilities = torch.cat(trainer.predict(mpnn, loader(smiles_test, np.zeros(len(smiles_test)), False)))
    return probabilities[:, 0].double().numpy()


def test_chemprop_equals_chemprop_trained_directly(data):
    sim, y, train, test = data
    model = make_model("chemprop", SMALL, seed=(0, 1), n_jobs=1).fit(sim, train, y[train])
    logits = model.score(sim, test)
    direct = _direct(sim.smiles[train], y[train], sim.smiles[test], (0, 1))
    assert np.allclose(1 / (1 + np.exp(-logits)), direct, rtol=0, atol=1e-6)  # its predictions are the sigmoid
    assert model.info() == {"device": "cpu"} and len(np.unique(logits)) > 20


def test_the_same_seed_gives_the_same_bits_on_the_cpu(data):
    sim, y, train, test = data
    runs = [
        make_model("chemprop", SMALL, seed=s, n_jobs=1).fit(sim, train, y[train]).score(sim, test)
        for s in [(0, 2), (0, 2), (0, 3)]
    ]
    assert np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[0], runs[2])


def test_bad_parameters_stop_in_one_line_naming_the_entry():
    with pytest.raises(ValueError, match="model chemprop: epochs, hidden, depth"):
        make_model("chemprop", {"depth": 0})


def test_the_gpu_script_writes_the_fold_jobs_scores_in_the_import_format(tmp_path, data):
    """benchmarks/studies/chemprop_folds.py (folds side by side, on a GPU where lent) gives the scores the
    workflow's fold jobs would (same seeds, bit for bit on the CPU), in a file import_scores accepts."""
    import subprocess
    import sys
    from pathlib import Path

    from crocbench.cv import import_scores, repeat_seed, score_fold

    sim, y, _, _ = data
    folds = pd.DataFrame({"id": [f"c{i}" for i in range(96)], "label": y, "fold": np.arange(96) % 2})
    pd.DataFrame({"id": folds["id"], "smiles": sim.smiles}).to_parquet(tmp_path / "compounds.parquet")
    folds.to_csv(tmp_path / "folds.tsv", sep="\t", index=False)
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [
            sys.executable,
            str(root / "benchmarks/studies/chemprop_folds.py"),
            str(tmp_path),
            "--out",
            str(tmp_path / "scores.tsv"),
            "--workers",
            "2",
            "--epochs",
            "1",
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    assert "fold 0: 48 compounds" in done.stdout and "fold 1: 48 compounds" in done.stdout
    table = pd.read_csv(tmp_path / "scores.tsv", sep="\t")
    pooled = import_scores(table, folds, id="id", score="score", fold="fold", source="scores.tsv")
    for k in (0, 1):
        model = make_model("chemprop", {"epochs": 1}, seed=(repeat_seed(3, 0), k), n_jobs=1)
        want = score_fold(model, sim, folds, k).set_index("id")["score"]
        got = pooled.set_index("id").loc[want.index, "score"]
        assert np.allclose(got, want, rtol=1e-9, atol=0)  # the file keeps 10 significant digits

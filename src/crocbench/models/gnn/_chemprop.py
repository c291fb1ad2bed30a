"""Chemprop v2's D-MPNN, a message-passing graph network on the standardized structures (the ``gnn`` extra)."""

from __future__ import annotations

import logging
import warnings

import numpy as np

from ..._extras import needs
from .._base import Model, seed_state

_FEATURE = "crocbench.models.Chemprop"


class Chemprop(Model):
    """Chemprop's D-MPNN (directed bond message passing, mean aggregation, a feed-forward binary classifier).

    Trained by Lightning with Chemprop's own schedule (Adam; the learning rate rises from ``init_lr`` to ``max_lr``
    over ``warmup_epochs``, then decays to ``final_lr``) on seeded mini-batches.  It uses the GPU when torch sees
    one and the CPU otherwise; on the CPU it is deterministic for a given seed and thread count (Lightning's
    ``deterministic=True``).  The score is the classifier's logit, before the sigmoid.
    ``pip install 'crocbench[gnn]'`` installs Chemprop.

    Parameters
    ----------
    epochs : int, default=30
        Passes over the training compounds.
    hidden : int, default=300
        The message passing's hidden width.
    depth : int, default=3
        Message-passing steps.
    ffn_hidden : int, default=300
        The classifier's hidden width.
    ffn_layers : int, default=1
        Its hidden layers.
    dropout : float, default=0.0
        Dropout in both.
    batch_size : int, default=64
        Molecules per step.
    warmup_epochs, init_lr, max_lr, final_lr : int, float, float, float
        Chemprop's learning-rate schedule (2, 1e-4, 1e-3, 1e-4).
    seed : int or tuple of int, default=0
        Given by the workflow.
    n_jobs : int, default=1
        Given by the workflow: torch's threads.
    """

    name, label = "chemprop", "Chemprop"
    search_space = {"depth": [3, 4, 5], "dropout": [0.0, 0.1, 0.2], "hidden": [300, 600]}  # the tuning space (Tuned)
    uses_neighbours = False

    def __init__(
        self,
        epochs: int = 30,
        hidden: int = 300,
        depth: int = 3,
        ffn_hidden: int = 300,
        ffn_layers: int = 1,
        dropout: float = 0.0,
        batch_size: int = 64,
        warmup_epochs: int = 2,
        init_lr: float = 1e-4,
        max_lr: float = 1e-3,
        final_lr: float = 1e-4,
        seed=0,
        n_jobs: int = 1,
    ):
        sizes = (epochs, hidden, depth, ffn_hidden, ffn_layers, batch_size)
        if min(int(v) for v in sizes) < 1 or int(warmup_epochs) < 0:
            raise ValueError("epochs, hidden, depth, ffn_hidden, ffn_layers and batch_size must be >= 1")
        if not 0 <= float(dropout) < 1 or min(float(init_lr), float(max_lr), float(final_lr)) <= 0:
            raise ValueError(f"dropout must lie in [0, 1) and the learning rates be > 0; got dropout {dropout}")
        self.epochs, self.hidden, self.depth, self.ffn_hidden, self.ffn_layers, self.batch_size = map(int, sizes)
        self.dropout, self.warmup_epochs = float(dropout), int(warmup_epochs)
        self.init_lr, self.max_lr, self.final_lr = float(init_lr), float(max_lr), float(final_lr)
        self.seed, self.n_jobs = seed, max(1, int(n_jobs or 1))

    def network(self):
        """The untrained D-MPNN, its weights drawn from the fold's seed.

        Returns
        -------
        chemprop.models.MPNN
            Bond message passing, mean aggregation, a binary classification head.
        """
        with needs(_FEATURE):
            import lightning.pytorch as pl
            from chemprop import models, nn

        pl.seed_everything(seed_state(self.seed), workers=True, verbose=False)
        return models.MPNN(
            nn.BondMessagePassing(d_h=self.hidden, depth=self.depth, dropout=self.dropout),
            nn.MeanAggregation(),
            nn.BinaryClassificationFFN(
                input_dim=self.hidden, hidden_dim=self.ffn_hidden, n_layers=self.ffn_layers, dropout=self.dropout
            ),
            warmup_epochs=self.warmup_epochs,
            init_lr=self.init_lr,
            max_lr=self.max_lr,
            final_lr=self.final_lr,
        )

    def _loader(self, smiles, y=None, shuffle=False):
        with needs(_FEATURE):
            from chemprop import data as cdata
            from chemprop import featurizers

        labels = np.zeros(len(smiles)) if y is None else np.asarray(y, dtype=np.float64)
        points = [cdata.MoleculeDatapoint.from_smi(s, np.array([v])) for s, v in zip(smiles, labels)]
        dataset = cdata.MoleculeDataset(points, featurizers.SimpleMoleculeMolGraphFeaturizer())
        dataset.cache = shuffle  # training reads every graph once an epoch: featurize it once, not every epoch
        return cdata.build_dataloader(
            dataset, batch_size=self.batch_size, num_workers=0, seed=seed_state(self.seed), shuffle=shuffle
        )

    def _fit(self, data, train, y):
        with needs(_FEATURE):
            import lightning.pytorch as pl
            import torch

        if data.smiles is None:
            raise ValueError("chemprop reads the compounds' SMILES, and this dataset has none")
        torch.set_num_threads(self.n_jobs)
        for name in ("lightning.pytorch", "lightning.fabric"):  # its banners and tips, not the job's log
            logging.getLogger(name).setLevel(logging.ERROR)
        self.net_ = self.network()
        gpu = torch.cuda.is_available()
        trainer = pl.Trainer(
            max_epochs=self.epochs,
            accelerator="gpu" if gpu else "cpu",
            devices=1,
            deterministic=not gpu,
            logger=False,
            enable_checkpointing=False,
            enable_progress_bar=False,
            enable_model_summary=False,
        )
        with warnings.catch_warnings():  # Lightning's advice on workers and its own deprecations
            warnings.simplefilter("ignore")
            trainer.fit(self.net_, self._loader(data.smiles[train], y, shuffle=True))
        self.device_ = str(trainer.strategy.root_device)  # Lightning hands the net back on the CPU after fitting

    def _score(self, data, rows):
        with needs(_FEATURE):
            import torch

        self.net_.eval()
        device = next(self.net_.parameters()).device
        out = []
        with torch.no_grad():
            for batch in self._loader(data.smiles[rows]):
                batch.bmg.to(device)
                logits = self.net_.predictor.train_step(self.net_.fingerprint(batch.bmg, batch.V_d, batch.X_d))
                out.append(logits[:, 0].double().cpu().numpy())
        return np.concatenate(out) if out else np.empty(0)

    def info(self) -> dict:
        """The device it trained on.

        Returns
        -------
        dict
            ``device``.
        """
        return {"device": self.device_}

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """Two threads; the featurized graphs, about 1.5 GB plus 20 kB a compound.

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of folds.

        Returns
        -------
        dict
            ``{"threads": 2, "mem_mb": ...}``.
        """
        return {"threads": 2, "mem_mb": int(1500 + 0.02 * n_compounds)}

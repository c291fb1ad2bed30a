"""A torch MLP on ECFP, trained with cross-entropy, optionally with the paper's rank reweighting.

The reweighting is the IRV's (:class:`~crocbench.models.Reweighting`, the paper's Appendix A): after each epoch the
training compounds are ranked by the network's current scores and the next epoch's loss weighs each compound by its
scheme's ``h(rank)``, scaled so the weights average 1 (``none``: plain cross-entropy).

The first layer reads the sparse fingerprint as it is: ``x W + b`` is the sum of the rows of ``W`` at the set
bits (weighted by the counts), torch's ``embedding_bag``, so a step costs the ~45 set bits of each compound
rather than a dense 2,048-wide product; Adam is torch's fused kernel.  Both are the dense layer's and
``torch.optim.Adam``'s arithmetic in another order: the same fit to float32 rounding (tests/test_mlp.py).
"""

from __future__ import annotations

import numpy as np

from ..._extras import needs
from ...metrics import Ranking, parse_metric
from .._reweight import SCHEMES, Reweighting
from ._models import EcfpModel, inner_split


class MLP(EcfpModel):
    """A multilayer perceptron on ECFP: ``hidden`` ReLU layers with dropout, one logit out; Adam on mini-batches.

    Training is deterministic on the CPU for a given seed and thread count: the weights' initialization, the
    dropout masks and the batches' order all come from the fold's seed.  The score is the logit.

    By default training stops early, as :class:`~crocbench.models.GBM`'s boosting does: ``stop_fraction`` of the training compounds
    (stratified, seeded, the same split as GBM's) is held out, ``stop_metric`` is computed on them after each epoch,
    training stops when it has not improved for ``patience`` epochs, and the network keeps the best epoch's
    weights.  ``patience: null`` trains every epoch on every training compound.

    Parameters
    ----------
    hidden : list of int, default=(1024,)
        The hidden layers' widths.
    dropout : float, default=0.2
        Dropout after each hidden layer.
    epochs : int, default=20
        Passes over the training compounds at most.
    batch_size : int, default=128
        Compounds per step.
    lr : float, default=1e-3
        Adam's learning rate.
    weight_decay : float, default=1e-5
        Adam's L2 penalty.
    reweight : str, default="none"
        The reweighting scheme (``crocbench.models.SCHEMES``); ``none`` is plain cross-entropy.
    alpha, alpha_start, alpha_end, anneal_epochs : float, float, float, int
        The schemes' parameters (:class:`~crocbench.models.Reweighting`).
    patience : int or None, default=3
        Epochs without improvement of ``stop_metric`` on the held-out share before stopping; None: no early
        stopping.
    stop_fraction : float, default=0.1
        The share of the training compounds held out for stopping.
    stop_metric : str, default="average_precision"
        The crocbench metric (:func:`crocbench.metrics.parse_metric`) that decides the epoch.
    counts : bool, default=False
        Counts instead of bits.
    seed : int or tuple of int, default=0
        Given by the workflow.
    n_jobs : int, default=1
        Given by the workflow: torch's threads.
    threads : int, default=2
        A fold job's threads. 1 lets two folds run side by side on two cores.
    progress : file-like, default=None
        Given by the workflow: a line per epoch.
    """

    name, label = "mlp", "MLP"
    search_space = {  # the tuning space (crocbench.models.Tuned)
        "hidden": [[512], [1024], [2048]],
        "dropout": [0.1, 0.2, 0.5],
        "lr": [0.0003, 0.001],
        "weight_decay": [0.0, 1.0e-5],
    }

    def __init__(
        self,
        hidden=(1024,),
        dropout: float = 0.2,
        epochs: int = 20,
        batch_size: int = 128,
        lr: float = 1e-3,
        weight_decay: float = 1e-5,
        reweight: str = "none",
        alpha: float = 20.0,
        alpha_start: float = 1.0,
        alpha_end: float = 20.0,
        anneal_epochs: int = 20,
        patience: int | None = 3,
        stop_fraction: float = 0.1,
        stop_metric: str = "average_precision",
        counts=False,
        seed=0,
        n_jobs=1,
        progress=None,
        threads: int = 2,
    ):
        super().__init__(counts, seed, n_jobs, threads)
        self.hidden = [int(h) for h in np.atleast_1d(hidden)]
        if not self.hidden or min(self.hidden) < 1 or min(int(epochs), int(batch_size)) < 1:
            raise ValueError("hidden widths, epochs and batch_size must be >= 1")
        if not 0 <= float(dropout) < 1 or not float(lr) > 0 or float(weight_decay) < 0:
            raise ValueError(
                f"dropout must lie in [0, 1), lr > 0, weight_decay >= 0; got {dropout}, {lr}, {weight_decay}"
            )
        if reweight not in SCHEMES:
            raise ValueError(f"unknown reweighting scheme {reweight!r}; schemes are: {', '.join(SCHEMES)}")
        self.dropout, self.epochs, self.batch_size = float(dropout), int(epochs), int(batch_size)
        self.lr, self.weight_decay, self.progress = float(lr), float(weight_decay), progress
        self.reweighting = Reweighting(reweight, float(alpha), float(alpha_start), float(alpha_end), int(anneal_epochs))
        if patience is not None and int(patience) < 1:
            raise ValueError(f"patience must be >= 1 or null; got {patience}")
        if not 0 < float(stop_fraction) <= 0.5:
            raise ValueError(f"stop_fraction must lie in (0, 0.5]; got {stop_fraction}")
        self.patience = None if patience is None else int(patience)
        self.stop_fraction, self.stop_metric = float(stop_fraction), str(stop_metric)
        parse_metric(self.stop_metric)  # an unknown metric: one line now, not in the fold job

    def network(self, n_features: int):
        """The untrained network, its weights drawn from the fold's seed.

        Parameters
        ----------
        n_features : int
            The input width.

        Returns
        -------
        torch.nn.Module
            ``Linear, ReLU, Dropout`` per hidden layer, then ``Linear(., 1)``, with torch's initialization drawn
            in that order; it is called on a CSR matrix of ``n_features`` columns.
        """
        with needs("crocbench.models"):
            import torch

        torch.manual_seed(self.random_state)
        layers, width = [], n_features
        for h in self.hidden:
            layers += [torch.nn.Linear(width, h), torch.nn.ReLU(), torch.nn.Dropout(self.dropout)]
            width = h
        return _SparseInputNet(layers[0], torch.nn.Sequential(*layers[1:], torch.nn.Linear(width, 1)))

    def _fit(self, data, train, y):
        with needs("crocbench.models"):
            import torch

        torch.set_num_threads(self.n_jobs)
        stop = None
        if self.patience is not None:  # GBM's inner split: the same held-out compounds for the same fold
            fit, held = inner_split(y, self.stop_fraction, (*np.atleast_1d(self.seed).tolist(), 1))
            train, y, stop = train[fit], y[fit], (self.features(data, train[held]), y[held])
        x = self.features(data, train)
        net = self.network(x.shape[1])
        optimizer = torch.optim.Adam(net.parameters(), lr=self.lr, weight_decay=self.weight_decay, fused=True)
        generator = torch.Generator().manual_seed(self.random_state)
        target = torch.as_tensor(y, dtype=torch.float32)
        weight = torch.ones(y.size)
        call = parse_metric(self.stop_metric)
        self.history_, self.stop_values_, best = [], [], None
        for epoch in range(1, self.epochs + 1):
            net.train()
            order = torch.randperm(y.size, generator=generator).numpy()
            total = 0.0
            for start in range(0, y.size, self.batch_size):
                batch = order[start : start + self.batch_size]
                logits = net(x[batch]).squeeze(1)
                loss = torch.nn.functional.binary_cross_entropy_with_logits(
                    logits, target[batch], weight=weight[batch], reduction="sum"
                ) / len(batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total += loss.item() * len(batch)
            self.history_.append(total / y.size)
            line = f"mlp epoch {epoch}/{self.epochs}: weighted loss {total / y.size:.5f}"
            if stop is not None:
                value = call.value(Ranking(stop[1], _logits(net, stop[0])))
                self.stop_values_.append(value)
                line += f", held-out {call.key} {value:.5f}"
                if best is None or value > best[1]:
                    best = (epoch, value, {k: v.detach().clone() for k, v in net.state_dict().items()})
            if self.progress is not None:
                print(line, file=self.progress)
            if best is not None and epoch - best[0] >= self.patience:
                break
            if self.reweighting.scheme != "none" and epoch < self.epochs:
                weight = torch.as_tensor(self.reweighting.weights(_logits(net, x), epoch) * y.size, dtype=torch.float32)
        if best is not None:
            net.load_state_dict(best[2])
        self.best_epoch_ = len(self.history_) if best is None else best[0]
        self.net_ = net

    def _score(self, data, rows):
        with needs("crocbench.models"):
            import torch

        torch.set_num_threads(self.n_jobs)
        return _logits(self.net_, self.features(data, rows))

    def info(self) -> dict:
        """The training loss per epoch (weighted by the scheme, so comparable within a scheme only) and the epoch kept.

        Returns
        -------
        dict
            ``reweight``, ``loss`` (one per epoch run), ``best_epoch`` (the epoch whose weights score), and with
            early stopping ``stop_metric`` and ``stop_values`` (the held-out value after each epoch).
        """
        out = {"reweight": self.reweighting.scheme, "loss": [round(v, 6) for v in self.history_]}
        out["best_epoch"] = self.best_epoch_
        if self.patience is not None:
            out |= {"stop_metric": self.stop_metric, "stop_values": [round(v, 6) for v in self.stop_values_]}
        return out

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """``threads``; the sparse features and the network, about 1.5 GB plus 1 kB a compound.

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of folds.

        Returns
        -------
        dict
            ``{"threads": threads, "mem_mb": ...}``.
        """
        return {"threads": self.threads, "mem_mb": int(2000 + 0.001 * n_compounds)}


def _logits(net, x) -> np.ndarray:
    """The network's logits of every row of ``x`` (evaluation mode: no dropout), in blocks of 4,096."""
    with needs("crocbench.models"):
        import torch

    net.eval()
    out = np.empty(x.shape[0])
    with torch.no_grad():
        for start in range(0, x.shape[0], 4096):
            out[start : start + 4096] = net(x[start : start + 4096]).squeeze(1).double().numpy()
    return out


def _SparseInputNet(first, rest):
    """A network whose first layer takes a CSR matrix: ``first``'s affine map as a weighted sum of its rows."""
    with needs("crocbench.models"):
        import torch

    class SparseInputNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = torch.nn.Parameter(first.weight.detach().t().contiguous())
            self.bias = torch.nn.Parameter(first.bias.detach().clone())
            self.rest = rest

        def forward(self, x):
            hidden = torch.nn.functional.embedding_bag(
                torch.from_numpy(x.indices.astype(np.int64)),
                self.weight,
                torch.from_numpy(x.indptr[:-1].astype(np.int64)),
                mode="sum",
                per_sample_weights=torch.from_numpy(np.asarray(x.data, dtype=np.float32)),
            )
            return self.rest(hidden + self.bias)

    return SparseInputNet()

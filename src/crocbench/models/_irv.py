"""The Influence Relevance Voter (Swamidass et al. 2009), the paper's 6-parameter form, in torch.

For the k most similar training compounds N_1..N_k of X (rank r_i = i, similarity s_i):

    relevance  R_i = sigmoid(w_y + w_s s_i + w_r r_i)
    vote       V_i = w_1 if N_i is active else w_0
    influence  I_i = R_i V_i
    P(active | X) = sigmoid(w_z + sum_i I_i)

Training minimizes the (weighted) cross-entropy over the training compounds, each
scored by its k nearest *other* training compounds, by full-batch gradient descent
with Rprop steps (per-parameter step sizes adapted from the gradient's sign; no
learning rate to tune, and deterministic).  One epoch = one full-batch step.
Convergence: the loss fell by less than ``tol`` (relative) over the last
``window`` epochs, or ``max_epochs`` was reached.  The score of a compound is its
logit ``w_z + sum_i I_i`` (the same order as the probability, without float
saturation ties).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._base import Model

PARAMETERS = ("w_y", "w_s", "w_r", "w_1", "w_0", "w_z")


def _torch():
    import torch

    return torch


def irv_terms(w, s, c):
    """Relevances, votes and logits for similarity ``s`` and neighbour classes ``c`` (n, k), as torch tensors."""
    torch = _torch()
    rank = torch.arange(1, s.shape[1] + 1, dtype=s.dtype)
    relevance = torch.sigmoid(w[0] + w[1] * s + w[2] * rank)
    vote = w[3] * c + w[4] * (1 - c)
    return relevance, vote, w[5] + (relevance * vote).sum(dim=1)


def irv_loss(w, s, c, y, weights=None):
    """Cross-entropy of the IRV on (s, c) with 0/1 targets ``y``: mean, or weighted sum if ``weights`` is given."""
    torch = _torch()
    z = irv_terms(w, s, c)[2]
    losses = torch.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="none")
    return losses.mean() if weights is None else (weights * losses).sum()


class IRV(Model):
    """Influence Relevance Voter; see the module docstring.

    Parameters
    ----------
    k : int
        Neighbours per compound (the paper: 20).
    max_epochs, tol, window : convergence criterion (see the module docstring).
    step : float
        Rprop's initial step size.
    dtype : "float64" or "float32"
    progress : stream, optional
        Gets the loss every ``log_every`` epochs and at the end.

    Attributes
    ----------
    weights_ : dict of the six fitted parameters
    history_ : list of (epoch, loss)
    n_epochs_ : int, converged_ : bool
    """

    name = "irv"

    def __init__(self, k: int = 20, max_epochs: int = 3000, tol: float = 1e-4, window: int = 10, step: float = 0.01,
                 dtype: str = "float64", progress=None, log_every: int = 10):
        if dtype not in ("float64", "float32"):
            raise ValueError(f"dtype must be float64 or float32; got {dtype!r}")
        self.k, self.max_epochs, self.tol, self.window, self.step = int(k), int(max_epochs), float(tol), int(window), step
        self.dtype, self.progress, self.log_every = dtype, progress, log_every

    def _inputs(self, sim, rows):
        torch = _torch()
        nb = sim.neighbours(rows, self.train_, self.k)
        label = np.zeros(sim.n, dtype=np.float64)
        label[self.train_] = self.y_
        dtype = getattr(torch, self.dtype)
        return nb, torch.as_tensor(nb.similarity, dtype=dtype), torch.as_tensor(label[nb.index], dtype=dtype)

    def _initial(self, y):
        """Start: relevance rising with similarity and falling with rank, actives vote +1 and
        inactives -1, output bias at the training prior's logit.  (All-zero weights are a
        poor start: the relevance gradients vanish while the votes are 0.)"""
        torch = _torch()
        prior = float(np.clip(y.mean(), 1e-6, 1 - 1e-6))
        return torch.tensor([0.0, 1.0, -0.1, 1.0, -1.0, np.log(prior / (1 - prior))],
                            dtype=getattr(torch, self.dtype), requires_grad=True)

    def _fit(self, sim, train, y) -> None:
        torch = _torch()
        _, s, c = self._inputs(sim, train)
        target = torch.as_tensor(y, dtype=s.dtype)
        w = self._initial(y)
        optimizer = torch.optim.Rprop([w], lr=self.step)
        self.history_, self.converged_ = [], False
        for epoch in range(1, self.max_epochs + 1):
            optimizer.zero_grad()
            loss = irv_loss(w, s, c, target)
            loss.backward()
            optimizer.step()
            value = loss.detach().item()
            self.history_.append((epoch, value))
            if self.progress is not None and epoch % self.log_every == 0:
                print(f"epoch {epoch}: loss {value:.8f}", file=self.progress, flush=True)
            if epoch > self.window and self.history_[-self.window - 1][1] - value <= self.tol * abs(value):
                self.converged_ = True
                break
        self.n_epochs_ = epoch
        self.w_ = w.detach()
        self.weights_ = dict(zip(PARAMETERS, self.w_.tolist()))
        if self.progress is not None:
            state = "converged" if self.converged_ else "stopped at max_epochs"
            print(f"IRV {state} after {epoch} epochs, loss {value:.8f}, weights "
                  + ", ".join(f"{k}={v:.4f}" for k, v in self.weights_.items()), file=self.progress, flush=True)

    def _score(self, sim, rows):
        _, s, c = self._inputs(sim, rows)
        return irv_terms(self.w_, s, c)[2].double().numpy()

    def influences(self, sim, rows):
        """Per-neighbour terms for ``rows``: (neighbour index, similarity, class, relevance, vote, influence), each (n, k)."""
        if not hasattr(self, "w_"):
            raise RuntimeError("irv: call fit before influences")
        nb, s, c = self._inputs(sim, np.atleast_1d(np.asarray(rows, dtype=np.int64)))
        relevance, vote, _ = irv_terms(self.w_, s, c)
        r, v = relevance.double().numpy(), vote.double().numpy()
        return nb.index, nb.similarity, c.numpy().astype(np.int8), r, v, r * v

    def explain(self, sim, row: int, ids=None) -> pd.DataFrame:
        """One compound's prediction, neighbour by neighbour: the logit is ``w_z`` plus the influence column's sum.

        ``ids`` (optional, one per row of ``sim``) names the neighbours.
        """
        index, s, c, r, v, i = (a[0] for a in self.influences(sim, [row]))
        return pd.DataFrame({
            "rank": np.arange(1, index.size + 1),
            "neighbour": np.asarray(ids)[index] if ids is not None else index,
            "similarity": s, "active": c, "relevance": r, "vote": v, "influence": i,
        })

"""The Influence Relevance Voter (Swamidass et al. 2009), the paper's 6-parameter form, in torch.

For the k most similar training compounds N_1..N_k of X (rank r_i = i, similarity s_i):

    relevance  R_i = sigmoid(w_y + w_s s_i + w_r r_i)
    vote       V_i = w_1 if N_i is active else w_0
    influence  I_i = R_i V_i
    P(active | X) = sigmoid(w_z + sum_i I_i)

Training minimizes the weighted cross-entropy over the training compounds, each
scored by its k nearest *other* training compounds, by full-batch gradient descent
with Rprop steps (per-parameter step sizes adapted from the gradient's sign; no
learning rate to tune, and deterministic).  One epoch = one full-batch step.  The
weights start uniform (1/N) and, with a reweighting scheme (the paper's Appendix A,
see :class:`~crocbench.models.Reweighting`), are recomputed at the start of every later epoch from the
ranking of the training compounds by the current model, which the epoch's
forward pass computes anyway.
Convergence: the (weighted) loss changed by less than ``tol`` (relative) over
the last ``window`` epochs, or ``max_epochs`` was reached.  (A change, not a
fall: with reweighting the loss can rise while the weights move to the top of
the list; it settles when the ranking does.)  The score of a compound is its
logit ``w_z + sum_i I_i`` (the same order as the probability, without float
saturation ties).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._parallel import reuse_freed_memory
from ...metrics import croc_auc
from .._base import Model
from .._reweight import Reweighting
from ._optim import GD, LBFGS, OPTIMIZERS, STOPS, Rprop, stop_fires
from ._terms import _torch, cross_entropy, irv_terms

PARAMETERS = ("w_y", "w_s", "w_r", "w_1", "w_0", "w_z")


def _croc80(y, scores) -> float:
    return croc_auc(y, scores, alpha=80.0)


class IRV(Model):
    """Influence Relevance Voter; see the module docstring.

    Parameters
    ----------
    k : int, default=20
        Neighbours per compound (the paper: 20).
    max_epochs : int, default=3000
        The most epochs (full-batch steps) trained.
    tol : float, default=1e-4
        The stop rule's relative change of the loss over ``window`` epochs (see ``stop``).
    window : int, default=10
        The epochs over which the stop rule judges the change.
    step : float, default=0.01
        Rprop's initial step size.
    dtype : {"float64", "float32"}, default="float64"
        The torch dtype of the training tensors.
    reweight : str, default="none"
        ``none``, ``power``, ``power_density``, ``exp`` or ``exp_anneal`` (:class:`Reweighting`);
        ``alpha``, ``alpha_start``, ``alpha_end`` and ``anneal_epochs`` parametrize the
        exponential schemes.
    alpha : float, default=20.0
        The exponent of the ``exp`` scheme.
    alpha_start, alpha_end : float, default=1.0 and 20.0
        The ``exp_anneal`` scheme's first and last exponent.
    anneal_epochs : int, default=20
        The epochs over which ``exp_anneal`` moves from ``alpha_start`` to ``alpha_end``.
    track : bool, default=False
        Also record AUC[CROC(exp), alpha = 80] of the training ranking at every epoch.
    progress : file-like, default=None
        Gets the loss every ``log_every`` epochs and at the end.
    log_every : int, default=10
        Epochs between progress lines.
    optimizer : {"rprop", "gd", "gd_momentum", "lbfgs"}, default="rprop"
        One full-batch step per epoch: Rprop (default; ``Rprop``), plain gradient descent with the fixed
        learning rate ``lr``, the same with ``momentum`` (``GD``), or L-BFGS with a backtracking line
        search from ``lr`` (``LBFGS``).
    lr, momentum : float, default=1.0 and 0.9
        The learning rate of ``gd``, ``gd_momentum`` (and the first trial step of ``lbfgs``); the momentum.
    stop : {"loss", "unweighted_loss", "train_croc"}, default="loss"
        Convergence, judged over the last ``window`` epochs: the training loss as weighted that epoch changed
        by at most ``tol`` (relative; default); the unweighted training loss did (so reweighting does not move
        the target); or the training AUC[CROC(exp)] a=80 changed by at most ``croc_tol`` (absolute).
    croc_tol : float, default=1e-3
        The absolute change of the training AUC[CROC(exp)] a=80 of ``stop="train_croc"``.

    Attributes
    ----------
    weights_ : dict
        The six fitted parameters, by name.
    history_ : list of (epoch, loss, training AUC[CROC(exp)] a=80 or NaN)
        The loss and ranking of the model after ``epoch - 1`` steps.
    n_epochs_ : int
        Epochs trained.
    converged_ : bool
        Whether the stop rule fired (False: stopped at ``max_epochs``).
    """

    name, label = "irv", "IRV"
    search_space = {
        "k": [5, 10, 15, 20, 25, 30, 40, 50]
    }  # the tuning space (crocbench.models.Tuned); neighbour lists hold 50
    fold_jobs = 1  # a fold takes about a second on dtp_aids: less than a job's start

    def __init__(
        self,
        k: int = 20,
        max_epochs: int = 3000,
        tol: float = 1e-4,
        window: int = 10,
        step: float = 0.01,
        dtype: str = "float64",
        reweight: str = "none",
        alpha: float = 20.0,
        alpha_start: float = 1.0,
        alpha_end: float = 20.0,
        anneal_epochs: int = 20,
        track: bool = False,
        progress=None,
        log_every: int = 10,
        optimizer: str = "rprop",
        lr: float = 1.0,
        momentum: float = 0.9,
        stop: str = "loss",
        croc_tol: float = 1e-3,
    ):
        if dtype not in ("float64", "float32"):
            raise ValueError(f"dtype must be float64 or float32; got {dtype!r}")
        if optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}; got {optimizer!r}")
        if stop not in STOPS:
            raise ValueError(f"stop must be one of {', '.join(STOPS)}; got {stop!r}")
        if not lr > 0 or not 0 <= momentum < 1:
            raise ValueError(f"lr must be > 0 and momentum in [0, 1); got lr={lr}, momentum={momentum}")
        self.optimizer, self.lr, self.momentum = optimizer, float(lr), float(momentum)
        self.stop, self.croc_tol = stop, float(croc_tol)
        self.reweighting = Reweighting(reweight, alpha, alpha_start, alpha_end, anneal_epochs)
        self.track = bool(track)
        self.k, self.max_epochs, self.tol, self.window, self.step = (
            int(k),
            int(max_epochs),
            float(tol),
            int(window),
            step,
        )
        self.dtype, self.progress, self.log_every = dtype, progress, log_every

    def _inputs(self, data, rows):
        torch = _torch()
        nb = data.neighbours(rows, self.k, among=self.train_)
        label = np.zeros(data.n, dtype=np.float64)
        label[self.train_] = self.y_
        dtype = getattr(torch, self.dtype)
        return nb, torch.as_tensor(nb.similarity, dtype=dtype), torch.as_tensor(label[nb.index], dtype=dtype)

    def _initial(self, y):
        """Start: relevance rising with similarity and falling with rank, actives vote +1 and
        inactives -1, output bias at the training prior's logit.  (All-zero weights are a
        poor start: the relevance gradients vanish while the votes are 0.)"""
        torch = _torch()
        prior = float(np.clip(y.mean(), 1e-6, 1 - 1e-6))
        return torch.tensor(
            [0.0, 1.0, -0.1, 1.0, -1.0, np.log(prior / (1 - prior))],
            dtype=getattr(torch, self.dtype),
            requires_grad=True,
        )

    def _fit(self, data, train, y) -> None:
        _, s, c = self._inputs(data, train)
        self._train(s, c, y)

    def epochs(self, s, c, y):
        """Train on prepared inputs (similarities ``s`` and classes ``c`` (n, k) of the neighbours), one epoch at
        a time, without stopping: yields ``(epoch, w, scores, loss, unweighted loss)`` after each epoch's step,
        ``scores`` being the training logits before it (the ranking its weights came from) and ``w`` the
        weights after it (the tensor being trained: copy it to keep it).

        Parameters
        ----------
        s : torch.Tensor of shape (n, k)
            The training compounds' similarities to their k nearest other training compounds.
        c : torch.Tensor of shape (n, k)
            Those neighbours' classes.
        y : torch.Tensor of shape (n,)
            The training labels.

        Yields
        ------
        epoch : int
            The epoch, from 1.
        w : torch.Tensor of shape (6,)
            The weights after the epoch's step (the tensor trained: copy it to keep it).
        scores : torch.Tensor of shape (n,)
            The training logits before the step.
        loss : float
            The epoch's loss, as weighted that epoch.
        unweighted_loss : float
            The epoch's unweighted loss.
        """
        torch = _torch()
        target = torch.as_tensor(y, dtype=s.dtype)
        w = self._initial(y)
        optimizer = {
            "rprop": lambda: Rprop(w, lr=self.step),
            "gd": lambda: GD(w, self.lr),
            "gd_momentum": lambda: GD(w, self.lr, self.momentum),
            "lbfgs": lambda: LBFGS(w, self.lr),
        }[self.optimizer]()
        weights = torch.full((y.size,), 1.0 / y.size, dtype=s.dtype)
        with reuse_freed_memory():  # each epoch allocates and frees (n, k) tensors: 3x faster at n = 225,000
            for epoch in range(1, self.max_epochs + 1):
                optimizer.zero_grad()
                z = irv_terms(w, s, c)[2]
                scores = z.detach().double().numpy()
                if epoch > 1 and self.reweighting.scheme != "none":
                    weights = torch.as_tensor(self.reweighting.weights(scores, epoch - 1), dtype=s.dtype)
                loss = cross_entropy(z, target, weights)
                loss.backward()
                optimizer.step(lambda v, at=weights: cross_entropy(irv_terms(v, s, c)[2], target, at).item())
                yield epoch, w, scores, loss.detach().item(), cross_entropy(z.detach(), target).item()

    def _train(self, s, c, y) -> None:
        """Train on prepared inputs until the stop rule fires or ``max_epochs`` (see :meth:`epochs`)."""
        self.history_, self.unweighted_history_, self.converged_ = [], [], False
        track = self.track or self.stop == "train_croc"
        for epoch, w, scores, value, unweighted in self.epochs(s, c, y):  # noqa: B007 (w: the last epoch's, below)
            self.history_.append((epoch, value, _croc80(y, scores) if track else float("nan")))
            self.unweighted_history_.append(unweighted)
            if self.progress is not None and epoch % self.log_every == 0:
                print(f"epoch {epoch}: loss {value:.8f}", file=self.progress, flush=True)
            if self._settled():
                self.converged_ = True
                break
        self.n_epochs_ = epoch
        self.w_ = w.detach()
        self.weights_ = dict(zip(PARAMETERS, self.w_.tolist()))
        if self.progress is not None:
            state = "converged" if self.converged_ else "stopped at max_epochs"
            print(
                f"IRV ({self.reweighting.scheme}) {state} after {epoch} epochs, loss {value:.8f}, weights "
                + ", ".join(f"{k}={v:.4f}" for k, v in self.weights_.items()),
                file=self.progress,
                flush=True,
            )

    def _replace_history(self, history, unweighted=None) -> IRV:
        """Set the training series (for checking the stop rules on scripted values); returns self."""
        self.history_ = list(history)
        self.unweighted_history_ = list(unweighted if unweighted is not None else [h[1] for h in history])
        return self

    def _settled(self) -> bool:
        """Whether the stop rule fires after the epochs so far (see ``stop``)."""
        if self.stop == "unweighted_loss":
            series = self.unweighted_history_
        else:  # history_ holds (epoch, loss, training AUC[CROC(exp)] a=80)
            series = [h[2 if self.stop == "train_croc" else 1] for h in self.history_]
        return stop_fires(self.stop, series, self.window, self.tol, self.croc_tol)

    def info(self) -> dict:
        """What the fit learned: scheme, optimizer, stop rule, epochs, convergence and the six weights.

        Returns
        -------
        dict
            JSON-serializable: ``reweight``, ``optimizer``, ``stop``, ``epochs``, ``converged``, the weights by name
            and, with ``track``, the training history.
        """
        return {
            "reweight": self.reweighting.scheme,
            "optimizer": self.optimizer,
            "stop": self.stop,
            "epochs": self.n_epochs_,
            "converged": self.converged_,
            "weights": self.weights_,
            "history": [[e, loss, None if np.isnan(croc) else croc] for e, loss, croc in self.history_],
        }

    def _score(self, data, rows):
        _, s, c = self._inputs(data, rows)
        return irv_terms(self.w_, s, c)[2].double().numpy()

    def influences(self, data, rows):
        """Per-neighbour terms for ``rows``: (neighbour index, similarity, class, relevance, vote, influence), each (n, k).

        Parameters
        ----------
        data : SimilarityIndex
            The dataset as the models see it (:class:`~crocbench.similarity.SimilarityIndex`).
        rows : array-like of int
            Row indices of the compounds scored.

        Returns
        -------
        index : ndarray of shape (len(rows), k)
            The neighbours' row indices.
        similarity : ndarray of shape (len(rows), k)
            Their similarities.
        cls : ndarray of int8 of shape (len(rows), k)
            Their classes.
        relevance, vote, influence : ndarray of shape (len(rows), k)
            The IRV's terms per neighbour (``influence = relevance * vote``).
        """
        if not hasattr(self, "w_"):
            raise RuntimeError("irv: call fit before influences")
        nb, s, c = self._inputs(data, np.atleast_1d(np.asarray(rows, dtype=np.int64)))
        relevance, vote, _ = irv_terms(self.w_, s, c)
        r, v = relevance.double().numpy(), vote.double().numpy()
        return nb.index, nb.similarity, c.numpy().astype(np.int8), r, v, r * v

    def explain(self, data, row: int, ids=None) -> pd.DataFrame:
        """One compound's prediction, neighbour by neighbour: the logit is ``w_z`` plus the influence column's sum.

        ``ids`` (optional, one per row of ``data``) names the neighbours.

        Parameters
        ----------
        data : SimilarityIndex
            The dataset as the models see it (:class:`~crocbench.similarity.SimilarityIndex`).
        row : int
            The row of the compound explained.
        ids : sequence of str, default=None
            One per row of ``data``, naming the neighbours; None for row indices.

        Returns
        -------
        pandas.DataFrame
            One row per neighbour, most similar first: ``rank``, ``neighbour`` (id or row), ``similarity``,
            ``active``, ``relevance``, ``vote`` and ``influence``.
        """
        index, s, c, r, v, i = (a[0] for a in self.influences(data, [row]))
        return pd.DataFrame(
            {
                "rank": np.arange(1, index.size + 1),
                "neighbour": np.asarray(ids)[index] if ids is not None else index,
                "similarity": s,
                "active": c,
                "relevance": r,
                "vote": v,
                "influence": i,
            }
        )

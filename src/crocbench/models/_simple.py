"""RANDOM, MAX-SIM and kNN."""

from __future__ import annotations

import numpy as np

from ._base import Model


class Random(Model):
    """Uniform scores in [0, 1), from a seeded generator (``seed`` may be a tuple, e.g. (seed, fold)).

    Parameters
    ----------
    seed : int or tuple of int, default=0
        Seeds numpy's ``default_rng`` (e.g. ``(seed, fold)``).
    """

    name, label = "random", "RANDOM"
    fold_jobs = 1  # a fold takes about a second on dtp_aids: less than a job's start
    uses_neighbours = False
    baseline = True

    def __init__(self, seed=0):
        self.seed = seed

    def _score(self, data, rows):
        return np.random.default_rng(self.seed).random(rows.size)


class MaxSim(Model):
    """The highest Tanimoto similarity to a training active (Willett's MAX-SIM).

    Parameters
    ----------
    block : int, default=4096
        Test compounds per block of similarities.
    """

    name, label = "maxsim", "MAX-SIM"
    fold_jobs = 1  # a fold takes about a second on dtp_aids: less than a job's start

    def __init__(self, block: int = 4096):
        self.block = block

    def _score(self, data, rows):
        actives = self.train_[self.y_ == 1]
        out = np.empty(rows.size)
        for i in range(0, rows.size, self.block):
            out[i : i + self.block] = data.similarities(rows[i : i + self.block], actives).max(axis=1)
        return out


class KNN(Model):
    """The fraction of actives among the k most similar training compounds (never the compound itself).

    The scores take k + 1 values, so there are many ties; the metrics resolve them
    exactly.  ``tie_break="similarity"`` (off by default) adds, within a fraction,
    the summed similarity of the active neighbours scaled below 1/(2k), so it
    orders compounds with equal fractions without changing any other order.

    Parameters
    ----------
    k : int, default=20
        The number of neighbours.
    tie_break : {None, "similarity"}, default=None
        Order equal fractions by the summed similarity of the active neighbours.
    """

    name, label = "knn", "kNN"
    search_space = {
        "k": [3, 5, 10, 15, 20, 30, 40, 50]
    }  # the tuning space (crocbench.models.Tuned); neighbour lists hold 50
    fold_jobs = 1  # a fold takes about a second on dtp_aids: less than a job's start

    def __init__(self, k: int = 20, tie_break: str | None = None):
        if tie_break not in (None, "none", "similarity"):
            raise ValueError(f"tie_break must be none or similarity; got {tie_break!r}")
        self.k, self.tie_break = int(k), tie_break

    def _score(self, data, rows):
        nb = data.neighbours(rows, self.k, among=self.train_)
        label = np.zeros(data.n, dtype=np.float64)
        label[self.train_] = self.y_
        active = label[nb.index]
        score = active.mean(axis=1)
        if self.tie_break == "similarity":
            score += (active * nb.similarity).sum(axis=1) / (self.k + 1) / (2 * self.k)
        return score

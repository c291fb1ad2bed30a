"""The one small interface every model follows."""

from __future__ import annotations

import numpy as np

from ..similarity import SimilarityIndex


class Model:
    """A ranker of compounds, in the spirit of a scikit-learn estimator.

    ``fit(sim, train, y)`` learns from the compounds ``train`` (row indices into
    the similarity index ``sim``) with 0/1 labels ``y``; ``score(sim, rows)``
    returns one float64 score per row, higher = more likely active.  A model
    never sees the labels of the rows it scores.
    """

    name = "model"

    def fit(self, sim: SimilarityIndex, train, y) -> "Model":
        train, y = _check_fit(sim, train, y)
        self.train_, self.y_ = train, y
        self._fit(sim, train, y)
        return self

    def score(self, sim: SimilarityIndex, rows) -> np.ndarray:
        if not hasattr(self, "train_"):
            raise RuntimeError(f"{self.name}: call fit before score")
        rows = _check_rows(sim, rows)
        return np.asarray(self._score(sim, rows), dtype=np.float64)

    def info(self) -> dict:
        """What the fit learned that is worth keeping beside the scores (JSON-serializable)."""
        return {}

    def _fit(self, sim, train, y) -> None:  # models that only store the training set need nothing more
        pass

    def _score(self, sim, rows) -> np.ndarray:
        raise NotImplementedError


def _check_rows(sim: SimilarityIndex, rows) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.int64).ravel()
    if rows.size and (rows.min() < 0 or rows.max() >= sim.n):
        raise ValueError(f"row indices must lie in [0, {sim.n})")
    return rows


def _check_fit(sim: SimilarityIndex, train, y) -> tuple[np.ndarray, np.ndarray]:
    train = _check_rows(sim, train)
    y = np.asarray(y).ravel()
    if y.shape != train.shape:
        raise ValueError(f"{train.size} training rows but {y.size} labels")
    if not np.isin(y, (0, 1)).all():
        raise ValueError("labels must be 0/1")
    if np.unique(train).size != train.size:
        raise ValueError("training rows must be distinct")
    if y.sum() == 0:
        raise ValueError("the training set has no positive")
    return train, y.astype(np.int8)

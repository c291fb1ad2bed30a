"""The five rankers of the paper behind one interface: ``fit(sim, train, y)``, ``score(sim, rows)``."""

import inspect

from ._base import Model
from ._irv import IRV, irv_loss, irv_terms
from ._reweight import SCHEMES, Reweighting, average_ranks, score_density, silverman_bandwidth
from ._simple import KNN, MaxSim, Random
from ._svm import SVM

MODELS = {"random": Random, "maxsim": MaxSim, "knn": KNN, "svm": SVM, "irv": IRV}
LABELS = {"random": "RANDOM", "maxsim": "MAX-SIM", "knn": "kNN", "svm": "SVM", "irv": "IRV"}


def make_model(name: str, params: dict | None = None, *, seed=None, progress=None, n_jobs=None) -> Model:
    """A model by name (``random``, ``maxsim``, ``knn``, ``svm``, ``irv``) with its parameters.

    ``seed``, ``progress`` and ``n_jobs`` are passed to the models that take them.
    """
    if name not in MODELS:
        raise ValueError(f"unknown model {name!r}; models are: {', '.join(MODELS)}")
    cls = MODELS[name]
    params = dict(params or {})
    accepted = inspect.signature(cls).parameters
    for key, value in (("seed", seed), ("progress", progress), ("n_jobs", n_jobs)):
        if value is not None and key in accepted:
            params.setdefault(key, value)
    try:
        return cls(**params)
    except TypeError as exc:
        raise ValueError(f"model {name}: {exc}") from None


__all__ = [
    "IRV", "KNN", "LABELS", "MODELS", "MaxSim", "Model", "Random", "Reweighting", "SCHEMES", "SVM", "average_ranks",
    "irv_loss", "irv_terms", "make_model", "score_density", "silverman_bandwidth",
]

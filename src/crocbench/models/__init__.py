"""The rankers: the paper's five, today's on ECFP and any user's class, behind one contract (see :class:`Model`).

``fit(data, train, y)`` then ``score(data, rows)``; ``data`` is a
:class:`~crocbench.similarity.SimilarityIndex`.  :func:`declared_runs` turns a
config's ``models:`` entries (built-in names, ``"module:Class"`` plug-ins,
imported score files) into checked runs.
"""

from ._base import Model
from ._boosting import GBM, GBMRank
from ._chemprop import Chemprop
from ._ecfp_models import EcfpModel, LogReg, RandomForest, inner_split, seed_state
from ._irv import IRV
from ._irv_terms import irv_loss, irv_terms
from ._mlp import MLP
from ._platt import platt_fit
from ._registry import BUILTIN, LABELS, MODELS, Run, declared_runs, expand_runs, irv_run, load_class, make_model
from ._reweight import SCHEMES, Reweighting, average_ranks, score_density, silverman_bandwidth
from ._simple import KNN, MaxSim, Random
from ._svm import SVM
from ._svm_grid import grid_fold, svm_grid
from ._svm_record import Candidate, SvmFold

__all__ = [
    "BUILTIN",
    "Chemprop",
    "EcfpModel",
    "GBM",
    "GBMRank",
    "IRV",
    "KNN",
    "LABELS",
    "LogReg",
    "MLP",
    "MODELS",
    "MaxSim",
    "Model",
    "Random",
    "RandomForest",
    "Reweighting",
    "Run",
    "SCHEMES",
    "SVM",
    "SvmFold",
    "Candidate",
    "average_ranks",
    "declared_runs",
    "expand_runs",
    "grid_fold",
    "inner_split",
    "irv_run",
    "irv_loss",
    "irv_terms",
    "load_class",
    "make_model",
    "platt_fit",
    "score_density",
    "seed_state",
    "silverman_bandwidth",
    "svm_grid",
]

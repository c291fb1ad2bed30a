"""The rankers: the paper's five, the ECFP rankers and Chemprop's graph network, and any user's class, behind one
contract (see :class:`Model`).

``fit(data, train, y)`` then ``score(data, rows)``; ``data`` is a
:class:`~crocbench.similarity.SimilarityIndex`.  :func:`declared_runs` turns a
config's ``models:`` entries (built-in names, ``"module:Class"`` plug-ins,
imported score files) into checked runs.

A folder per family, as scikit-learn's: ``svm/`` (:class:`SVM`, its inner CV, large folds, Platt scaling, the
sensitivity grid), ``irv/`` (:class:`IRV`, its terms and optimizers), ``ecfp/`` (the rankers on ECFP4) and
``gnn/`` (:class:`Chemprop`); beside them the contract (``_base``), the baselines RANDOM, MAX-SIM and kNN
(``_simple``), the rank reweighting the IRV and the MLP share (``_reweight``), tuning in each outer fold (``_tuning``:
:class:`Tuned`) or on a development panel (``_development``), the classes by name (``_classes``) and a config's runs (``_registry``).
"""

from ._base import FEATURE_LABELS, FEATURES, Model, seed_state
from ._classes import BUILTIN, LABELS, MODELS, load_class
from ._registry import Run, declared_runs, expand_runs, irv_run, make_model
from ._reweight import SCHEMES, Reweighting, average_ranks, score_density, silverman_bandwidth
from ._simple import KNN, MaxSim, Random
from ._tuning import Tuned, candidates, resolve_tune
from .ecfp import GBM, MLP, EcfpModel, GBMRank, LogReg, RandomForest, inner_split
from .gnn import Chemprop
from .irv import IRV, irv_loss, irv_terms
from .svm import SVM, Candidate, SvmFold, grid_fold, platt_fit, svm_grid

__all__ = [
    "BUILTIN",
    "Chemprop",
    "EcfpModel",
    "FEATURES",
    "FEATURE_LABELS",
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
    "Tuned",
    "Candidate",
    "average_ranks",
    "candidates",
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
    "resolve_tune",
    "score_density",
    "seed_state",
    "silverman_bandwidth",
    "svm_grid",
]

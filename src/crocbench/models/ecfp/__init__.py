"""The ECFP rankers on ECFP4: logistic regression, the random forest, LightGBM (binary and lambdarank) and a torch
MLP, on their shared base :class:`EcfpModel`."""

from ._boosting import GBM, GBMRank
from ._forest import RandomForest
from ._mlp import MLP
from ._models import EcfpModel, LogReg, inner_split

__all__ = ["EcfpModel", "GBM", "GBMRank", "LogReg", "MLP", "RandomForest", "inner_split"]

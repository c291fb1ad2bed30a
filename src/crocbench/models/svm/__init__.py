"""The support vector machine on the Tanimoto kernel (:class:`SVM`), its Platt scaling, the svm_sensitivity
study's grid and the record of what a fold chose."""

from ._grid import grid_fold, svm_grid
from ._platt import platt_fit
from ._record import Candidate, SvmFold
from ._svm import SVM

__all__ = ["SVM", "Candidate", "SvmFold", "grid_fold", "platt_fit", "svm_grid"]

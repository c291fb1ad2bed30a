"""Figures, one module per family, one colour per method everywhere (Okabe-Ito palette):

- ``_style``: the palette, the random baseline's line, saving with deterministic bytes;
- ``_curves``: one screen's curves (ROC, CROC, AC/CAC, pROC, the magnification functions);
- ``_training``: the IRV's training curves and the IRV training study;
- ``_power``: the power study;
- ``_svm``: the SVM set-up study;
- ``_summary``: across screens (critical-difference diagrams, each metric per screen);
- ``_protocol``: a random and a scaffold split compared;
- ``_memorization``: each split's train-to-test similarities, each ranker per stratum of the test actives;
- ``_novelty``: what a novelty guarantee costs, the share of each screen kept at each tau.
"""

from .._extras import needs

with needs("crocbench.plots"):
    import matplotlib

matplotlib.use("Agg")  # before any module of the package imports pyplot: files only, no display

from ._curves import plot_ac_cac, plot_croc_subplots, plot_magnification, plot_proc, plot_roc, plot_roc_croc
from ._memorization import plot_memorization, plot_split_similarity
from ._novelty import plot_novelty_cost
from ._power import plot_power_by_metric, plot_power_by_test
from ._protocol import plot_split_comparison
from ._style import PALETTE, colour_map, save_figure
from ._summary import plot_critical_difference, plot_datasets
from ._svm import plot_svm_sensitivity
from ._training import plot_irv_study, plot_training_curves

__all__ = [
    "PALETTE",
    "colour_map",
    "plot_ac_cac",
    "plot_critical_difference",
    "plot_croc_subplots",
    "plot_datasets",
    "plot_irv_study",
    "plot_magnification",
    "plot_memorization",
    "plot_novelty_cost",
    "plot_power_by_metric",
    "plot_power_by_test",
    "plot_proc",
    "plot_roc",
    "plot_roc_croc",
    "plot_split_comparison",
    "plot_split_similarity",
    "plot_svm_sensitivity",
    "plot_training_curves",
    "save_figure",
]

"""Swamidass, Azencott, Daily & Baldi (2010), *A CROC stronger than ROC*: everything specific to that paper.

The generic code (metrics, statistics, tables, the summary across screens, plots) knows nothing of it; this
package gives them the paper's side:

- its rankers (:data:`PAPER_MODELS`) and its metric set's alphas and cut-offs (:data:`crocbench.metrics.ALPHAS`,
  :data:`crocbench.metrics.CUTOFFS`, the parameters of :func:`crocbench.metrics.paper_metrics`);
- its published numbers (``published.yaml``: :func:`load_published`) beside a run's (table 4,
  :func:`published_comparison`);
- its claims about its rankers, each defined once as a :class:`crocbench.report.Check` and evaluated on one
  screen (:func:`check_claims`) or across screens (:func:`claims_across`);
- its Appendix A claims about training the IRV (:func:`irv_training_claims`) and its claims about power
  (:func:`power_claims`);
- the study of those Appendix A epoch counts under each optimizer and stop rule (``crocbench.paper._irv_study``,
  the workflow's ``irv_sensitivity`` target).

Another paper's claims would be another package beside this one: its own :class:`~crocbench.report.Check`
subclasses and numbers, evaluated by the same :func:`crocbench.report.evaluate`.
"""

from ..metrics import ALPHAS, CUTOFFS
from ._claims import CLAIMS, among_paper_models, check_claims, claims_across, screen_claims
from ._irv import irv_training_claims
from ._power import power_claims
from ._published import (
    PAPER,
    PAPER_MODELS,
    irv_training_notes,
    load_published,
    measured_values,
    paper_irv_epochs,
    published_comparison,
    published_points,
    svm_anchors,
)

__all__ = [
    "ALPHAS",
    "CLAIMS",
    "CUTOFFS",
    "PAPER",
    "PAPER_MODELS",
    "among_paper_models",
    "check_claims",
    "claims_across",
    "irv_training_claims",
    "irv_training_notes",
    "load_published",
    "measured_values",
    "paper_irv_epochs",
    "power_claims",
    "published_comparison",
    "published_points",
    "screen_claims",
    "svm_anchors",
]

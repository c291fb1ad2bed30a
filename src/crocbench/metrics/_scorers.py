"""scikit-learn scorers: any metric here as the ``scoring`` of ``GridSearchCV`` and ``cross_val_score``."""

from __future__ import annotations

import numpy as np

from .._extras import needs
from ._ranking import Ranking, check_ties
from ._sets import MetricCall, parse_metric


def _call_value(y_true, y_score, *, call: MetricCall, ties: str) -> float:
    classes = np.unique(np.asarray(y_true))
    if classes.size > 2 or np.ndim(y_score) > 1:
        raise ValueError(
            f"{call.key}: multiclass targets are not supported ({classes.size} classes): the metrics rank one binary "
            "label (active or not); binarize y (e.g. y == active_class)"
        )
    return call.value(Ranking(y_true, y_score), ties)


def scorer(spec: str, *, ties: str = "expected", response_method=("decision_function", "predict_proba")):
    """A scikit-learn scorer for a metric given as ``"name"`` or ``"name:key=value,..."``.

    The scorer ranks the held-out compounds by the estimator's
    ``decision_function`` (or, without one, the positive class's
    ``predict_proba``) and returns the metric, higher being better for every
    metric here.  It needs scikit-learn, which the ``workflow`` extra
    installs.

    Parameters
    ----------
    spec : str
        A metric as :func:`parse_metric` reads it: ``"croc_auc:alpha=80"``, ``"log_auc:upper=0.1"``, or a
        named metric such as ``"bedroc_20"`` or ``"dcg_100"``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.
    response_method : str or tuple of str, default=("decision_function", "predict_proba")
        The estimator's method that gives the scores, as :func:`sklearn.metrics.make_scorer` takes it; the
        first the estimator has is used.

    Returns
    -------
    callable
        ``scorer(estimator, X, y)``, as :func:`sklearn.metrics.make_scorer` makes it.

    Raises
    ------
    ValueError
        If the spec names no metric, or its parameters are bad.
    crocbench._extras.MissingExtra
        If scikit-learn is not installed (it names the extra that installs it).

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from crocbench.metrics import croc_auc
    >>> X = np.arange(40.0).reshape(-1, 1); y = np.arange(40) % 3 == 0
    >>> model = LogisticRegression().fit(X, y)
    >>> scorer("croc_auc:alpha=80")(model, X, y) == croc_auc(y, model.decision_function(X), 80)
    True

    In a search, ``GridSearchCV(model, grid, scoring=scorer("bedroc_20"))``.
    """
    call = parse_metric(spec)
    check_ties(ties)
    with needs("crocbench.metrics.scorer"):
        from sklearn.metrics import make_scorer
    return make_scorer(_call_value, response_method=response_method, call=call, ties=ties)

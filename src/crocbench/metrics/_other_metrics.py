"""The other papers' metric set: their metrics as table columns, their values on one list, per-fold tables.

:class:`OtherMetric` and :func:`other_metrics` name the other papers'
metrics by family, :func:`other_values` computes them on one scored list and
:func:`per_fold_metrics` computes a set of :class:`MetricCall` on every
cross-validation fold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

from . import _probabilities as P
from . import _queries as Q
from . import _retrieval as R
from ._ranking import Ranking
from ._roc import roc_n
from ._sets import MetricCall, _call, benchmark_metrics, parse_metric  # noqa: F401 (parse_metric: a doctest)

#: The families of the other papers' metrics (the ``family`` of an :class:`OtherMetric`), in the order of
#: :func:`other_metrics`.
#: The family of :func:`crocbench.metrics.benchmark_metrics`, the other virtual-screening benchmarks' metrics.
BENCHMARKS = "virtual-screening benchmarks"
FAMILIES = (BENCHMARKS, "information retrieval", "local AUC", "KDD Cup perf", "per query")
PROBABILITIES = "probabilities"
GROUPS = "groups"


class OtherMetric(NamedTuple):
    """A metric of the other papers, as a column of the "other metrics" table.

    ``compute(y, s, groups, ties)`` gives its value; ``call`` is set when the
    metric is a mean over the positives of one list, so the significance
    tests apply to it.  ``needs`` is ``"groups"`` (a per-query metric: it
    needs query ids), ``"probabilities"`` (scores must be in [0, 1]) or "".

    Parameters
    ----------
    key : str
        Short name, the table column.
    label : str
        Human-readable name.
    family : str
        One of :data:`FAMILIES`.
    compute : callable
        ``compute(y, s, groups, ties) -> float``, the value on one scored list.
    call : MetricCall, default=None
        The metric as a mean over the positives, when it is one (then the significance tests apply).
    needs : {"", "groups", "probabilities"}, default=""
        What the metric needs beyond labels and scores: query ids, or scores in [0, 1].
    higher_is_better : bool, default=True
        The direction of the metric.
    """

    key: str
    label: str
    family: str
    compute: Callable
    call: MetricCall | None = None
    needs: str = ""
    higher_is_better: bool = True


def _from_call(family: str, call: MetricCall) -> OtherMetric:
    return OtherMetric(call.key, call.label, family, lambda y, s, g, ties: call.value(Ranking(y, s), ties), call)


def other_metrics(top_k: int = 1000, n: int = 50, u0=(0.01, 0.05)) -> list[OtherMetric]:
    """The other papers' metrics, by family (:data:`FAMILIES`).

    ``top_k`` is the cut of the set-based measures, ``n`` the number of
    negatives of ROC_n and TAP-k (the same n, so the two can be compared)
    and ``u0`` the masses of LocAUC.  The virtual-screening benchmarks'
    family is :func:`crocbench.metrics.benchmark_metrics`.  Metrics marked ``needs="groups"`` are
    per query and left out of single-list tables; TOP1 and the rank of the
    last positive are per query when query ids are given, else over the
    one list.

    Parameters
    ----------
    top_k : int, default=1000
        The cut k of the set-based measures (precision, recall, fallout, F1 at k).
    n : int, default=50
        The negatives of ROC_n and TAP-k.
    u0 : tuple of float, default=(0.01, 0.05)
        The top masses of LocAUC.

    Returns
    -------
    list of OtherMetric
        The metrics, family by family in the order of :data:`FAMILIES`.

    Examples
    --------
    >>> metric_set = other_metrics(top_k=100)
    >>> [m.key for m in metric_set][8:12]
    ['ap', 'r_precision', 'precision_at_100', 'recall_at_100']
    """
    _, ir, loc, perf, query = FAMILIES
    k = top_k
    out = [_from_call(BENCHMARKS, call) for call in benchmark_metrics()]
    out += [
        _from_call(ir, _call("ap", "average precision", "average_precision")),
        _from_call(ir, _call("r_precision", "R-precision", "r_precision")),
        _from_call(ir, _call(f"precision_at_{k}", f"precision@{k}", "precision_at_k", k=k)),
        _from_call(ir, _call(f"recall_at_{k}", f"recall@{k}", "recall_at_k", k=k)),
        OtherMetric(
            f"fallout_at_{k}",
            f"fallout@{k}",
            ir,
            lambda y, s, g, ties: R.fallout(y, s, k=k, ties=ties),
            higher_is_better=False,
        ),
        OtherMetric(f"f1_at_{k}", f"F1@{k}", ir, lambda y, s, g, ties: R.f_beta(y, s, 1.0, k=k, ties=ties)),
        OtherMetric(
            "precision_at_recall_0.5",
            "interpolated precision at recall 0.5",
            ir,
            lambda y, s, g, ties: R.precision_at_recall(y, s, 0.5),
        ),
    ]
    out += [_from_call(loc, _call(f"loc_auc_{u:g}", f"LocAUC u0={u:g}", "loc_auc", u0=u)) for u in u0]
    out += [
        OtherMetric("top1", "TOP1", perf, lambda y, s, g, ties: Q.top1(y, s, g)),
        OtherMetric(
            "last_positive_rank",
            "rank of last positive",
            perf,
            lambda y, s, g, ties: Q.last_positive_rank(y, s, g),
            higher_is_better=False,
        ),
        OtherMetric(
            "accuracy_0.5", "accuracy (>= 0.5)", perf, lambda y, s, g, ties: R.accuracy(y, s, 0.5), needs=PROBABILITIES
        ),
        OtherMetric(
            "cross_entropy",
            "cross-entropy",
            perf,
            lambda y, s, g, ties: P.cross_entropy(y, s),
            needs=PROBABILITIES,
            higher_is_better=False,
        ),
        OtherMetric(
            "rmse", "RMSE", perf, lambda y, s, g, ties: P.rmse(y, s), needs=PROBABILITIES, higher_is_better=False
        ),
        OtherMetric(
            "slq_100", "SLAC Q-score (100 bins)", perf, lambda y, s, g, ties: P.slac_q(y, s, 100), needs=PROBABILITIES
        ),
        OtherMetric(
            "map",
            "mean average precision",
            query,
            lambda y, s, g, ties: Q.mean_average_precision(y, s, g, ties=ties),
            needs=GROUPS,
        ),
        OtherMetric(f"tap_{n}", f"TAP-{n}", query, lambda y, s, g, ties: Q.tap_k(y, s, g, n, ties=ties), needs=GROUPS),
        OtherMetric(
            f"roc{n}_per_query",
            f"ROC{n}, mean over queries",
            query,
            lambda y, s, g, ties: Q.roc_n_per_query(y, s, g, n, ties=ties),
            needs=GROUPS,
        ),
        OtherMetric(
            f"roc{n}_pooled",
            f"ROC{n}, pooled list",
            query,
            lambda y, s, g, ties: roc_n(y, s, n, ties=ties),
            needs=GROUPS,
        ),
    ]
    return out


def other_values(y, s, groups=None, ties: str = "expected", metric_set=None) -> list[dict]:
    """Every metric of ``metric_set`` (default :func:`other_metrics`) on one scored list.

    Returns one record per metric: key, label, family, value (None when it
    does not apply or is undefined here), note (why), in_tests (a mean over
    positives) and higher_is_better.  Per-query metrics are skipped (value
    None) without ``groups``; probability metrics without scores in [0, 1].

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True binary labels (0/1 or bool).
    s : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    groups : array-like of shape (n_samples,), default=None
        Query ids, for the per-query metrics.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.
    metric_set : list of OtherMetric, default=None
        The metrics; None for :func:`other_metrics` with ``top_k = min(1000, n_samples)``.

    Returns
    -------
    list of dict
        One record per metric, in the set's order, with the keys ``key``, ``label``, ``family``, ``value``
        (float or None), ``note``, ``in_tests`` and ``higher_is_better``.

    Examples
    --------
    >>> rows = {r["key"]: r for r in other_values([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.1])}
    >>> round(rows["ap"]["value"], 4), rows["ap"]["in_tests"], rows["ap"]["family"]
    (0.8333, True, 'information retrieval')
    """
    y = np.asarray(y)
    s = np.asarray(s, dtype=np.float64)
    probabilities = bool(np.all((s >= 0) & (s <= 1)))
    rows = []
    for m in metric_set if metric_set is not None else other_metrics(top_k=min(1000, y.size)):
        row = {
            "key": m.key,
            "label": m.label,
            "family": m.family,
            "value": None,
            "note": "",
            "in_tests": m.call is not None,
            "higher_is_better": m.higher_is_better,
        }
        if m.needs == GROUPS and groups is None:
            row["note"] = "per query: needs query ids"
        elif m.needs == PROBABILITIES and not probabilities:
            row["note"] = "needs probabilities: scores outside [0, 1]"
        else:
            try:
                row["value"] = float(m.compute(y, s, groups, ties))
            except ValueError as exc:
                row["note"] = str(exc)
        rows.append(row)
    return rows


def per_fold_metrics(pooled: pd.DataFrame, calls, notes: list | None = None) -> pd.DataFrame:
    """One row per fold (and one for the pooled list, fold ``all``) with every metric of ``calls``.

    A metric undefined for a list that size (e.g. ROC50 with fewer than 50
    negatives) is NaN, and the reason is appended to ``notes`` if given.

    Parameters
    ----------
    pooled : pandas.DataFrame
        Out-of-fold scores with the columns ``fold``, ``label`` and ``score`` (:func:`crocbench.cv.pool_scores`).
    calls : iterable of MetricCall
        The metrics.
    notes : list, default=None
        If given, a line is appended to it for every metric undefined on a fold.

    Returns
    -------
    pandas.DataFrame
        Columns ``fold`` (text; ``"all"`` for the pooled list, last), ``n``, ``positives`` and one column per
        call's key.

    Examples
    --------
    >>> import pandas as pd
    >>> pooled = pd.DataFrame({"fold": [0, 0, 1, 1], "label": [1, 0, 1, 0], "score": [0.9, 0.1, 0.2, 0.8]})
    >>> per_fold_metrics(pooled, [parse_metric("roc_auc")])
      fold  n  positives   roc
    0    0  2          1  1.00
    1    1  2          1  0.00
    2  all  4          2  0.75
    """
    rows = []
    groups = [(str(f), part) for f, part in pooled.groupby("fold", sort=True)] + [("all", pooled)]
    for fold, part in groups:
        ranking = Ranking(part["label"].to_numpy(), part["score"].to_numpy())
        row = {"fold": fold, "n": len(part), "positives": int(part["label"].sum())}
        for call in calls:
            try:
                row[call.key] = call.value(ranking)
            except ValueError as exc:
                row[call.key] = np.nan
                if notes is not None:
                    notes.append(f"fold {fold}: {call.key} undefined ({exc})")
        rows.append(row)
    return pd.DataFrame(rows)

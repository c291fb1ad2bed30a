"""Named metric calls: the paper's panel of areas and a ``name:key=value`` syntax.

The same :class:`MetricCall` objects drive the CLI, the workflow's tables and
the significance tests, so a column means the same thing everywhere.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._areas import METRICS, RandomBaseline, _values, definition, evaluate, random_baseline
from ._ranking import Ranking


class MetricCall(NamedTuple):
    """A metric with its parameters, a short key (table column) and a label."""

    key: str
    label: str
    metric: str
    params: dict

    def definition(self, counts):
        return definition(self.metric, counts, **self.params)

    def value(self, ranking: Ranking, ties: str = "expected") -> float:
        return evaluate(ranking, self.definition(ranking.counts), ties)

    def per_positive(self, ranking: Ranking, ties: str = "expected") -> np.ndarray:
        return _values(ranking, self.definition(ranking.counts), ties)

    def random(self, n: int, n_pos: int) -> RandomBaseline:
        return random_baseline(self.metric, n, n_pos, **self.params)


def _call(key, label, metric, **params) -> MetricCall:
    return MetricCall(key, label, metric, params)


ALPHAS = (7.0, 14.0, 80.0)
CUTOFFS = (0.5, 0.1, 0.0086)


def paper_panel(top_k: int = 1000) -> list[MetricCall]:
    """The areas of the paper's tables, in the order of the workflow's table 1.

    AUC[ROC], AUC[AC], AUC[CROC(exp)] and AUC[CAC(exp)] at alpha = 7, 14, 80,
    ROC with hard cutoffs t = 0.5, 0.1, 0.0086, ROC50, pROC, BEDROC at
    alpha = 20 and 80, RIE (alpha = 20), SLR and the actives among the
    ``top_k`` top-ranked items.
    """
    calls = [_call("roc", "AUC[ROC]", "roc_auc"), _call("ac", "AUC[AC]", "ac_auc")]
    calls += [_call(f"croc_exp_{a:g}", f"AUC[CROC(exp)] a={a:g}", "croc_auc", alpha=a, transform="exp") for a in ALPHAS]
    calls += [_call(f"cac_exp_{a:g}", f"AUC[CAC(exp)] a={a:g}", "cac_auc", alpha=a, transform="exp") for a in ALPHAS]
    calls += [_call(f"roc_t{t:g}", f"AUC[ROC] t={t:g}", "roc_auc_cutoff", t=t) for t in CUTOFFS]
    calls += [
        _call("roc50", "ROC50", "roc_n", n=50),
        _call("proc", "AUC[pROC]", "proc_auc"),
        _call("bedroc_20", "BEDROC a=20", "bedroc", alpha=20.0),
        _call("bedroc_80", "BEDROC a=80", "bedroc", alpha=80.0),
        _call("rie_20", "RIE a=20", "rie", alpha=20.0),
        _call("slr", "SLR", "slr"),
        _call(f"top{top_k}", f"actives in top {top_k}", "hits_at_k", k=top_k),
    ]
    return calls


def _parse_value(text: str):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_metric(spec: str) -> MetricCall:
    """Parse ``"name"`` or ``"name:key=value,key=value"`` into a :class:`MetricCall`.

    A key of :func:`paper_panel` (e.g. ``"croc_exp_80"``) is accepted too.

    Examples
    --------
    >>> parse_metric("croc_auc:alpha=80").params
    {'alpha': 80}
    >>> parse_metric("roc50").metric
    'roc_n'
    """
    spec = spec.strip()
    panel = {c.key: c for c in paper_panel()}
    if spec in panel:
        return panel[spec]
    name, _, rest = spec.partition(":")
    if name not in METRICS:
        raise ValueError(
            f"unknown metric {name!r}; use one of {', '.join(METRICS)} "
            f"(with ':key=value,...' parameters) or a panel key ({', '.join(panel)})"
        )
    params = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bad metric parameter {item!r} in {spec!r}: expected key=value")
        params[key.strip()] = _parse_value(value.strip())
    for call in panel.values():  # same metric as a panel column: use its key and label
        if call.metric == name and call.params == params:
            return call
    return MetricCall(spec, spec, name, params)

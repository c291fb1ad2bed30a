"""Named metric calls and the named metric sets: the paper's areas, the benchmarks', and a ``name:key=value``
syntax.

The same :class:`MetricCall` objects drive the CLI, the workflow's tables and
the significance tests, so a column means the same thing everywhere.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._areas import _values, evaluate
from ._baselines import random_baseline
from ._definitions import METRICS, RandomBaseline, definition, top_count
from ._ranking import Counts, Ranking
from ._resamples import Resamples, evaluate_resamples


class MetricCall(NamedTuple):
    """A metric with its parameters, a short key (table column) and a label.

    Parameters
    ----------
    key : str
        Short name, the column of the tables (e.g. ``"croc_exp_80"``).
    label : str
        Human-readable name (e.g. ``"AUC[CROC(exp)] a=80"``).
    metric : str
        A name from :data:`METRICS`.
    params : dict
        The metric's parameters (e.g. ``{"alpha": 80.0, "transform": "exp"}``).

    Examples
    --------
    >>> from crocbench.metrics import Ranking
    >>> call = parse_metric("croc_auc:alpha=7")
    >>> round(call.value(Ranking([1, 1, 0, 1, 1, 0, 1, 0, 0, 0], -np.arange(10))), 4)
    0.5104
    """

    key: str
    label: str
    metric: str
    params: dict

    def definition(self, counts):
        """The metric's :class:`Definition` for a list of the given size.

        Parameters
        ----------
        counts : Counts
            The list's sizes ``(n, n_pos, n_neg)``.

        Returns
        -------
        Definition
            ``(kind, h, scale, offset)`` of the metric with these parameters.
        """
        try:
            return definition(self.metric, counts, **self.params)
        except ValueError as exc:  # a list too small for the parameters: say which metric
            raise ValueError(f"metric {self.key!r}: {exc}") from None

    def value(self, ranking: Ranking, ties: str = "expected") -> float:
        """The metric's value on a ranked list.

        Parameters
        ----------
        ranking : Ranking
            The scored list.
        ties : {"expected", "optimistic", "pessimistic"}, default="expected"
            How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
            its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

        Returns
        -------
        float
            The value, as :func:`score` gives it.
        """
        return evaluate(ranking, self.definition(ranking.counts), ties)

    def resampled(self, resamples: Resamples, ties: str = "expected") -> np.ndarray:
        """The value on every resample of a list (:func:`crocbench.metrics.evaluate_resamples`).

        Parameters
        ----------
        resamples : Resamples
            The resampled rankings of one list.
        ties : {"expected", "optimistic", "pessimistic"}, default="expected"
            How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
            its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

        Returns
        -------
        ndarray of shape (n_resamples,)
            The value on every resample.
        """
        return evaluate_resamples(self.definition(resamples.counts), resamples, ties)

    def per_positive(self, ranking: Ranking, ties: str = "expected") -> np.ndarray:
        """The per-positive values whose mean, mapped affinely, is the value (:func:`per_positive_values`).

        Parameters
        ----------
        ranking : Ranking
            The scored list.
        ties : {"expected", "optimistic", "pessimistic"}, default="expected"
            How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
            its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

        Returns
        -------
        ndarray of shape (n_pos,)
            One value per positive, in input order.
        """
        return _values(ranking, self.definition(ranking.counts), ties)

    def random(self, n: int, n_pos: int) -> RandomBaseline:
        """The exact mean and SD of the metric under a random ranking (:func:`random_baseline`).

        Parameters
        ----------
        n : int
            The list's size.
        n_pos : int
            Its number of positives.

        Returns
        -------
        RandomBaseline
            ``(mean, sd)`` over the uniformly random orderings.
        """
        return random_baseline(self.metric, n, n_pos, **self.params)

    @property
    def is_count(self) -> bool:
        """Whether the value is a number of compounds (shown as a count, not a fraction)."""
        return self.metric == "hits_at_k"


def _call(key, label, metric, **params) -> MetricCall:
    return MetricCall(key, label, metric, params)


#: The paper's three early-recognition strengths of AUC[CROC(exp)] (Swamidass et al. 2010): a = 7, 14, 80.
ALPHAS = (7.0, 14.0, 80.0)
#: The hard cut-offs (fractions of the list) matching :data:`ALPHAS` in the paper's power comparison.
CUTOFFS = (0.5, 0.1, 0.0086)

#: The keys of the paper's headline areas (:func:`paper_metrics`): AUC[ROC], then AUC[CROC(exp)] at each of
#: :data:`ALPHAS`.  The report's tables derive their metric columns from it.
HEADLINE = ("roc", *(f"croc_exp_{a:g}" for a in ALPHAS))
#: :data:`HEADLINE` and BEDROC a = 20: the metrics of the summary across screens, the repeats' tests and the SVM
#: set-up study.
HEADLINE_BEDROC = (*HEADLINE, "bedroc_20")


def top_cutoff(top, n: int) -> int:
    """The k of "actives in the top k" for a list of ``n`` compounds.

    Parameters
    ----------
    top : int or float
        A count (an integer >= 1, capped at ``n``) or a fraction of the list
        (a float in (0, 1), rounded half up, at least 1).
    n : int
        The list's size.

    Returns
    -------
    int
        The cut k, from 1 to ``n``.

    Examples
    --------
    >>> top_cutoff(1000, 41906), top_cutoff(1000, 642), top_cutoff(0.01, 642), top_cutoff(0.01, 20)
    (1000, 642, 6, 1)
    """
    bad = ValueError(f"top must be a count >= 1 or a fraction in (0, 1), got {top!r}")
    if isinstance(top, (bool, np.bool_)) or not isinstance(top, (int, float, np.integer, np.floating)):
        raise bad
    if float(top).is_integer() and top >= 1:  # 1000.0 from a YAML or JSON file is the count 1000
        return int(min(top, n))
    if not 0 < top < 1:
        raise bad
    return top_count(float(top), n)


def hits_call(top, n: int) -> MetricCall:
    """The "actives in the top k" call for a list of ``n``; its label says a fraction's share and n.

    >>> hits_call(1000, 41906).key, hits_call(0.01, 642).label
    ('top1000', 'actives in top 6 (1% of 642)')

    Parameters
    ----------
    top : int or float
        A count (at least 1) or a fraction of the list in (0, 1); see :func:`top_cutoff`.
    n : int
        The list's size.

    Returns
    -------
    MetricCall
        ``hits_at_k`` with k = :func:`top_cutoff` ``(top, n)``, keyed ``"top<k>"``.

    Examples
    --------
    >>> hits_call(1000, 41906).key, hits_call(0.01, 642).label
    ('top1000', 'actives in top 6 (1% of 642)')
    """
    k = top_cutoff(top, n)
    share = "" if float(top).is_integer() else f" ({100 * top:g}% of {n:,})"
    return _call(f"top{k}", f"actives in top {k}{share}", "hits_at_k", k=k)


def paper_metrics(top_k: int = 1000, n: int | None = None) -> list[MetricCall]:
    """The areas of the paper's tables, in the order of the workflow's table 1.

    AUC[ROC], AUC[AC], AUC[CROC(exp)] and AUC[CAC(exp)] at alpha = 7, 14, 80,
    ROC with hard cutoffs t = 0.5, 0.1, 0.0086, ROC50, pROC, BEDROC at
    alpha = 20 and 80, RIE (alpha = 20), SLR and the actives among the
    ``top_k`` top-ranked items; with ``n`` (the list's size), ``top_k`` may
    also be a fraction of the list (:func:`top_cutoff`).

    Parameters
    ----------
    top_k : int or float, default=1000
        The cut of the "actives in the top k" column: a count, or with ``n`` a fraction of the list.
    n : int, default=None
        The list's size; None uses ``top_k`` itself as the size.

    Returns
    -------
    list of MetricCall
        The 18 calls, in table order.

    Examples
    --------
    >>> [c.key for c in paper_metrics()][:5]
    ['roc', 'ac', 'croc_exp_7', 'croc_exp_14', 'croc_exp_80']
    >>> len(paper_metrics())
    18
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
        hits_call(top_k, top_k if n is None else n),
    ]
    return calls


def benchmark_metrics() -> list[MetricCall]:
    """The early-retrieval metrics the other virtual-screening benchmarks report, as they report them.

    Docking's logAUC over FPR [0.001, 1] and its adjusted form (less the
    random mean), WelQrate's logAUC[0.001, 0.1], the enrichment factor at 1%
    and 5% (Litmus) and in the top 100 (WelQrate), and DCG and NDCG over the
    top 100 (WelQrate; scikit-learn).  AUROC, average precision, BEDROC and
    RIE are in :func:`paper_metrics` and :func:`crocbench.metrics.other_metrics`.
    Every one has exact ties and an exact random baseline.

    Returns
    -------
    list of MetricCall
        The 8 calls, in table order.

    Examples
    --------
    >>> [c.key for c in benchmark_metrics()]  # doctest: +NORMALIZE_WHITESPACE
    ['log_auc', 'log_auc_adj', 'log_auc_0.001_0.1', 'ef_1pct', 'ef_5pct', 'ef_top100', 'dcg_100', 'ndcg_100']
    """
    return [
        _call("log_auc", "logAUC[0.001, 1]", "log_auc", lam=0.001),
        _call("log_auc_adj", "adjusted logAUC[0.001, 1]", "adjusted_log_auc", lam=0.001),
        _call("log_auc_0.001_0.1", "logAUC[0.001, 0.1]", "log_auc", lam=0.001, upper=0.1),
        _call("ef_1pct", "EF 1%", "enrichment_factor", fraction=0.01),
        _call("ef_5pct", "EF 5%", "enrichment_factor", fraction=0.05),
        _call("ef_top100", "EF top 100", "enrichment_factor", k=100),
        _call("dcg_100", "DCG@100", "dcg", k=100),
        _call("ndcg_100", "NDCG@100", "ndcg", k=100),
    ]


def _parse_value(text: str):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_metric(spec: str) -> MetricCall:
    """Parse ``"name"`` or ``"name:key=value,key=value"`` into a :class:`MetricCall`.

    A key of :func:`paper_metrics` (e.g. ``"croc_exp_80"``) or of :func:`benchmark_metrics` (e.g. ``"dcg_100"``) is
    accepted too.

    Parameters
    ----------
    spec : str
        ``"name"`` or ``"name:key=value,..."`` with a name from :data:`METRICS` (values parsed as int, float or
        text), or a key of :func:`paper_metrics` or :func:`benchmark_metrics`.

    Returns
    -------
    MetricCall
        The call; the named metric's own call (key and label) when it is one of the named metric sets'.

    Raises
    ------
    ValueError
        If the name is unknown or a parameter malformed or invalid for the metric.

    Examples
    --------
    >>> parse_metric("croc_auc:alpha=80").params
    {'alpha': 80}
    >>> parse_metric("roc50").metric
    'roc_n'
    """
    spec = spec.strip()
    named = {c.key: c for c in (*paper_metrics(), *benchmark_metrics())}
    if spec in named:
        return named[spec]
    name, _, rest = spec.partition(":")
    if name in named and name not in METRICS:
        raise ValueError(
            f"{name!r} is a named metric with its parameters fixed ({named[name].metric}:"
            + ",".join(f"{k}={v}" for k, v in named[name].params.items())
            + f"); give parameters to the metric itself, e.g. {named[name].metric}:{rest}"
        )
    if name not in METRICS:
        raise ValueError(
            f"unknown metric {name!r}; use one of {', '.join(METRICS)} "
            f"(with ':key=value,...' parameters) or a named metric ({', '.join(named)})"
        )
    params = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bad metric parameter {item!r} in {spec!r}: expected key=value")
        if key.strip() in params:
            raise ValueError(f"metric {spec!r}: parameter {key.strip()!r} is given twice")
        params[key.strip()] = _parse_value(value.strip())
    for call in named.values():  # same metric as a named one: use its key and label
        if call.metric == name and call.params == params:
            return call
    call = MetricCall(spec, spec, name, params)
    # bad parameters fail here, before any data is read (a huge list: no size-dependent limit applies)
    call.definition(Counts(10**12, 10**6, 10**12 - 10**6))
    return call

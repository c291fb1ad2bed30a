"""Every metric of the CROC framework defined once: ``scale * mean(h(x_i)) + offset`` over the positives i.

A metric is defined once, by a builder that returns its :class:`Definition`:
whether its per-positive value is a function of ``j`` (negatives above the
positive, i.e. its FPR times n_neg) or of ``r`` (rank among all items), that
function ``h``, and the affine map from the mean of ``h`` to the metric.
Scores, per-positive values (for the significance tests) and the random
classifier's exact distribution are all computed from that one definition
(:mod:`crocbench.metrics._areas`, :mod:`crocbench.metrics._baselines`).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ._ranking import Counts, Ranking
from ._transforms import Transform, check_alpha, check_fraction, cutoff_transform, get_transform

FPR, RANK, RANKING = "fpr", "rank", "ranking"


class Definition(NamedTuple):
    """A metric for a list of a given size: ``scale * mean(h(x)) + offset``.

    ``kind`` is ``"fpr"`` when x is the number of negatives above a positive
    (0..n_neg) and ``"rank"`` when x is its 1-based rank (1..n).  A few
    metrics need more of a positive's position than one number (average
    precision: its rank and the positives above it); for those ``kind`` is
    ``"ranking"`` and ``h(ranking, ties)`` returns the per-positive values
    directly.  They have no exact random baseline here.

    Parameters
    ----------
    kind : {"fpr", "rank", "ranking"}
        What ``h`` is a function of: ``j``, the negatives above a positive (0..n_neg), its 1-based rank
        ``r`` (1..n), or the whole :class:`Ranking`.
    h : callable
        Vectorized per-positive value: ``h(j)``, ``h(r)``, or ``h(ranking, ties)`` returning one value per
        positive.
    scale : float, default=1.0
        Factor of the mean (> 0 for every metric here).
    offset : float, default=0.0
        Added to the scaled mean.

    Examples
    --------
    >>> d = definition("roc_auc", Counts(10, 5, 5))
    >>> d.kind, d.scale, d.offset, d.h(np.array([0, 1, 5])).tolist()
    ('fpr', 1.0, 0.0, [1.0, 0.8, 0.0])
    """

    kind: str
    h: Callable[[np.ndarray], np.ndarray]
    scale: float = 1.0
    offset: float = 0.0


class RandomBaseline(NamedTuple):
    """Exact mean and standard deviation of a metric under a random ranking.

    Parameters
    ----------
    mean : float
        The metric's mean over the uniformly random orderings of the list.
    sd : float
        Its standard deviation.
    """

    mean: float
    sd: float

    def z_score(self, value: float) -> float:
        """``(value - mean) / sd`` (``nan`` when sd is 0).

        Parameters
        ----------
        value : float
            A value of the metric on the same list.

        Returns
        -------
        float
            How many standard deviations ``value`` lies above the random mean; ``nan`` when ``sd`` is 0.

        Examples
        --------
        >>> RandomBaseline(0.5, 0.1).z_score(0.8)
        3.0000000000000004
        """
        return (value - self.mean) / self.sd if self.sd > 0 else float("nan")


def _check_count(value, name: str, low: int, high: int, of: str = "") -> int:
    """``value`` as an int in [low, high], or one line saying which bound it breaks (``of``: what ``high`` counts,
    e.g. "the list's negatives")."""
    try:
        v = operator.index(value)
    except TypeError:
        if isinstance(value, float) and value.is_integer():
            v = int(value)
        else:
            raise ValueError(f"{name} must be an integer; got {value!r}") from None
    if v < low:
        raise ValueError(f"{name} must be at least {low}; got {v}")
    if v > high:
        raise ValueError(f"{name} must be at most {high}" + (f", {of}" if of else "") + f"; got {v}")
    return v


# --- builders: (counts, **params) -> Definition --------------------------------


def _roc(c: Counts) -> Definition:
    m = c.n_neg
    return Definition(FPR, lambda j: 1.0 - j / m)


def _croc(c: Counts, alpha=None, transform: Transform = "exp") -> Definition:
    f, m = get_transform(transform, alpha), c.n_neg
    return Definition(FPR, lambda j: 1.0 - f(j / m))


def _roc_cutoff(c: Counts, t) -> Definition:
    f, m = cutoff_transform(t), c.n_neg
    return Definition(FPR, lambda j: 1.0 - f(j / m))


def _roc_n(c: Counts, n=50) -> Definition:
    n = _check_count(n, "n", 1, c.n_neg, "the list's negatives")
    return Definition(FPR, lambda j: 1.0 - np.minimum(j / n, 1.0))


def _proc(c: Counts) -> Definition:
    m, x0 = c.n_neg, 0.5 / c.n
    log_x0 = math.log10(x0)
    return Definition(FPR, lambda j: np.log10(np.maximum(j / m, x0)) / log_x0)


def _ac(c: Counts) -> Definition:
    n = c.n
    return Definition(RANK, lambda r: 1.0 - (2.0 * r - 1.0) / (2.0 * n))


def _cac(c: Counts, alpha=None, transform: Transform = "exp") -> Definition:
    f, n = get_transform(transform, alpha), c.n
    return Definition(RANK, lambda r: 1.0 - 0.5 * (f((r - 1.0) / n) + f(r / n)))


def _rie_scale(c: Counts, a: float) -> float:
    # RIE = sum(exp(-a r / N)) / (n_pos / N * (1 - e^-a) / (e^(a/N) - 1))
    return c.n * math.expm1(a / c.n) / -math.expm1(-a)


#: Above this a / N, exp(a / N) overflows, or exp(-2 a r / N) underflows and a random ranking's variance with it:
#: RIE's weight is then taken as exp(-a (r - 1) / N) (1 - exp(-a / N)) times N / (1 - e^-a), the same value.
_RIE_DIRECT = 50.0


def _rie_weight(c: Counts, a: float) -> tuple:
    """(h, scale) of RIE: scale * mean(h(r)) over the positives' ranks r."""
    n = c.n
    if a / n <= _RIE_DIRECT:
        return (lambda r: np.exp(-a * r / n)), _rie_scale(c, a)
    step = -math.expm1(-a / n)
    return (lambda r: np.exp(-a * (np.asarray(r, dtype=np.float64) - 1.0) / n) * step), n / -math.expm1(-a)


def _rie(c: Counts, alpha=20.0) -> Definition:
    h, scale = _rie_weight(c, check_alpha(alpha))
    return Definition(RANK, h, scale)


def _bedroc(c: Counts, alpha=20.0) -> Definition:
    a = check_alpha(alpha)
    ra = c.n_pos / c.n
    rie_max = -math.expm1(-a * ra) / (ra * -math.expm1(-a))
    rie_min = math.exp(-a * (1.0 - ra)) * math.expm1(-a * ra) / (ra * math.expm1(-a))
    width = rie_max - rie_min
    h, scale = _rie_weight(c, a)
    return Definition(RANK, h, scale / width, -rie_min / width)


def _slr(c: Counts) -> Definition:
    n = c.n
    return Definition(RANK, lambda r: -np.log(r / n), float(c.n_pos))


def top_count(fraction: float, n: int) -> int:
    """The size of the top ``fraction`` of a list of ``n``: rounded half up, at least 1, at most n.

    >>> top_count(0.01, 2050), top_count(0.01, 41906), top_count(0.01, 20)
    (21, 419, 1)
    """
    return int(max(1, min(n, math.floor(fraction * n + 0.5))))


def _enrichment(c: Counts, fraction=None, k=None) -> Definition:
    if (fraction is None) == (k is None):
        raise ValueError("the enrichment factor needs the top of the list as a fraction or as a count k (one of them)")
    n_top = (
        top_count(check_fraction(fraction, "fraction"), c.n)
        if k is None
        else _check_count(k, "k", 1, c.n, "the list's compounds")
    )
    return Definition(RANK, lambda r: (r <= n_top).astype(np.float64), c.n / n_top)


def _hits(c: Counts, k) -> Definition:
    k = _check_count(k, "k", 1, c.n, "the list's compounds")
    return Definition(RANK, lambda r: (r <= k).astype(np.float64), float(c.n_pos))


def _precision_at_k(c: Counts, k) -> Definition:
    k = _check_count(k, "k", 1, c.n, "the list's compounds")
    return Definition(RANK, lambda r: (r <= k).astype(np.float64), c.n_pos / k)


def _recall_at_k(c: Counts, k) -> Definition:
    k = _check_count(k, "k", 1, c.n, "the list's compounds")
    return Definition(RANK, lambda r: (r <= k).astype(np.float64))


def _r_precision(c: Counts) -> Definition:
    r_max = c.n_pos
    return Definition(RANK, lambda r: (r <= r_max).astype(np.float64))


def _average_precision(c: Counts) -> Definition:
    return Definition(RANKING, lambda ranking, ties: ranking.precision_values(ties))


def _loc_auc(c: Counts, u0=0.1) -> Definition:
    u0 = check_fraction(u0, "u0")
    top = max(1, math.ceil(u0 * c.n - 1e-9))  # rank of the empirical (1 - u0)-quantile of the scores
    m = c.n_neg

    def values(ranking: Ranking, ties: str) -> np.ndarray:
        inside = ranking.first_ranks() <= top
        return ranking.fpr_values(lambda j: 1.0 - j / m, ties) * inside

    return Definition(RANKING, values)


#: The smallest ``lam`` of logAUC: below it (subnormal floats) the log axis and its random baseline lose their digits.
MIN_LAM = 1e-300


def _check_fpr_range(lam, upper) -> tuple[float, float]:
    lo, hi = check_fraction(lam, "lam"), check_fraction(upper, "upper")
    if lo < MIN_LAM:
        raise ValueError(f"lam must be at least {MIN_LAM:g} (a false-positive rate on a log axis); got {lam!r}")
    if not lo < hi:
        raise ValueError(f"the FPR range needs lam < upper; got [{lam!r}, {upper!r}]")
    return lo, hi


def _log_auc(c: Counts, lam=0.001, upper=1.0) -> Definition:
    # The step ROC's TPR at FPR x is the share of positives whose FPR j/m is at most x, so its area on a log10 axis
    # over [lam, upper] is the mean over the positives of log10(upper / clip(j/m, lam, upper)); divided by the
    # width log10(upper / lam), a perfect ranking scores 1.
    lo, hi = _check_fpr_range(lam, upper)
    m, width = c.n_neg, math.log10(hi / lo)
    return Definition(FPR, lambda j: np.log10(hi / np.clip(j / m, lo, hi)) / width)


#: Above this many negatives, logAUC's random mean is summed in closed form rather than over every j.
_LOG_AUC_SUMMED = 10**7


def _log_auc_random_mean(m: int, lo: float, hi: float, summed: int = _LOG_AUC_SUMMED) -> float:
    """The mean of logAUC's h(j) over j uniform on 0..m (a random ranking's positive), j/m's FPR: over every j
    up to ``summed`` negatives, else in closed form (h is 1 up to lo, 0 from hi, and between them a sum of log10 j,
    lgamma's)."""
    width = math.log10(hi / lo)
    if m + 1 <= summed:
        j = np.arange(m + 1, dtype=np.int64)
        return float(np.mean(np.log10(hi / np.clip(j / m, lo, hi)) / width))
    low, high = math.floor(lo * m), math.ceil(hi * m)  # h(j) = 1 for j <= low, 0 for j >= high (and at both ends)
    inner = high - low - 1  # the j strictly between
    logs = (math.lgamma(high) - math.lgamma(low + 1)) / math.log(10)  # sum of log10 j, j = low + 1 .. high - 1
    return ((low + 1) + (inner * math.log10(hi * m) - logs) / width) / (m + 1)


def _adjusted_log_auc(c: Counts, lam=0.001, upper=1.0) -> Definition:
    d = _log_auc(c, lam, upper)
    lo, hi = _check_fpr_range(lam, upper)
    return d._replace(offset=-_log_auc_random_mean(c.n_neg, lo, hi))


def _gain_discounts(k, log_base) -> Callable[[np.ndarray], np.ndarray]:
    try:
        base = float(log_base)
    except (TypeError, ValueError):
        raise ValueError(f"log_base must be a number > 1; got {log_base!r}") from None
    if not (base > 1 and math.isfinite(base)):
        raise ValueError(f"log_base must be a number > 1; got {log_base!r}")
    log_b = math.log(base)
    return lambda r: np.where(r <= k, log_b / np.log1p(np.asarray(r, dtype=np.float64)), 0.0)


def _top(c: Counts, k) -> int:
    return c.n if k is None else min(_check_count(k, "k", 1, 2**62), c.n)  # as scikit-learn: k > n is the list


def _dcg(c: Counts, k=None, log_base=2) -> Definition:
    k = _top(c, k)
    return Definition(RANK, _gain_discounts(k, log_base), float(c.n_pos))


def _ndcg(c: Counts, k=None, log_base=2) -> Definition:
    k = _top(c, k)
    discount = _gain_discounts(k, log_base)
    ideal = float(discount(np.arange(1, min(k, c.n_pos) + 1)).sum())  # every positive at the top
    return Definition(RANK, discount, c.n_pos / ideal)


#: The registry, declared once, by family: each metric's name (the ``metric`` of :func:`score`,
#: :func:`per_positive_values` and :func:`definition`, the name of a :func:`parse_metric` spec) and the function that
#: builds its :class:`Definition`. A family is also the module that holds the metrics' public functions
#: (``_roc``, ``_enrichment``, ``_precision``, ``_screening``); ``tests/test_metrics_common.py`` checks every metric.
_BY_FAMILY: dict[str, dict[str, Callable[..., Definition]]] = {
    "roc": {
        "roc_auc": _roc,
        "croc_auc": _croc,
        "roc_auc_cutoff": _roc_cutoff,
        "roc_n": _roc_n,
        "proc_auc": _proc,
        "loc_auc": _loc_auc,
    },
    "enrichment": {
        "ac_auc": _ac,
        "cac_auc": _cac,
        "rie": _rie,
        "bedroc": _bedroc,
        "slr": _slr,
        "enrichment_factor": _enrichment,
        "hits_at_k": _hits,
    },
    "precision": {
        "precision_at_k": _precision_at_k,
        "recall_at_k": _recall_at_k,
        "r_precision": _r_precision,
        "average_precision": _average_precision,
    },
    "screening": {
        "log_auc": _log_auc,
        "adjusted_log_auc": _adjusted_log_auc,
        "dcg": _dcg,
        "ndcg": _ndcg,
    },
}
#: The metrics by name, each with the function that builds its :class:`Definition` (from the registry above).
METRICS: dict[str, Callable[..., Definition]] = {
    name: build for members in _BY_FAMILY.values() for name, build in members.items()
}
#: Each metric's family (``"roc"``, ``"enrichment"``, ``"precision"`` or ``"screening"``), from the registry.
METRIC_FAMILY: dict[str, str] = {name: family for family, members in _BY_FAMILY.items() for name in members}


def definition(metric: str, counts: Counts, **params) -> Definition:
    """The :class:`Definition` of ``metric`` for a list of the given size.

    Parameters
    ----------
    metric : str
        A name from :data:`METRICS`.
    counts : Counts
        The list's sizes ``(n, n_pos, n_neg)``.
    **params
        The metric's parameters (e.g. ``alpha=80``, ``k=100``), checked here.

    Returns
    -------
    Definition
        ``(kind, h, scale, offset)``: the metric is ``scale * mean(h(x_i)) + offset`` over the positives.

    Raises
    ------
    ValueError
        If ``metric`` is unknown or a parameter is missing, unknown or out of range.

    Examples
    --------
    >>> d = definition("hits_at_k", Counts(10, 5, 5), k=3)
    >>> d.kind, d.scale, d.h(np.array([1, 3, 4])).tolist()  # hits = n_pos * mean([r <= 3])
    ('rank', 5.0, [1.0, 1.0, 0.0])
    """
    try:
        build = METRICS[metric]
    except KeyError:
        raise ValueError(f"unknown metric {metric!r}; known: {', '.join(METRICS)}") from None
    try:
        return build(counts, **params)
    except TypeError as exc:  # an unknown or missing parameter
        raise ValueError(f"bad parameters for {metric}: {exc}") from None

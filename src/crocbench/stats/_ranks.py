"""Many datasets: which ranker wins across them (Demsar 2006).

A metric per dataset and ranker, as a (datasets, rankers) table: each
ranker's rank on each dataset (:func:`dataset_ranks`), Friedman's test that
the rankers perform alike (:func:`friedman_test`), the Nemenyi critical
difference of mean ranks (:func:`nemenyi_critical_difference`) and paired
Wilcoxon tests of every pair of rankers, Holm-adjusted
(:func:`pairwise_wilcoxon`, :func:`holm`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._effects import EFFECT_RESAMPLES, paired_effect
from ._scipy import scipy_stats as _sps
from ._signed_rank import signed_rank_test
from ._ties import _paired_differences


class Friedman(NamedTuple):
    """Friedman's test of k rankers over N datasets (Demsar 2006, section 3.2.2).

    ``statistic`` is chi^2_F (with the tie correction scipy applies), ``p_value``
    its chi-square p-value (k - 1 df); ``iman_davenport`` and ``iman_davenport_p``
    are the F statistic Demsar recommends, F_F = (N - 1) chi^2_F / (N (k - 1) - chi^2_F),
    and its p-value (k - 1, (k - 1)(N - 1) df).

    Parameters
    ----------
    statistic : float
        chi^2_F, tie-corrected.
    p_value : float
        Its chi-square p-value (k - 1 df).
    iman_davenport : float
        Iman and Davenport's F_F.
    iman_davenport_p : float
        Its F p-value.
    mean_ranks : ndarray of shape (n_rankers,)
        Each ranker's mean rank over the datasets (1 = best).
    """

    statistic: float
    p_value: float
    iman_davenport: float
    iman_davenport_p: float
    mean_ranks: np.ndarray


def _scores_table(values) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if v.ndim != 2 or v.shape[0] < 2 or v.shape[1] < 2:
        raise ValueError(f"values must be a (datasets, rankers) table with at least 2 of each; got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError("values must be finite (a metric undefined on a dataset cannot be ranked)")
    return v


def dataset_ranks(values, higher_is_better: bool = True) -> np.ndarray:
    """Each ranker's rank on each dataset: 1 = best, tied values share their mean rank.

    Parameters
    ----------
    values : array-like of shape (n_datasets, n_rankers)
        A metric per dataset (rows) and ranker (columns).
    higher_is_better : bool, default=True
        The direction of the metric.

    Returns
    -------
    ndarray of shape (n_datasets, n_rankers)
        Ranks within each dataset, 1 = best, ties sharing their mean rank.

    Examples
    --------
    >>> dataset_ranks([[0.9, 0.8, 0.8], [0.5, 0.7, 0.6]]).tolist()
    [[1.0, 2.5, 2.5], [3.0, 1.0, 2.0]]
    """
    v = _scores_table(values)
    return _sps().rankdata(-v if higher_is_better else v, axis=1)


def friedman_test(values, higher_is_better: bool = True) -> Friedman:
    """Friedman's test that k rankers perform alike over N datasets.

    chi^2_F = 12 / (N k (k + 1)) sum_j R_j^2 - 3 N (k + 1), with R_j ranker j's
    rank sum, divided by 1 - sum(t^3 - t) / (N (k^3 - k)) over groups of t tied
    values within a dataset (as :func:`scipy.stats.friedmanchisquare`).

    Parameters
    ----------
    values : array-like of shape (n_datasets, n_rankers)
        A metric per dataset (rows) and ranker (columns).
    higher_is_better : bool, default=True
        The direction of the metric (rank 1 is the best value).

    Returns
    -------
    Friedman
        The statistics, their p-values and the mean ranks.

    Examples
    --------
    >>> f = friedman_test([[3, 2, 1], [3, 2, 1], [3, 1, 2]])
    >>> round(f.statistic, 4), f.mean_ranks.tolist()
    (4.6667, [1.0, 2.3333333333333335, 2.6666666666666665])
    """
    ranks = dataset_ranks(values, higher_is_better)
    n, k = ranks.shape
    chi2 = 12.0 / (n * k * (k + 1)) * float((ranks.sum(axis=0) ** 2).sum()) - 3.0 * n * (k + 1)
    ties = 0.0
    for row in ranks:
        _, t = np.unique(row, return_counts=True)
        ties += float((t**3 - t).sum())
    correction = 1.0 - ties / (n * (k**3 - k))
    chi2 = chi2 / correction if correction > 0 else 0.0  # every dataset ties every ranker: no evidence at all
    p = float(_sps().chi2.sf(chi2, k - 1))
    denominator = n * (k - 1) - chi2
    f = (n - 1) * chi2 / denominator if denominator > 0 else np.inf
    f_p = float(_sps().f.sf(f, k - 1, (k - 1) * (n - 1))) if np.isfinite(f) and n > 1 else 0.0
    return Friedman(float(chi2), p, float(f), f_p, ranks.mean(axis=0))


def nemenyi_critical_difference(k: int, n_datasets: int, alpha: float = 0.05) -> float:
    """The Nemenyi test's critical difference of mean ranks (Demsar 2006, section 3.2.2).

    CD = q_alpha sqrt(k (k + 1) / (6 N)), with q_alpha the studentized range
    statistic's upper alpha quantile for k groups and infinite degrees of
    freedom, divided by sqrt(2) (Demsar's table 5a: 1.960, 2.343, 2.569, ...
    for k = 2, 3, 4 at alpha = 0.05).  Two rankers whose mean ranks differ by at
    least CD perform differently.

    Parameters
    ----------
    k : int
        The number of rankers, at least 2.
    n_datasets : int
        The number of datasets N.
    alpha : float, default=0.05
        The family-wise significance level.

    Returns
    -------
    float
        The critical difference CD of two mean ranks.

    Examples
    --------
    >>> round(nemenyi_critical_difference(5, 3), 3)  # q_0.05 = 2.728
    3.522
    """
    if int(k) != k or k < 2 or int(n_datasets) != n_datasets or n_datasets < 1:
        raise ValueError(f"need k >= 2 rankers and N >= 1 datasets; got k={k}, N={n_datasets}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha}")
    q = _sps().studentized_range.ppf(1 - alpha, int(k), np.inf) / np.sqrt(2)
    return float(q * np.sqrt(k * (k + 1) / (6.0 * n_datasets)))


def screens_needed(k: int | None = None, alpha: float = 0.05, *, tests: int | None = None) -> int:
    """The fewest datasets on which a pair of rankers that agrees on every one can pass Holm's correction: the exact
    two-sided p-value of n like signs of the Wilcoxon signed-rank test, 2 / 2^n, times the family's size (Holm's
    factor when every test of the family is alike), below ``alpha``.

    Parameters
    ----------
    k : int, default=None
        The number of rankers compared pairwise by :func:`pairwise_wilcoxon`: a family of k (k - 1) / 2 tests.
    alpha : float, default=0.05
        The family-wise significance level.
    tests : int, default=None
        The family's size, in place of ``k``: a declared family of pairs and metrics, all Holm-adjusted together.

    Returns
    -------
    int
        The smallest number of datasets n with ``2 / 2^n * m < alpha``, m the family's size.

    Examples
    --------
    >>> screens_needed(5), screens_needed(2), screens_needed(6)
    (9, 6, 10)
    >>> screens_needed(tests=12)
    9
    """
    if (k is None) == (tests is None):
        raise ValueError("give k (rankers compared pairwise) or tests (a family's size), not both")
    if k is not None and (int(k) != k or k < 2):
        raise ValueError(f"need k >= 2 rankers; got k={k}")
    if tests is not None and (int(tests) != tests or tests < 1):
        raise ValueError(f"need a family of at least 1 test; got tests={tests}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha}")
    family, n = (k * (k - 1) // 2 if tests is None else int(tests)), 1
    while family * 2.0 / 2.0**n >= alpha:
        n += 1
    return n


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (strong control of the family-wise error).

    The i-th smallest p-value is multiplied by (m - i + 1), made monotone
    non-decreasing in that order, and capped at 1; reject where the adjusted
    p-value is at most alpha.

    Parameters
    ----------
    p_values : array-like of shape (m,)
        The family's p-values.

    Returns
    -------
    ndarray of shape (m,)
        The adjusted p-values, in input order.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or ((p < 0) | (p > 1) | np.isnan(p)).any():
        raise ValueError("p_values must be a 1-d array of values in [0, 1]")
    order = np.argsort(p, kind="stable")
    m = p.size
    adjusted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    out = np.empty_like(p)
    out[order] = adjusted
    return out


def pairwise_wilcoxon(values, names, *, level: float = 0.95, n_resamples: int = EFFECT_RESAMPLES, seed=0) -> list[dict]:
    """Two-sided paired Wilcoxon signed-rank tests across datasets for every pair of rankers, Holm-adjusted.

    Parameters
    ----------
    values : array-like of shape (n_datasets, n_rankers)
        A metric per dataset (rows) and ranker (columns), higher is better.
    names : sequence of str
        The rankers, in column order.
    level, n_resamples, seed
        The mean difference's interval: :func:`paired_effect`'s.

    Returns
    -------
    list of dict
        One per pair (a before b in ``names`` order): a, b, wins (datasets where
        a is higher), losses, ties, mean_difference (a - b), low and high (its
        percentile bootstrap interval over the datasets, at ``level``; not
        adjusted for the other pairs), signed_rank_sum
        (W+ - W-: positive when the test's evidence is for a), p_value (the
        signed-rank test, zero differences dropped, exact by enumerating the
        signs when there are at most 13 datasets even with tied differences, as
        :func:`scipy.stats.wilcoxon` does) and p_holm (adjusted over all pairs).
    """
    v = _scores_table(values)
    if len(names) != v.shape[1]:
        raise ValueError(f"{len(names)} names for {v.shape[1]} rankers")
    rows = []
    for i in range(v.shape[1]):
        for j in range(i + 1, v.shape[1]):
            d = _paired_differences(v[None, :, i], v[None, :, j])[0]  # one comparison: a row over the datasets
            statistic, p = signed_rank_test(d)
            effect = paired_effect(d, np.zeros_like(d), level=level, n_resamples=n_resamples, seed=seed)
            rows.append(
                {
                    "a": names[i],
                    "b": names[j],
                    "wins": int((d > 0).sum()),
                    "losses": int((d < 0).sum()),
                    "ties": int((d == 0).sum()),
                    "mean_difference": float(d.mean()),
                    "low": effect.low,
                    "high": effect.high,
                    "signed_rank_sum": statistic,
                    "p_value": p,
                }
            )
    for row, adjusted in zip(rows, holm([r["p_value"] for r in rows]) if rows else []):
        row["p_holm"] = float(adjusted)
    return rows


def cd_cliques(ranks: dict, cd: float) -> list[tuple]:
    """The groups a critical-difference diagram joins: maximal runs of models, in rank order, whose mean ranks
    span less than ``cd`` (no two of them differ significantly); runs of one model are left out.

    Parameters
    ----------
    ranks : dict
        Model -> mean rank.
    cd : float
        The critical difference (:func:`nemenyi_critical_difference`).

    Returns
    -------
    list of tuple
        Each joined group's models, best first, in rank order.

    Examples
    --------
    >>> cd_cliques({"a": 1.0, "b": 1.5, "c": 3.0, "d": 3.2}, 1.0)
    [('a', 'b'), ('c', 'd')]
    """
    order = sorted(ranks, key=lambda m: ranks[m])
    runs = []
    for i in range(len(order)):
        j = i
        while j + 1 < len(order) and ranks[order[j + 1]] - ranks[order[i]] < cd:
            j += 1
        if j > i and not (runs and runs[-1][1] >= j):
            runs.append((i, j))
    return [tuple(order[i : j + 1]) for i, j in runs]


def turned_pair(row: dict) -> dict:
    """A row of :func:`pairwise_wilcoxon` (the summary's ``wilcoxon.tsv``) turned round, ``b`` against ``a``: the
    mean difference and the signed-rank sum negated, wins and losses swapped, and an interval of the difference
    (``low``, ``high``, where the row has one) negated and swapped; the p-values are the same.

    Parameters
    ----------
    row : dict
        One row of :func:`pairwise_wilcoxon`: ``a``, ``b``, ``wins``, ``losses``, ``mean_difference``,
        ``signed_rank_sum`` and the rest.

    Returns
    -------
    dict
        The same test with ``b`` first.

    Examples
    --------
    >>> turned_pair({"a": "x", "b": "y", "wins": 3, "losses": 1, "ties": 0, "mean_difference": 0.5,
    ...              "signed_rank_sum": 0.0, "p_value": 0.25})
    {'a': 'y', 'b': 'x', 'wins': 1, 'losses': 3, 'ties': 0, 'mean_difference': -0.5, 'signed_rank_sum': 0.0, 'p_value': 0.25}
    """
    return {
        **row,
        "a": row["b"],
        "b": row["a"],
        "wins": row["losses"],
        "losses": row["wins"],
        "mean_difference": 0.0 - row["mean_difference"],  # 0.0 - x: a tie stays 0.0, not -0.0
        "signed_rank_sum": 0.0 - row["signed_rank_sum"],
        **({"low": 0.0 - row["high"], "high": 0.0 - row["low"]} if "low" in row else {}),
    }

"""Which pairs of k rankers differ over N datasets, after Friedman's test: Conover's post-hoc test.

Conover (1999, *Practical nonparametric statistics*, 3rd ed., section 5.8) compares every pair of rankers on
their Friedman rank sums.  With r_ij ranker j's rank on dataset i (1 to k, tied values sharing their mean rank),
R_j its rank sum over the N datasets and A = sum_ij r_ij^2, rankers i and j differ when

    t = |R_i - R_j| / sqrt(2 (N A - sum_j R_j^2) / ((N - 1)(k - 1)))

is large on Student's t distribution with (N - 1)(k - 1) degrees of freedom (two-sided).  The denominator is
the spread of the ranks left over once the rankers' rank sums are known; Conover's statistic for the Friedman
test itself, T2 = (N - 1)(B - N k (k + 1)^2 / 4) / (A - B) with B = sum_j R_j^2 / N, is the Iman-Davenport F
of :func:`crocbench.stats.friedman_test`.  This is the variant ``scikit_posthocs.posthoc_conover_friedman``
computes (its default, Student's t), and the tests check every p-value against it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._ranks import dataset_ranks, holm
from ._scipy import scipy_stats as _sps

#: The ``p_adjust`` of :func:`conover_friedman`: none, or Holm's step-down adjustment over the k (k - 1) / 2 pairs.
P_ADJUST = (None, "holm")


def conover_friedman(values, names=None, *, higher_is_better: bool = True, p_adjust: str | None = None) -> pd.DataFrame:
    """Conover's post-hoc test after Friedman's: a two-sided p-value for every pair of rankers over N datasets.

    Parameters
    ----------
    values : array-like of shape (n_datasets, n_rankers)
        A metric per dataset (rows) and ranker (columns), as for :func:`crocbench.stats.friedman_test`.
    names : sequence, optional
        The rankers, in column order (default: 0, 1, ..., k - 1).
    higher_is_better : bool, default=True
        The direction of the metric.  The p-values do not depend on it (reversing every dataset's ranks leaves
        the rank sums' differences and the spread of the ranks as they are); it is there to rank as
        :func:`crocbench.stats.dataset_ranks` does.
    p_adjust : {None, "holm"}, default=None
        ``"holm"``: the k (k - 1) / 2 p-values adjusted by Holm's step-down method
        (:func:`crocbench.stats.holm`).

    Returns
    -------
    pandas.DataFrame
        k x k, index and columns ``names``: the p-value of every pair, symmetric, 1 on the diagonal.  A pair with
        equal rank sums gets 1.  When every dataset ranks the rankers alike, the ranks leave no spread (the
        denominator is 0): every pair with different rank sums gets 0.

    Notes
    -----
    The denominator pools the ranks of all k rankers, so a pair's p-value moves when a ranker is added to or
    left out of the comparison, as every test on mean ranks does (Benavoli, Corani & Mangili 2016).  Unlike the
    paired Wilcoxon test (:func:`crocbench.stats.pairwise_wilcoxon`), whose smallest two-sided p-value on N
    datasets is 2 / 2^N, it can find differences on a few datasets that rank the rankers consistently.

    Examples
    --------
    >>> values = [[0.9, 0.8, 0.7], [0.9, 0.6, 0.8], [0.7, 0.8, 0.6], [0.95, 0.9, 0.5]]
    >>> conover_friedman(values, ["x", "y", "z"]).round(4)
            x       y       z
    x  1.0000  0.2143  0.0321
    y  0.2143  1.0000  0.2143
    z  0.0321  0.2143  1.0000
    """
    ranks = dataset_ranks(values, higher_is_better)
    n, k = ranks.shape
    names = list(range(k)) if names is None else list(names)
    if len(names) != k:
        raise ValueError(f"{len(names)} names for {k} rankers")
    if p_adjust not in P_ADJUST:
        raise ValueError(f"p_adjust must be None or 'holm'; got {p_adjust!r}")
    rank_sums = ranks.sum(axis=0)
    df = (n - 1) * (k - 1)
    # N A - sum_j R_j^2 = N^2 sum_j var_i(r_ij) >= 0, exact (ranks are multiples of 1/2): 0 when every dataset
    # ranks the rankers alike
    spread = n * float((ranks**2).sum()) - float((rank_sums**2).sum())
    difference = np.abs(rank_sums[:, None] - rank_sums[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        t = difference / np.sqrt(2.0 * spread / df)
    p = np.where(difference == 0, 1.0, 2.0 * _sps().t.sf(t, df))
    upper = np.triu_indices(k, 1)
    if p_adjust == "holm":
        p[upper] = holm(p[upper])
    p.T[upper] = p[upper]
    np.fill_diagonal(p, 1.0)
    return pd.DataFrame(p, index=names, columns=names)

"""The screening family: the virtual-screening benchmarks' logAUC, DCG and NDCG, as means over the positives.

Docking's logAUC (Mysinger & Shoichet 2010), WelQrate's logAUC over an FPR
interval, and the discounted cumulative gain of information retrieval
(scikit-learn's :func:`~sklearn.metrics.dcg_score`), each computed by
:func:`crocbench.metrics.score` from the metric's one
:class:`~crocbench.metrics.Definition`, so each has exact ties, an exact
random baseline and the significance tests.  The enrichment factor at a
count or a share of the list is :func:`crocbench.metrics.enrichment_factor`.
"""

from __future__ import annotations

from ._areas import score


def log_auc(y_true, y_score, *, lam=0.001, upper=1.0, adjusted: bool = False, ties: str = "expected") -> float:
    """The ROC area on a log10 false-positive-rate axis over ``[lam, upper]``, normalized to [0, 1].

    The area under the step ROC curve with ``log10(FPR)`` on the x axis,
    from ``lam`` to ``upper``, divided by the width ``log10(upper / lam)``
    (Mysinger & Shoichet 2010, with ``upper = 1``; WelQrate's
    logAUC[0.001, 0.1] with ``upper = 0.1``).  It is the mean over the
    positives of ``log10(upper / clip(FPR_i, lam, upper)) / log10(upper / lam)``:
    a positive ranked above all but a share ``lam`` of the negatives counts 1,
    one below a share ``upper`` counts 0.  A random ranking scores about
    ``(upper - lam) / ln(upper / lam)``: 0.1446 for [0.001, 1], 0.0215 for
    [0.001, 0.1] (the exact value for a list is :func:`random_baseline`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    lam : float, default=0.001
        The FPR where the log axis starts (docking's lambda), in (0, 1).  TopU-LBVS's choice is
        ``max(0.001, 5 / n_negatives)``.
    upper : float, default=1.0
        The FPR where it ends, in (``lam``, 1].
    adjusted : bool, default=False
        Subtract the exact mean of a random ranking of this list (docking's "adjusted logAUC"), so that random
        scores 0 on average; for a large list the subtracted value is ``(upper - lam) / ln(upper / lam)``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The normalized area, in [0, 1] (less the random mean when ``adjusted``).

    Examples
    --------
    Five negatives: FPRs 0, 0, 0.2, 0.2, 0.4 on a log axis from 0.1 to 1.

    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(log_auc(y, s, lam=0.1), 4)  # mean of 1, 1, log10(5), log10(5), log10(2.5)
    0.7592
    """
    metric = "adjusted_log_auc" if adjusted else "log_auc"
    return score(y_true, y_score, metric, ties=ties, lam=lam, upper=upper)


def dcg(y_true, y_score, k: int | None = None, *, log_base: float = 2, ties: str = "expected") -> float:
    """Discounted cumulative gain over the top ``k``: ``sum(1 / log_b(r_i + 1))`` over the positives ranked ``r_i <= k``.

    With binary gains, as scikit-learn's :func:`~sklearn.metrics.dcg_score`
    (whose tie averaging is the ``"expected"`` resolution) and WelQrate's
    DCG@100.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    k : int, default=None
        The number of top-ranked items counted, 1 to ``n_samples``; None counts the whole list.
    log_base : float, default=2
        The base of the logarithm of the discount, > 1.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The gain, from 0 to that of every positive at the top.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(dcg(y, s, k=3), 4)  # 1 / log2(2) + 1 / log2(3)
    1.6309
    """
    return score(y_true, y_score, "dcg", ties=ties, k=k, log_base=log_base)


def ndcg(y_true, y_score, k: int | None = None, *, log_base: float = 2, ties: str = "expected") -> float:
    """Normalized DCG: :func:`dcg` over that of the ideal ranking (every positive at the top).

    As scikit-learn's :func:`~sklearn.metrics.ndcg_score` with binary gains.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    k : int, default=None
        The number of top-ranked items counted, 1 to ``n_samples``; None counts the whole list.
    log_base : float, default=2
        The base of the logarithm of the discount, > 1.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The normalized gain, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(ndcg(y, s, k=3), 4)  # (1 + 1/log2(3)) / (1 + 1/log2(3) + 1/log2(4))
    0.7654
    """
    return score(y_true, y_score, "ndcg", ties=ties, k=k, log_base=log_base)

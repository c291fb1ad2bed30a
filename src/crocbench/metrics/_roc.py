"""The ROC family, one function per metric: AUC[ROC], AUC[CROC], cut-off ROC, ROC_n, pROC and LocAUC.

Each is a mean over the positives of a function of the positive's FPR,
computed by :func:`crocbench.metrics.score` from the metric's
:class:`~crocbench.metrics.Definition`.
"""

from __future__ import annotations

from ._areas import score
from ._transforms import Transform


def roc_auc(y_true, y_score, *, ties: str = "expected") -> float:
    """Area under the ROC curve: mean over positives of ``1 - FPR``.

    .. math::

       \\mathrm{AUC[ROC]} = \\frac{1}{n_+} \\sum_{i=1}^{n_+} \\left(1 - \\mathrm{FPR}_i\\right)

    with :math:`\\mathrm{FPR}_i` the share of the negatives ranked above positive :math:`i`. With
    ``ties="expected"`` it equals :func:`sklearn.metrics.roc_auc_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - FPR``, in [0, 1]; 0.5 on average for a random ranking.

    Examples
    --------
    >>> round(roc_auc([1, 1, 0, 1, 1, 0, 1, 0, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]), 12)
    0.84

    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(roc_auc(y, s), 12)
    0.84
    >>> roc_auc([1, 0, 1, 0], [2, 2, 1, 0])  # a tied pair counts 1/2
    0.625
    """
    return score(y_true, y_score, "roc_auc", ties=ties)


def croc_auc(y_true, y_score, alpha=None, transform: Transform = "exp", *, ties: str = "expected") -> float:
    """Area under the CROC curve: mean over positives of ``1 - f(FPR)``.

    .. math::

       \\mathrm{AUC[CROC]} = \\frac{1}{n_+} \\sum_{i=1}^{n_+} \\left(1 - f(\\mathrm{FPR}_i)\\right),
       \\qquad f_{\\exp}(x) = \\frac{1 - e^{-\\alpha x}}{1 - e^{-\\alpha}}

    with the paper's magnification :math:`f` concentrating the x-axis on the early false positives.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    alpha : float, default=None
        The magnification factor, > 0; required by the named transforms (the paper uses 7, 14 and 80:
        under ``"exp"`` they send FPR 0.1, 0.05 and 0.0086 to 0.5).
    transform : {"exp", "pow", "log"} or callable, default="exp"
        The magnification function ``f`` (see :func:`get_transform`); a callable ``f(x)`` mapping
        [0, 1] onto [0, 1] is used as given, without ``alpha``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - f(FPR)``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(croc_auc(y, s, alpha=7), 4)
    0.5104
    >>> round(croc_auc(y, s, alpha=80), 4)  # only the two positives above every negative still count
    0.4
    """
    return score(y_true, y_score, "croc_auc", ties=ties, alpha=alpha, transform=transform)


def roc_auc_cutoff(y_true, y_score, t, *, ties: str = "expected") -> float:
    """ROC area over FPR in [0, t], divided by t (so a perfect ranking gives 1).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    t : float
        The FPR cutoff, in (0, 1].
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - min(FPR / t, 1)``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(roc_auc_cutoff(y, s, t=0.4), 12)
    0.6
    """
    return score(y_true, y_score, "roc_auc_cutoff", ties=ties, t=t)


def roc_n(y_true, y_score, n: int = 50, *, ties: str = "expected") -> float:
    """ROC_n: ROC area up to the n-th negative, normalized so a perfect ranking gives 1.

    Equal to ``roc_auc_cutoff`` with ``t = n / n_neg``: each positive scores
    ``1 - min(j / n, 1)`` with j the negatives above it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    n : int, default=50
        The number of negatives up to which the area is taken, 1 to ``n_neg``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - min(j / n, 1)``, j the negatives ranked above, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(roc_n(y, s, n=2), 12)
    0.6
    """
    return score(y_true, y_score, "roc_n", ties=ties, n=n)


def proc_auc(y_true, y_score, *, ties: str = "expected") -> float:
    """Area under the pROC curve of Clark & Webster-Clark (2008), normalized to [0, 1].

    The x axis is ``log10(max(FPR, 0.5 / N))`` (N = all items), which runs
    from ``log10(0.5 / N)`` to 0.  The area under that curve (in decades) is
    the mean over positives of ``-log10(max(FPR, 0.5/N))``; we divide it by
    the width ``log10(2 N)`` so that a perfect ranking gives 1 and the worst 0.
    Multiply by ``log10(2 N)`` to get Clark & Webster-Clark's unnormalized pAUC.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The normalized pROC area, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(proc_auc(y, s), 4)
    0.6761
    """
    return score(y_true, y_score, "proc_auc", ties=ties)


def loc_auc(y_true, y_score, u0: float = 0.1, *, ties: str = "expected") -> float:
    """Local AUC of Clemencon & Vayatis (2007): the AUC restricted to the top mass ``u0``.

    ``LocAUC(s, u0) = P{s(X) > s(X'), s(X) >= Q(s, 1 - u0) | Y = 1, Y' = -1}``
    with ``Q(s, 1 - u0)`` the score above which a fraction ``u0`` of all
    items lies.  The empirical estimator takes Q = the score at rank
    ``ceil(u0 N)``; a positive scoring at least Q contributes its
    ``1 - FPR`` (the share of negatives below it; a tied negative counts
    1/2 under ``"expected"`` ties), any other positive 0.  For ``u0 = 1`` it
    is AUC[ROC].  By Theorem 9 / Remark 7 it equals
    ``int_0^a beta(alpha) d alpha + b (1 - a)``, with (a, b) the (FPR, TPR)
    of the ROC curve at the threshold Q.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    u0 : float, default=0.1
        The top mass of the list, in (0, 1].
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        Mean over the positives of ``1 - FPR`` for those scored at least Q, 0 for the others;
        between 0 and 1, AUC[ROC] for ``u0 = 1``.

    Examples
    --------
    The paper's 10-item example, top 50%: the positives at ranks 1, 2, 4, 5 qualify.

    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]
    >>> round(loc_auc(y, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], u0=0.5), 12)
    0.72
    """
    return score(y_true, y_score, "loc_auc", ties=ties, u0=u0)

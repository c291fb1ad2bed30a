"""The enrichment family (by rank), one function per metric: AUC[AC], AUC[CAC], RIE, BEDROC, SLR, EF, hits at k.

Each is a mean over the positives of a function of the positive's rank,
computed by :func:`crocbench.metrics.score` from the metric's
:class:`~crocbench.metrics.Definition`.
"""

from __future__ import annotations

from ._areas import score
from ._transforms import Transform


def ac_auc(y_true, y_score, *, ties: str = "expected") -> float:
    """Area under the accumulation (enrichment) curve, slanted convention.

    x = fraction of all items ranked above; a positive at rank r contributes
    ``1 - (r - 1/2) / N``.

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
        Mean over the positives of ``1 - (r - 1/2) / N``, in (0, 1).

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(ac_auc(y, s), 12)
    0.67
    """
    return score(y_true, y_score, "ac_auc", ties=ties)


def cac_auc(y_true, y_score, alpha=None, transform: Transform = "exp", *, ties: str = "expected") -> float:
    """Area under the concentrated AC curve, slanted convention.

    A positive at rank r contributes ``1 - (f((r - 1) / N) + f(r / N)) / 2``.

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
        Mean over the positives of ``1 - (f((r - 1) / N) + f(r / N)) / 2``, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(cac_auc(y, s, alpha=7), 4)
    0.253
    """
    return score(y_true, y_score, "cac_auc", ties=ties, alpha=alpha, transform=transform)


def rie(y_true, y_score, alpha: float = 20.0, *, ties: str = "expected") -> float:
    """Robust initial enhancement (Sheridan et al. 2001; Truchon & Bayly 2007).

    ``sum(exp(-alpha r_i / N)) / (n_pos / N * (1 - e^-alpha) / (e^(alpha/N) - 1))``:
    1 on average for a random ranking.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    alpha : float, default=20.0
        The exponential's weight on the early ranks, > 0.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The RIE; 1 on average for a random ranking, larger is better.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(rie(y, s, alpha=20), 4)
    1.9682
    """
    return score(y_true, y_score, "rie", ties=ties, alpha=alpha)


def bedroc(y_true, y_score, alpha: float = 20.0, *, ties: str = "expected") -> float:
    """Boltzmann-enhanced discrimination of ROC (Truchon & Bayly 2007).

    RIE rescaled by its exact minimum and maximum for the list to [0, 1],
    as in ``rdkit.ML.Scoring.Scoring.CalcBEDROC``:

    .. math::

       \\mathrm{RIE} = \\frac{\\sum_{i=1}^{n_+} e^{-\\alpha r_i / N}}
       {\\frac{n_+}{N} \\frac{1 - e^{-\\alpha}}{e^{\\alpha / N} - 1}}, \\qquad
       \\mathrm{BEDROC} = \\frac{\\mathrm{RIE} - \\mathrm{RIE}_{\\min}}{\\mathrm{RIE}_{\\max} - \\mathrm{RIE}_{\\min}}

    with :math:`r_i` the rank of positive :math:`i` among the :math:`N` compounds.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    alpha : float, default=20.0
        The exponential's weight on the early ranks, > 0 (20 puts 80% of the weight on the top 8%).
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The BEDROC, in [0, 1].

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(bedroc(y, s, alpha=20), 4)
    0.9842
    """
    return score(y_true, y_score, "bedroc", ties=ties, alpha=alpha)


def slr(y_true, y_score, *, ties: str = "expected") -> float:
    """Sum of log ranks: ``-sum(log(r_i / N))`` over the positives (larger is better).

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
        ``-sum(log(r_i / N))`` over the positives, at least 0.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> round(slr(y, s), 4)
    5.8781
    """
    return score(y_true, y_score, "slr", ties=ties)


def enrichment_factor(y_true, y_score, fraction=None, *, k=None, ties: str = "expected") -> float:
    """Enrichment factor in the top ``fraction`` of the list, or in its top ``k``.

    ``(hits in the top n_top / n_top) / (n_pos / N)`` with ``n_top`` = ``k``,
    or ``fraction`` x N rounded half up, at least 1 (as "actives in the top
    1%"); with ties, the expected number of hits.  RDKit's ``CalcEnrichment``
    takes ``n_top = ceil(fraction x N)``: pass that as ``k`` to match it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    fraction : float, default=None
        The share of the list at the top, in (0, 1] (e.g. 0.01 for the top 1%); give it or ``k``.
    k : int, default=None
        The number of top-ranked items, 1 to ``n_samples`` (e.g. 100, WelQrate's EF top 100); give it or
        ``fraction``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The enrichment factor, from 0 to ``N / n_pos``; 1 on average for a random ranking.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> enrichment_factor(y, s, fraction=0.2)  # 2 hits in the top 2, half the list positive
    2.0
    >>> enrichment_factor(y, s, k=5)  # 4 hits in the top 5
    1.6
    """
    return score(y_true, y_score, "enrichment_factor", ties=ties, fraction=fraction, k=k)


def hits_at_k(y_true, y_score, k: int, *, ties: str = "expected") -> float:
    """Number of positives among the k top-ranked items (expected number under ties).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or Ranking
        True binary labels (0/1 or bool; 1 marks a positive), or a :class:`Ranking` of the list,
        built once to reuse its sort (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Finite real scores, higher meaning more likely positive; None when ``y_true`` is a :class:`Ranking`.
    k : int
        The number of top-ranked items, 1 to ``n_samples``.
    ties : {"expected", "optimistic", "pessimistic"}, default="expected"
        How tied scores are resolved: the exact expectation over the random orderings of each tie group, or
        its positives placed before (``"optimistic"``) or after (``"pessimistic"``) the negatives they tie with.

    Returns
    -------
    float
        The number of positives among the top k, from 0 to ``min(k, n_pos)``.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 1, 0, 1, 0, 0, 0]  # the paper's example: positives at ranks 1, 2, 4, 5, 7
    >>> s = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> hits_at_k(y, s, k=3)
    2.0
    """
    return score(y_true, y_score, "hits_at_k", ties=ties, k=k)

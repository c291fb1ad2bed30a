"""Whether a declared family's verdicts survive: leave-one-screen-out panels and a mixed model on the repeats.

A family of confirmatory tests across screens (each a pair of rankers on a metric, tested by the two-sided exact
Wilcoxon signed-rank test over the screens, Holm over the family: :func:`pairwise_wilcoxon`'s procedure) gives
each test a verdict: the first ranker ahead (+1), the second ahead (-1), or no difference shown (0). On a panel
at the floor of the exact test one screen can carry the verdict. Two checks, both declared before a run:

``leave_one_out``
    The family tested again on each panel of all screens but one (Holm over the whole family in each): in how
    many of those panels each test's verdict holds.
``mixed_difference``
    The secondary analysis: the repeat-level differences of a test (a screen's value of ``a - b`` in each repeat
    of the cross-validation) in a linear mixed model, ``difference ~ 1`` with a random intercept per screen.

:func:`robustness` joins them: a verdict is robust where it holds in every leave-one-out panel and the mixed
model agrees (the same sign where the family finds a difference, and significance after Holm over the family
exactly where the family finds it).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from .._extras import needs
from ._ranks import holm
from ._scipy import scipy_stats as _sps
from ._signed_rank import signed_rank_test
from ._ties import _paired_differences


class MixedDifference(NamedTuple):
    """The fixed intercept of ``difference ~ 1 + (1 | screen)``: the mean difference, screens as a random effect.

    Parameters
    ----------
    estimate : float
        The fixed intercept (REML).
    low, high : float
        Its interval at the requested level: ``estimate -+ t(level, screens - 1) * se``.
    p_value : float
        Two-sided, ``estimate / se`` against Student's t on ``screens - 1`` degrees of freedom.
    se : float
        The intercept's standard error.
    between_sd, within_sd : float
        The screens' random intercepts' SD and the residual SD (REML).
    screens, observations : int
        The groups and the repeat-level differences the model was fitted on.
    """

    estimate: float
    low: float
    high: float
    p_value: float
    se: float
    between_sd: float
    within_sd: float
    screens: int
    observations: int


class Robustness(NamedTuple):
    """One declared test's verdict and its two checks (:func:`robustness`).

    Parameters
    ----------
    verdict : int
        The family's verdict on the repeats' means: +1 (``a`` ahead), -1 (``b`` ahead), 0 (no difference shown).
    p_holm : float
        Its Holm-adjusted Wilcoxon p-value over the family.
    panels : int
        The leave-one-screen-out panels (the screens).
    holding : int
        The panels in which the verdict holds (:func:`leave_one_out`).
    secondary : MixedDifference
        The mixed model on the test's repeat-level differences.
    secondary_p_holm : float
        The mixed model's p-value, Holm-adjusted over the family.
    secondary_verdict : int
        The mixed model's verdict, as ``verdict``, from ``secondary_p_holm`` and the estimate's sign.
    robust : bool
        ``holding == panels`` and ``secondary_verdict == verdict``.
    """

    verdict: int
    p_holm: float
    panels: int
    holding: int
    secondary: MixedDifference
    secondary_p_holm: float
    secondary_verdict: int
    robust: bool


def _family(a, b) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.ndim != 2 or x.shape != y.shape or x.shape[0] < 1 or x.shape[1] < 2:
        raise ValueError(f"a and b must be (tests, screens) tables of one shape, 2 screens or more; got {x.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("a and b must be finite")
    return x, y


def family_verdicts(a, b, *, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Each test's verdict in a family: the two-sided exact signed-rank test over the screens, Holm over the family.

    Parameters
    ----------
    a, b : array-like of shape (n_tests, n_screens)
        Per test (row), the first ranker's metric per screen and the second's, in one screen order.
    alpha : float, default=0.05
        The family-wise level.

    Returns
    -------
    verdicts : ndarray of int, shape (n_tests,)
        +1 where Holm's p is below ``alpha`` and the signed ranks favour ``a``, -1 where they favour ``b``, else 0.
    p_holm : ndarray of shape (n_tests,)
        The Holm-adjusted p-values.

    Examples
    --------
    >>> v, p = family_verdicts([[2, 3, 4, 5, 6, 7]], [[1, 1, 1, 1, 1, 1]])
    >>> v.tolist(), p.tolist()  # 6 of 6 ahead: 2 / 2^6
    ([1], [0.03125])
    """
    x, y = _family(a, b)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha}")
    d = _paired_differences(x, y)
    tests = [signed_rank_test(row) for row in d]
    p_holm = holm([p for _, p in tests])
    signs = np.sign([statistic for statistic, _ in tests]).astype(int)
    return np.where(p_holm < alpha, signs, 0), p_holm


def leave_one_out(a, b, *, alpha: float = 0.05) -> np.ndarray:
    """In how many leave-one-screen-out panels each test's verdict holds (:func:`family_verdicts`, the whole family
    tested again on each panel).

    Parameters
    ----------
    a, b : array-like of shape (n_tests, n_screens)
        As :func:`family_verdicts`; 3 screens or more.
    alpha : float, default=0.05
        The family-wise level.

    Returns
    -------
    ndarray of int, shape (n_tests,)
        Per test, the panels (of ``n_screens``, each without one screen) whose verdict equals the whole panel's.

    Examples
    --------
    >>> leave_one_out([[2, 3, 4, 5, 6, 7, 8]], [[1] * 7]).tolist()  # 6 of 6 ahead still gives 2 / 2^6
    [7]
    """
    x, y = _family(a, b)
    screens = x.shape[1]
    if screens < 3:
        raise ValueError(f"leave-one-out panels need 3 screens or more; got {screens}")
    whole, _ = family_verdicts(x, y, alpha=alpha)
    holding = np.zeros(x.shape[0], dtype=int)
    for s in range(screens):
        keep = np.arange(screens) != s
        panel, _ = family_verdicts(x[:, keep], y[:, keep], alpha=alpha)
        holding += panel == whole
    return holding


def mixed_difference(differences, screens, *, level: float = 0.95) -> MixedDifference:
    """The mean of repeat-level differences with screens as a random effect: ``difference ~ 1 + (1 | screen)``.

    A linear mixed model (REML) with a fixed intercept and a random intercept per screen: in closed form where every
    screen has the same number of repeats (``_balanced_reml``), else fitted by statsmodels' ``MixedLM``.
    Why this model: the repeats of one screen share its compounds and its difficulty, so they are not independent
    observations; the random intercept takes the screens as the unit of inference (as the signed-rank test does)
    while the repeats estimate the within-screen noise. In a balanced design whose screens' means spread more than
    their repeats explain, the intercept is the grand mean and its SE that of the screens' means,
    ``sd(means) / sqrt(screens)``; where the screens' means spread less, the between-screen variance sits at 0 and
    the SE comes from every repeat; with a repeat missing, screens are weighted by their precision. Fitted to the
    screens' means alone the model could tell neither of these apart; where every screen has one difference (a
    table of one value per screen) it cannot either, and the intercept's SE is the t-test's on the screens,
    ``sd / sqrt(screens)`` (the whole variance reported as the screens', ``within_sd`` 0). Its p-value and
    interval use Student's t on ``screens - 1`` degrees of freedom, not the normal reference statsmodels reports:
    with 15 screens the normal one is anti-conservative, and t on ``screens - 1`` is exact in the balanced case
    above.

    Parameters
    ----------
    differences : array-like of shape (n,)
        The repeat-level differences ``a - b``, one per (screen, repeat).
    screens : array-like of shape (n,)
        Each difference's screen (any labels); 2 screens or more.
    level : float, default=0.95
        The interval's coverage.

    Returns
    -------
    MixedDifference

    Examples
    --------
    >>> m = mixed_difference([1.0, 1.2, 2.0, 2.2, 3.0, 3.2], ["s", "s", "t", "t", "u", "u"])
    >>> round(m.estimate, 6), round(m.se, 6), m.screens, m.observations  # the grand mean, sd(1.1, 2.1, 3.1) / sqrt(3)
    (2.1, 0.57735, 3, 6)
    """
    d = np.asarray(differences, dtype=float)
    labels = np.asarray(screens)
    if d.ndim != 1 or labels.shape != d.shape:
        raise ValueError(f"differences and screens must be 1-d and of one length; got {d.shape} and {labels.shape}")
    if not np.isfinite(d).all():
        raise ValueError("differences must be finite")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level}")
    _, groups = np.unique(labels, return_inverse=True)
    k = int(groups.max()) + 1 if d.size else 0
    if k < 2:
        raise ValueError(f"the mixed model needs 2 screens or more; got {k}")
    if np.ptp(d) == 0:  # every difference alike: no variance to estimate, the estimate is exact
        p = 1.0 if d[0] == 0 else 0.0
        return MixedDifference(float(d[0]), float(d[0]), float(d[0]), p, 0.0, 0.0, 0.0, k, d.size)
    repeats = np.bincount(groups)
    if d.size == k:  # one difference per screen: the two variances are one; the model is the t-test on the screens
        estimate, between, within = float(d.mean()), float(d.std(ddof=1)), 0.0
        se = between / np.sqrt(k)
    elif (repeats == repeats[0]).all():  # balanced: REML's estimates in closed form
        estimate, se, between, within = _balanced_reml(d, groups, k, int(repeats[0]))
    else:
        with needs("crocbench.stats.mixed_difference"):
            from statsmodels.regression.mixed_linear_model import MixedLM

        with warnings.catch_warnings():  # a variance at the boundary (0) is an answer here, not a failure
            warnings.simplefilter("ignore")
            # statsmodels' default stops near 1e-4 of the optimum. BFGS to a tight gradient reaches the balanced case's
            # closed form to ~1e-12 inside, but stops ~1% short of a variance at 0; Powell's derivative-free search
            # reaches 0 (to ~1e-10). Both are fitted and the higher REML likelihood is kept.
            model = MixedLM(d, np.ones((d.size, 1)), groups=groups)
            fits = [
                model.fit(reml=True, method=["bfgs", "lbfgs"], gtol=1e-12),
                model.fit(reml=True, method=["powell"], xtol=1e-12, ftol=1e-14, maxiter=10_000),
            ]
            fit = max(fits, key=lambda f: f.llf)
        estimate, se = float(fit.fe_params[0]), float(fit.bse_fe[0])
        between = float(np.sqrt(max(0.0, float(np.asarray(fit.cov_re)[0, 0]))))
        within = float(np.sqrt(fit.scale))
    t = _sps().t
    half = float(t.ppf((1 + level) / 2, k - 1)) * se
    p = float(2 * t.sf(abs(estimate) / se, k - 1)) if se > 0 else (1.0 if estimate == 0 else 0.0)
    return MixedDifference(estimate, estimate - half, estimate + half, p, se, between, within, k, d.size)


def _balanced_reml(d, groups, screens: int, repeats: int) -> tuple[float, float, float, float]:
    """REML's fit of ``d ~ 1 + (1 | screen)`` with ``repeats`` (2 or more) differences per screen, in closed form.

    With ``MSB = repeats * var(means)`` and ``MSW`` the mean square within screens, the REML estimates are the
    analysis-of-variance ones wherever ``MSB > MSW`` (between-screen variance ``(MSB - MSW) / repeats``, residual
    ``MSW``, and the intercept's SE ``sqrt(MSB / n)``, that is ``sd(means) / sqrt(screens)``); elsewhere the
    between-screen variance sits at its bound 0 and the residual variance is the total sum of squares over
    ``n - 1``, the SE ``sqrt(residual / n)`` (Searle, Casella & McCulloch, *Variance Components*, 1992, sec. 6.7).
    The estimate is the grand mean either way. Returns ``(estimate, se, between_sd, within_sd)``.
    """
    n = d.size
    means = np.bincount(groups, weights=d, minlength=screens) / repeats
    estimate = float(d.mean())
    between_ss = repeats * float(((means - estimate) ** 2).sum())
    within_ss = float(((d - means[groups]) ** 2).sum())
    msb, msw = between_ss / (screens - 1), within_ss / (screens * (repeats - 1))
    if msb > msw:
        return estimate, float(np.sqrt(msb / n)), float(np.sqrt((msb - msw) / repeats)), float(np.sqrt(msw))
    residual = (between_ss + within_ss) / (n - 1)
    return estimate, float(np.sqrt(residual / n)), 0.0, float(np.sqrt(residual))


def robustness(a, b, *, alpha: float = 0.05, level: float = 0.95) -> list[Robustness]:
    """A declared family's verdicts on the repeats' means, each with its leave-one-out count and its mixed model.

    Parameters
    ----------
    a, b : array-like of shape (n_tests, n_screens, n_repeats), or sequences of (n_screens, n_repeats) arrays
        Per test, the first ranker's metric per screen and repeat, and the second's. The family is tested on the
        means over the repeats (:func:`family_verdicts`, :func:`leave_one_out`); the mixed model
        (:func:`mixed_difference`) reads every repeat's difference, its p-values Holm-adjusted over the family.
        As sequences, the tests may differ in their repeats (a family scored on tables of several runs), never in
        their screens.
    alpha : float, default=0.05
        The family-wise level.
    level : float, default=0.95
        The mixed model's interval coverage.

    Returns
    -------
    list of Robustness
        One per test, in row order; ``robust`` where the verdict holds in every leave-one-out panel and the mixed
        model's verdict is the same.
    """
    x, y = [np.asarray(t, dtype=float) for t in a], [np.asarray(t, dtype=float) for t in b]
    shapes = [t.shape for t in x]
    if (
        not x
        or len(x) != len(y)
        or shapes != [t.shape for t in y]
        or any(len(s) != 2 or s[1] < 1 or s[0] != shapes[0][0] for s in shapes)
    ):
        raise ValueError(
            f"a and b must hold per test a (screens, repeats) array, one shape per test and one number of screens; "
            f"got {shapes} and {[t.shape for t in y]}"
        )
    means_a, means_b = np.array([t.mean(axis=1) for t in x]), np.array([t.mean(axis=1) for t in y])
    verdicts, p_holm = family_verdicts(means_a, means_b, alpha=alpha)
    holding = leave_one_out(means_a, means_b, alpha=alpha)
    secondary = [
        mixed_difference((s - t).ravel(), np.repeat(np.arange(s.shape[0]), s.shape[1]), level=level)
        for s, t in zip(x, y)
    ]
    secondary_p = holm([m.p_value for m in secondary])
    out = []
    for t, m in enumerate(secondary):
        agrees = int(np.sign(m.estimate)) if secondary_p[t] < alpha else 0
        out.append(
            Robustness(
                int(verdicts[t]),
                float(p_holm[t]),
                shapes[0][0],
                int(holding[t]),
                m,
                float(secondary_p[t]),
                agrees,
                bool(holding[t] == shapes[0][0] and agrees == verdicts[t]),
            )
        )
    return out

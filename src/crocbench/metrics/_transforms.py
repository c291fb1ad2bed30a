"""Magnification functions of the CROC framework (paper, section 2.2).

Each maps [0, 1] onto [0, 1], increasing and concave, and magnifies the
early part of the x axis by the global magnification factor ``alpha > 0``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

Transform = str | Callable[[np.ndarray], np.ndarray]
TRANSFORMS = ("exp", "pow", "log")


def check_alpha(alpha) -> float:
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise ValueError(f"alpha must be a positive number; got {alpha!r}") from None
    if not (a > 0 and math.isfinite(a)):
        raise ValueError(f"alpha must be a positive finite number; got {alpha!r}")
    return a


def check_fraction(value, name: str) -> float:
    """A number in (0, 1]; ValueError naming ``name`` otherwise."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number in (0, 1]; got {value!r}") from None
    if not (0.0 < v <= 1.0):
        raise ValueError(f"{name} must be in (0, 1]; got {value!r}")
    return v


def get_transform(transform: Transform, alpha=None) -> Callable[[np.ndarray], np.ndarray]:
    """Return the magnification function ``f`` as a vectorized callable.

    Parameters
    ----------
    transform : {"exp", "pow", "log"} or callable
        ``exp``: f(x) = (1 - e^(-a x)) / (1 - e^(-a));
        ``pow``: f(x) = x^(1 / (1 + a));
        ``log``: f(x) = log(1 + a x) / log(1 + a).
        A callable ``f(x)`` is used as given; it must map 0 to 0 and 1 to 1,
        and takes no ``alpha`` (its own magnification is built in).
    alpha : float
        Global magnification factor, > 0 (required for the named transforms;
        the paper uses 7, 14 and 80).

    Returns
    -------
    callable
        The vectorized ``f``, from [0, 1] onto [0, 1] (0 to 0, 1 to 1), increasing and concave.

    Examples
    --------
    >>> f = get_transform("exp", 7.0)
    >>> round(float(f(np.array(0.1))), 3)  # alpha = 7 sends 0.1 to about 0.5
    0.504
    """
    if callable(transform):
        if alpha is not None:
            raise ValueError(
                f"alpha={alpha!r} applies to the named transforms {TRANSFORMS}; a callable transform "
                "has its magnification built in: leave alpha out"
            )
        ends = np.asarray(transform(np.array([0.0, 1.0])), dtype=float)
        if ends.shape != (2,) or not np.allclose(ends, [0.0, 1.0], atol=1e-9):
            raise ValueError(f"a transform must map 0 to 0 and 1 to 1; this one gives {ends.tolist()}")
        return transform
    if transform not in TRANSFORMS:
        raise ValueError(f"transform must be one of {TRANSFORMS} or a callable; got {transform!r}")
    if alpha is None:
        raise ValueError(
            f"the {transform!r} transform needs alpha, its magnification (the paper uses 7, 14 and 80; e.g. alpha=80)"
        )
    a = check_alpha(alpha)
    if transform == "exp":
        denom = -math.expm1(-a)
        return lambda x: -np.expm1(-a * np.asarray(x, dtype=float)) / denom
    if transform == "pow":
        p = 1.0 / (1.0 + a)
        return lambda x: np.power(np.asarray(x, dtype=float), p)
    denom = math.log1p(a)
    return lambda x: np.log1p(a * np.asarray(x, dtype=float)) / denom


def cutoff_transform(t) -> Callable[[np.ndarray], np.ndarray]:
    """The hard threshold cutoff ``f(x) = min(x / t, 1)`` (paper, Equation 2).

    Parameters
    ----------
    t : float
        The cutoff, in (0, 1].

    Returns
    -------
    callable
        The vectorized ``f``; ``1 - f(FPR)`` averaged over the positives is :func:`roc_auc_cutoff`.

    Examples
    --------
    >>> cutoff_transform(0.25)(np.array([0.0, 0.1, 0.5])).tolist()
    [0.0, 0.4, 1.0]
    """
    t = check_fraction(t, "t")
    return lambda x: np.minimum(np.asarray(x, dtype=float) / t, 1.0)


def random_croc_auc_limit(alpha, transform: str = "exp") -> float:
    """AUC[CROC] of a random classifier as the list grows without bound.

    Closed forms of ``1 - integral_0^1 f(x) dx``: ``exp``: 1/a - e^(-a)/(1 - e^(-a));
    ``pow``: 1/(2 + a); ``log``: 1/log(1 + a) - 1/a.  The exact value for a
    finite list is given by :func:`crocbench.metrics.random_baseline`.

    Parameters
    ----------
    alpha : float
        The magnification factor, > 0.
    transform : {"exp", "pow", "log"}, default="exp"
        The magnification function (see :func:`get_transform`).

    Returns
    -------
    float
        The limit of a random ranking's expected AUC[CROC] as ``n`` grows.

    Examples
    --------
    >>> [round(random_croc_auc_limit(a), 4) for a in (7, 14, 80)]
    [0.1419, 0.0714, 0.0125]
    """
    if alpha is None:
        raise ValueError(
            f"the {transform!r} transform needs alpha, its magnification (the paper uses 7, 14 and 80; e.g. alpha=80)"
        )
    a = check_alpha(alpha)
    if transform == "exp":
        return 1.0 / a - math.exp(-a) / (-math.expm1(-a))
    if transform == "pow":
        return 1.0 / (2.0 + a)
    if transform == "log":
        return 1.0 / math.log1p(a) - 1.0 / a
    raise ValueError(f"transform must be one of {TRANSFORMS}; got {transform!r}")

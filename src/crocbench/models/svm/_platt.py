"""Platt scaling: the sigmoid that maps SVM decision values to probabilities (:func:`platt_fit`)."""

from __future__ import annotations

import numpy as np

from ._select import _dual_matrix


def platt_fit(decision, y) -> tuple[float, float]:
    """Platt's (1999) sigmoid ``P(y = 1 | f) = 1 / (1 + exp(A f + B))`` fitted to decision values.

    Maximum likelihood with Platt's smoothed targets ``(n_pos + 1) / (n_pos + 2)``
    and ``1 / (n_neg + 2)`` (as in LIBSVM and scikit-learn), from
    ``A = 0, B = log((n_neg + 1) / (n_pos + 1))``.  Returns ``(A, B)``; ``A < 0``
    when larger decision values mean positive.

    Parameters
    ----------
    decision : array-like of shape (n_samples,)
        Decision values of a classifier.
    y : array-like of shape (n_samples,)
        The 0/1 labels.

    Returns
    -------
    A : float
        The slope (negative when larger decision values mean positive).
    B : float
        The offset.

    Examples
    --------
    >>> A, B = platt_fit(np.array([-2.0, -1.0, 1.0, 2.0, -0.5, 0.5]), np.array([0, 0, 1, 1, 1, 0]))
    >>> bool(A < 0)
    True
    """
    f = np.asarray(decision, dtype=np.float64)
    y = np.asarray(y).astype(bool)
    if f.ndim != 1 or f.shape != y.shape or not np.isfinite(f).all():
        raise ValueError(f"decision values must be finite and match the labels; got shapes {f.shape} and {y.shape}")
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        raise ValueError("Platt scaling needs positives and negatives")
    target = np.where(y, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    scale = max(float(np.abs(f).max()), 1e-12)  # optimize on f / scale: well conditioned
    g = f / scale

    def loss(ab):
        z = ab[0] * g + ab[1]  # log-odds of y = 0
        p_loss = np.logaddexp(0.0, z)  # -log P(y = 1)
        value = np.sum(target * p_loss + (1 - target) * (p_loss - z))
        q = 1.0 / (1.0 + np.exp(-z))  # P(y = 0)
        grad = q - (1 - target)
        return value, np.array([np.dot(grad, g), grad.sum()])

    from scipy.optimize import minimize  # here: a third of a second that most fold jobs never need

    start = np.array([0.0, np.log((n_neg + 1.0) / (n_pos + 1.0))])
    result = minimize(loss, start, jac=True, method="L-BFGS-B", options={"gtol": 1e-10, "maxiter": 1000})
    return float(result.x[0] / scale), float(result.x[1])


def _fit_platt(kernel, models, y) -> None:
    """Platt's sigmoid for each model, on its own training decision values.

    One pass over the kernel for all models (``kernel @ duals``), without
    copying the kernel's support-vector columns.
    """
    training = kernel @ _dual_matrix(kernel.shape[0], models)
    for j, m in enumerate(models):
        m.platt_ = platt_fit(training[:, j] + m.intercept_, y)

"""The SVM's linear path for folds too large for an exact kernel: Nystroem features and a primal linear SVM.

:func:`nystroem_map` maps compounds to features whose inner products approximate the
Tanimoto kernel, :func:`linear_svm` fits the L2-loss linear SVM on them by Newton's
method and :func:`inner_linear_decisions` is its inner cross-validation.
``ordered_dot`` (``crocbench.similarity._dot``) (the fixed-order product behind the SVM's decision values)
gives the Nystroem kernel expansion's coefficients.
"""

from __future__ import annotations

import numpy as np

from ...cv import stratified_folds


def nystroem_map(data, rows, landmarks, block: int = 4096, rtol: float = 1e-10) -> tuple[np.ndarray, np.ndarray]:
    """Nystroem features of ``rows`` on ``landmarks`` (Williams & Seeger 2001).

    With the landmark kernel ``W = U diag(s) U^T`` (eigenvalues below ``rtol``
    times the largest dropped), ``M = U diag(s)^(-1/2)`` and the features are
    ``K(rows, landmarks) M``, so their inner products are the Nystroem
    approximation ``K_rl W^+ K_lr`` of the kernel (exact on the landmarks).
    Returns ``(features, M)``: float64 (len rows, r) and (len landmarks, r), r
    the rank kept.  A linear model ``f(x) = features(x) w + b`` is the kernel
    expansion ``K(x, landmarks) (M w) + b``.

    Examples
    --------
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> from crocbench.similarity import SimilarityIndex
    >>> fp = Fingerprints(np.array([0, 2, 4, 5, 8]), np.array([7, 9, 7, 11, 9, 5, 7, 9], dtype=np.uint64))
    >>> data = SimilarityIndex(fp)
    >>> features, mapping = nystroem_map(data, np.arange(4), [0, 3])  # two landmarks
    >>> bool(np.allclose(features @ features.T, data.kernel(np.arange(4))))  # an approximation
    False
    >>> features, mapping = nystroem_map(data, np.arange(4), np.arange(4))  # every compound a landmark: exact
    >>> bool(np.allclose(features @ features.T, data.kernel(np.arange(4))))
    True
    """
    rows, landmarks = np.asarray(rows), np.asarray(landmarks)
    s, u = np.linalg.eigh(data.kernel(landmarks))
    keep = s > rtol * s.max()
    mapping = u[:, keep] / np.sqrt(s[keep])
    out = np.empty((rows.size, mapping.shape[1]))
    for i in range(0, rows.size, block):
        out[i : i + block] = data.similarities(rows[i : i + block], landmarks).astype(np.float64) @ mapping
    return out, mapping


def linear_svm(
    X, y, C: float = 1.0, class_weight=None, tol: float = 1e-10, max_iter: int = 100, block: int = 8192
) -> tuple:
    """The L2-loss linear SVM: ``min_w,b 1/2 |w|^2 + sum_i C_i max(0, 1 - t_i (x_i w + b))^2``, t = +-1.

    LIBLINEAR's default loss with an unpenalized intercept, solved in the
    primal by the finite Newton method (Keerthi & DeCoste 2005): each step
    solves with the generalized Hessian ``diag(1, .., 1, 0) + 2 sum_{i active}
    C_i [x_i, 1]^T [x_i, 1]`` (updated by the rows that entered or left the
    active set, in row blocks, so no copy of ``X``), then backtracks until the
    objective falls; it stops when the gradient's norm is
    below ``tol`` times the first one's.  Memory: ``X`` and a (d + 1)^2
    matrix, where LIBLINEAR would copy ``X`` into 16 bytes per entry.
    ``C_i = C``, times n / (2 n_class) for ``class_weight="balanced"``.
    Returns ``(w, b)``.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    n, d = X.shape
    t = np.where(y == 1, 1.0, -1.0)
    c = np.full(n, float(C))
    if class_weight == "balanced":
        for v in (0, 1):
            c[y == v] *= n / (2.0 * max(1, int(np.sum(y == v))))

    def objective(w, b):
        z = X @ w + b
        slack = np.maximum(0.0, 1.0 - t * z)
        return 0.5 * (w @ w) + np.sum(c * slack * slack), slack

    w, b = np.zeros(d), 0.0
    value, slack = objective(w, b)
    first = None
    # the generalized Hessian, updated by the rows whose activity changed (few, after the first steps)
    hessian, active = np.zeros((d + 1, d + 1)), np.zeros(n, dtype=bool)
    hessian[np.arange(d), np.arange(d)] = 1.0
    ridge = np.zeros((d + 1, d + 1))
    ridge[d, d] = 1e-12  # with no active row the intercept's direction is flat
    for _ in range(max_iter):
        g = -2.0 * c * slack * t
        grad = np.concatenate([w + X.T @ g, [g.sum()]])
        norm = float(np.linalg.norm(grad))
        first = norm if first is None else first
        if norm <= tol * max(first, 1.0):
            break
        now = slack > 0
        for rows, sign in ((np.flatnonzero(now & ~active), 1.0), (np.flatnonzero(active & ~now), -1.0)):
            for i in range(0, rows.size, block):  # rows that entered or left the active set since the last step
                part = rows[i : i + block]
                xa = np.empty((part.size, d + 1))
                xa[:, :d], xa[:, d] = X[part], 1.0
                hessian += xa.T @ ((sign * 2.0) * c[part, None] * xa)
        active = now
        step = -np.linalg.solve(hessian + ridge, grad)
        size = 1.0
        while True:
            new_w, new_b = w + size * step[:d], b + size * step[d]
            new_value, new_slack = objective(new_w, new_b)
            if new_value <= value + 1e-4 * size * (grad @ step) or size < 1e-10:
                break
            size /= 2
        if new_value >= value:  # no progress left at this precision
            break
        w, b, value, slack = new_w, new_b, new_value, new_slack
    return w, float(b)


def inner_linear_decisions(features, y, setups, inner_folds: int = 3, seed=0, share: int = 1) -> dict:
    """:func:`inner_decisions` for the linear SVM on (Nystroem) features: the same inner folds and shares."""
    y = np.asarray(y)
    inner = stratified_folds(y, inner_folds, seed)
    out = {setup: np.empty(y.size) for setup in setups}
    for f in range(inner_folds):
        fit_rows, held = np.flatnonzero(inner != f), np.flatnonzero(inner == f)
        if share > 1:
            fit_rows = fit_rows[stratified_folds(y[fit_rows], share, [*np.atleast_1d(seed).tolist(), f]) == 0]
        for C, cw in setups:
            w, b = linear_svm(features[fit_rows], y[fit_rows], C, cw)
            out[(C, cw)][held] = features[held] @ w + b
    return out

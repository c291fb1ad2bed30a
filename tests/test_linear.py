"""crocbench.models.svm._linear: the SVM's linear path (Nystroem features, a primal linear SVM) computed directly."""

import numpy as np

from crocbench.models.svm._linear import linear_svm, nystroem_map
from crocbench.similarity import SimilarityIndex


def test_linear_svm_equals_liblinear_with_an_unpenalized_intercept():
    from sklearn.svm import LinearSVC

    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 8))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=300) > 1.2).astype(int)
    for C, cw in [(0.1, None), (1.0, None), (1.0, "balanced")]:
        w, b = linear_svm(X, y, C, cw)
        # LIBLINEAR penalizes the intercept as a feature of value intercept_scaling: at 1e3 the penalty is b^2 / 2e6
        ref = LinearSVC(
            C=C, class_weight=cw, loss="squared_hinge", dual=False, intercept_scaling=1e3, tol=1e-10, max_iter=100_000
        ).fit(X, y)
        np.testing.assert_allclose(X @ w + b, ref.decision_function(X), rtol=1e-4, atol=1e-4)


def test_nystroem_map_is_exact_on_all_landmarks(data):
    fp, y, full = data
    sim = SimilarityIndex(fp)
    rows = np.arange(60)
    features, mapping = nystroem_map(sim, rows, rows)
    np.testing.assert_allclose(features @ features.T, full[:60, :60], atol=1e-9)
    # on fewer landmarks, the Nystroem approximation K_rl W^-1 K_lr, computed here directly
    marks = np.arange(0, 60, 3)
    features, _ = nystroem_map(sim, rows, marks)
    direct = full[np.ix_(rows, marks)] @ np.linalg.solve(full[np.ix_(marks, marks)], full[np.ix_(marks, rows)])
    np.testing.assert_allclose(features @ features.T, direct, atol=1e-8)

"""crocbench.models.svm._platt: Platt scaling of the SVM's decision values against scikit-learn's."""

import numpy as np
import pytest


def test_platt_fit_matches_scikit_learn_and_is_monotone():
    from sklearn.calibration import _sigmoid_calibration

    from crocbench.models import platt_fit

    rng = np.random.default_rng(7)
    y = rng.random(3000) < 0.1
    f = 2.0 * y + rng.normal(size=3000) - 1.0
    a, b = platt_fit(f, y)
    a_sk, b_sk = _sigmoid_calibration(f, y)
    assert (a, b) == (pytest.approx(a_sk, rel=1e-4), pytest.approx(b_sk, rel=1e-4))
    assert a < 0  # larger decision values, larger probability
    with pytest.raises(ValueError, match="positives and negatives"):
        platt_fit(f[~y], y[~y])

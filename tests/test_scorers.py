"""crocbench.metrics.scorer in a real GridSearchCV and cross_val_score: the scores are the metric on each held-out
fold, computed here by hand from the same folds."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB

from crocbench import metrics as M


@pytest.fixture(scope="module")
def screen():
    rng = np.random.default_rng(5)
    n = 600
    y = rng.random(n) < 0.08
    X = rng.normal(size=(n, 6)) + np.outer(y, [1.0, 0.5, 0, 0, 0, 0])
    return X, y


def _by_hand(make, X, y, cv, metric, method="decision_function", **params):
    out = []
    for train, test in cv.split(X, y):
        model = make().fit(X[train], y[train])
        s = getattr(model, method)(X[test])
        s = s[:, 1] if s.ndim == 2 else s
        out.append(M.score(y[test], s, metric, **params))
    return np.array(out)


def test_grid_search_ranks_candidates_by_the_metric_on_held_out_folds(screen):
    X, y = screen
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    grid = {"C": [0.001, 0.1, 10.0]}
    search = GridSearchCV(LogisticRegression(), grid, scoring=M.scorer("croc_auc:alpha=80"), cv=cv).fit(X, y)
    means = [_by_hand(lambda c=c: LogisticRegression(C=c), X, y, cv, "croc_auc", alpha=80).mean() for c in grid["C"]]
    assert search.cv_results_["mean_test_score"] == pytest.approx(means, abs=1e-12)
    assert search.best_params_["C"] == grid["C"][int(np.argmax(means))]


@pytest.mark.parametrize(
    "spec,metric,params",
    [
        ("bedroc_20", "bedroc", {"alpha": 20.0}),
        ("log_auc:upper=0.1", "log_auc", {"upper": 0.1}),
        ("dcg_100", "dcg", {"k": 100}),
        ("enrichment_factor:fraction=0.05", "enrichment_factor", {"fraction": 0.05}),
    ],
)
def test_cross_val_score_is_the_metric_on_each_fold(screen, spec, metric, params):
    X, y = screen
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    got = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=M.scorer(spec))
    assert got == pytest.approx(_by_hand(LogisticRegression, X, y, cv, metric, **params), abs=1e-12)


def test_without_a_decision_function_the_positive_class_probability_ranks(screen):
    X, y = screen
    cv = StratifiedKFold(3, shuffle=True, random_state=2)
    got = cross_val_score(GaussianNB(), X, y, cv=cv, scoring=M.scorer("roc_auc"), n_jobs=2)  # pickled to workers
    assert got == pytest.approx(_by_hand(GaussianNB, X, y, cv, "roc_auc", method="predict_proba"), abs=1e-12)


def test_bad_specs_fail_before_any_fit():
    with pytest.raises(ValueError, match="unknown metric 'croc'"):
        M.scorer("croc:alpha=80")
    with pytest.raises(ValueError, match="alpha"):
        M.scorer("croc_auc:alpha=-1")
    with pytest.raises(ValueError, match="ties must be one of"):
        M.scorer("roc_auc", ties="random")


def test_ties_reach_the_metric(screen):
    """A shallow tree's probabilities tie in whole leaves: each tie resolution gives its own score."""
    from sklearn.tree import DecisionTreeClassifier

    X, y = screen
    cv = StratifiedKFold(3, shuffle=True, random_state=3)
    make = lambda: DecisionTreeClassifier(max_depth=2, random_state=0)
    got = {
        ties: cross_val_score(make(), X, y, cv=cv, scoring=M.scorer("croc_auc:alpha=14", ties=ties))
        for ties in ("expected", "pessimistic")
    }
    for ties, values in got.items():
        want = _by_hand(make, X, y, cv, "croc_auc", method="predict_proba", alpha=14, ties=ties)
        assert values == pytest.approx(want, abs=1e-12)
    assert np.all(got["pessimistic"] < got["expected"])

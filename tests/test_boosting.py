"""gbm and gbm_rank: LightGBM fitted directly with the same parameters, rows and rounds gives the same scores; the
round kept is the best of the stopping metric; lambdarank's queries share the actives."""

import numpy as np
import pytest
from _synthetic import synthetic_ecfp

from crocbench.metrics import average_precision, bedroc
from crocbench.models import GBMRank, inner_split, make_model, seed_state

PARAMS = {  # the documented defaults, written out here, not read from the class
    "learning_rate": 0.05,
    "num_leaves": 31,
    "min_child_samples": 20,
    "feature_fraction_bynode": 0.5,
    "deterministic": True,
    "force_col_wise": True,
    "verbosity": -1,
}


@pytest.fixture(scope="module")
def data():
    sim, y = synthetic_ecfp(n=900, frac=0.12, shared=6)
    train, test = np.flatnonzero(np.arange(sim.n) % 4 != 0), np.flatnonzero(np.arange(sim.n) % 4 == 0)
    return sim, y, train, test


def test_gbm_equals_lightgbm_trained_directly_for_the_round_it_kept(data):
    import lightgbm as lgb

    sim, y, train, test = data
    model = make_model("gbm", {"patience": 20}, seed=(0, 2), n_jobs=2).fit(sim, train, y[train])
    fit, _ = inner_split(y[train], 0.1, (0, 2, 1))
    x = sim.ecfp()
    booster = lgb.train(
        {**PARAMS, "objective": "binary", "seed": seed_state((0, 2)), "num_threads": 2},
        lgb.Dataset(x[train[fit]], y[train[fit]]),
        num_boost_round=model.best_round_,
    )
    assert 1 < model.best_round_ < 2000
    assert np.array_equal(model.score(sim, test), booster.predict(x[test], raw_score=True))


def test_the_round_kept_is_the_first_best_of_the_stopping_metric(data):
    sim, y, train, _ = data
    model = make_model("gbm", {"patience": 15, "stop_metric": "bedroc:alpha=20"}, seed=(1, 0)).fit(sim, train, y[train])
    _, stop = inner_split(y[train], 0.1, (1, 0, 1))
    x = sim.ecfp(train[stop])
    rounds = model.booster_.current_iteration()
    values = [
        bedroc(y[train[stop]], model.booster_.predict(x, num_iteration=r), alpha=20) for r in range(1, rounds + 1)
    ]
    best = int(np.argmax(values)) + 1
    assert model.best_round_ == best == rounds > 1  # LightGBM keeps the trees up to the best round only
    assert values[-1] > max(values[:-1])  # no earlier round as good: the first best
    assert model.info() == {
        "best_round": best,
        "stop_metric": "bedroc:alpha=20",
        "stop_value": pytest.approx(values[best - 1]),
    }


def test_gbm_rank_equals_lambdarank_trained_directly_on_its_queries(data):
    import lightgbm as lgb

    sim, y, train, test = data
    model = make_model("gbm_rank", {"group_size": 100, "truncation": 5}, seed=(0, 1)).fit(sim, train, y[train])
    fit, _ = inner_split(y[train], 0.1, (0, 1, 1))
    order, sizes = model.groups(y[train[fit]])
    rows = train[fit][order]
    x = sim.ecfp()
    booster = lgb.train(
        {
            **PARAMS,
            "objective": "lambdarank",
            "lambdarank_truncation_level": 5,
            "seed": seed_state((0, 1)),
            "num_threads": 1,
        },
        lgb.Dataset(x[rows], y[rows], group=sizes),
        num_boost_round=model.best_round_,
    )
    assert np.array_equal(model.score(sim, test), booster.predict(x[test], raw_score=True))
    assert model.info()["stop_value"] == pytest.approx(
        average_precision(
            y[train[inner_split(y[train], 0.1, (0, 1, 1))[1]]],
            model.score(sim, train[inner_split(y[train], 0.1, (0, 1, 1))[1]]),
        )
    )


@pytest.mark.parametrize("n, n_pos, size", [(1000, 37, 100), (2500, 9, 1000), (7, 2, 3), (50, 50, 10)])
def test_queries_cover_every_row_once_and_share_the_actives_to_within_one(n, n_pos, size):
    y = np.zeros(n, dtype=np.int8)
    y[np.random.default_rng(0).choice(n, n_pos, replace=False)] = 1
    order, sizes = GBMRank(group_size=size, truncation=1, seed=(0, 3)).groups(y)
    assert np.array_equal(np.sort(order), np.arange(n)) and sizes.sum() == n
    assert sizes.size == -(-n // size) and sizes.max() <= size and sizes.max() - sizes.min() <= 1
    positives = np.add.reduceat(y[order], np.concatenate([[0], np.cumsum(sizes)[:-1]]))
    assert positives.sum() == n_pos and positives.max() - positives.min() <= 1
    again = GBMRank(group_size=size, truncation=1, seed=(0, 4)).groups(y)[0]
    if n >= 1000:  # another seed deals both classes otherwise
        assert not np.array_equal(order[y[order] == 1], again[y[again] == 1])
        assert not np.array_equal(order[y[order] == 0], again[y[again] == 0])


def test_the_two_objectives_rank_differently_on_the_same_rows(data):
    sim, y, train, test = data
    a, b = (make_model(m, {}, seed=(0, 0)).fit(sim, train, y[train]).score(sim, test) for m in ("gbm", "gbm_rank"))
    assert not np.array_equal(np.argsort(a), np.argsort(b))


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("gbm", {"stop_metric": "nope"}, "unknown metric 'nope'"),
        ("gbm", {"stop_fraction": 0.7}, r"stop_fraction must lie in \(0, 0.5\]"),
        ("gbm", {"num_leaves": 1}, "num_leaves must be >= 2"),
        ("gbm_rank", {"group_size": 20_000}, r"group_size must lie in \[2, 10000\]"),
        ("gbm_rank", {"group_size": 10, "truncation": 20}, r"truncation in \[1, group_size\]"),
        ("gbm_rank", {"rounds": 3}, "unknown parameter 'rounds'; GBMRank takes group_size, truncation"),
    ],
)
def test_bad_parameters_stop_in_one_line_naming_the_entry(name, params, message):
    with pytest.raises(ValueError, match=f"model {name}: .*{message}"):
        make_model(name, params)

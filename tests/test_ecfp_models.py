"""The ECFP rankers on ECFP (random forest, logistic regression): each equals an independent fit of its library."""

import numpy as np
import pytest
from _synthetic import synthetic_ecfp

from crocbench.models import LogReg, RandomForest, inner_split, make_model, seed_state


@pytest.fixture(scope="module")
def data():
    sim, y = synthetic_ecfp()
    train, test = np.flatnonzero(np.arange(sim.n) % 3 != 0), np.flatnonzero(np.arange(sim.n) % 3 == 0)
    return sim, y, train, test


@pytest.mark.parametrize("counts", [False, True])
def test_rf_equals_a_direct_scikit_learn_forest_on_the_same_matrix(data, counts):
    from sklearn.ensemble import RandomForestClassifier

    sim, y, train, test = data
    model = make_model("rf", {"n_estimators": 40, "counts": counts}, seed=(0, 3), n_jobs=2).fit(sim, train, y[train])
    x = sim.ecfp(None, counts=counts)
    forest = RandomForestClassifier(
        n_estimators=40,
        max_features="sqrt",
        class_weight="balanced_subsample",
        random_state=seed_state((0, 3)),
        n_jobs=1,
    )
    forest.fit(x[train], y[train])
    expected = forest.predict_proba(x[test])[:, 1]
    assert np.array_equal(model.score(sim, test), expected)
    assert len(np.unique(expected)) > 5  # a real ranking, not a constant


@pytest.mark.parametrize("max_samples, drawn", [(0.25, 0.25), (60, 60), (10**6, None)])
def test_rf_max_samples_is_each_trees_bootstrap_sample(data, max_samples, drawn):
    from sklearn.ensemble import RandomForestClassifier

    sim, y, train, test = data
    model = make_model("rf", {"n_estimators": 30, "max_samples": max_samples}, seed=(0, 2), n_jobs=2)
    model.fit(sim, train, y[train])
    x = sim.ecfp(None)
    forest = RandomForestClassifier(
        n_estimators=30,
        max_features="sqrt",
        class_weight="balanced_subsample",
        max_samples=drawn,  # a count above the training set: all of it
        random_state=seed_state((0, 2)),
    ).fit(x[train], y[train])
    assert np.array_equal(model.score(sim, test), forest.predict_proba(x[test])[:, 1])
    # each tree saw that many draws: its root holds the distinct compounds drawn, at most the sample size
    size = {0.25: round(0.25 * train.size), 60: 60, 10**6: train.size}[max_samples]
    roots = [int(t.tree_.n_node_samples[0]) for t in model.model_.estimators_]  # distinct compounds drawn
    assert max(roots) <= size and (size == train.size or max(roots) < train.size * 0.5)


@pytest.mark.parametrize(
    "class_weight, max_samples, bagged", [("balanced_subsample", None, 1 - np.exp(-1)), (None, 0.5, 0.5)]
)
def test_rf_lightgbm_equals_lightgbm_rf_trained_directly(data, class_weight, max_samples, bagged):
    """The documented set-up written out: rf boosting, ~0.632 (or max_samples) of the compounds per tree without
    replacement, floor(sqrt(n_features)) features per split, leaves grown to purity, balanced weights n / (2 n_c)."""
    import lightgbm as lgb

    sim, y, train, test = data
    params = {"n_estimators": 25, "engine": "lightgbm", "class_weight": class_weight, "max_samples": max_samples}
    model = make_model("rf", params, seed=(0, 3), n_jobs=2).fit(sim, train, y[train])
    x, yt = sim.ecfp(None), y[train]
    weight = None
    if class_weight:
        weight = np.where(yt == 1, len(yt) / 2 / yt.sum(), len(yt) / 2 / (len(yt) - yt.sum()))
    direct = {
        "boosting": "rf",
        "objective": "binary",
        "num_leaves": 16384,
        "min_data_in_leaf": 1,
        "min_sum_hessian_in_leaf": 0.0,
        "min_data_in_bin": 1,
        "feature_pre_filter": False,
        "lambda_l2": 0.0,
        "bagging_fraction": bagged,
        "bagging_freq": 1,
        "feature_fraction_bynode": 20 / 400,  # floor(sqrt(400)) of the 400 columns
        "histogram_pool_size": 1024,
        "seed": seed_state((0, 3)),
        "deterministic": True,
        "num_threads": 2,
        "verbosity": -1,
    }
    data_set = lgb.Dataset(x[train], yt, weight=weight, params={"min_data_in_bin": 1, "feature_pre_filter": False})
    booster = lgb.train(direct, data_set, num_boost_round=25)
    expected = booster.predict(x[test], raw_score=True)
    assert np.allclose(model.score(sim, test), expected, rtol=0, atol=1e-6)
    assert len(np.unique(expected)) > 5
    # each tree's leaves, counted independently: the distinct leaves the training compounds fall in (every leaf
    # holds a training compound of its tree's sample)
    leaves = booster.predict(x[train], pred_leaf=True)
    counts = [np.unique(leaves[:, t]).size for t in range(25)]
    assert model.info() == {"engine": "lightgbm", "trees": 25, "mean_leaves": np.mean(counts), "trees_at_max_leaves": 0}


def test_rf_lightgbm_counts_the_trees_that_reached_max_leaves(data):
    sim, y, train, _ = data
    model = make_model("rf", {"n_estimators": 4, "engine": "lightgbm", "max_leaves": 3}, seed=(0, 3), n_jobs=1)
    assert model.fit(sim, train, y[train]).info() == {
        "engine": "lightgbm",
        "trees": 4,
        "mean_leaves": 3.0,
        "trees_at_max_leaves": 4,
    }


def test_rf_lightgbm_declares_at_least_the_peaks_measured():
    """500 trees peaked at 4.89 GB on DTP AIDS (41,906 compounds) and 6.86 GB on hsf1_primary (300,971), fold 0
    (docs/benchmarks.md, ecfp_rankers.py and fold_job.py)."""
    forest = RandomForest(engine="lightgbm")
    assert forest.resources(41_906, 10)["mem_mb"] >= 4_890 and forest.resources(300_971, 10)["mem_mb"] >= 6_860


def test_rf_lightgbm_trees_rank_by_their_leaves_share_of_actives(data):
    """One tree on all training compounds but one (max_samples 1.0: LightGBM's rf boosting needs a share below 1),
    all features at each split: its value at a leaf ranks the leaves as the leaf's share of training actives does."""
    sim, y, train, test = data
    model = make_model(
        "rf",
        {
            "n_estimators": 1,
            "engine": "lightgbm",
            "max_features": 1.0,
            "max_samples": 1.0,
            "class_weight": None,
            "min_samples_leaf": 5,
        },
        seed=(0, 1),
        n_jobs=1,
    ).fit(sim, train, y[train])
    x = sim.ecfp(None)
    leaves = model.model_.predict(x[train], pred_leaf=True).ravel()
    values = model.model_.predict(x[train], raw_score=True)
    share = {leaf: y[train][leaves == leaf].mean() for leaf in np.unique(leaves)}
    pairs = sorted((share[leaf], values[leaves == leaf][0]) for leaf in share)
    assert len(pairs) > 3 and all(a[1] <= b[1] for a, b in zip(pairs, pairs[1:]) if a[0] < b[0])


def test_rf_scores_are_the_same_bits_for_any_number_of_threads_and_move_with_the_seed(data):
    sim, y, train, test = data
    runs = [
        make_model("rf", {"n_estimators": 64}, seed=seed, n_jobs=jobs).fit(sim, train, y[train]).score(sim, test)
        for seed, jobs in [((0, 1), 1), ((0, 1), 2), ((0, 2), 2)]
    ]
    assert np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[0], runs[2])


@pytest.mark.parametrize("class_weight", [None, "balanced"])
def test_logreg_equals_a_direct_scikit_learn_fit(data, class_weight):
    from sklearn.linear_model import LogisticRegression

    sim, y, train, test = data
    model = make_model("logreg", {"C": 0.3, "class_weight": class_weight}).fit(sim, train, y[train])
    x = sim.ecfp()
    direct = LogisticRegression(C=0.3, class_weight=class_weight, max_iter=1000).fit(x[train], y[train])
    assert np.array_equal(model.score(sim, test), direct.decision_function(x[test]))
    assert model.info()["n_iter"] == direct.n_iter_[0]


def test_inner_split_holds_out_the_fraction_of_each_class_and_is_seeded():
    y = np.array([1] * 37 + [0] * 463)
    fit, stop = inner_split(y, 0.1, (0, 4))
    assert np.array_equal(np.sort(np.concatenate([fit, stop])), np.arange(500))
    assert abs(y[stop].sum() - 3.7) <= 1 and abs((1 - y[stop]).sum() - 46.3) <= 1
    assert np.array_equal(stop, inner_split(y, 0.1, (0, 4))[1])
    assert not np.array_equal(stop, inner_split(y, 0.1, (0, 5))[1])
    with pytest.raises(ValueError, match="the stopping fraction must lie in"):
        inner_split(y, 0.6, 0)


def test_seed_state_is_a_31_bit_function_of_the_whole_seed():
    states = {seed_state((s, f)) for s in range(5) for f in range(10)}
    assert len(states) == 50 and all(0 <= v < 2**31 for v in states)
    assert seed_state(7) == seed_state((7,)) != seed_state((7, 1))


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("rf", {"max_features": "all"}, "max_features must be sqrt, log2 or a fraction"),
        ("rf", {"class_weight": "heavy"}, "class_weight must be null or balanced or balanced_subsample"),
        ("rf", {"n_estimators": 0}, "n_estimators and min_samples_leaf must be >= 1"),
        ("rf", {"max_samples": 0}, "max_samples must be null, a count >= 1 or a fraction in"),
        ("rf", {"max_samples": 1.5}, "max_samples must be null, a count >= 1 or a fraction in"),
        ("rf", {"max_samples": True}, "max_samples must be null, a count >= 1 or a fraction in"),
        ("rf", {"engine": "xgboost"}, "engine must be sklearn or lightgbm; got 'xgboost'"),
        ("rf", {"max_leaves": 1}, r"max_leaves must lie in \[2, 131072\]"),
        ("logreg", {"C": 0}, "C must be > 0"),
        ("logreg", {"class_weight": "balanced_subsample"}, "class_weight must be null or balanced; got"),
        ("rf", {"trees": 5}, "unknown parameter 'trees'; RandomForest takes n_estimators, max_features"),
    ],
)
def test_bad_parameters_stop_in_one_line_naming_the_entry(name, params, message):
    with pytest.raises(ValueError, match=f"model {name}: {message}"):
        make_model(name, params)


def test_the_models_say_they_read_ecfp_and_what_a_fold_needs():
    for cls in (RandomForest, LogReg):
        assert cls.uses_ecfp and cls.name in ("rf", "logreg")
    assert RandomForest().resources(41_906, 10)["threads"] == 2
    assert LogReg().resources(300_000, 10)["mem_mb"] <= 8000
    assert RandomForest().resources(300_000, 10)["mem_mb"] <= 8000  # a panel screen's fold is under the 8 GB cap
    # the trees grow with their sample, the features with the screen: a share and the same count declare the same;
    # the panel's setting on hsf1_primary (300,971 compounds) declares more than its replayed fold's 1.21 GB peak
    assert RandomForest(100, max_samples=0.5).resources(60_000, 10) == RandomForest(100, max_samples=30_000).resources(
        60_000, 10
    )
    small, large = (RandomForest(100, max_samples=20_000).resources(n, 10)["mem_mb"] for n in (300_971, 641_736))
    assert 1210 < small < large < RandomForest(100).resources(300_971, 10)["mem_mb"]
    assert RandomForest(max_samples=20000.0).max_samples == 20000  # a YAML float that is a whole count


@pytest.mark.parametrize("name", ["rf", "gbm", "gbm_rank", "mlp"])
def test_threads_is_what_a_fold_job_declares(name):
    """A model's ``threads`` is its fold job's declared threads (2 by default), which the workflow gives back as
    ``n_jobs``; the memory it declares does not depend on it; a whole-number float (a YAML 2.0) is that integer;
    anything but an integer >= 1 is one line."""
    default, one = make_model(name, {}).resources(300_000, 10), make_model(name, {"threads": 1}).resources(300_000, 10)
    assert default["threads"] == 2 and one == {**default, "threads": 1}
    assert make_model(name, {"threads": 1}, n_jobs=1).n_jobs == 1
    assert make_model(name, {"threads": 2.0}).threads == 2 and make_model(name, {"threads": np.int64(1)}).threads == 1
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match=f"model {name}: threads must be an integer >= 1"):
            make_model(name, {"threads": bad})
    with pytest.raises(ValueError, match="unknown parameter 'threads'"):  # logistic regression runs on one thread
        make_model("logreg", {"threads": 1})

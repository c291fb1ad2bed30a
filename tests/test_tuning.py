"""crocbench.models._tuning: the configurations drawn, the choice on validation data inside the training fold
(against brute force and scikit-learn), and the study's one budget."""

import numpy as np
import pytest
from _synthetic import _split
from sklearn.metrics import roc_auc_score

from crocbench.config import tuning_settings
from crocbench.models import KNN, Tuned, candidates, expand_runs, make_model, resolve_tune
from crocbench.models._tuning import grid
from crocbench.similarity import SimilarityIndex, top_k

TUNING = {"budget": 4, "metric": "roc", "share": 0.25, "seed": 0}


def test_the_grid_is_the_product_in_declared_order_and_a_draw_is_a_seeded_subset():
    space = {"a": [1, 2, 3], "b": ["x", "y"], "c": [True, False]}
    full = grid(space)
    assert len(full) == 12 and full[0] == {"a": 1, "b": "x", "c": True} and full[1] == {"a": 1, "b": "x", "c": False}
    assert full[-1] == {"a": 3, "b": "y", "c": False}
    assert candidates(space, 12) == full and candidates(space, 50) == full  # the whole grid when it fits
    draw = candidates(space, 5, seed=3)
    assert len(draw) == 5 and all(c in full for c in draw)
    assert len({tuple(c.values()) for c in draw}) == 5  # without replacement
    assert [full.index(c) for c in draw] == sorted(full.index(c) for c in draw)  # in grid order
    assert candidates(space, 5, seed=3) == draw  # seeded
    assert any(candidates(space, 5, seed=s) != draw for s in range(4, 10))
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="budget"):
            candidates(space, bad)
    for bad in ({}, {"a": []}, {"a": 3}, {"a": [1, 1]}):
        with pytest.raises(ValueError, match="search space"):
            grid(bad)


def _brute_knn(full, y, fit_rows, rows, k):
    """kNN by brute force on the full similarity matrix: the active share of the k most similar of ``fit_rows``
    (never the compound itself; ties by row), as test_models_simple checks KNN."""
    out = []
    for row in rows:
        others = [j for j in fit_rows if j != row]
        order = sorted(others, key=lambda j: (-np.float32(full[row, j]), j))[:k]
        out.append(np.mean(y[order]))
    return np.array(out)


def test_tuned_knn_chooses_the_best_validation_auc_computed_by_brute_force_and_scikit_learn(data):
    fp, y, full = data
    sim = SimilarityIndex(fp, top_k(fp, 40))
    train, test = _split(y)
    spec = resolve_tune("knn", {"tune": {"k": [1, 3, 10, 30]}}, TUNING)
    model = make_model("knn", {"tune": spec}, seed=(0, 1)).fit(sim, train, y[train])
    assert isinstance(model, Tuned) and model.candidates_ == [{"k": 1}, {"k": 3}, {"k": 10}, {"k": 30}]
    # the validation compounds: a stratified quarter of the training compounds, never a test compound
    fit_rows, val_rows = model.fit_rows_, model.validation_rows_
    assert np.array_equal(np.sort(np.concatenate([fit_rows, val_rows])), np.sort(train))
    assert np.intersect1d(fit_rows, val_rows).size == 0 and np.intersect1d(val_rows, test).size == 0
    for label in (0, 1):
        assert abs((y[val_rows] == label).sum() - (y[train] == label).sum() / 4) <= 1
    expected = [roc_auc_score(y[val_rows], _brute_knn(full, y, fit_rows, val_rows, c["k"])) for c in model.candidates_]
    assert model.validation_ == pytest.approx(expected, abs=1e-12)
    assert len(set(np.round(expected, 9))) > 1  # the candidates differ, so the choice is a real one
    best = model.candidates_[int(np.argmax(expected))]
    assert model.best_ == best
    # the chosen k refitted on every training compound scores the test fold
    alone = KNN(k=best["k"]).fit(sim, train, y[train]).score(sim, test)
    assert np.array_equal(model.score(sim, test), alone)
    info = model.info()["tuning"]
    assert info["chosen"] == best and info["metric"] == "roc" and info["budget"] == 4
    assert [c["validation"] for c in info["candidates"]] == model.validation_
    assert (info["fit_compounds"], info["validation_compounds"]) == (fit_rows.size, val_rows.size)


def test_a_tie_goes_to_the_earlier_configuration(data):
    """Two candidates that are one ranker (tie_break None and "none" both leave ties) score alike: the first is
    chosen."""
    fp, y, _ = data
    sim = SimilarityIndex(fp, top_k(fp, 40))
    train, _ = _split(y)
    spec = resolve_tune("knn", {"tune": {"tie_break": [None, "none"]}}, {**TUNING, "budget": 2})
    model = make_model("knn", {"k": 5, "tune": spec}).fit(sim, train, y[train])
    assert model.validation_[0] == model.validation_[1] and model.best_ == {"tie_break": None}


def test_every_tuned_entry_gets_the_studys_budget_metric_and_share():
    tuning = tuning_settings(
        {"tuning": {"budget": 8, "share": 0.1}, "summary": {"questions": {"metric_of_record": "ef_1pct"}}}
    )
    entries = expand_runs(
        {"knn": {"tune": "declared"}, "svm": {"tune": "declared"}, "random": {}},
        None,
        tuning,
    )
    for name in ("knn", "svm"):
        tune = entries[name]["tune"]
        assert (tune["budget"], tune["metric"], tune["share"]) == (8, "ef_1pct", 0.1)
        assert len(candidates(tune["space"], tune["budget"])) == 8
    assert "tune" not in entries["random"]
    with pytest.raises(ValueError, match="fewer than the tuning budget of 8"):
        expand_runs({"knn": {"tune": {"k": [5, 10]}}}, None, tuning)
    with pytest.raises(ValueError, match="declares no search_space"):
        expand_runs({"random": {"tune": "declared"}}, None, tuning)
    with pytest.raises(ValueError, match="needs the study's tuning"):
        expand_runs({"knn": {"tune": "declared"}})
    with pytest.raises(ValueError, match="unknown parameter 'kk'"):
        make_model("knn", {"tune": resolve_tune("knn", {"tune": {"kk": [1, 2]}}, {**TUNING, "budget": 2})})
    # a value the entry also sets (config.yaml's default, merged under the study's) gives way to the space's
    tuned = make_model("knn", {"k": 20, "tune": resolve_tune("knn", {"tune": {"k": [1, 2]}}, {**TUNING, "budget": 2})})
    assert tuned.candidates_ == [{"k": 1}, {"k": 2}] and "k" not in tuned.model


def test_every_declared_space_holds_the_default_budget():
    """The default budget (8) is within every built-in ranker's declared space, so all get the same number."""
    from crocbench.models import BUILTIN

    budget = tuning_settings({})["budget"]
    spaces = {cls.name: cls.search_space for cls in BUILTIN if hasattr(cls, "search_space")}
    assert set(spaces) == {"knn", "svm", "irv", "rf", "gbm", "gbm_rank", "logreg", "mlp", "chemprop"}
    for name, space in spaces.items():
        assert len(grid(space)) >= budget, name
        model = make_model(name, {"tune": resolve_tune(name, {"tune": "declared"}, tuning_settings({}))})
        assert len(model.candidates_) == budget, name  # each candidate built: the space's keys are parameters


def test_a_development_panel_chooses_the_best_mean_over_the_screens_the_earlier_on_a_tie():
    import pandas as pd

    from crocbench.models._development import choose_candidates, chosen_models

    entries = expand_runs(
        {"knn": {"tune": {"k": [1, 5, 9]}}, "svm": {}},
        None,
        {**TUNING, "budget": 3, "design": "development"},
    )
    assert list(entries) == ["knn.c1", "knn.c2", "knn.c3", "svm"]
    assert entries["knn.c2"] == {"class": "knn", "k": 5, "label": "kNN.c2"}
    values = {"kNN.c1": [0.70, 0.80], "kNN.c2": [0.78, 0.76], "kNN.c3": [0.74, 0.80], "SVM": [0.9, 0.9]}
    datasets = pd.DataFrame(
        [{"dataset": d, "model": m, "roc": v[i]} for i, d in enumerate(("s1", "s2")) for m, v in values.items()]
    )
    table = choose_candidates(datasets, entries, "roc")
    # means 0.75, 0.77, 0.77: c2 and c3 tie, and c2 comes first
    assert table["mean"].tolist() == pytest.approx([0.75, 0.77, 0.77])
    assert table["chosen"].tolist() == [False, True, False] and table["screens"].tolist() == [2, 2, 2]
    assert table["sd"].iloc[0] == pytest.approx(np.std([0.70, 0.80], ddof=1))
    assert chosen_models(table, entries) == {"knn": {"k": 5}}
    with pytest.raises(ValueError, match="lacks roc on a screen"):
        choose_candidates(datasets[datasets["model"] != "kNN.c3"].iloc[1:], entries, "roc")
    with pytest.raises(ValueError, match="no metric 'ef_1pct'"):
        choose_candidates(datasets, entries, "ef_1pct")


def test_a_cost_margin_chooses_the_cheapest_candidate_near_the_best():
    """Means 0.75, 0.77 and 0.765 at 10, 50 and 20 CPU seconds a fold (each the mean over two screens): within 0.01
    of the best (c2) the cheapest is c3; within 0.001 only c2 is near; within 0.03 c1, the cheapest of all. The
    wall seconds (60, 5, 50: another load beside c1 and c3) are reported and never compared. The best stays marked
    as such, for the price of the choice."""
    import pandas as pd

    from crocbench.models._development import choose_candidates

    entries = expand_runs({"knn": {"tune": {"k": [1, 5, 9]}}}, None, {**TUNING, "budget": 3, "design": "development"})
    values = {  # roc, CPU seconds, wall seconds on s1 and s2
        "kNN.c1": ([0.70, 0.80], [8, 12], [50, 70]),
        "kNN.c2": ([0.78, 0.76], [40, 60], [5, 5]),
        "kNN.c3": ([0.75, 0.78], [30, 10], [40, 60]),
    }
    table = pd.DataFrame(
        [
            {"dataset": d, "model": m, "roc": v[0][i], "cpu_seconds": v[1][i], "seconds": v[2][i]}
            for i, d in enumerate(("s1", "s2"))
            for m, v in values.items()
        ]
    )
    for margin, chosen in ((0.01, "knn.c3"), (0.001, "knn.c2"), (0.03, "knn.c1"), (None, "knn.c2")):
        out = choose_candidates(table, entries, "roc", margin)
        assert out.loc[out["chosen"], "candidate"].tolist() == [chosen], margin
        assert out.loc[out["best"], "candidate"].tolist() == ["knn.c2"]
    assert out["cpu_seconds"].tolist() == pytest.approx([10, 50, 20])
    assert out["seconds"].tolist() == pytest.approx([60, 5, 50])
    with pytest.raises(ValueError, match="cost_margin compares the candidates' CPU seconds"):
        choose_candidates(table.drop(columns="cpu_seconds"), entries, "roc", 0.01)


def test_a_ranker_that_selects_its_own_settings_is_refused():
    """config.yaml's SVM selects C by an inner CV (C_grid): tuned, every candidate would choose again."""
    with pytest.raises(ValueError, match="selects its own settings by an inner CV"):
        resolve_tune("svm", {"tune": "declared", "C_grid": [0.1, 1, 10]}, {**TUNING, "budget": 8})
    spec = resolve_tune("svm", {"tune": "declared", "C_grid": None, "class_weight_grid": None}, {**TUNING, "budget": 8})
    assert len(candidates(spec["space"], spec["budget"])) == 8

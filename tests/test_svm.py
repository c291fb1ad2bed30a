"""crocbench.models' SVM (crocbench/models/svm/): scikit-learn's SVC on the kernel, the inner CV, the grid, plans, working sets."""

import io

import numpy as np
import pytest
from _synthetic import _split, synthetic

from crocbench.cv import fold_table, score_fold, stratified_folds
from crocbench.metrics import roc_auc
from crocbench.models import SVM, grid_fold, svm_grid
from crocbench.similarity import KernelBuffer, SimilarityIndex, tanimoto_matrix


def test_svm_matches_scikit_learn_on_the_kernel(data):
    from sklearn.svm import SVC

    fp, y, full = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    for C in (0.3, 1.0):
        ours = SVM(C=C).fit(sim, train, y[train]).score(sim, test)
        svc = SVC(C=C, kernel="precomputed").fit(full[np.ix_(train, train)], y[train])
        np.testing.assert_allclose(ours, svc.decision_function(full[np.ix_(test, train)]), rtol=1e-6, atol=1e-6)


def test_svm_class_weight_and_platt_score(data):
    from sklearn.svm import SVC

    from crocbench.models import platt_fit

    fp, y, full = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    k_train, k_test = full[np.ix_(train, train)], full[np.ix_(test, train)]
    balanced = SVM(C=1.0, class_weight="balanced").fit(sim, train, y[train]).score(sim, test)
    svc = SVC(C=1.0, kernel="precomputed", class_weight="balanced").fit(k_train, y[train])
    np.testing.assert_allclose(balanced, svc.decision_function(k_test), rtol=1e-6, atol=1e-6)
    model = SVM(C=1.0, score="platt").fit(sim, train, y[train])
    prob = model.score(sim, test)
    svc = SVC(C=1.0, kernel="precomputed").fit(k_train, y[train])
    a, b = platt_fit(svc.decision_function(k_train), y[train])  # fitted on the training decision values
    decision = svc.decision_function(k_test)
    np.testing.assert_allclose(prob, 1 / (1 + np.exp(a * decision + b)), rtol=1e-6)
    order = np.argsort(decision)
    assert np.all(np.diff(prob[order]) >= 0) and ((prob > 0) & (prob < 1)).all()  # monotone: same ranking
    assert model.info()["platt_A"] == pytest.approx(a)
    with pytest.raises(ValueError, match="score must be"):
        SVM(score="probability")
    with pytest.raises(ValueError, match="class_weight"):
        SVM(class_weight="auto")


def test_svm_inner_cv_selection_equals_a_brute_force_nested_cv(data):
    from sklearn.svm import SVC

    fp, y = synthetic(frac=0.15, shared=5)  # a hard problem: the set-ups' inner values differ
    full = tanimoto_matrix(fp).astype(np.float64)
    sim = SimilarityIndex(fp)
    train, _ = _split(y)
    yt = y[train]
    grid_C, grid_cw = [0.005, 0.02, 0.08], [None, "balanced"]
    model = SVM(C_grid=grid_C, class_weight_grid=grid_cw, select_metric="roc", n_jobs=2, seed=3)
    model.fit(sim, train, yt)
    inner = stratified_folds(yt, 3, 3)  # the documented inner split: stratified, the model's seed
    expected = {}
    for cw in grid_cw:
        for C in grid_C:
            pooled = np.empty(yt.size)
            for f in range(3):
                a, b = train[inner != f], train[inner == f]
                svc = SVC(C=C, kernel="precomputed", class_weight=cw).fit(full[np.ix_(a, a)], yt[inner != f])
                pooled[inner == f] = svc.decision_function(full[np.ix_(b, a)])
            expected[(C, cw)] = roc_auc(yt, pooled)
    assert model.inner_values_.keys() == expected.keys()
    for setup, value in expected.items():
        assert model.inner_values_[setup] == pytest.approx(value, abs=1e-9)
    ranked = sorted(expected.values())
    assert ranked[-1] - ranked[-2] > 1e-3 and ranked[-1] - ranked[0] > 0.04  # a real choice, one best
    assert (model.C_, model.class_weight_) == max(expected, key=expected.get) == (0.08, None)
    info = model.info()
    assert info["C"] == model.C_ and info["class_weight"] == model.class_weight_ and len(info["inner_cv"]) == 6
    # the final fit is the chosen set-up on all the training compounds
    fixed = SVM(C=model.C_, class_weight=model.class_weight_).fit(sim, train, yt)
    np.testing.assert_array_equal(model.score(sim, train), fixed.score(sim, train))
    with pytest.raises(ValueError, match="unknown metric"):
        SVM(C_grid=[1.0], select_metric="nope")
    with pytest.raises(ValueError, match="C_grid"):
        SVM(C_grid=[])


def test_svm_grid_shares_one_kernel_and_equals_separate_fits(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    buffer = KernelBuffer()
    buffer.take(train.size + 7)[:] = np.nan  # a used, larger buffer: every entry the grid reads is rewritten
    grid = svm_grid(
        sim, train, y[train], test, Cs=[0.1, 1.0], class_weights=[None, "balanced"], n_jobs=2, buffer=buffer
    )
    assert sorted(grid, key=str) == sorted([(0.1, None), (1.0, None), (0.1, "balanced"), (1.0, "balanced")], key=str)
    for (C, cw), (decision, prob) in grid.items():
        alone = SVM(C=C, class_weight=cw).fit(sim, train, y[train]).score(sim, test)
        np.testing.assert_allclose(decision, alone, rtol=1e-13, atol=1e-14)  # same fit; sums in another order
        platt = SVM(C=C, class_weight=cw, score="platt").fit(sim, train, y[train]).score(sim, test)
        np.testing.assert_allclose(prob, platt, rtol=1e-12)
        assert np.all(np.diff(prob[np.argsort(decision)]) >= 0)  # Platt is monotone in the decision value
    serial = svm_grid(sim, train, y[train], test, Cs=[0.1, 1.0], class_weights=[None, "balanced"], n_jobs=1)
    for setup, (decision, prob) in grid.items():  # threads change nothing
        np.testing.assert_array_equal(decision, serial[setup][0])
        np.testing.assert_array_equal(prob, serial[setup][1])


def test_svm_grid_fold_is_one_row_per_test_compound_setup_and_score(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    folds = fold_table([f"c{i}" for i in range(y.size)], y, 5, seed=1)
    table = grid_fold(sim, folds, 2, [0.1, 1.0], [None, "balanced"], fingerprint="paper")
    test = folds.index[folds["fold"] == 2]
    assert len(table) == test.size * 2 * 2 * 2
    assert set(table["class_weight"]) == {"none", "balanced"} and set(table["score"]) == {"decision", "platt"}
    assert (table["fingerprint"] == "paper").all() and (table["fold"] == 2).all()
    for _, part in table.groupby(["C", "class_weight", "score"]):  # every test compound once per set-up and score
        assert part["id"].tolist() == folds["id"].to_numpy()[test].tolist()
        assert part["label"].tolist() == folds["label"].to_numpy()[test].tolist()
    one = table[(table["C"] == 1.0) & (table["class_weight"] == "none") & (table["score"] == "decision")]
    expected = score_fold(SVM(C=1.0), sim, folds, 2)
    np.testing.assert_allclose(one["value"].to_numpy(), expected["score"].to_numpy(), rtol=1e-13, atol=1e-14)


def test_svm_successive_halving_equals_a_brute_force_two_round_selection():
    from sklearn.svm import SVC

    fp, y = synthetic(frac=0.15, shared=5)
    full = tanimoto_matrix(fp).astype(np.float64)
    sim = SimilarityIndex(fp)
    train, _ = _split(y)
    yt = y[train]
    grid_C, grid_cw = [0.005, 0.02, 0.08], [None, "balanced"]
    setups = [(C, cw) for cw in grid_cw for C in grid_C]
    inner = stratified_folds(yt, 3, 3)

    def pooled_auc(setup, share):
        pooled = np.empty(yt.size)
        for f in range(3):
            fit = np.flatnonzero(inner != f)
            if share > 1:  # the documented subsample: part 0 of a stratified split seeded by (seed, inner fold)
                fit = fit[stratified_folds(yt[fit], share, [3, f]) == 0]
            held = np.flatnonzero(inner == f)
            svc = SVC(C=setup[0], kernel="precomputed", class_weight=setup[1])
            svc.fit(full[np.ix_(train[fit], train[fit])], yt[fit])
            pooled[held] = svc.decision_function(full[np.ix_(train[held], train[fit])])
        return roc_auc(yt, pooled)

    first = {s: pooled_auc(s, 3) for s in setups}
    survivors = sorted(setups, key=lambda s: -first[s])[:2]
    second = {s: pooled_auc(s, 1) for s in survivors}
    model = SVM(C_grid=grid_C, class_weight_grid=grid_cw, halving=3, n_jobs=2, seed=3).fit(sim, train, yt)
    assert model.rounds(6) == 2 and model.rounds(2) == 1 and model.rounds(9) == 3
    (share0, got0), (share1, got1) = model.inner_rounds_
    assert (share0, share1) == (3, 1) and got0.keys() == first.keys() and got1.keys() == second.keys()
    for setup in setups:
        assert got0[setup] == pytest.approx(first[setup], abs=1e-9)
    for setup in survivors:
        assert got1[setup] == pytest.approx(second[setup], abs=1e-9)
    assert (model.C_, model.class_weight_) == max(second, key=second.get)
    assert sorted(first.values())[-2] - sorted(first.values())[-3] > 1e-3  # the cut is a real one
    info = model.info()
    assert info["halving"] == 3 and len(info["inner_cv"]) == 6
    shares = {(c["C"], c["class_weight"]): c["fit_share"] for c in info["inner_cv"]}
    assert sorted(shares.values()) == [1 / 3] * 4 + [1.0] * 2 and all(shares[s] == 1.0 for s in survivors)
    for bad in (1, 2.5):
        with pytest.raises(ValueError, match="halving must be"):
            SVM(C_grid=[1.0], halving=bad)
    # the first round alone: all six on a third, the best of them chosen
    one = SVM(C_grid=grid_C, class_weight_grid=grid_cw, halving=3, halving_rounds=1, n_jobs=2, seed=3).fit(
        sim, train, yt
    )
    assert [share for share, _ in one.inner_rounds_] == [3]
    for setup in setups:
        assert one.inner_rounds_[0][1][setup] == pytest.approx(first[setup], abs=1e-9)
    assert (one.C_, one.class_weight_) == max(first, key=first.get)
    info = one.info()
    assert info["halving_rounds"] == 1 and [c["fit_share"] for c in info["inner_cv"]] == [1 / 3] * 6
    assert SVM(C_grid=grid_C, halving=3, halving_rounds=5).rounds(3) == 2  # more than the full count: all of them
    for bad in (0, 1.5):
        with pytest.raises(ValueError, match="halving_rounds must be"):
            SVM(C_grid=[1.0], halving=3, halving_rounds=bad)
    with pytest.raises(ValueError, match="with halving"):
        SVM(C_grid=[1.0], halving_rounds=1)


def test_a_model_reads_its_kernels_from_the_matrix_file_with_the_same_results(tmp_path, data):
    fp, y, full = data
    path = tmp_path / "m.npy"
    tanimoto_matrix(fp, out=path)
    computed, read = SimilarityIndex(fp), SimilarityIndex(fp, matrix=path)
    rows = np.random.default_rng(1).permutation(300)[:150]
    np.testing.assert_array_equal(read.kernel(rows), computed.kernel(rows))
    np.testing.assert_array_equal(read.similarities(rows[:40], rows), computed.similarities(rows[:40], rows))
    buffer = KernelBuffer()
    np.testing.assert_array_equal(read.kernel(np.arange(250), buffer=buffer), full[:250, :250])
    train, test = _split(y)
    a = SVM(C_grid=[0.1, 1.0], class_weight_grid=[None, "balanced"], n_jobs=2).fit(computed, train, y[train])
    b = SVM(C_grid=[0.1, 1.0], class_weight_grid=[None, "balanced"], n_jobs=2).fit(read, train, y[train])
    assert a.inner_values_ == b.inner_values_
    np.testing.assert_array_equal(a.score(computed, test), b.score(read, test))
    from crocbench.models import declared_runs

    runs = declared_runs({"svm": {"max_kernel_gb": 1.0, "large": "subsample"}, "knn": {}})
    # 10 folds of 12,000 compounds: a 0.93 GB kernel, exact, from the matrix; of 13,000: 1.10 GB, subsampled, not
    assert runs["svm"].uses_matrix(12_000, 10) and not runs["svm"].uses_matrix(13_000, 10)
    assert not runs["knn"].uses_matrix(12_000, 10)


def test_svm_memory_line_plan_by_hand():
    svm = SVM(max_kernel_gb=1.0, large="subsample")
    # 8 x 11,180^2 = 0.99996e9 bytes fits 1 GB; 11,181 do not
    assert svm.plan(11_180) == {"strategy": "exact", "fit_compounds": 11_180, "kernel_gb": 8 * 11_180**2 / 1e9}
    plan = svm.plan(20_000)
    assert plan["strategy"] == "subsample" and plan["fit_compounds"] == 11_180 and plan["kernel_gb_full"] == 3.2
    # the fold job's memory is the subsample's kernel plus 3,000 MB: 10 folds of 30,000 have 27,000 training compounds
    assert svm.resources(30_000, 10) == {"threads": 2, "mem_mb": int(8 * 11_180**2 / 2**20 + 3000)}
    with pytest.raises(ValueError, match="positives alone need"):
        svm.plan(20_000, n_positives=11_180)
    with pytest.raises(
        ValueError,
        match=r"of 20,000 compounds needs 3\.2 GB .* above max_kernel_gb = 1; "
        r"set the svm's 'large: subsample'",
    ):
        SVM(max_kernel_gb=1.0).plan(20_000)
    with pytest.raises(ValueError, match="large must be"):
        SVM(large="nope")
    # the default limit is the machine's: its memory budget less 3 GB
    from crocbench._parallel import memory_budget_mb

    assert SVM().kernel_limit_gb == pytest.approx((memory_budget_mb() - 3000) * 2**20 / 1e9)


def _kkt_gap(kernel, y, dual, C):
    """LIBSVM's stopping quantity on the whole problem, from numpy: ``max_up(-y G) - min_low(-y G)`` with
    ``G = Q a - e`` (``dual`` = y a on every compound, ``C`` each compound's bound)."""
    s = np.where(y == 1, 1.0, -1.0)
    alpha = dual * s
    value = s - kernel @ dual  # -y_i G_i = y_i - sum_j K_ij y_j a_j
    up = ((alpha < C - 1e-12) & (s > 0)) | ((alpha > 1e-12) & (s < 0))
    low = ((alpha < C - 1e-12) & (s < 0)) | ((alpha > 1e-12) & (s > 0))
    return value[up].max() - value[low].min(), alpha


@pytest.mark.parametrize("class_weight, working_set", [(None, 520), (None, 700), ("balanced", 700)])
def test_svm_working_sets_reach_the_whole_problems_optimum(class_weight, working_set):
    from _synthetic import clustered
    from sklearn.svm import SVC

    fp, y = clustered(1500)
    full = tanimoto_matrix(fp).astype(np.float64)
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    yt = y[train]
    model = SVM(C=1.0, class_weight=class_weight, working_set=working_set).fit(sim, train, yt)
    assert model.info()["working_set_fits"] >= 3 and train.size > working_set  # it iterated
    dual = np.zeros(train.size)
    dual[model.support_local_] = model.dual_coef_
    k = full[np.ix_(train, train)]
    # each compound's bound: C times its class's weight, the whole training set's n / (2 n_class)
    w = {c: train.size / (2 * np.sum(yt == c)) for c in (0, 1)} if class_weight else {0: 1.0, 1: 1.0}
    bound = np.where(yt == 1, w[1], w[0])
    gap, alpha = _kkt_gap(k, yt, dual, bound)
    assert gap <= 1.5e-3 and alpha.min() >= -1e-12 and np.all(alpha <= bound + 1e-12)
    assert abs(dual.sum()) < 1e-9  # y'a = 0
    # the same optimum as one LIBSVM fit on the whole kernel, to LIBSVM's tolerance
    svc = SVC(C=1.0, kernel="precomputed", class_weight=class_weight).fit(k, yt)
    ref = np.zeros(train.size)
    ref[svc.support_] = svc.dual_coef_[0]

    def objective(d):  # the dual objective, 1/2 a'Qa - e'a
        return 0.5 * d @ k @ d - np.abs(d).sum()

    assert objective(dual) == pytest.approx(objective(ref), rel=1e-4)
    np.testing.assert_allclose(model.score(sim, test), svc.decision_function(full[np.ix_(test, train)]), atol=3e-3)
    # a working set as large as the training set is one plain fit
    whole = SVM(C=1.0, class_weight=class_weight, working_set=train.size).fit(sim, train, yt)
    assert "working_set_fits" not in whole.info()
    np.testing.assert_allclose(whole.score(sim, test), svc.decision_function(full[np.ix_(test, train)]), atol=1e-6)


@pytest.mark.parametrize("halving", [None, 3])
def test_svm_working_sets_start_from_the_chosen_setups_inner_margins(halving):
    from _synthetic import clustered

    from crocbench.models.svm._libsvm import svc
    from crocbench.models.svm._select import inner_decisions
    from crocbench.models.svm._working import balanced_weights, working_set_fit

    fp, y = clustered(1500)
    full = tanimoto_matrix(fp).astype(np.float64)
    sim = SimilarityIndex(fp)
    train, _ = _split(y)
    yt = y[train]
    log = io.StringIO()
    grid = {"C_grid": [0.3, 3.0], "class_weight_grid": [None, "balanced"]}
    if halving:  # as config.yaml: the first round of successive halving only, on a third of each inner training set
        grid.update(halving=halving, halving_rounds=1)
    model = SVM(**grid, working_set=700, progress=log).fit(sim, train, yt)
    setup = (model.C_, model.class_weight_)
    # the guide: the chosen set-up's inner decisions, as an inner CV of that set-up alone gives them (its inner
    # training sets of 800 fitted on working sets of 700, as the model's are)
    alone = inner_decisions(
        lambda C, class_weight: SVM(C=C, class_weight=class_weight, working_set=700),
        sim,
        train,
        yt,
        [setup],
        share=halving or 1,
    )
    np.testing.assert_array_equal(model.inner_decision_, alone[setup])
    assert "working set 1 (the guide's smallest margins): LIBSVM on 700 of 1,200" in log.getvalue()
    # the first set: the 700 compounds of smallest estimated margin, found here with numpy
    margin = np.where(yt == 1, 1.0, -1.0) * alone[setup]
    expected = np.sort(np.argsort(margin, kind="stable")[:700])
    kernels = []

    def fit_kernel(kernel, y_set):  # LIBSVM, recording each working set's kernel
        kernels.append(kernel.copy())
        weights = balanced_weights(yt) if setup[1] == "balanced" else None
        fitted = svc(model, setup[0], weights).fit(kernel, y_set)
        return fitted.support_, fitted.dual_coef_[0].astype(np.float64), float(fitted.intercept_[0])

    local, dual_coef, _, _, rounds = working_set_fit(fit_kernel, sim, train, yt, 700, 1e-3, guide=alone[setup])
    np.testing.assert_array_equal(kernels[0], full[np.ix_(train[expected], train[expected])])
    # the same optimum as the model's own fit (the whole problem's, to LIBSVM's tolerance)
    dual = np.zeros(train.size)
    dual[local] = dual_coef
    w = balanced_weights(yt) if setup[1] == "balanced" else {0: 1.0, 1: 1.0}
    gap, _ = _kkt_gap(full[np.ix_(train, train)], yt, dual, setup[0] * np.where(yt == 1, w[1], w[0]))
    assert gap <= 1.5e-3 and rounds == model.working_rounds_
    np.testing.assert_array_equal(np.sort(local), np.sort(model.support_local_))
    # without an inner CV: every positive and seeded negatives, half the working set
    log = io.StringIO()
    SVM(C=1.0, working_set=700, progress=log).fit(sim, train, yt)
    assert "working set 1 (every positive and seeded negatives): LIBSVM on 350 of 1,200" in log.getvalue()


def test_svm_working_set_plan_errors_and_inner_cv():
    from _synthetic import clustered

    # the plan holds the working set's kernel: 8 x 20,000^2 = 3.2 GB for 37,715 training compounds
    svm = SVM(working_set=20_000, max_kernel_gb=4.0)
    assert svm.plan(37_715) == {"strategy": "exact", "fit_compounds": 37_715, "kernel_gb": 3.2}
    assert svm.resources(41_906, 10) == {"threads": 1, "mem_mb": int(3.2e9 / 2**20 + 3000)}
    assert not svm.uses_matrix(41_906, 10) and SVM(max_kernel_gb=20.0).uses_matrix(41_906, 10)
    assert SVM(working_set=None, max_kernel_gb=4.0, large="subsample").plan(37_715)["strategy"] == "subsample"
    # on working sets its folds run in a job per core (each keeping its kernel memory), else a job per fold, unless told
    import os

    from crocbench.models import Run

    assert svm.fold_jobs == len(os.sched_getaffinity(0)) and SVM().fold_jobs is None and SVM(fold_jobs=3).fold_jobs == 3
    assert (
        Run("svm", {}, "SVM", model=SVM(fold_jobs=3)).fold_jobs == 3
        and Run("s", {}, "S", model=SVM()).fold_jobs is None
    )

    class Old(SVM):  # a plug-in written for the contract's old name
        folds_in_one_job = True

    with pytest.raises(ValueError, match="folds_in_one_job, which is now fold_jobs"):
        _ = Run("old", {}, "Old", model=Old()).fold_jobs
    assert SVM(working_set=20_000, fold_jobs=None).fold_jobs is None
    for bad in (0, 1.5, True, "two"):
        with pytest.raises(ValueError, match="fold_jobs must be None or an integer >= 1"):
            SVM(fold_jobs=bad)
    with pytest.raises(ValueError, match=r"working set of 30,000 compounds needs a 7\.2 GB kernel"):
        SVM(working_set=30_000, max_kernel_gb=4.0).plan(37_715)
    with pytest.raises(ValueError, match="working_set must be"):
        SVM(working_set=1)
    fp, y = clustered(1500)
    sim = SimilarityIndex(fp)
    train, _ = _split(y)
    with pytest.raises(ValueError, match="support vectors fill its working set of 100"):
        SVM(working_set=100).fit(sim, train, y[train])
    # inner fits larger than the working set are fitted on working sets: the same inner values to tolerance
    grid = {"C_grid": [0.3, 3.0], "class_weight_grid": [None, "balanced"]}
    whole = SVM(**grid).fit(sim, train, y[train])
    log = io.StringIO()
    parts = SVM(**grid, working_set=700, progress=log).fit(sim, train, y[train])  # inner training sets of 800
    assert log.getvalue().count(": on working sets, ") == 3 * 4  # every set-up in each inner fold
    assert (parts.C_, parts.class_weight_) == (whole.C_, whole.class_weight_)
    for a, b in zip(whole.info()["inner_cv"], parts.info()["inner_cv"]):
        assert (a["C"], a["class_weight"]) == (b["C"], b["class_weight"])
        assert a["value"] == pytest.approx(b["value"], abs=2e-3)


def test_svm_subsample_is_exact_libsvm_on_all_positives_and_seeded_negatives(data):
    from sklearn.svm import SVC

    from crocbench.models.svm._fit import subsample

    fp, y, full = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    m = 90  # the largest n with 8 n^2 bytes within the limit
    limit = 8 * m * m / 1e9
    model = SVM(C=1.0, max_kernel_gb=limit, large="subsample", seed=(0, 3)).fit(sim, train, y[train])
    info = model.info()
    assert info["large"] == "subsample" and info["fit_compounds"] == m and info["training_compounds"] == train.size
    fitted = train[subsample(model, y[train])]
    assert fitted.size == m and set(train[y[train] == 1]) <= set(fitted)  # every positive, then negatives
    assert set(model.support_) <= set(fitted)
    # the same decisions as scikit-learn's SVC on the subset's kernel, fitted here independently
    svc = SVC(C=1.0, kernel="precomputed").fit(full[np.ix_(fitted, fitted)], y[fitted])
    np.testing.assert_allclose(
        model.score(sim, test), svc.decision_function(full[np.ix_(test, fitted)]), rtol=1e-9, atol=1e-9
    )
    again = SVM(C=1.0, max_kernel_gb=limit, large="subsample", seed=(0, 3)).fit(sim, train, y[train])
    other = SVM(C=1.0, max_kernel_gb=limit, large="subsample", seed=(0, 4)).fit(sim, train, y[train])
    assert np.array_equal(subsample(again, y[train]), subsample(model, y[train]))
    assert not np.array_equal(subsample(other, y[train]), subsample(model, y[train]))
    # another subsample_seed: another draw of the negatives, every positive still in, the same size; 0 is the fold's own
    redrawn = SVM(C=1.0, max_kernel_gb=limit, large="subsample", seed=(0, 3), subsample_seed=1).fit(
        sim, train, y[train]
    )
    drawn = train[subsample(redrawn, y[train])]
    assert drawn.size == m and set(train[y[train] == 1]) <= set(drawn) and set(drawn) != set(fitted)
    zero = SVM(C=1.0, max_kernel_gb=limit, large="subsample", seed=(0, 3), subsample_seed=0)
    assert np.array_equal(zero.fit(sim, train, y[train]).score(sim, test), model.score(sim, test))
    with pytest.raises(ValueError, match="subsample_seed must be a whole number >= 0"):
        SVM(subsample_seed=-1)
    with pytest.raises(ValueError, match=r"needs 0\.000461 GB"):  # 240 training compounds: 8 x 240^2 bytes
        SVM(max_kernel_gb=limit).fit(sim, train, y[train])


def test_svm_nystroem_plan_by_hand():
    # 8 m (20,000 + m) bytes <= 1e9: m = 5,000 exactly (5,001 x 25,001 > 1.25e8)
    plan = SVM(max_kernel_gb=1.0, large="nystroem", landmarks=6000).plan(20_000)
    assert plan == {
        "strategy": "nystroem",
        "fit_compounds": 20_000,
        "landmarks": 5000,
        "kernel_gb": 1.0,
        "kernel_gb_full": 3.2,
    }
    assert SVM(max_kernel_gb=1.0, large="nystroem", landmarks=4000).plan(20_000)["landmarks"] == 4000
    # selecting by a 3-fold inner CV also holds an inner fold's copy (2/3 of the rows): m (33,333.3 + m) <= 1.25e8
    grid = SVM(max_kernel_gb=1.0, large="nystroem", landmarks=6000, C_grid=[1.0, 10.0])
    assert grid.plan(20_000)["landmarks"] == 3402
    assert grid.resources(22_223, 10)["mem_mb"] == int(grid.plan(20_001)["kernel_gb"] * 1e9 / 2**20 + 3000)
    with pytest.raises(ValueError, match=r"on 10 landmarks need 0\.0016 GB.*raise max_kernel_gb"):
        SVM(max_kernel_gb=1e-3, large="nystroem").plan(20_000)  # 8 x 10 x 20,010 bytes
    with pytest.raises(ValueError, match="'large: nystroem'"):
        SVM(max_kernel_gb=1.0).plan(20_000)
    with pytest.raises(ValueError, match="landmarks must be"):
        SVM(landmarks=5)


def test_svm_nystroem_is_a_linear_svm_on_the_landmarks_features(data):
    from sklearn.svm import LinearSVC

    fp, y, full = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    limit = 8 * 100 * (train.size + 100) / 1e9  # 100 landmarks fit; the 0.46 MB exact kernel does not
    model = SVM(C=1.0, max_kernel_gb=limit, large="nystroem", landmarks=150, seed=(0, 3)).fit(sim, train, y[train])
    info = model.info()
    assert info["large"] == "nystroem" and info["landmarks"] == 100 and info["training_compounds"] == train.size
    marks = model.support_
    assert marks.size == 100 and set(marks) <= set(train)
    # independently: features K(x, L) W^(-1/2) from the full kernel, and LIBLINEAR's L2-loss SVM on them
    s, u = np.linalg.eigh(full[np.ix_(marks, marks)])
    root = u @ np.diag(s**-0.5) @ u.T
    ref = LinearSVC(C=1.0, loss="squared_hinge", dual=False, intercept_scaling=1e3, tol=1e-10, max_iter=100_000)
    ref.fit(full[np.ix_(train, marks)] @ root, y[train])
    np.testing.assert_allclose(
        model.score(sim, test), ref.decision_function(full[np.ix_(test, marks)] @ root), rtol=1e-4, atol=1e-4
    )
    again = SVM(C=1.0, max_kernel_gb=limit, large="nystroem", landmarks=150, seed=(0, 3)).fit(sim, train, y[train])
    assert np.array_equal(again.score(sim, test), model.score(sim, test))  # seeded
    other = SVM(C=1.0, max_kernel_gb=limit, large="nystroem", landmarks=150, seed=(0, 4)).fit(sim, train, y[train])
    assert not np.array_equal(other.support_, model.support_)
    # the inner CV chooses among the set-ups on the same features, and the fold records it
    chosen = SVM(
        C_grid=[0.1, 10.0],
        class_weight_grid=[None, "balanced"],
        halving=2,
        max_kernel_gb=limit,
        large="nystroem",
        seed=(0, 3),
    ).fit(sim, train, y[train])
    assert (chosen.C_, chosen.class_weight_) in chosen.candidates() and len(chosen.info()["inner_cv"]) == 4
    assert chosen.info()["landmarks"] < 100  # its inner fold's copy of the features takes a share of the limit

"""The SVM's inner decisions (``crocbench.models.svm._select._decisions``): one pass over the reference
compounds some model keeps, with the bits of every model's full sum over all of them."""

import numpy as np
import pytest
from _synthetic import _split, synthetic

from crocbench.models import SVM
from crocbench.models.svm._select import _decisions, _fit_all
from crocbench.similarity import SimilarityIndex, tanimoto_matrix
from crocbench.similarity._dot import ordered_dot


def _fitted(fp, y, setups):
    """SVMs at ``setups`` fitted on the first 150 compounds of a split's training set, and those compounds."""
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    reference = train[:150]
    models = [SVM(C=C, class_weight=cw) for C, cw in setups]
    _fit_all(sim.kernel(reference), reference, y[reference], models)
    return sim, reference, test, models


@pytest.mark.parametrize("from_file", [False, True])
def test_inner_decisions_have_the_bits_of_each_models_sum_over_every_reference_compound(tmp_path, from_file):
    fp, y = synthetic(400)  # an easy problem: most compounds outside every margin
    setups = [(0.3, None), (1.0, None), (1.0, "balanced"), (3.0, None)]
    sim, reference, test, models = _fitted(fp, y, setups)
    if from_file:  # the kernels and blocks read from the N x N matrix file
        tanimoto_matrix(fp, out=tmp_path / "m.npy")
        sim = SimilarityIndex(fp, matrix=tmp_path / "m.npy")
    kept = np.zeros(reference.size, dtype=bool)
    for m in models:
        kept[m.support_local_] = True
    assert 0 < kept.sum() < reference.size  # some compounds are no model's support vector: left out
    rows = np.concatenate([test, reference[:20]])  # with compounds of the reference set itself
    got = _decisions(sim, rows, reference, models)
    block = sim.similarities(rows, reference)  # float32, every reference compound
    for j, m in enumerate(models):
        dual = np.zeros(reference.size)
        dual[m.support_local_] = m.dual_coef_
        expected = ordered_dot(block, dual) + m.intercept_  # the sum over all of them, in reference order
        assert got[j].tobytes() == expected.tobytes()
        # and SVM.decision, over the support vectors alone in LIBSVM's order: equal to rounding
        np.testing.assert_allclose(got[j], m.decision(sim, rows), rtol=1e-12, atol=1e-12)


def test_inner_decisions_of_one_model_whose_support_vectors_are_every_reference_compound():
    fp, y = synthetic(frac=0.15, shared=5)
    sim, reference, test, models = _fitted(fp, y, [(1e-4, "balanced")])  # tiny C: every compound at its bound
    assert models[0].support_local_.size == reference.size
    block = sim.similarities(test, reference)
    dual = np.zeros(reference.size)
    dual[models[0].support_local_] = models[0].dual_coef_
    expected = ordered_dot(block, dual) + models[0].intercept_
    assert _decisions(sim, test, reference, models)[0].tobytes() == expected.tobytes()


def test_columns_dot_has_the_bits_of_the_ordered_sum_of_the_gathered_columns():
    from crocbench.similarity._dot import columns_dot

    rng = np.random.default_rng(5)
    matrix = rng.random((301, 257)).astype(np.float32).astype(np.float64)  # a kernel's widened float32 values
    matrix[:, 7] = 0.0
    cols = rng.permutation(257)[:190]  # any order, as LIBSVM's support vectors come
    weights = rng.normal(size=190) * 10.0 ** rng.integers(-6, 3, size=190)
    expected = ordered_dot(matrix[:, cols].astype(np.float32), weights)
    assert columns_dot(matrix, cols, weights).tobytes() == expected.tobytes()
    with pytest.raises(ValueError, match="C-contiguous float64"):
        columns_dot(matrix.T, cols, weights)


@pytest.mark.parametrize("from_file", [False, True])
def test_training_decisions_from_the_working_sets_kernel_have_the_bits_of_svm_decision(tmp_path, from_file):
    from _synthetic import clustered

    from crocbench.models.svm._libsvm import fit_svc, svc
    from crocbench.models.svm._working import training_decisions

    fp, y = clustered(900)
    sim = SimilarityIndex(fp)
    if from_file:
        tanimoto_matrix(fp, out=tmp_path / "m.npy")
        sim = SimilarityIndex(fp, matrix=tmp_path / "m.npy")
    train, _ = _split(y)
    inside = np.sort(np.random.default_rng(2).choice(train.size, 400, replace=False))
    kernel = sim.kernel(train[inside])
    fitted = fit_svc(svc(SVM(), 1.0, "balanced"), kernel, y[train][inside])
    support_local = inside[fitted.support_]  # LIBSVM's order: by class, then position
    assert np.any(np.diff(support_local) < 0)
    dual, b = fitted.dual_coef_[0].astype(np.float64), float(fitted.intercept_[0])
    got = training_decisions(sim, train, support_local, dual, b, kernel, inside)
    model = SVM()
    model.support_, model.dual_coef_, model.intercept_ = train[support_local], dual, b
    assert got.tobytes() == model.decision(sim, train).tobytes()
    assert got.tobytes() == training_decisions(sim, train, support_local, dual, b).tobytes()
    # LIBSVM's own decision values on the set: equal to rounding (its sums in another order)
    np.testing.assert_allclose(got[inside], fitted.decision_function(kernel), rtol=1e-9, atol=1e-9)

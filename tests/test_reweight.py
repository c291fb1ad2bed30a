"""The IRV's rank-reweighting schemes (the paper's Appendix A)."""

import math

import numpy as np
import pytest
import torch

from crocbench.models import IRV, Reweighting, average_ranks, irv_loss, score_density, silverman_bandwidth
from crocbench.similarity import SimilarityIndex

SCORES = np.array([0.9, 0.5, 0.1, 0.7])  # ranks 1, 3, 4, 2


def test_average_ranks_share_ties():
    assert average_ranks(SCORES).tolist() == [1, 3, 4, 2]
    assert average_ranks(np.array([2.0, 2.0, 2.0, 1.0])).tolist() == [2, 2, 2, 4]


def test_weights_by_hand():
    assert np.allclose(Reweighting("none").weights(SCORES), 0.25)
    h = np.array([1, 1 / 3, 1 / 4, 1 / 2])
    assert np.allclose(Reweighting("power").weights(SCORES), h / (1 + 1 / 3 + 1 / 4 + 1 / 2))
    e = np.exp(-2.0 * np.array([1, 3, 4, 2]) / 4)
    assert np.allclose(Reweighting("exp", alpha=2.0).weights(SCORES), e / e.sum())
    # higher-ranked compounds always weigh more
    for scheme in ("power", "exp"):
        w = Reweighting(scheme).weights(SCORES)
        assert w[0] > w[3] > w[1] > w[2]


def test_density_factor_on_a_toy_score_set():
    scores = np.array([0.0, 0.1, 0.2, 0.25, 3.0])
    h = silverman_bandwidth(scores)
    sd, iqr = np.std(scores, ddof=1), np.subtract(*np.percentile(scores, [75, 25]))
    assert h == pytest.approx(0.9 * min(sd, iqr / 1.34) * 5**-0.2)
    exact = np.array([np.exp(-0.5 * ((x - scores) / h) ** 2).sum() / (5 * h * np.sqrt(2 * np.pi)) for x in scores])
    assert np.allclose(score_density(scores), exact, rtol=2e-3)
    ranks = np.array([5, 4, 3, 2, 1])
    expected = exact / ranks
    got = Reweighting("power_density").weights(scores)
    assert np.allclose(got, expected / expected.sum(), rtol=3e-3)
    density = score_density(scores)
    assert density[4] < density[3]  # the lone top score sits where the density is low


def test_annealing_schedule():
    r = Reweighting("exp_anneal", alpha_start=2.0, alpha_end=20.0, anneal_epochs=10)
    assert [r.alpha_at(t) for t in (1, 10, 50)] == [2.0, 20.0, 20.0]
    assert r.alpha_at(4) == pytest.approx(2.0 + 18.0 * 3 / 9)
    e = np.exp(-r.alpha_at(4) * average_ranks(SCORES) / 4)
    assert np.allclose(r.weights(SCORES, epoch=4), e / e.sum())


def test_annealing_schedule_by_hand_at_the_first_middle_and_last_epochs():
    # documented (module docstring, config.yaml): alpha_t rises linearly from alpha_start at epoch 1 to
    # alpha_end at epoch anneal_epochs (1-based), then stays: 1, 3, 5, ..., 21 over 11 epochs (step 20 / 10 = 2)
    r = Reweighting("exp_anneal", alpha_start=1.0, alpha_end=21.0, anneal_epochs=11)
    by_hand = {1: 1.0, 2: 3.0, 3: 5.0, 6: 11.0, 10: 19.0, 11: 21.0, 12: 21.0, 100: 21.0}
    assert {t: r.alpha_at(t) for t in by_hand} == pytest.approx(by_hand)
    ranks = np.array([1.0, 3.0, 4.0, 2.0])  # of SCORES, N = 4
    for t, alpha in by_hand.items():
        h = np.array([math.exp(-alpha * k / 4) for k in ranks])  # exp(-alpha r / N), normalized to sum 1
        np.testing.assert_allclose(r.weights(SCORES, t), h / h.sum(), rtol=1e-12)
    # epoch 1 (the first reweighted epoch) uses alpha_start: exp(-r/4) / sum
    w1 = np.exp(-np.array([1, 3, 4, 2]) / 4)
    np.testing.assert_allclose(r.weights(SCORES, 1), w1 / w1.sum(), rtol=1e-12)
    assert r.weights(SCORES, 1)[0] == pytest.approx(0.3499, abs=1e-4)  # e^-0.25 / (e^-0.25 + e^-0.5 + e^-0.75 + e^-1)


@pytest.mark.parametrize("scheme", ["none", "power", "power_density", "exp", "exp_anneal"])
def test_renormalization_keeps_the_sum(scheme):
    rng = np.random.default_rng(1)
    for epoch in (1, 5, 40):
        w = Reweighting(scheme).weights(rng.normal(size=1000), epoch)
        assert w.sum() == pytest.approx(1.0) and np.all(w > 0)


def test_weighted_loss_equals_mean_loss_when_uniform():
    rng = np.random.default_rng(0)
    s, c = torch.tensor(rng.random((30, 4))), torch.tensor((rng.random((30, 4)) < 0.3).astype(float))
    y = torch.tensor((rng.random(30) < 0.3).astype(float))
    w = torch.tensor([0.1, 0.8, -0.2, 1.0, -0.7, -1.2], dtype=torch.float64)
    uniform = torch.full((30,), 1 / 30, dtype=torch.float64)
    assert irv_loss(w, s, c, y, uniform).item() == pytest.approx(irv_loss(w, s, c, y).item(), rel=1e-12)


def test_bad_scheme():
    with pytest.raises(ValueError, match="unknown reweighting scheme 'cubic'"):
        IRV(reweight="cubic")
    with pytest.raises(ValueError, match="anneal_epochs"):
        Reweighting("exp_anneal", anneal_epochs=0)


def test_convergence_detection_and_schemes_on_a_toy_problem():
    from _synthetic import _split, synthetic

    fp, y = synthetic()
    sim = SimilarityIndex(fp)
    train, _ = _split(y)
    for scheme in ("none", "power", "exp"):
        irv = IRV(k=5, reweight=scheme, tol=1e-4, window=5, track=True).fit(sim, train, y[train])
        loss = [h[1] for h in irv.history_]
        assert irv.converged_ and len(loss) == irv.n_epochs_
        t = irv.n_epochs_ - 1  # 0-based index of the last epoch
        assert abs(loss[t - 5] - loss[t]) <= 1e-4 * abs(loss[t])  # the criterion holds at the end...
        earlier = [abs(loss[u - 5] - loss[u]) <= 1e-4 * abs(loss[u]) for u in range(5, t)]
        assert not any(earlier)  # ...and at no epoch before
        assert all(0 <= h[2] <= 1 for h in irv.history_)
    never = IRV(k=5, max_epochs=3, tol=0).fit(sim, train, y[train])
    assert not never.converged_ and never.n_epochs_ == 3


def _bce(z, y):
    """Binary cross-entropy of logits, by hand: log(1 + e^z) - y z."""
    return np.logaddexp(0.0, z) - y * z


def test_weighted_irv_loss_by_hand_on_six_compounds():
    s = np.array([[0.9, 0.5], [0.8, 0.7], [0.4, 0.3], [0.6, 0.2], [0.3, 0.1], [0.7, 0.6]])
    c = np.array([[1, 0], [1, 1], [0, 0], [0, 1], [0, 0], [1, 0]], dtype=float)
    y = np.array([1, 1, 0, 0, 0, 1], dtype=float)
    w = np.array([0.2, 1.5, -0.3, 1.1, -0.9, -0.4])
    relevance = 1 / (1 + np.exp(-(w[0] + w[1] * s + w[2] * np.array([1, 2]))))
    z = w[5] + (relevance * np.where(c == 1, w[3], w[4])).sum(axis=1)
    weights = np.array([0.4, 0.1, 0.2, 0.05, 0.05, 0.2])
    t = [torch.tensor(v) for v in (w, s, c, y, weights)]
    assert irv_loss(*t[:4]).item() == pytest.approx(_bce(z, y).mean(), rel=1e-12)
    assert irv_loss(*t).item() == pytest.approx((weights * _bce(z, y)).sum(), rel=1e-12)
    # the weights enter the gradient too: compare with finite differences of the hand-computed weighted loss
    wt = torch.tensor(w, requires_grad=True)
    grad = torch.autograd.grad(irv_loss(wt, *t[1:]), wt)[0].numpy()
    plain = torch.autograd.grad(irv_loss(wt, *t[1:4]), wt)[0].numpy()

    def hand(v):
        r = 1 / (1 + np.exp(-(v[0] + v[1] * s + v[2] * np.array([1, 2]))))
        return (weights * _bce(v[5] + (r * np.where(c == 1, v[3], v[4])).sum(axis=1), y)).sum()

    numeric = [(hand(w + h) - hand(w - h)) / 2e-6 for h in np.eye(6) * 1e-6]
    np.testing.assert_allclose(grad, numeric, rtol=1e-6)
    assert np.abs(grad - plain).max() > 1e-3


def test_reweighted_training_uses_the_weights_from_the_second_epoch():
    """After one epoch (uniform weights) both runs sit at the same weights; the second epoch's loss is the
    1/r-weighted loss of the ranking after one step (computed by hand), and the fits then part."""
    from _synthetic import synthetic

    fp, y = synthetic(frac=0.15, shared=5)
    sim = SimilarityIndex(fp)
    train = np.arange(fp.n)
    one = IRV(k=5, max_epochs=1).fit(sim, train, y)
    runs = {scheme: IRV(k=5, max_epochs=6, tol=0, reweight=scheme).fit(sim, train, y) for scheme in ("none", "power")}
    for irv in runs.values():
        assert irv.history_[0][1] == one.history_[0][1]
    s, c = (v.numpy() for v in one._inputs(sim, train)[1:])
    w = one.w_.numpy()
    relevance = 1 / (1 + np.exp(-(w[0] + w[1] * s + w[2] * np.arange(1, 6))))
    z = w[5] + (relevance * np.where(c == 1, w[3], w[4])).sum(axis=1)
    from scipy.stats import rankdata

    h = 1 / rankdata(-z)
    assert runs["power"].history_[1][1] == pytest.approx((h / h.sum() * _bce(z, y)).sum(), rel=1e-9)
    assert runs["none"].history_[1][1] == pytest.approx(_bce(z, y).mean(), rel=1e-9)
    assert not np.allclose(runs["power"].w_.numpy(), runs["none"].w_.numpy(), rtol=1e-6, atol=0)


def test_annealed_training_starts_the_schedule_at_alpha_start():
    """Epoch 2 (the first reweighted one) is weighted with alpha_start, by hand: exp(-alpha_start r / N), from
    the ranking after one step; epoch 3 with the next alpha (alpha_start + (alpha_end - alpha_start) / (E - 1))."""
    from _synthetic import synthetic
    from scipy.stats import rankdata

    fp, y = synthetic(frac=0.15, shared=5)
    sim = SimilarityIndex(fp)
    train = np.arange(fp.n)
    schedule = {"reweight": "exp_anneal", "alpha_start": 2.0, "alpha_end": 42.0, "anneal_epochs": 11}  # +4 / epoch
    run = IRV(k=5, max_epochs=3, tol=0, **schedule).fit(sim, train, y)
    s, c = (v.numpy() for v in run._inputs(sim, train)[1:])
    for epoch, alpha in ((2, 2.0), (3, 6.0)):
        w = IRV(k=5, max_epochs=epoch - 1, tol=0, **schedule).fit(sim, train, y).w_.numpy()  # after epoch - 1 steps
        relevance = 1 / (1 + np.exp(-(w[0] + w[1] * s + w[2] * np.arange(1, 6))))
        z = w[5] + (relevance * np.where(c == 1, w[3], w[4])).sum(axis=1)
        h = np.exp(-alpha * rankdata(-z) / len(z))
        assert run.history_[epoch - 1][1] == pytest.approx((h / h.sum() * _bce(z, y)).sum(), rel=1e-9), epoch

"""crocbench.models' IRV (crocbench/models/irv/): its loss, training, optimizers and stop rules."""

import numpy as np
import pytest
import torch
from _synthetic import _split

from crocbench.metrics import roc_auc
from crocbench.models import IRV, irv_loss
from crocbench.similarity import SimilarityIndex


def test_irv_gradients_equal_finite_differences():
    rng = np.random.default_rng(0)
    s = torch.tensor(rng.random((40, 6)))
    c = torch.tensor((rng.random((40, 6)) < 0.3).astype(float))
    y = torch.tensor((rng.random(40) < 0.2).astype(float))
    weights = torch.tensor(rng.random(40))
    w = torch.tensor([0.3, 1.2, -0.2, 0.8, -0.6, -1.0], dtype=torch.float64, requires_grad=True)
    for wt in (None, weights):
        grad = torch.autograd.grad(irv_loss(w, s, c, y, wt), w)[0].numpy()
        h = 1e-6
        numeric = []
        for j in range(6):
            e = torch.zeros(6, dtype=torch.float64)
            e[j] = h
            with torch.no_grad():
                numeric.append((irv_loss(w + e, s, c, y, wt) - irv_loss(w - e, s, c, y, wt)).item() / (2 * h))
        np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_irv_learns_that_active_neighbours_vote_for_activity(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    irv = IRV(k=5).fit(sim, train, y[train])
    assert irv.converged_ and irv.n_epochs_ < irv.max_epochs
    assert irv.weights_["w_1"] > irv.weights_["w_0"]
    losses = [h[1] for h in irv.history_]
    assert losses[-1] < losses[0]
    # the scores are the six-weight formula on the 5 most similar training compounds (brute force, by hand)
    fp_full = data[2]
    w = [irv.weights_[k] for k in ("w_y", "w_s", "w_r", "w_1", "w_0", "w_z")]
    want = []
    for row in test:
        order = sorted(train, key=lambda j: (-np.float32(fp_full[row, j]), j))[:5]
        relevance = 1 / (1 + np.exp(-(w[0] + w[1] * np.float32(fp_full[row, order]) + w[2] * np.arange(1, 6))))
        want.append(w[5] + np.sum(relevance * np.where(y[order] == 1, w[3], w[4])))
    np.testing.assert_allclose(irv.score(sim, test), want, rtol=1e-9, atol=1e-12)
    # converged to a stationary point of the training loss: the gradient is < 1% of the starting one
    _, s, c = irv._inputs(sim, train)
    target = torch.as_tensor(y[train], dtype=torch.float64)
    at = lambda w0: torch.autograd.grad(irv_loss(w0, s, c, target), w0)[0].norm().item()  # noqa: E731
    assert at(irv.w_.clone().requires_grad_(True)) < 0.01 * at(irv._initial(y[train]))


def test_irv_explanation_adds_up_to_the_score(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    irv = IRV(k=5).fit(sim, train, y[train])
    table = irv.explain(sim, int(test[0]), ids=[f"m{i}" for i in range(fp.n)])
    assert list(table["rank"]) == [1, 2, 3, 4, 5] and table["neighbour"].str.startswith("m").all()
    assert irv.weights_["w_z"] + table["influence"].sum() == pytest.approx(irv.score(sim, test[:1])[0])
    assert np.allclose(table["influence"], table["relevance"] * table["vote"])


def test_irv_is_deterministic_and_float32_ranks_alike(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    train, test = _split(y)
    a = IRV(k=5).fit(sim, train, y[train]).score(sim, test)
    b = IRV(k=5).fit(sim, train, y[train]).score(sim, test)
    assert np.array_equal(a, b)
    c = IRV(k=5, dtype="float32").fit(sim, train, y[train]).score(sim, test)
    assert roc_auc(y[test], c) == pytest.approx(roc_auc(y[test], a), abs=0.01)


def test_irv_rprop_is_torch_rprop_bit_for_bit():
    from crocbench.models.irv._optim import Rprop

    rng = np.random.default_rng(0)
    a = torch.as_tensor(rng.normal(size=(40, 6)))
    start = rng.normal(size=6)
    paths = []
    for make in (lambda w: torch.optim.Rprop([w], lr=0.05), lambda w: Rprop(w, lr=0.05)):
        w = torch.tensor(start, requires_grad=True)
        opt = make(w)
        path = []
        for _ in range(60):  # a non-convex loss: signs flip, steps shrink and grow
            opt.zero_grad()
            (torch.sin(a @ w).sum() + 0.1 * (w**4).sum()).backward()
            opt.step()
            path.append(w.detach().clone().numpy())
        paths.append(np.array(path))
    assert np.abs(np.diff(np.sign(np.diff(paths[0], axis=0)), axis=0)).sum() > 0  # some coordinate turned back
    np.testing.assert_array_equal(paths[1], paths[0])


def _irv_problem(seed=0, n=60):
    rng = np.random.default_rng(seed)
    s = torch.tensor(rng.random((n, 5)))
    c = torch.tensor((rng.random((n, 5)) < 0.3).astype(float))
    y = torch.tensor((rng.random(n) < 0.25).astype(float))
    return s, c, y


def _numeric_gradient(f, w, h=1e-6):
    out = []
    for j in range(w.numel()):
        e = torch.zeros_like(w)
        e[j] = h
        out.append((f(w + e) - f(w - e)) / (2 * h))
    return torch.tensor(out, dtype=w.dtype)


def test_irv_gradient_descent_first_steps_by_hand():
    from crocbench.models.irv._optim import GD

    s, c, y = _irv_problem()
    f = lambda v: irv_loss(v, s, c, y).item()  # noqa: E731
    start = torch.tensor([0.0, 1.0, -0.1, 1.0, -1.0, -1.1], dtype=torch.float64)
    g0 = _numeric_gradient(f, start)
    for momentum in (0.0, 0.9):
        w = start.clone().requires_grad_(True)
        opt = GD(w, lr=0.5, momentum=momentum)
        opt.zero_grad()
        irv_loss(w, s, c, y).backward()
        opt.step()  # noqa: E702
        w1 = start - 0.5 * g0  # the first step: v = g0 either way
        np.testing.assert_allclose(w.detach().numpy(), w1.numpy(), rtol=1e-7, atol=1e-9)
        g1 = _numeric_gradient(f, w1)
        opt.zero_grad()
        irv_loss(w, s, c, y).backward()
        opt.step()  # noqa: E702
        w2 = w1 - 0.5 * (momentum * g0 + g1)
        np.testing.assert_allclose(w.detach().numpy(), w2.numpy(), rtol=1e-6, atol=1e-8)


def test_irv_rprop_step_sizes_follow_the_gradient_signs_by_hand():
    from crocbench.models.irv._optim import Rprop

    w = torch.tensor([1.0, -1.0, 0.3], dtype=torch.float64, requires_grad=True)
    opt = Rprop(w, lr=0.1)
    target = torch.tensor([0.0, -1.1, 0.25], dtype=torch.float64)  # gradients 2 (w - target)
    expected = [
        [0.9, -1.1, 0.2],  # first step: -0.1 sign(g) everywhere (g = 2, 0.2, 0.1)
        [0.78, -1.1, 0.2],
    ]  # x: same sign, step 0.12; y: g = 0 (w at target), no step; z: flipped, none
    for want in expected:
        opt.zero_grad()
        ((w - target) ** 2).sum().backward()
        opt.step()
        np.testing.assert_allclose(w.detach().numpy(), want, atol=1e-12)
    assert opt.step_size.tolist() == pytest.approx([0.12, 0.1, 0.05])  # x1.2, unchanged (g = 0), x0.5


def test_irv_lbfgs_first_step_is_a_backtracked_gradient_step_and_it_solves_a_quadratic():
    from crocbench.models.irv._optim import LBFGS

    a = torch.diag(torch.tensor([1.0, 4.0, 9.0], dtype=torch.float64))
    b = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    f = lambda v: float(0.5 * v @ a @ v - b @ v)  # noqa: E731
    w = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    opt = LBFGS(w, lr=1.0)
    opt.zero_grad()
    (0.5 * w @ a @ w - b @ w).backward()
    opt.step(f)  # noqa: E702
    # by hand: g = -b, d = b; t = 1: f(b) = 0.5 (1 + 16 + 2.25) - (1 + 4 + 0.25) = 4.375 > 0 - 1e-4 |b|^2: halve;
    # t = 0.5: f = 0.25 * 9.625 - 0.5 * 5.25 = -0.21875 <= -0.5e-4 * 5.25: accepted
    np.testing.assert_allclose(w.detach().numpy(), 0.5 * b.numpy())
    for _ in range(30):
        opt.zero_grad()
        (0.5 * w @ a @ w - b @ w).backward()
        opt.step(f)  # noqa: E702
    np.testing.assert_allclose(w.detach().numpy(), torch.linalg.solve(a, b).numpy(), atol=1e-8)


def test_irv_stop_rules_on_scripted_series():
    from crocbench.models.irv._optim import stopped

    loss = [1.0, 0.8, 0.7, 0.65, 0.64995, 0.64994]
    assert [stopped(loss[:e], window=2, tol=1e-3) for e in range(1, 7)] == [False] * 5 + [True]
    croc = [0.1, 0.3, 0.35, 0.3505, 0.351]
    assert [stopped(croc[:e], window=1, tol=1e-3, relative=False) for e in range(1, 6)] == [False] * 3 + [True] * 2
    irv = IRV(stop="unweighted_loss", window=2, tol=1e-3)
    irv.history_ = [(e, v, float("nan")) for e, v in enumerate([5.0, 4.0, 3.0], 1)]  # the weighted loss moves
    irv.unweighted_history_ = [0.7, 0.70001, 0.70002]
    assert irv._settled() and not IRV(window=2, tol=1e-3)._replace_history(irv.history_)._settled()
    tracked = IRV(stop="train_croc", window=1, croc_tol=1e-3)._replace_history([(1, 9.0, 0.3), (2, 1.0, 0.3005)])
    assert tracked._settled()
    for bad in ({"optimizer": "adam"}, {"stop": "auc"}, {"lr": 0}, {"momentum": 1.0}):
        with pytest.raises(ValueError):
            IRV(**bad)


def test_irv_trains_with_every_optimizer_and_stop_rule():
    s, c, y = _irv_problem(1, 200)
    first = irv_loss(IRV()._initial(y.numpy()), s, c, y).item()
    for optimizer, lr in (("rprop", 1.0), ("gd", 2.0), ("gd_momentum", 0.5), ("lbfgs", 1.0)):
        for stop in ("loss", "unweighted_loss", "train_croc"):
            irv = IRV(optimizer=optimizer, lr=lr, stop=stop, max_epochs=400)
            irv._train(s, c, y.numpy())
            assert irv.history_[-1][1] < first, (optimizer, stop)  # the loss fell
            assert irv.info()["optimizer"] == optimizer and irv.info()["stop"] == stop


def test_irv_lbfgs_direction_is_the_bfgs_matrix_and_backtracking_needs_sufficient_decrease():
    from crocbench.models.irv._optim import LBFGS

    rng = np.random.default_rng(4)
    opt = LBFGS(torch.zeros(4, dtype=torch.float64))
    pairs = []
    for _ in range(2):
        s_, y_ = rng.normal(size=4), rng.normal(size=4)
        if s_ @ y_ < 0:
            y_ = -y_
        pairs.append((s_, y_))
        opt.pairs.append((torch.tensor(s_), torch.tensor(y_), 1.0 / float(s_ @ y_)))
    # textbook BFGS: H0 = gamma I (gamma = s.y / y.y of the newest pair), H <- V' H V + rho s s', V = I - rho y s'
    s_, y_ = pairs[-1]
    h = np.eye(4) * (s_ @ y_) / (y_ @ y_)
    for s_, y_ in pairs:
        rho = 1.0 / (s_ @ y_)
        v = np.eye(4) - rho * np.outer(y_, s_)
        h = v.T @ h @ v + rho * np.outer(s_, s_)
    g = rng.normal(size=4)
    np.testing.assert_allclose(opt.direction(torch.tensor(g)).numpy(), -h @ g, rtol=1e-10)
    # f = |w|^2 / 2 - b.w from 0 with first trial step t = 1.99995: f falls (by 5e-5 |b|^2), but by less than
    # 1e-4 t |b|^2 (Armijo): halved once, to 0.999975
    b = torch.tensor([1.0, 2.0], dtype=torch.float64)
    w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    step = LBFGS(w, lr=1.99995)
    step.zero_grad()
    (0.5 * w @ w - b @ w).backward()
    step.step(lambda v: float(0.5 * v @ v - b @ v))  # noqa: E702
    np.testing.assert_allclose(w.detach().numpy(), 0.999975 * b.numpy())

"""mlp: the same network trained by a plain torch loop written here (a dense first layer, torch's default Adam)
gives the same scores to float32 rounding, plain and reweighted, and stops early where that loop's held-out average
precision (scikit-learn's) says; the reweighting is the IRV's (exp at alpha 0 is plain cross-entropy) and it changes
the fit."""

import numpy as np
import pytest
import torch
from _synthetic import synthetic_ecfp
from sklearn.metrics import average_precision_score

from crocbench.models import Reweighting, inner_split, make_model, seed_state


@pytest.fixture(scope="module")
def data():
    sim, y = synthetic_ecfp(n=300, frac=0.15, shared=6)
    train, test = np.flatnonzero(np.arange(sim.n) % 3 != 0), np.flatnonzero(np.arange(sim.n) % 3 == 0)
    return sim, y, train, test


def _by_hand(x_train, y, x_test, seed, epochs, scheme="none", hidden=(32,), batch=16, lr=1e-3, decay=1e-5, held=None):
    """The documented training, step by step: Adam on seeded mini-batches, the loss weighted by the scheme. With
    ``held = (x, y)``, also the held-out average precision after each epoch."""
    torch.set_num_threads(1)
    torch.manual_seed(seed_state(seed))
    layers, width = [], x_train.shape[1]
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU(), torch.nn.Dropout(0.2)]
        width = h
    net = torch.nn.Sequential(*layers, torch.nn.Linear(width, 1))
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=decay)
    gen = torch.Generator().manual_seed(seed_state(seed))
    xt, yt = torch.from_numpy(x_train.toarray()), torch.tensor(y, dtype=torch.float32)
    weight, precision = torch.ones(len(y)), []
    for epoch in range(1, epochs + 1):
        net.train()
        order = torch.randperm(len(y), generator=gen)
        for i in range(0, len(y), batch):
            b = order[i : i + batch]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                net(xt[b]).squeeze(1), yt[b], weight=weight[b], reduction="sum"
            ) / len(b)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if held is not None:
            net.eval()
            with torch.no_grad():
                precision.append(average_precision_score(held[1], net(torch.from_numpy(held[0].toarray())).squeeze(1)))
        if scheme != "none" and epoch < epochs:
            net.eval()
            with torch.no_grad():
                current = net(xt).squeeze(1).double().numpy()
            weight = torch.tensor(Reweighting(scheme).weights(current, epoch) * len(y), dtype=torch.float32)
    net.eval()
    with torch.no_grad():
        scores = net(torch.from_numpy(x_test.toarray())).squeeze(1).double().numpy()
    return scores if held is None else (scores, precision)


@pytest.mark.parametrize("scheme, counts", [("none", False), ("exp", False), ("power", False), ("none", True)])
def test_mlp_equals_the_torch_loop_written_out(data, scheme, counts):
    sim, y, train, test = data
    params = {"hidden": [32], "epochs": 3, "batch_size": 16, "reweight": scheme, "counts": counts, "patience": None}
    model = make_model("mlp", params, seed=(0, 5), n_jobs=1).fit(sim, train, y[train])
    expected = _by_hand(sim.ecfp(train, counts=counts), y[train], sim.ecfp(test, counts=counts), (0, 5), 3, scheme)
    assert np.allclose(model.score(sim, test), expected, rtol=1e-5, atol=1e-5)
    assert len(model.info()["loss"]) == 3 and model.info()["reweight"] == scheme and model.info()["best_epoch"] == 3


@pytest.mark.parametrize("scheme", ["none", "exp"])
def test_early_stopping_keeps_the_epoch_the_held_out_share_ranks_best(data, scheme):
    """The held-out share is inner_split's; each epoch's value is scikit-learn's average precision of the loop written
    out; the run stops ``patience`` epochs after the first best one, and scores as the loop stopped there scores."""
    sim, y, train, test = data
    fit, held = inner_split(y[train], 0.1, (0, 5, 1))
    x = sim.ecfp(train[fit])
    held_out = (sim.ecfp(train[held]), y[train][held])
    _, precision = _by_hand(x, y[train][fit], sim.ecfp(test), (0, 5), 12, scheme, held=held_out)
    best = int(np.argmax(precision)) + 1  # the first best epoch
    assert best + 2 <= 12, "the data must stop the run before its last epoch for the test to mean something"
    params = {"hidden": [32], "epochs": 12, "batch_size": 16, "patience": 2, "reweight": scheme}
    model = make_model("mlp", params, seed=(0, 5), n_jobs=1)
    info = model.fit(sim, train, y[train]).info()
    assert info["best_epoch"] == best and len(info["loss"]) == best + 2 and info["stop_metric"] == "average_precision"
    assert np.allclose(info["stop_values"], precision[: best + 2], rtol=0, atol=1e-5)
    expected = _by_hand(x, y[train][fit], sim.ecfp(test), (0, 5), best, scheme)
    assert np.allclose(model.score(sim, test), expected, rtol=1e-5, atol=1e-5)


def test_exp_at_alpha_zero_is_plain_cross_entropy_and_alpha_twenty_is_not(data):
    sim, y, train, test = data
    scores = {
        alpha: make_model(
            "mlp", {"hidden": [16], "epochs": 3, "reweight": "exp", "alpha": alpha, "patience": None}, seed=(1, 1)
        )
        .fit(sim, train, y[train])
        .score(sim, test)
        for alpha in (0.0, 20.0)
    }
    plain = (
        make_model("mlp", {"hidden": [16], "epochs": 3, "patience": None}, seed=(1, 1))
        .fit(sim, train, y[train])
        .score(sim, test)
    )
    assert np.allclose(scores[0.0], plain, rtol=0, atol=1e-5)
    assert not np.allclose(scores[20.0], plain, rtol=0, atol=1e-3)


def test_the_same_seed_gives_the_same_bits_and_another_seed_does_not(data):
    sim, y, train, test = data
    runs = [
        make_model("mlp", {"hidden": [16], "epochs": 2}, seed=s, n_jobs=2).fit(sim, train, y[train]).score(sim, test)
        for s in [(0, 1), (0, 1), (0, 2)]
    ]
    assert np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[0], runs[2])


@pytest.mark.parametrize(
    "params, message",
    [
        ({"reweight": "steep"}, "unknown reweighting scheme 'steep'"),
        ({"dropout": 1.0}, r"dropout must lie in \[0, 1\)"),
        ({"hidden": [0]}, "hidden widths, epochs and batch_size must be >= 1"),
        ({"alpha": -1.0}, "alphas must be >= 0"),
        ({"patience": 0}, "patience must be >= 1 or null"),
        ({"stop_fraction": 0.7}, r"stop_fraction must lie in \(0, 0.5\]"),
    ],
)
def test_bad_parameters_stop_in_one_line_naming_the_entry(params, message):
    with pytest.raises(ValueError, match=f"model mlp: {message}"):
        make_model("mlp", params)

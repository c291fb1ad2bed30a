"""mlp: the same network trained by a plain torch loop written here (a dense first layer, torch's default Adam)
gives the same scores to float32 rounding, plain and reweighted; the reweighting is the IRV's (exp at alpha 0 is plain cross-entropy) and it changes the fit."""

import numpy as np
import pytest
import torch
from _synthetic import synthetic_ecfp

from crocbench.models import Reweighting, make_model, seed_state


@pytest.fixture(scope="module")
def data():
    sim, y = synthetic_ecfp(n=300, frac=0.15, shared=6)
    train, test = np.flatnonzero(np.arange(sim.n) % 3 != 0), np.flatnonzero(np.arange(sim.n) % 3 == 0)
    return sim, y, train, test


def _by_hand(x_train, y, x_test, seed, epochs, scheme="none", hidden=(32,), batch=16, lr=1e-3, decay=1e-5):
    """The documented training, step by step: Adam on seeded mini-batches, the loss weighted by the scheme."""
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
    weight = torch.ones(len(y))
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
        if scheme != "none" and epoch < epochs:
            net.eval()
            with torch.no_grad():
                current = net(xt).squeeze(1).double().numpy()
            weight = torch.tensor(Reweighting(scheme).weights(current, epoch) * len(y), dtype=torch.float32)
    net.eval()
    with torch.no_grad():
        return net(torch.from_numpy(x_test.toarray())).squeeze(1).double().numpy()


@pytest.mark.parametrize("scheme, counts", [("none", False), ("exp", False), ("power", False), ("none", True)])
def test_mlp_equals_the_torch_loop_written_out(data, scheme, counts):
    sim, y, train, test = data
    params = {"hidden": [32], "epochs": 3, "batch_size": 16, "reweight": scheme, "counts": counts}
    model = make_model("mlp", params, seed=(0, 5), n_jobs=1).fit(sim, train, y[train])
    expected = _by_hand(sim.ecfp(train, counts=counts), y[train], sim.ecfp(test, counts=counts), (0, 5), 3, scheme)
    assert np.allclose(model.score(sim, test), expected, rtol=1e-5, atol=1e-5)
    assert len(model.info()["loss"]) == 3 and model.info()["reweight"] == scheme


def test_exp_at_alpha_zero_is_plain_cross_entropy_and_alpha_twenty_is_not(data):
    sim, y, train, test = data
    scores = {
        alpha: make_model("mlp", {"hidden": [16], "epochs": 3, "reweight": "exp", "alpha": alpha}, seed=(1, 1))
        .fit(sim, train, y[train])
        .score(sim, test)
        for alpha in (0.0, 20.0)
    }
    plain = make_model("mlp", {"hidden": [16], "epochs": 3}, seed=(1, 1)).fit(sim, train, y[train]).score(sim, test)
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
    ],
)
def test_bad_parameters_stop_in_one_line_naming_the_entry(params, message):
    with pytest.raises(ValueError, match=f"model mlp: {message}"):
        make_model("mlp", params)

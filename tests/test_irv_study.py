"""The IRV training study (issue 23): every stop rule read off one trajectory equals training with that rule."""

import numpy as np
import pandas as pd
import pytest
import torch

from crocbench.metrics import croc_auc, roc_auc
from crocbench.models import IRV, irv_terms
from crocbench.paper._irv_study import optimizer_settings, study_fold


def _inputs(seed, n):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(np.int8)
    s = torch.tensor(np.sort(rng.random((n, 6)), axis=1)[:, ::-1].copy())
    c = torch.tensor((rng.random((n, 6)) < 0.15 + 0.5 * y[:, None]).astype(float))
    return (s, c), y


def test_each_stop_rule_read_off_one_trajectory_equals_training_with_it():
    train, y = _inputs(0, 150)
    test, _ = _inputs(1, 40)
    settings = optimizer_settings([{"optimizer": "rprop"}, {"optimizer": "gd", "lr": 3.0}, {"optimizer": "lbfgs"}])
    lines = []
    runs, curve = study_fold(
        train,
        y,
        test,
        settings,
        ["none", "power"],
        max_epochs=150,
        window=5,
        tol=1e-4,
        croc_tol=1e-3,
        curve_epochs=(1, 5, 20),
        progress=lines.append,
    )
    assert len(runs) == 3 * 2 * 3
    assert len(lines) == 3 * 2  # one progress line per trajectory, naming when each rule fired
    for line, trio in zip(lines, [runs[i : i + 3] for i in range(0, len(runs), 3)]):
        assert line.startswith(f"{trio[0]['setting']} / {trio[0]['scheme']}: ")
        assert line.endswith(", ".join(f"{r['stop']} {r['epochs'] if r['converged'] else 'never'}" for r in trio))
    for run in runs:
        setting = next(s for s in settings if s["name"] == run["setting"])
        irv = IRV(
            optimizer=setting["optimizer"],
            lr=setting["lr"],
            reweight=run["scheme"],
            stop=run["stop"],
            max_epochs=150,
            window=5,
            tol=1e-4,
            croc_tol=1e-3,
        )
        irv._train(*train, y)
        assert (run["epochs"], run["converged"]) == (irv.n_epochs_, irv.converged_), run["setting"]
        np.testing.assert_array_equal(run["scores"], irv_terms(irv.w_, *test)[2].double().numpy())
    assert {r["stop"] for r in runs if r["converged"]} == {"loss", "unweighted_loss", "train_croc"}
    for point in [p for p in curve if p["scheme"] == "power" and p["setting"] == "gd lr=3"]:
        irv = IRV(optimizer="gd", lr=3.0, reweight="power", max_epochs=point["epoch"], tol=0.0)
        irv._train(*train, y)  # exactly that many steps
        z = irv_terms(irv.w_, *train)[2].double().numpy()
        assert point["train_roc"] == pytest.approx(roc_auc(y, z), abs=1e-12)
        assert point["train_croc_exp_80"] == pytest.approx(croc_auc(y, z, alpha=80.0), abs=1e-12)
    assert sorted({p["epoch"] for p in curve}) == [1, 5, 20]


def test_optimizer_settings_expand_learning_rates_and_refuse_repeats():
    settings = optimizer_settings([{"optimizer": "gd_momentum", "lr": [0.1, 1], "momentum": 0.5}])
    assert [(s["name"], s["lr"], s["momentum"]) for s in settings] == [
        ("gd_momentum lr=0.1", 0.1, 0.5),
        ("gd_momentum lr=1", 1.0, 0.5),
    ]
    with pytest.raises(ValueError, match="repeat"):
        optimizer_settings([{"optimizer": "gd", "lr": 1}, {"optimizer": "gd", "lr": 1.0}])


def test_a_configured_study_fold_trains_the_workflow_irv_on_the_fold():
    """run_study_fold (the workflow's study job and benchmarks/studies/irv_optimizers.py): its Rprop, no reweighting,
    loss-rule run is the IRV model of the same config fitted by score_fold, score for score."""
    from _synthetic import synthetic

    from crocbench.cv import fold_table, score_fold
    from crocbench.paper._irv_study import run_study_fold
    from crocbench.similarity import SimilarityIndex

    fp, y = synthetic(n=240, frac=0.15, seed=2, shared=6)
    folds = fold_table([f"m{i}" for i in range(y.size)], y, 4, 1)
    sim = SimilarityIndex(fp)
    irv = {"k": 5, "window": 4, "tol": 1e-3, "max_epochs": 400}
    study = {
        "optimizers": [{"optimizer": "rprop"}, {"optimizer": "gd", "lr": 1.0}],
        "schemes": ["none", "exp"],
        "max_epochs": 400,
    }
    runs, curve, rows = run_study_fold(sim, folds, 2, study, irv, {"alpha": 20.0})
    expected = score_fold(IRV(**irv), sim, folds, 2)
    pd.testing.assert_frame_equal(rows, expected.drop(columns="score"))
    run = next(r for r in runs if (r["setting"], r["scheme"], r["stop"]) == ("rprop", "none", "loss"))
    assert run["converged"] and run["epochs"] < 400
    np.testing.assert_allclose(run["scores"], expected["score"].to_numpy(), rtol=0, atol=1e-12)
    assert len(runs) == 2 * 2 * 3 and {p["setting"] for p in curve} == {"rprop", "gd lr=1"}

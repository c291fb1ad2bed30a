"""Does rank-reweighting speed up the IRV's training? Every (optimizer, stop rule) x reweighting scheme on one fold.

The paper's Appendix A counts epochs "by gradient descent": 101 unweighted, 42 with 1/r, 33 with g(r)/r, 4-8 with
exponential weights. Whether that holds depends on the optimizer (Rprop, the IRV's default, adapts its steps from
the gradient's signs alone) and on what convergence watches. :func:`study_fold` trains one trajectory per
(optimizer setting, scheme) and reads every stop rule off it: the epoch each rule fires (with the weights then,
which score the fold's test compounds), and the training ranking's metrics after set epochs.
"""

from __future__ import annotations

import numpy as np

from ..cv import fold_rows
from ..metrics import croc_auc, roc_auc
from ..models import IRV, irv_terms
from ..models.irv._optim import STOPS, stop_fires

#: Epochs after which the training ranking's metrics are tabulated (the appendix gives them "after one iteration").
CURVE_EPOCHS = (1, 5, 10, 25, 50, 100)


def optimizer_settings(entries) -> list[dict]:
    """The optimizer set-ups of a study: each entry ``{optimizer, lr (a number or a list), momentum}`` expanded over
    its learning rates, each named (e.g. ``"gd lr=2"``; Rprop by its name alone: it has no learning rate).

    Examples
    --------
    >>> [s["name"] for s in optimizer_settings([{"optimizer": "rprop"}, {"optimizer": "gd", "lr": [0.5, 2]}])]
    ['rprop', 'gd lr=0.5', 'gd lr=2']
    """
    out = []
    for entry in entries:
        entry = dict(entry)
        optimizer = entry.pop("optimizer")
        lrs = entry.pop("lr", 1.0)
        for lr in lrs if isinstance(lrs, (list, tuple)) else [lrs]:
            name = optimizer if optimizer == "rprop" else f"{optimizer} lr={lr:g}"
            out.append({"name": name, "optimizer": optimizer, "lr": float(lr), **entry})
    names = [s["name"] for s in out]
    if len(set(names)) != len(names):
        raise ValueError(f"optimizer settings repeat: {names}")
    return out


def run_study_fold(data, folds, fold: int, study: dict, irv: dict, reweighting: dict, progress=None) -> tuple:
    """The study on one outer fold, as configured: ``(runs, curve, rows)``.

    ``study`` is the config's ``irv_sensitivity`` (optimizers, schemes, max_epochs), ``irv`` the
    ``models: irv`` entry (k, dtype, and the stop rules' window, tol, croc_tol), ``reweighting`` the schemes'
    parameters (``irv_training`` without its scheme list).  The fold's training compounds' neighbours are
    taken among the training compounds alone, as the IRV's fit does; ``rows`` is the test compounds' table
    (:func:`~crocbench.cv.fold_rows`), in the order of each run's ``scores``.
    """
    y, train, test, rows = fold_rows(data, folds, fold)
    model = IRV(k=irv.get("k", 20), dtype=irv.get("dtype", "float64"))
    model.train_, model.y_ = train, y[train].astype(np.int8)
    train_inputs, test_inputs = model._inputs(data, train)[1:], model._inputs(data, test)[1:]
    runs, curve = study_fold(
        train_inputs,
        model.y_,
        test_inputs,
        optimizer_settings(study["optimizers"]),
        study["schemes"],
        max_epochs=study["max_epochs"],
        window=irv.get("window", 10),
        tol=irv.get("tol", 1e-4),
        croc_tol=irv.get("croc_tol", 1e-3),
        progress=progress,
        **reweighting,
    )
    return runs, curve, rows


def study_fold(
    train_inputs,
    y,
    test_inputs,
    settings,
    schemes,
    *,
    max_epochs: int = 1000,
    window: int = 10,
    tol: float = 1e-4,
    croc_tol: float = 1e-3,
    curve_epochs=CURVE_EPOCHS,
    progress=None,
    **reweighting,
) -> tuple:
    """Every optimizer setting x scheme on one fold, every stop rule read off one trajectory each.

    Parameters
    ----------
    train_inputs, test_inputs : (s, c)
        Neighbour similarities and classes (torch tensors, (n, k)) of the training and the test compounds.
    y : ndarray of 0/1
        Training labels.
    settings : list of dict
        From :func:`optimizer_settings`.
    schemes : list of str
        Reweighting schemes (``crocbench.models.SCHEMES``); ``reweighting`` passes their parameters.
    progress : callable, optional
        Called after each trajectory with one line (setting, scheme, epochs run, the epoch each rule fired).

    Returns
    -------
    runs : list of dict
        Per (setting, scheme, stop): ``epochs`` (when the rule fired, or the epochs run if it never did),
        ``converged`` and ``scores`` (the test compounds' logits with the weights of that epoch).
    curve : list of dict
        Per (setting, scheme, epoch in ``curve_epochs`` reached): the training ranking's AUC[ROC] and
        AUC[CROC(exp)] a=80 after that many epochs, and the weighted and unweighted training losses.
    """
    s, c = train_inputs
    wanted = set(curve_epochs)
    runs, curve = [], []
    for setting in settings:
        for scheme in schemes:
            irv = IRV(
                reweight=scheme,
                optimizer=setting["optimizer"],
                lr=setting["lr"],
                momentum=setting.get("momentum", 0.9),
                max_epochs=max_epochs,
                window=window,
                tol=tol,
                croc_tol=croc_tol,
                **reweighting,
            )
            series = {"loss": [], "unweighted_loss": [], "train_croc": []}
            fired, weights = {}, {}
            for epoch, w, scores, loss, unweighted in irv.epochs(s, c, y):
                # as IRV._train: the series hold the state before this epoch's step (scores, losses), a rule that
                # fires stops training after the step, and the model is then the weights after `epoch` steps
                croc = croc_auc(y, scores, alpha=80.0)
                if epoch - 1 in wanted:  # the training ranking after epoch - 1 steps
                    curve.append(
                        {
                            "setting": setting["name"],
                            "scheme": scheme,
                            "epoch": epoch - 1,
                            "train_roc": roc_auc(y, scores),
                            "train_croc_exp_80": croc,
                            "loss": loss,
                            "unweighted_loss": unweighted,
                        }
                    )
                for name, value in (("loss", loss), ("unweighted_loss", unweighted), ("train_croc", croc)):
                    series[name].append(value)
                    if name not in fired and stop_fires(name, series[name], window, tol, croc_tol):
                        fired[name], weights[name] = epoch, w.detach().clone()
                if len(fired) == len(STOPS) and epoch > max(wanted):
                    break
            if progress is not None:
                progress(
                    f"{setting['name']} / {scheme}: {epoch} epochs run; stopped at "
                    + ", ".join(f"{stop} {fired.get(stop, 'never')}" for stop in STOPS)
                )
            for stop in STOPS:
                runs.append(
                    {
                        "setting": setting["name"],
                        "scheme": scheme,
                        "stop": stop,
                        "epochs": fired.get(stop, epoch),
                        "converged": stop in fired,
                        "scores": irv_terms(weights.get(stop, w.detach()), *test_inputs)[2].double().numpy(),
                    }
                )
    return runs, curve

"""The IRV's tables: training with rank reweighting (the paper's Appendix A) and the optional training study
(every optimizer setting and stop rule x reweighting scheme, target ``irv_sensitivity``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics import HEADLINE
from ._format import markdown_table
from ._tables import pooled_metrics


def irv_training_table(runs: dict, top=1000, paper_epochs: dict | None = None) -> pd.DataFrame:
    """One row per reweighting scheme.

    Parameters
    ----------
    runs : dict
        scheme -> (pooled scores DataFrame, list of per-fold fit records (``IRV.info()``),
        list of per-fold seconds)
    top : int or float
        The cut-off of "actives in the top k" (:func:`crocbench.metrics.top_cutoff`).
    paper_epochs : dict or None
        ``{scheme: epochs}`` a paper reports (:func:`crocbench.paper.paper_irv_epochs`, where the dataset
        reproduces it): a ``paper_epochs`` column after the metrics. None (a user's own dataset): no such column.

    Returns
    -------
    DataFrame
        scheme, epochs_mean, epochs_per_fold, converged_folds, the pooled metrics, [paper_epochs,] train_seconds.
    """
    rows = []
    for scheme, (scores, infos, seconds) in runs.items():
        epochs = [int(i["epochs"]) for i in infos]
        rows.append(
            {
                "scheme": scheme,
                "epochs_mean": float(np.mean(epochs)),
                "epochs_per_fold": "/".join(map(str, epochs)),
                "converged_folds": int(sum(bool(i["converged"]) for i in infos)),
                **pooled_metrics(scores, top=top),
                **({"paper_epochs": paper_epochs.get(scheme, "")} if paper_epochs is not None else {}),
                "train_seconds": float(np.sum(seconds)),
            }
        )
    return pd.DataFrame(rows)


# --- the IRV training study (optional target irv_sensitivity) ------------------------------------------------


def irv_study_table(scores: pd.DataFrame, runs: pd.DataFrame, top=1000) -> pd.DataFrame:
    """Per (optimizer setting, scheme, stop rule): epochs over the folds and the pooled test metrics.

    Parameters
    ----------
    scores : DataFrame
        Test scores of every fold: setting, scheme, stop, id, fold, label, score.
    runs : DataFrame
        One row per (fold, setting, scheme, stop): epochs, converged.

    Returns
    -------
    DataFrame
        setting, scheme, stop, epochs_mean, epochs_min, epochs_max, converged_folds, folds, the pooled
        AUC[ROC] and AUC[CROC(exp)] a=7/14/80 (:data:`crocbench.metrics.HEADLINE`) and the
        actives in the top k (``top``).
    """
    keys = ["setting", "scheme", "stop"]
    epochs = (
        runs.groupby(keys, sort=False)
        .agg(
            epochs_mean=("epochs", "mean"),
            epochs_min=("epochs", "min"),
            epochs_max=("epochs", "max"),
            converged_folds=("converged", "sum"),
            folds=("epochs", "size"),
        )
        .reset_index()
    )
    rows = []
    for key, part in scores.groupby(keys, sort=False):
        rows.append(dict(zip(keys, key)) | pooled_metrics(part, HEADLINE, top))
    metrics = pd.DataFrame(rows)
    hits = [c for c in metrics.columns if c.startswith("top")]
    return epochs.merge(metrics.rename(columns={hits[0]: "top_hits"}) if hits else metrics, on=keys, how="left")


def irv_study_closest(table: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """Per (setting, stop rule): how far its mean epochs per scheme are from the paper's Appendix A counts (the
    mean of ``|log(ours / paper)|`` over the schemes the paper gives; "4-8" counts as 6), closest first.

    ``paper`` is ``{scheme: epochs}`` as :func:`crocbench.paper.paper_irv_epochs` gives it."""
    counts = {s: float(np.mean([float(x) for x in v.split("-")])) for s, v in paper.items()}
    rows = []
    for (setting, stop), part in table.groupby(["setting", "stop"], sort=False):
        ours = part.set_index("scheme")["epochs_mean"]
        common = [s for s in counts if s in ours.index]
        if common:
            rows.append(
                {
                    "setting": setting,
                    "stop": stop,
                    "log_distance": float(np.mean([abs(np.log(ours[s] / counts[s])) for s in common])),
                    **{f"epochs_{s}": float(ours[s]) for s in common},
                }
            )
    return pd.DataFrame(rows).sort_values("log_distance", kind="stable").reset_index(drop=True)


def irv_study_markdown(table: pd.DataFrame, curve: pd.DataFrame, closest: pd.DataFrame, paper: dict) -> str:
    """The study as Markdown: the paper's counts beside the closest set-ups, then one table per stop rule, then
    the training curve (mean over the folds of the training ranking's AUC[CROC(exp)] a=80 after each tabulated
    epoch). ``paper`` is ``{scheme: epochs}`` (:func:`crocbench.paper.paper_irv_epochs`)."""
    parts = [
        "The paper (Appendix A): "
        + ", ".join(f"{s} {v} epochs" for s, v in paper.items())
        + "; final AUC[CROC(exp)] a=80 about 0.396.",
        "## Closest to the paper's epoch counts (mean |log(ours / paper)| over its schemes)\n\n"
        + markdown_table(closest.head(8), digits=2),
    ]
    hits = "top_hits" if "top_hits" in table.columns else None
    for stop, part in table.groupby("stop", sort=False):
        cells = pd.DataFrame(
            {
                "optimizer": part["setting"],
                "scheme": part["scheme"],
                "epochs (mean, min-max)": [
                    f"{m:.1f} ({lo}-{hi})"
                    for m, lo, hi in zip(part["epochs_mean"], part["epochs_min"], part["epochs_max"])
                ],
                "converged folds": [f"{c}/{f}" for c, f in zip(part["converged_folds"], part["folds"])],
                "AUC[ROC]": part["roc"],
                "AUC[CROC(exp)] a=80": part["croc_exp_80"],
                **({"actives in top k": part[hits]} if hits else {}),
            }
        )
        parts.append(f"## Stop rule: {stop}\n\n" + markdown_table(cells))
    wide = curve.groupby(["setting", "scheme", "epoch"], sort=False)["train_croc_exp_80"].mean().unstack("epoch")
    wide.columns = [f"after {e}" for e in wide.columns]
    parts.append(
        "## Training AUC[CROC(exp)] a=80 after n epochs (mean over the folds)\n\n"
        + markdown_table(wide.reset_index().rename(columns={"setting": "optimizer"}))
    )
    return "\n\n".join(parts)

"""The IRV's tables: training with rank reweighting (the paper's Appendix A) and the optional training study
(every optimizer setting and stop rule x reweighting scheme, target ``irv_sensitivity``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics._panel import HEADLINE_KEYS
from ._claims import Claim
from ._format import markdown_table
from ._published import PAPER, load_published, paper_irv_epochs
from ._tables import pooled_metrics


def irv_training_table(runs: dict, top=1000, paper: str | None = None) -> pd.DataFrame:
    """One row per reweighting scheme.

    Parameters
    ----------
    runs : dict
        scheme -> (pooled scores DataFrame, list of per-fold fit records (``IRV.info()``),
        list of per-fold seconds)
    top : int or float
        The cut-off of "actives in the top k" (:func:`crocbench.metrics.top_cutoff`).
    paper : str or None
        The paper the dataset reproduces (its ``reproduces:`` in config.yaml, :data:`PAPER`): a
        ``paper_epochs`` column (after the metrics) then gives the epochs its Appendix A reports for each
        scheme.  None (a user's own dataset): no paper column.
    """
    if paper is not None and paper != PAPER:
        raise ValueError(f"no published numbers for paper {paper!r}; published.yaml holds {PAPER!r}")
    rows, paper_epochs = [], paper_irv_epochs() if paper else None
    for scheme, (scores, infos, seconds) in runs.items():
        epochs = [int(i["epochs"]) for i in infos]
        rows.append(
            {
                "scheme": scheme,
                "epochs_mean": float(np.mean(epochs)),
                "epochs_per_fold": "/".join(map(str, epochs)),
                "converged_folds": int(sum(bool(i["converged"]) for i in infos)),
                **pooled_metrics(scores, top=top),
                **({"paper_epochs": paper_epochs.get(scheme, "")} if paper else {}),
                "train_seconds": float(np.sum(seconds)),
            }
        )
    return pd.DataFrame(rows)


def irv_training_claims(table: pd.DataFrame, others: dict | None = None, published: dict | None = None) -> list[Claim]:
    """The paper's Appendix A claims (``published.yaml``, ``appendix_claims``) checked on a training table.

    Parameters
    ----------
    table : DataFrame
        :func:`irv_training_table`'s output.
    others : dict or None
        Model names (``svm``, ``knn``) -> their pooled metrics dicts (:func:`pooled_metrics`).
    published : dict or None
        :func:`load_published`'s content (read when None).

    Returns
    -------
    list of Claim
        One per Appendix A claim, as :func:`check_claims`; ``holds`` is None (evidence "not run") when
        the table lacks what a claim needs.
    """
    published = published or load_published()
    t = table.set_index("scheme")
    have = set(t.index)

    def epochs(s):
        return t.loc[s, "epochs_mean"]

    def croc(s):
        return t.loc[s, "croc_exp_80"]

    checks = {  # id: (schemes needed, test, evidence)
        "power_faster": (
            ["none", "power"],
            lambda: epochs("power") < epochs("none"),
            lambda: f"{epochs('power'):.1f} vs {epochs('none'):.1f} epochs",
        ),
        "density_faster": (
            ["power", "power_density"],
            lambda: epochs("power_density") < epochs("power"),
            lambda: f"{epochs('power_density'):.1f} vs {epochs('power'):.1f} epochs",
        ),
        "exp_fast": (["exp"], lambda: epochs("exp") <= 8, lambda: f"{epochs('exp'):.1f} epochs"),
        "exp_slightly_lower": (
            ["none", "exp"],
            lambda: croc("exp") < croc("none"),
            lambda: f"{croc('exp'):.4f} vs {croc('none'):.4f}",
        ),
        "same_final": (
            ["none", "power"],
            lambda: abs(croc("power") - croc("none")) <= 0.01,
            lambda: f"1/r {croc('power'):.4f}, none {croc('none'):.4f}",
        ),
    }
    if others and {"svm", "knn"} <= set(others):
        best = max(others["svm"]["croc_exp_80"], others["knn"]["croc_exp_80"])
        checks["exp_beats_svm_knn"] = (
            ["exp"],
            lambda: croc("exp") > best,
            lambda: (
                f"{croc('exp'):.4f} vs SVM {others['svm']['croc_exp_80']:.4f}, kNN {others['knn']['croc_exp_80']:.4f}"
            ),
        )
    out = []
    for c in published["appendix_claims"]:
        needs, test, evidence = checks.get(c["id"], (None, None, None))
        if needs is None or not set(needs) <= have:
            out.append(Claim(c["text"], None, "not run", "", c["id"]))
            continue
        ok = bool(test())
        out.append(Claim(c["text"], ok, evidence(), c.get("known_deviation", "") if not ok else "", c["id"]))
    return out


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
        AUC[ROC] and AUC[CROC(exp)] a=7/14/80 (``HEADLINE_KEYS`` of ``crocbench.metrics._panel``) and the
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
        rows.append(dict(zip(keys, key)) | pooled_metrics(part, HEADLINE_KEYS, top))
    metrics = pd.DataFrame(rows)
    hits = [c for c in metrics.columns if c.startswith("top")]
    return epochs.merge(metrics.rename(columns={hits[0]: "top_hits"}) if hits else metrics, on=keys, how="left")


def irv_study_closest(table: pd.DataFrame, paper: dict | None = None) -> pd.DataFrame:
    """Per (setting, stop rule): how far its mean epochs per scheme are from the paper's Appendix A counts (the
    mean of ``|log(ours / paper)|`` over the schemes the paper gives; "4-8" counts as 6), closest first."""
    paper = paper or paper_irv_epochs()
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


def irv_study_markdown(table: pd.DataFrame, curve: pd.DataFrame, closest: pd.DataFrame) -> str:
    """The study as Markdown: the paper's counts beside the closest set-ups, then one table per stop rule, then
    the training curve (mean over the folds of the training ranking's AUC[CROC(exp)] a=80 after each tabulated
    epoch)."""
    paper = paper_irv_epochs()
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

"""The paper's published numbers (``crocbench/published.yaml``) and a run's beside them: table 4."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from .._extras import needs
from ..report import RANDOM_ROW

#: The paper whose numbers ``published.yaml`` holds: a dataset's ``reproduces:`` (config.yaml) names it.
PAPER = "swamidass2010"
#: The paper's five rankers (model keys), for the claims: a run's other models (an imported score, a plug-in) are
#: left out.
PAPER_MODELS = ("random", "maxsim", "knn", "svm", "irv")


def load_published() -> dict:
    """The paper's published numbers and claims (``crocbench/published.yaml``): a fresh copy, the caller's to
    change."""
    import copy

    return copy.deepcopy(_published())


@functools.lru_cache(maxsize=1)
def _published() -> dict:
    """``published.yaml`` parsed once a process: it ships with the package, and a page reads it for every panel."""
    from importlib.resources import files

    with needs("crocbench.paper"):
        import yaml

    return yaml.safe_load(files("crocbench").joinpath("published.yaml").read_text())


def paper_irv_epochs() -> dict:
    """``{scheme: "101", ..., "exp": "4-8"}``: the epochs the paper's Appendix A gives each reweighting scheme."""
    return {
        a["model"].removeprefix("irv_"): str(a.get("shown", a["published"]))
        for a in load_published()["anchors"]
        if a["metric"] == "epochs_mean" and a["published"] is not None
    }


def irv_training_notes() -> str:
    """The paper's Appendix A results, as prose for the IRV training table."""
    return load_published()["appendix_note"].strip()


def published_points(models=("svm", "irv"), metrics=("roc", "croc_exp_80")) -> dict:
    """``{"paper SVM": (0.852, 0.310), ...}``: each model's published values of ``metrics`` (``published.yaml``),
    as points to mark on a figure."""
    anchors = {(a["model"], a["metric"]): a["published"] for a in load_published()["anchors"]}
    return {f"paper {m.upper()}": tuple(anchors[(m, k)] for k in metrics) for m in models}


def measured_values(areas: pd.DataFrame, training: pd.DataFrame | None = None, names: dict | None = None) -> dict:
    """``{(model, metric): value}`` from table 1 (and the IRV training table as ``irv_<scheme>``).

    ``names`` maps the table's model labels back to model keys (e.g. ``{"IRV": "irv"}``); the
    random classifier's expectation row is ``random_expected``.
    """
    names = dict(names or {})
    names[RANDOM_ROW] = "random_expected"
    out = {}
    for row in areas.to_dict("records"):
        model = names.get(row["model"], row["model"])
        out.update({(model, k): v for k, v in row.items() if k != "model"})
    if training is not None:
        for row in training.to_dict("records"):
            out.update({(f"irv_{row['scheme']}", k): v for k, v in row.items() if k != "scheme"})
    return out


def published_comparison(measured: dict, published: dict | None = None) -> pd.DataFrame:
    """Every published anchor next to the reproduced value.

    Status: ``pass`` (within the tolerance of the published number), ``known
    deviation`` (outside it, documented, and inside the anchor's ``band``
    around our own reproduced value), ``in band`` (no published number; inside
    its band), ``FAIL`` (anything else) or ``not run``.
    """
    published = published or load_published()
    rows = []
    for a in published["anchors"]:
        value = measured.get((a["model"], a["metric"]))
        low, high = a.get("band", (np.nan, np.nan))
        in_band = value is not None and low <= value <= high
        if value is None:
            status = "not run"
        elif a["published"] is not None and abs(value - a["published"]) <= a["tolerance"]:
            status = "pass"
        elif a["published"] is None:
            status = "in band" if in_band else "FAIL"
        else:
            status = "known deviation" if a.get("known_deviation") and in_band else "FAIL"
        rows.append(
            {
                "id": a["id"],
                "model": a["model"],
                "metric": a["metric"],
                "published": a["published"],
                "reproduced": value,
                "tolerance": a["tolerance"],
                "band_low": low,
                "band_high": high,
                "status": status,
                "note": a.get("known_deviation") if status == "known deviation" else a["why"],
            }
        )
    return pd.DataFrame(rows)


def svm_anchors() -> dict:
    """``{metric: anchor}``: the paper's published SVM numbers (``published.yaml``), each with its
    ``published`` value and ``tolerance``, for the SVM set-up study."""
    return {a["metric"]: a for a in load_published()["anchors"] if a["model"] == "svm"}

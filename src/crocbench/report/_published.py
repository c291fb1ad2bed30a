"""The paper's published numbers and claims (``crocbench/published.yaml``) beside a run's: table 4."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics._panel import HEADLINE_KEYS
from ._claims import Claim
from ._tables import RANDOM_ROW

#: The paper whose numbers ``published.yaml`` holds: a dataset's ``reproduces:`` (config.yaml) names it.
PAPER = "swamidass2010"
#: The paper's five rankers (model keys), for the claims: a run's other models (an imported score, a plug-in) are
#: left out.
PAPER_MODELS = ("random", "maxsim", "knn", "svm", "irv")


def load_published() -> dict:
    """The paper's published numbers and claims (``crocbench/published.yaml``)."""
    from importlib.resources import files

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


def among_paper_models(significance: pd.DataFrame, names: dict) -> pd.DataFrame:
    """The rows of a table 2 (:func:`significance_table`) that compare two of the paper's rankers
    (:data:`PAPER_MODELS`, labelled by ``names``): the pairs its claims are about."""
    labels = {names[m] for m in PAPER_MODELS if m in names}
    return significance[significance["a"].isin(labels) & significance["b"].isin(labels)]


def check_claims(
    areas: pd.DataFrame, significance: pd.DataFrame | None, names: dict, published: dict | None = None
) -> list[Claim]:
    """The paper's claims (``published.yaml``, ``claims``) checked on this run's tables 1 and 2.

    Parameters
    ----------
    areas : DataFrame
        Table 1 (:func:`areas_table`): a ``model`` column and the metric keys.
    significance : DataFrame or None
        Table 2 (:func:`significance_table`), if run; the paired tests' claim counts its pairs of the paper's
        rankers only (:func:`among_paper_models`).
    names : dict
        Model keys (irv, svm, knn, maxsim, random) -> the labels used in the tables.
    published : dict or None
        :func:`load_published`'s content (read when None).

    Returns
    -------
    list of Claim
        One per published claim, in its order, with its ``id``; ``holds`` is None when the run lacks
        what the claim needs, and ``note`` the documented known deviation of a claim that does not hold.
    """
    published = published or load_published()
    table = areas.set_index("model")
    have = {k for k, label in names.items() if label in table.index}

    def v(model, metric):
        return float(table.loc[names[model], metric])

    checks = {}
    if {"irv", "svm"} <= have:
        crocs = HEADLINE_KEYS[1:]  # AUC[CROC(exp)] at alpha = 7, 14 and 80
        checks["svm_best_roc_irv_best_croc"] = (
            v("svm", "roc") > v("irv", "roc") and all(v("irv", m) > v("svm", m) for m in crocs),
            f"AUC[ROC] SVM {v('svm', 'roc'):.4f} vs IRV {v('irv', 'roc'):.4f}; AUC[CROC(exp)] a=7/14/80 IRV "
            + "/".join(f"{v('irv', m):.4f}" for m in crocs)
            + " vs SVM "
            + "/".join(f"{v('svm', m):.4f}" for m in crocs),
        )
    if {"irv", "knn", "svm", "maxsim", "random"} <= have:
        m = "croc_exp_80"
        ok = v("irv", m) > max(v("knn", m), v("svm", m)) and min(v("knn", m), v("svm", m)) > v("maxsim", m) > v(
            "random", m
        )
        checks["croc_order"] = (ok, ", ".join(f"{k} {v(k, m):.4f}" for k in sorted(have, key=lambda k: -v(k, m))))
    if significance is not None and {"irv", "svm"} <= have:
        a, b = significance["a"], significance["b"]
        pair = significance[((a == names["irv"]) & (b == names["svm"])) | ((a == names["svm"]) & (b == names["irv"]))]
        p = pair.set_index("metric")["paired_permutation"]
        checks["croc_significant_roc_not"] = (
            p["croc_exp_80"] < 0.05 <= p["roc"],
            f"paired permutation p: AUC[CROC(exp)] a=80 {p['croc_exp_80']:.3g}, AUC[ROC] {p['roc']:.3g}",
        )
    cases = None if significance is None else among_paper_models(significance, names)
    if cases is not None and len(cases):
        share = float((cases["paired_permutation"] <= cases["unpaired_permutation"]).mean())
        checks["paired_more_powerful"] = (share >= 0.8, f"{100 * share:.0f}% of {len(cases)} pair-metric cases")
    out = []
    for c in published["claims"]:
        ok, evidence = checks.get(c["id"], (None, "not run"))
        ok = None if ok is None else bool(ok)
        out.append(Claim(c["text"], ok, evidence, c.get("known_deviation", "") if ok is False else "", c["id"]))
    return out

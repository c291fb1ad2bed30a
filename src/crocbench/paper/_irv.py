"""The paper's Appendix A claims about training the IRV for the top of the list."""

from __future__ import annotations

import pandas as pd

from ..report import Claim
from ._published import load_published


def irv_training_claims(table: pd.DataFrame, others: dict | None = None, published: dict | None = None) -> list[Claim]:
    """The paper's Appendix A claims (``published.yaml``, ``appendix_claims``) checked on a training table.

    Parameters
    ----------
    table : DataFrame
        :func:`crocbench.report.irv_training_table`'s output.
    others : dict or None
        Model names (``svm``, ``knn``) -> their pooled metrics dicts (:func:`crocbench.report.pooled_metrics`).
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

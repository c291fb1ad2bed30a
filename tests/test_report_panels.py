"""crocbench.report._panels: panels compared on the screens they share, counted by hand."""

import numpy as np
import pandas as pd
import pytest
from _synthetic import _claims_inputs


def _renamed(frame: pd.DataFrame, suffix: str, keep: int) -> pd.DataFrame:
    """The first ``keep`` screens (s0, s1, ...) of a table, renamed s<d>_<suffix>."""
    part = frame[frame["dataset"].str[1:].astype(int) < keep].copy()
    part["dataset"] = part["dataset"] + f"_{suffix}"
    return part


@pytest.mark.parametrize("shared,supported", [(9, True), (8, False)])
def test_panels_compared_on_the_shared_screens_by_hand(shared, supported):
    from scipy.stats import friedmanchisquare

    from crocbench.data.pubchem import campaign_of
    from crocbench.paper import claims_across, screen_claims
    from crocbench.report import panels_compared

    # panel a: 10 screens on which every claim holds; panel b: the first `shared` of the same campaigns, under
    # another definition, with the IRV and the SVM swapped at a = 80 on every screen
    table, areas, significance, names = _claims_inputs(10, svm_roc_lead=0.01)
    extra = table[table["model"] == "IRV"].assign(model="primary score", roc=1.0, croc_exp_80=1.0)
    claims = screen_claims(areas, significance, names)
    a = (_renamed(pd.concat([table, extra]), "primary", 10), _renamed(claims, "primary", 10))
    b_table = _renamed(table, "confirmed", shared)
    irv, svm = b_table["model"] == "IRV", b_table["model"] == "SVM"
    b_table.loc[irv, "croc_exp_80"], b_table.loc[svm, "croc_exp_80"] = (
        b_table.loc[svm, "croc_exp_80"].to_numpy(),
        b_table.loc[irv, "croc_exp_80"].to_numpy(),
    )
    b_table.loc[(b_table["dataset"] == "s0_confirmed") & (b_table["model"] == "RANDOM"), "croc_exp_80"] += (
        0.04  # mean, not median
    )
    b_claims = _renamed(claims, "confirmed", shared)
    b_claims.loc[b_claims["id"] == "svm_best_roc_irv_best_croc", "holds"] = False
    across = lambda per_screen, t: claims_across(per_screen, t, names)  # noqa: E731
    out = panels_compared({"a": a, "b": (b_table, b_claims)}, names, key=campaign_of, across=across).set_index("what")
    assert out.loc["screens"].tolist() == [str(shared)] * 2  # a's last 10 - shared screens are left out
    # a = 80 on the shared screens: a's order IRV > SVM > kNN > MAX-SIM > RANDOM everywhere, b's SVM first;
    # the imported score, best everywhere, is not one of the paper's rankers and is left out
    ranks = np.tile([1.0, 2.0, 3.0, 4.0, 5.0], (shared, 1))
    p = friedmanchisquare(*(-ranks).T).pvalue
    row = out.loc["mean ranks, AUC[CROC(exp)] a=80"]
    assert row["a"] == f"IRV 1.00, SVM 2.00, kNN 3.00, MAX-SIM 4.00, RANDOM 5.00 (Friedman p {p:.2g})"
    assert row["b"].startswith("SVM 1.00, IRV 2.00, kNN 3.00")
    # each ranker's mean over the shared screens, best first, as pandas computes it
    for panel, frame in (("a", a[0]), ("b", b_table)):
        shared_rows = frame[frame["dataset"].str.extract(r"^s(\d+)_")[0].astype(int) < shared]
        means = shared_rows[shared_rows["model"] != "primary score"].groupby("model")["croc_exp_80"].mean()
        want = ", ".join(f"{m} {v:.3f}" for m, v in means.sort_values(ascending=False).items())
        assert out.loc["mean AUC[CROC(exp)] a=80", panel] == want
    # claim 1: every shared screen agrees, so the exact two-sided Wilcoxon p is 2 / 2^n, and Holm over the 10
    # pairs multiplies it by 10: 0.039 on 9 screens (supported), 0.078 on 8 (not)
    assert (10 * 2 / 2**shared < 0.05) == supported
    claim1 = "SVM has the higher AUC[ROC] but IRV the higher AUC[CROC(exp)] at alpha = 7, 14 and 80"
    verdict = "supported" if supported else "not supported"
    assert out.loc[claim1, "a"] == f"holds in {shared} of {shared}; {verdict}"
    assert out.loc[claim1, "b"] == f"holds in 0 of {shared}; not supported"
    # the paired tests' claim needs the full significance tables: counted per screen only
    paired = "the paired permutation test's p-value is no larger than the unpaired one for the large majority"
    assert out.loc[[w for w in out.index if w.startswith(paired)][0]].tolist() == [f"holds in {shared} of {shared}"] * 2


def test_panels_compared_counts_each_pairs_wins_losses_and_ties_on_the_shared_screens():
    """By hand: on the shared screens s0 and s1 (s2 is only in p), x against y on roc is above on s0 and equal on
    s1 in p, below on both in q; on ef_1pct above on both in p, and above then below in q."""
    from crocbench.report import panels_compared

    def panel(rows):
        return pd.DataFrame(rows, columns=["dataset", "model", "roc", "ef_1pct"])

    p = panel([("s0", "x", 0.9, 5), ("s0", "y", 0.8, 4), ("s1", "x", 0.7, 3), ("s1", "y", 0.7, 2),
               ("s2", "x", 0.1, 1), ("s2", "y", 0.9, 9)])  # fmt: skip
    q = panel([("s0", "x", 0.5, 5), ("s0", "y", 0.6, 4), ("s1", "x", 0.6, 1), ("s1", "y", 0.7, 2)])
    claims = pd.DataFrame(columns=["dataset", "id", "text", "holds", "evidence"])
    out = panels_compared(
        {"p": (p, claims), "q": (q, claims)}, {}, metrics=["roc", "ef_1pct"], pairs=[("x", "y"), ("y", "x")]
    ).set_index("what")
    assert out.loc["screens"].tolist() == ["2", "2"]
    assert out.loc["record, x vs y"].tolist() == ["AUC[ROC] 1-0-1, EF 1% 2-0", "AUC[ROC] 0-2, EF 1% 1-1"]
    assert out.loc["record, y vs x"].tolist() == ["AUC[ROC] 0-1-1, EF 1% 0-2", "AUC[ROC] 2-0, EF 1% 1-1"]

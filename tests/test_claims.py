"""The paper's four claims, checked per screen (``check_claims``, ``screen_claims``) and across screens
(``claims_across``), on tables written here whose verdicts are decided by hand.

Claim 1: the SVM has the higher AUC[ROC], the IRV the higher AUC[CROC(exp)] at a = 7, 14 *and* 80.
Claim 4: the paired test's p-value is no larger than the unpaired one for >= 80% of the pair-metric cases among
the paper's five rankers.
"""

import numpy as np
import pandas as pd
import pytest
from _synthetic import _claims_inputs

from crocbench.paper import check_claims, claims_across, screen_claims
from crocbench.report import claims_markdown

NAMES = {"random": "RANDOM", "maxsim": "MAX-SIM", "knn": "kNN", "svm": "SVM", "irv": "IRV"}
ORDER = ["irv", "svm", "knn", "maxsim", "random"]
CROCS = ("croc_exp_7", "croc_exp_14", "croc_exp_80")


def _areas(screen: int = 0, svm_first_at=()) -> pd.DataFrame:
    """Table 1 of one screen: at every CROC IRV > SVM > kNN > MAX-SIM > RANDOM by steps of 0.05 (plus 0.001 per
    screen, so that no two screens' differences tie: scipy's Wilcoxon test is then exact, not a slow permutation
    test), except at the CROCs named in ``svm_first_at``, where the SVM leads the IRV by 0.02 (+ 0.0005 per
    screen); at AUC[ROC] the SVM leads the IRV by 0.01 (+ 0.0005 per screen)."""
    rows = []
    for i, m in enumerate(ORDER):
        v = 0.3 + 0.01 * screen - (0.05 + 0.001 * screen) * i
        rows.append({"model": NAMES[m], "roc": 0.5 + v, **dict.fromkeys(CROCS, v)})
    table = pd.DataFrame(rows).set_index("model")
    table.loc["SVM", "roc"] = table.loc["IRV", "roc"] + 0.01 + 0.0005 * screen
    for key in svm_first_at:
        table.loc["SVM", key] = table.loc["IRV", key] + 0.02 + 0.0005 * screen
    return table.reset_index()


def _significance(paired_gt: int = 1) -> pd.DataFrame:
    """Table 2 of one screen: five pair-metric cases among the paper's rankers, the paired p-value larger than
    the unpaired one in ``paired_gt`` of them (the others: smaller, or equal, which counts as "no larger"), and two
    cases of an imported score, paired larger, which are not the paper's and are not counted."""
    cases = [
        ("IRV", "SVM", "croc_exp_80", 0.01, 0.1),
        ("IRV", "SVM", "roc", 0.2, 0.3),
        ("kNN", "MAX-SIM", "roc", 0.1, 0.2),
        ("kNN", "RANDOM", "roc", 0.2, 0.2),  # equal: no larger
        ("MAX-SIM", "RANDOM", "roc", 0.05, 0.1),
    ]
    for i in range(paired_gt):  # from the last case backwards, the paired p-value made larger
        a, b, metric, _, unpaired = cases[-1 - i]
        cases[-1 - i] = (a, b, metric, unpaired + 0.1, unpaired)
    cases += [("score", "IRV", "roc", 0.5, 0.1), ("SVM", "score", "roc", 0.5, 0.1)]
    return pd.DataFrame(cases, columns=["a", "b", "metric", "paired_permutation", "unpaired_permutation"])


def _datasets_table(areas: dict) -> pd.DataFrame:
    """The cross-screen table (``datasets_table``'s columns that the claims read) from the screens' tables 1."""
    return pd.concat([t.assign(dataset=d) for d, t in areas.items()], ignore_index=True)


def _holds(claims) -> dict:
    return {c.id: c.holds for c in claims}


# --- claim 1: all three CROC areas --------------------------------------------------------------------------


def test_claim_1_holds_on_a_screen_where_the_irv_leads_at_every_croc():
    assert _holds(check_claims(_areas(), _significance(), NAMES)) == {
        "svm_best_roc_irv_best_croc": True,
        "croc_order": True,
        "croc_significant_roc_not": True,
        "paired_more_powerful": True,
    }


@pytest.mark.parametrize("key", CROCS)
def test_claim_1_fails_on_a_screen_where_the_svm_leads_at_one_croc_only(key):
    # the IRV ahead at AUC[ROC]'s two other CROCs, the SVM 0.02 ahead at this one: "at a = 7, 14 and 80" fails
    claims = {c.id: c for c in check_claims(_areas(svm_first_at=[key]), _significance(), NAMES)}
    assert claims["svm_best_roc_irv_best_croc"].holds is False
    assert claims["croc_order"].holds is (key != "croc_exp_80")  # the order is claimed at a = 80 only


@pytest.mark.parametrize("key", CROCS)
def test_claim_1_is_not_supported_across_screens_where_the_svm_leads_at_one_croc(key):
    # 10 screens that agree: each pair's exact two-sided Wilcoxon p is 2 / 2^10, at most 0.0195 after Holm over
    # the 10 pairs.  With the IRV ahead at every CROC claim 1 is supported; with the SVM ahead at one CROC on
    # every screen it holds on none and is not supported (the IRV's "lead" there is a significant loss).
    areas = {f"s{d}": _areas(d) for d in range(10)}
    significance = {d: _significance() for d in areas}
    out = claims_across(screen_claims(areas, significance, NAMES), _datasets_table(areas), NAMES, significance)
    row = out.set_index("id").loc["svm_best_roc_irv_best_croc"]
    assert (row["screens"], row["holds_in"], row["supported_across"]) == (10, 10, True)
    areas = {f"s{d}": _areas(d, svm_first_at=[key]) for d in range(10)}
    out = claims_across(screen_claims(areas, significance, NAMES), _datasets_table(areas), NAMES, significance)
    row = out.set_index("id").loc["svm_best_roc_irv_best_croc"]
    assert (row["screens"], row["holds_in"]) == (10, 0)
    assert row["supported_across"] is not None and not row["supported_across"]


# --- claim 4: the 80% boundary ---------------------------------------------------------------------------------


def test_claim_4_holds_at_exactly_80_percent_on_a_screen():
    # 4 of the paper's 5 pair-metric cases (one with equal p-values) have the paired p no larger: 80%, which is
    # ">= 80%"; the imported score's two cases are left out (counted, 4 of 7 would be 57%)
    claims = {c.id: c for c in check_claims(_areas(), _significance(paired_gt=1), NAMES)}
    assert claims["paired_more_powerful"].holds is True
    assert claims["paired_more_powerful"].evidence == "80% of 5 pair-metric cases"
    claims = {c.id: c for c in check_claims(_areas(), _significance(paired_gt=2), NAMES)}  # 3 of 5: 60%
    assert claims["paired_more_powerful"].holds is False


def test_claim_4_holds_at_exactly_80_percent_pooled_across_screens():
    areas = {f"s{d}": _areas(d) for d in range(10)}
    significance = {d: _significance(paired_gt=1) for d in areas}  # 40 of 50 cases pooled: 80%
    out = claims_across(screen_claims(areas, significance, NAMES), _datasets_table(areas), NAMES, significance)
    row = out.set_index("id").loc["paired_more_powerful"]
    assert row["supported_across"] is not None and row["supported_across"]
    assert row["evidence"] == "80% of 50 pair-metric cases pooled"
    assert (row["screens"], row["holds_in"]) == (10, 10)
    significance["s0"] = _significance(paired_gt=2)  # 39 of 50: 78%
    out = claims_across(screen_claims(areas, significance, NAMES), _datasets_table(areas), NAMES, significance)
    row = out.set_index("id").loc["paired_more_powerful"]
    assert row["supported_across"] is not None and not row["supported_across"]
    assert (row["screens"], row["holds_in"]) == (10, 9)  # s0: 60%


# --- "holds in h of n": the screens where a claim could not be checked are not counted ------------------------


def test_holds_in_counts_only_the_screens_where_a_claim_was_checked():
    # 12 screens: s0..s9 where every claim holds; s10 without a table 2 (claims 3 and 4 not checkable there);
    # s11 where the SVM leads at a = 7 (claim 1 checked and failing)
    areas = {f"s{d}": _areas(d, svm_first_at=["croc_exp_7"] if d == 11 else []) for d in range(12)}
    significance = {d: _significance() for d in areas if d != "s10"}
    screens = screen_claims(areas, significance, NAMES)
    assert len(screens) == 12 * 4
    s10 = screens[screens["dataset"] == "s10"].set_index("id")["holds"]
    assert s10.isna().tolist() == [False, False, True, True]  # claims 3 and 4: None (not checked)
    out = claims_across(screens, _datasets_table(areas), NAMES, significance).set_index("id")
    assert out["screens"].to_dict() == {
        "svm_best_roc_irv_best_croc": 12,
        "croc_order": 12,
        "croc_significant_roc_not": 11,
        "paired_more_powerful": 11,
    }
    assert out["holds_in"].to_dict() == {
        "svm_best_roc_irv_best_croc": 11,
        "croc_order": 12,
        "croc_significant_roc_not": 11,
        "paired_more_powerful": 11,
    }


def test_claims_on_a_table_that_reproduces_the_paper():
    from crocbench.paper import check_claims, load_published

    names = {"random": "RANDOM", "maxsim": "MAX-SIM", "knn": "kNN", "svm": "SVM", "irv": "IRV"}
    areas = pd.DataFrame(
        {
            "model": ["RANDOM", "MAX-SIM", "kNN", "SVM", "IRV"],
            "roc": [0.5, 0.8, 0.82, 0.852, 0.845],
            "croc_exp_7": [0.14, 0.6, 0.64, 0.63, 0.66],
            "croc_exp_14": [0.07, 0.5, 0.56, 0.55, 0.58],
            "croc_exp_80": [0.01, 0.25, 0.37, 0.31, 0.40],
        }
    )
    sig = pd.DataFrame(
        {
            "a": ["SVM", "SVM"],
            "b": ["IRV", "IRV"],
            "metric": ["roc", "croc_exp_80"],
            "paired_permutation": [0.3, 0.001],
            "unpaired_permutation": [0.4, 0.01],
        }
    )
    result = {c.id: c.holds for c in check_claims(areas, sig, names, load_published())}
    assert result == {
        "svm_best_roc_irv_best_croc": True,
        "croc_order": True,
        "croc_significant_roc_not": True,
        "paired_more_powerful": True,
    }
    areas.loc[areas.model == "SVM", "croc_exp_80"] = 0.41
    sig["paired_permutation"] = [0.5, 0.6]
    claims = check_claims(areas, sig, names, load_published())
    result = {c.id: c.holds for c in claims}
    assert result["svm_best_roc_irv_best_croc"] is False and result["croc_order"] is False
    assert result["croc_significant_roc_not"] is False and result["paired_more_powerful"] is False
    notes = {c.id: c.note for c in claims}  # the documented deviations come with their note, the others none
    assert notes["svm_best_roc_irv_best_croc"] and notes["croc_significant_roc_not"]
    assert notes["croc_order"] == "" and notes["paired_more_powerful"] == ""
    assert "known deviation" in claims_markdown(claims)


def test_claims_across_screens_by_hand():
    from crocbench.paper import claims_across, screen_claims

    # 10 screens that all agree: every pair's exact two-sided Wilcoxon p is 2/2^10, Holm x10 at most 0.0195
    table, areas, significance, names = _claims_inputs(10, svm_roc_lead=0.01)
    screens = screen_claims(areas, significance, names)
    assert len(screens) == 10 * 4 and screens["holds"].all()  # each claim holds on each screen
    assert (screens.loc[screens["id"] == "paired_more_powerful", "evidence"] == "90% of 10 pair-metric cases").all()
    out = claims_across(screens, table, names, significance).set_index("id")
    assert out["screens"].tolist() == [10] * 4 and out["holds_in"].tolist() == [10] * 4
    assert out.loc["svm_best_roc_irv_best_croc", "supported_across"]
    assert out.loc["croc_order", "supported_across"]
    # IRV vs SVM is significant across screens at a=80, and so is the SVM's AUC[ROC] lead: "not at ROC" fails
    assert not out.loc["croc_significant_roc_not", "supported_across"]
    # by hand: IRV - SVM is 0.05 at a=80 and -0.01 at ROC on every screen, so every bootstrap mean is that value
    assert out.loc["croc_significant_roc_not", "evidence"] == (
        "IRV - SVM croc_exp_80 +0.0500 [+0.0500, +0.0500], 10/10 screens, Holm p 0.02; "
        "IRV - SVM roc -0.0100 [-0.0100, -0.0100], 0/10 screens, Holm p 0.02"
    )
    assert out.loc["paired_more_powerful", "supported_across"]  # 90% >= 80%
    assert out.loc["paired_more_powerful", "evidence"].startswith("90% of 100")
    # 5 screens that agree as much: 2/2^5 = 0.0625 > 0.05 before any correction, so nothing is supported
    table, areas, significance, names = _claims_inputs(5, svm_roc_lead=0.01)
    out = claims_across(screen_claims(areas, significance, names), table, names, significance).set_index("id")
    assert out["holds_in"].tolist() == [5] * 4
    assert not out.loc[["svm_best_roc_irv_best_croc", "croc_order"], "supported_across"].any()
    # 7 screens: each pair's p is 2/2^7 = 0.016, below 0.05, but Holm over the 10 pairs makes it 0.16
    table, areas, significance, names = _claims_inputs(7, svm_roc_lead=0.01)
    out = claims_across(screen_claims(areas, significance, names), table, names, significance).set_index("id")
    assert not out.loc[["svm_best_roc_irv_best_croc", "croc_order"], "supported_across"].any()
    # the SVM's AUC[ROC] lead gone (IRV 0.02 ahead): claim 1 fails in every screen and across them
    table, areas, significance, names = _claims_inputs(10, svm_roc_lead=-0.02)
    screens = screen_claims(areas, significance, names)
    out = claims_across(screens, table, names, significance).set_index("id")
    assert out.loc["svm_best_roc_irv_best_croc", "holds_in"] == 0
    assert not out.loc["svm_best_roc_irv_best_croc", "supported_across"]
    assert out.loc["croc_order", "supported_across"]


def test_claims_across_takes_the_direction_of_the_signed_rank_test_not_of_the_mean():
    # On AUC[ROC] the IRV leads the SVM on 19 of 20 screens by 0.010-0.028; on one the SVM leads by 0.5. The mean
    # lead is the SVM's (+0.007), but the signed-rank test (W+ 20 for the SVM, W- 190) says the IRV: the claim
    # "SVM has the higher AUC[ROC]" must not be supported across the screens.
    from crocbench.paper import claims_across, screen_claims
    from crocbench.stats import pairwise_wilcoxon

    table, areas, significance, names = _claims_inputs(20, svm_roc_lead=0.0)
    roc = table["model"] == "SVM"
    leads = [-(0.010 + 0.001 * d) for d in range(19)] + [0.5]
    irv_roc = table.loc[table["model"] == "IRV", "roc"].to_numpy()
    table.loc[roc, "roc"] = irv_roc + np.array(leads)
    for d, lead in enumerate(leads):
        areas[f"s{d}"].loc[areas[f"s{d}"]["model"] == "SVM", "roc"] = irv_roc[d] + lead
    row = pairwise_wilcoxon(
        table.pivot(index="dataset", columns="model", values="roc")[["SVM", "IRV"]], ["SVM", "IRV"]
    )[0]
    assert row["mean_difference"] > 0 and row["signed_rank_sum"] == 20 - 190 and row["p_value"] < 1e-3
    out = claims_across(screen_claims(areas, significance, names), table, names, significance).set_index("id")
    assert out.loc["svm_best_roc_irv_best_croc", "holds_in"] == 1  # the one screen where the SVM leads
    assert not out.loc["svm_best_roc_irv_best_croc", "supported_across"]


def test_the_order_claims_evidence_lists_tied_rankers_in_the_papers_order_in_every_process():
    """Ties in the evidence of the order claim come in the paper's order (RANDOM, MAX-SIM, kNN, SVM, IRV), not in
    the order of a set of names, which changes with the process's hash seed: the claims table is byte-identical
    from run to run. Checked in three processes of different hash seeds."""
    import subprocess
    import sys

    code = (
        "import pandas as pd\n"
        "from crocbench.paper import check_claims\n"
        f"names = {NAMES!r}\n"
        "t = pd.DataFrame({'model': list(names.values()), 'roc': [0.5, 0.6, 0.6, 0.6, 0.6]})\n"
        "for k in ('croc_exp_7', 'croc_exp_14', 'croc_exp_80'): t[k] = [0.1, 0.3, 0.3, 0.3, 0.3]\n"
        "print({c.id: c for c in check_claims(t, None, names)}['croc_order'].evidence)\n"
    )
    out = {
        seed: subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": seed},
            timeout=600,
        )
        for seed in ("1", "2", "3")
    }
    assert {r.stdout.strip() for r in out.values()} == {
        "maxsim 0.3000, knn 0.3000, svm 0.3000, irv 0.3000, random 0.1000"
    }, [r.stderr[-500:] for r in out.values()]

"""crocbench.report._svm: the SVM's chosen set-ups per fold, and which set-ups match the paper's numbers."""

import pandas as pd
import pytest


def test_svm_choices_counts_the_folds_of_each_chosen_setup_and_averages_inner_values():
    from crocbench.report import svm_choices

    inner = lambda a, b: [
        {"C": 1.0, "class_weight": None, "value": a},
        {"C": 1.0, "class_weight": "balanced", "value": b},
    ]
    infos = [
        {"fold": 0, "C": 1.0, "class_weight": "balanced", "inner_cv": inner(0.80, 0.84)},
        {"fold": 2, "C": 1.0, "class_weight": None, "inner_cv": inner(0.86, 0.85)},
        {"fold": 1, "C": 1.0, "class_weight": "balanced", "inner_cv": inner(0.82, 0.86)},
    ]
    table = svm_choices(infos)
    assert table[["C", "class_weight", "folds", "n_folds"]].values.tolist() == [
        ["1", "balanced", "0, 1", 2],
        ["1", "none", "2", 1],
    ]
    assert table["inner 1 none"].iloc[0] == pytest.approx((0.80 + 0.86 + 0.82) / 3)
    assert table["inner 1 balanced"].iloc[0] == pytest.approx((0.84 + 0.85 + 0.86) / 3)
    fixed = svm_choices([{"fold": k, "C": 1.0, "class_weight": None} for k in range(3)])
    assert fixed.values.tolist() == [["1", "none", "0, 1, 2", 3]]


def test_paper_svm_matches_needs_every_published_svm_number():
    from crocbench.paper import load_published, svm_anchors
    from crocbench.report import anchor_matches

    paper_svm_matches = lambda table: anchor_matches(table, svm_anchors())  # noqa: E731

    svm = {a["metric"]: a["published"] for a in load_published()["anchors"] if a["model"] == "svm"}
    table = pd.DataFrame([svm, {**svm, "croc_exp_80": svm["croc_exp_80"] + 0.05}])
    assert paper_svm_matches(table).tolist() == [True, False]
    # a list shorter than 1,000 has no "top 1,000": no set-up can be said to match the paper
    assert paper_svm_matches(table.drop(columns="top1000")).tolist() == [False, False]

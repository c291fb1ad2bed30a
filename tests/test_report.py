"""Report tables: the IRV training table and the paper's Appendix A claims."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from crocbench.metrics import croc_auc, hits_at_k, roc_auc
from crocbench.paper import irv_training_claims, paper_irv_epochs
from crocbench.report import (
    claims_markdown,
    irv_training_table,
    markdown_table,
    panel_for,
    pooled_metrics,
)


def _scores(seed, strength):
    rng = np.random.default_rng(seed)
    y = (rng.random(3000) < 0.05).astype(int)
    return pd.DataFrame(
        {"id": np.arange(3000).astype(str), "fold": 0, "label": y, "score": rng.normal(size=3000) + strength * y}
    )


def test_pooled_metrics_equal_the_metric_functions():
    s = _scores(0, 1.5)
    m = pooled_metrics(s)
    y, x = s["label"], s["score"]
    assert m["roc"] == pytest.approx(roc_auc(y, x))
    assert m["croc_exp_80"] == pytest.approx(croc_auc(y, x, alpha=80))
    assert m["top1000"] == pytest.approx(hits_at_k(y, x, k=1000))


def test_training_table_and_claims():
    info = lambda epochs: {"epochs": epochs, "converged": epochs < 3000}  # noqa: E731
    runs = {
        "none": (_scores(1, 2.0), [info(100), info(90)], [3.0, 4.0]),
        "power": (_scores(1, 2.0), [info(40), info(44)], [1.0, 1.5]),
        "exp": (_scores(2, 1.0), [info(6), info(3000)], [0.5, 9.0]),
    }
    table = irv_training_table(runs, paper_epochs=paper_irv_epochs())
    assert table["scheme"].tolist() == ["none", "power", "exp"]
    assert table["epochs_mean"].tolist() == [95.0, 42.0, 1503.0]
    assert table["epochs_per_fold"].tolist() == ["100/90", "40/44", "6/3000"]
    assert table["converged_folds"].tolist() == [2, 2, 1]
    assert table["train_seconds"].tolist() == [7.0, 2.5, 9.5]
    assert table["paper_epochs"].tolist() == ["101", "42", "4-8"]
    others = {"svm": {"croc_exp_80": 0.99}, "knn": {"croc_exp_80": 0.1}}
    checked = irv_training_claims(table, others)
    claims = {c.id: c.holds for c in checked}
    assert claims == {
        "power_faster": True,
        "density_faster": None,
        "exp_fast": False,
        "exp_slightly_lower": True,
        "exp_beats_svm_knn": False,
        "same_final": True,
    }
    notes = {c.id: c.note for c in checked}
    assert notes["exp_fast"].startswith("exp(-20 r/N)") and notes["exp_beats_svm_knn"] == ""  # only documented ones
    text = claims_markdown(checked)
    assert "- known deviation: exponential weighting converges in 4 to 8 epochs (1503.0 epochs). exp(-20" in text
    assert "- NOT reproduced: exponentially weighted IRV still beats SVM and kNN" in text
    md = markdown_table(table[["scheme", "epochs_mean", "croc_exp_80"]])
    assert md.splitlines()[0] == "| scheme | epochs_mean | croc_exp_80 |"
    assert md.splitlines()[2].startswith("| none | 95 | 0.")


def _training_runs(schemes=("none", "power", "power_density", "exp", "exp_anneal")):
    info = lambda epochs: {"epochs": epochs, "converged": True}  # noqa: E731
    return {s: (_scores(i, 1.5), [info(10 + i), info(20 + i)], [1.0, 2.0]) for i, s in enumerate(schemes)}


def test_training_table_has_the_papers_epochs_only_for_a_dataset_that_reproduces_it():
    from pathlib import Path

    import yaml

    import crocbench

    runs = _training_runs()
    # a user's own dataset (no `reproduces:`): no paper column, by default and with paper_epochs=None
    table = irv_training_table(runs)
    assert "paper_epochs" not in table.columns and table.columns[-1] == "train_seconds"
    assert irv_training_table(runs, paper_epochs=None).equals(table)
    # the paper's screen: its Appendix A epochs, read here straight from published.yaml
    published = yaml.safe_load((Path(crocbench.__file__).parent / "published.yaml").read_text())
    expected = {
        a["model"][len("irv_") :]: str(a.get("shown", a["published"]))
        for a in published["anchors"]
        if a["metric"] == "epochs_mean" and a["published"] is not None
    }
    assert set(expected) == {"none", "power", "power_density", "exp"}
    table = irv_training_table(runs, paper_epochs=paper_irv_epochs())
    assert table["paper_epochs"].tolist() == [expected[s] for s in ("none", "power", "power_density", "exp")] + [""]
    # the committed dtp_aids reference (train_seconds dropped) keeps its columns, in order
    reference = Path(__file__).parents[1] / "results" / "reference" / "irv_training.tsv"
    columns = reference.read_text().splitlines()[0].split("\t")
    assert [c for c in table.columns if c != "train_seconds"] == columns
    assert list(table.columns) == columns + ["train_seconds"]


@pytest.mark.filterwarnings('ignore:Argument "writer_name":PendingDeprecationWarning')  # as snakemake.report calls it
def test_captions_name_the_paper_only_for_a_dataset_that_reproduces_it():
    """The report's captions are Jinja2 templates rendered (as Snakemake's report does) with the job's params."""
    from pathlib import Path
    from types import SimpleNamespace

    jinja2 = pytest.importorskip("jinja2")
    core = pytest.importorskip("docutils.core")
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)  # snakemake.report's settings
    folder = Path(__file__).parents[1] / "workflow" / "report"

    def render(name, **params):
        snakemake = SimpleNamespace(params=SimpleNamespace(**params))
        text = env.from_string((folder / name).read_text()).render(snakemake=snakemake)
        # valid reStructuredText: a warning (level 2) halts
        core.publish_parts(text, writer_name="html", settings_overrides={"halt_level": 2, "report_level": 5})
        return " ".join(text.split())

    mine = render("irv_training_table.rst", reproduces=None)
    paper = render("irv_training_table.rst", reproduces="swamidass2010")
    assert "paper's claims" not in mine and "paper_epochs" not in mine and mine.endswith("training time.")
    assert "the paper's claims checked on this run." in paper and "paper_epochs" in paper
    areas = render("areas.rst", n_folds=5)
    assert "pooled 5-fold ranking" in areas and "n/a when a fold has too few" in areas


# --- tables 1, 2 and 4 -------------------------------------------------------------------------------


def _pooled():
    from crocbench.models import LABELS

    base = _scores(5, 0.0)
    out = {}
    for i, m in enumerate(["random", "maxsim", "knn", "svm", "irv"]):
        s = base.copy()
        s["score"] = np.random.default_rng(i).normal(size=len(s)) + (0.4 * i) * s["label"]
        out[LABELS[m]] = s
    return out


def test_areas_table_has_the_random_expectation():
    from crocbench.metrics import paper_panel, random_baseline
    from crocbench.report import RANDOM_ROW, areas_table

    calls = paper_panel(top_k=100)
    pooled = _pooled()
    table = areas_table(pooled, calls).set_index("model")
    assert list(table.index) == [*pooled, RANDOM_ROW]
    y, s = pooled["IRV"]["label"], pooled["IRV"]["score"]
    assert table.loc["IRV", "croc_exp_80"] == pytest.approx(croc_auc(y, s, alpha=80))
    n, n_pos = len(y), int(y.sum())
    assert table.loc[RANDOM_ROW, "roc"] == pytest.approx(0.5)
    assert table.loc[RANDOM_ROW, "top100"] == pytest.approx(100 * n_pos / n)
    assert table.loc[RANDOM_ROW, "croc_exp_80"] == pytest.approx(random_baseline("croc_auc", n, n_pos, alpha=80).mean)


def test_significance_table_matches_compare():
    from crocbench.metrics import paper_panel
    from crocbench.report import significance_markdown, significance_table
    from crocbench.stats import compare

    pooled = dict(list(_pooled().items())[2:])  # kNN, SVM, IRV
    calls = [c for c in paper_panel() if c.key in ("roc", "croc_exp_80")]
    tests = ["paired_permutation", "unpaired_t"]
    table = significance_table(pooled, calls, tests, n_samples=500, seed=3)
    assert len(table) == 3 * 2 and table[["a", "b"]].drop_duplicates().values.tolist() == [
        ["kNN", "SVM"],
        ["kNN", "IRV"],
        ["SVM", "IRV"],
    ]
    row = table[(table.a == "kNN") & (table.b == "IRV") & (table.metric == "croc_exp_80")].iloc[0]
    direct = compare(
        pooled["kNN"]["label"],
        pooled["kNN"]["score"],
        pooled["IRV"]["score"],
        calls[1],
        tests=tests,
        n_samples=500,
        seed=3,
    )
    assert row["paired_permutation"] == direct.results["paired_permutation"].p_value
    assert row["better"] == ("IRV" if direct.value_b > direct.value_a else "kNN")
    md = significance_markdown(table, tests)
    assert md.count("\n") == 1 + len(table)
    low = table[tests].min().min()
    assert ("**" in md) == (low < 0.01)


def test_published_comparison_statuses():
    from crocbench.paper import published_comparison

    published = {
        "anchors": [
            {"id": "a", "model": "irv", "metric": "roc", "published": 0.845, "tolerance": 0.03, "why": "w"},
            {"id": "b", "model": "svm", "metric": "roc", "published": 0.852, "tolerance": 0.01, "why": "w"},
            {
                "id": "c",
                "model": "svm",
                "metric": "croc_exp_80",
                "published": 0.31,
                "tolerance": 0.03,
                "why": "w",
                "known_deviation": "explained",
                "band": [0.39, 0.41],
            },
            {"id": "d", "model": "knn", "metric": "top1000", "published": 603, "tolerance": 25, "why": "w"},
            {
                "id": "e",
                "model": "irv_exp_anneal",
                "metric": "epochs_mean",
                "published": None,
                "tolerance": None,
                "why": "w",
                "band": [72, 87],
            },
        ],
        "claims": [],
    }
    measured = {
        ("irv", "roc"): 0.83,
        ("svm", "roc"): 0.80,
        ("svm", "croc_exp_80"): 0.40,
        ("irv_exp_anneal", "epochs_mean"): 79.5,
    }
    table = published_comparison(measured, published)
    assert table["status"].tolist() == ["pass", "FAIL", "known deviation", "not run", "in band"]
    assert table["note"].tolist()[2] == "explained"
    # a known deviation is bounded: outside its band (either side) it fails like any miss
    for value in (0.3899, 0.4101, 0.5):
        measured[("svm", "croc_exp_80")] = value
        assert published_comparison(measured, published)["status"][2] == "FAIL", value
    measured[("irv_exp_anneal", "epochs_mean")] = 87.5
    assert published_comparison(measured, published)["status"][4] == "FAIL"


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


def test_published_file_is_complete():
    from crocbench.paper import load_published

    published = load_published()
    ids = [a["id"] for a in published["anchors"]]
    assert len(ids) == len(set(ids))
    for a in published["anchors"]:
        assert a["why"] and (a["published"] is None) == (a["tolerance"] is None), a["id"]
        assert a["published"] is None or a["tolerance"] > 0, a["id"]
        if a.get("known_deviation") or a["published"] is None:  # every deviation is bounded, with its reason
            low, high = a["band"]
            assert low < high and a["band_why"], a["id"]
            if a["published"] is not None:  # a band inside the published tolerance would document no deviation
                assert high > a["published"] + a["tolerance"] or low < a["published"] - a["tolerance"], a["id"]
    for section in ("claims", "appendix_claims"):
        assert len({c["id"] for c in published[section]}) == len(published[section])
    values = {a["id"]: a["published"] for a in published["anchors"]}
    # the paper's numbers (../shared/papers/README.md)
    assert (values["svm_roc"], values["irv_roc"], values["irv_croc80"], values["svm_croc80"]) == (
        0.852,
        0.845,
        0.4,
        0.31,
    )
    assert (values["irv_top1000"], values["svm_top1000"], values["knn_top1000"]) == (645, 616, 603)
    assert (values["irv_epochs_none"], values["irv_epochs_power"], values["irv_epochs_power_density"]) == (101, 42, 33)


def test_other_metrics_table_per_model_with_folds_as_queries():
    from crocbench import metrics as M
    from crocbench.report import other_metrics_markdown, other_metrics_table

    a, b = _scores(6, 2.0), _scores(6, 0.7)
    a["fold"] = b["fold"] = np.arange(3000) % 3
    b["score"] = 1 / (1 + np.exp(-b["score"]))  # probabilities: perf's probability metrics apply
    table = other_metrics_table({"A": a, "B": b}, top=100, n=20)
    value = table.set_index(["model", "key"])["value"]
    y, folds = a["label"].to_numpy(), a["fold"].to_numpy()
    assert value["A", "ap"] == pytest.approx(M.average_precision(y, a["score"]))
    assert value["A", "precision_at_100"] == pytest.approx(M.hits_at_k(y, a["score"], 100) / 100)
    assert value["A", "tap_20"] == pytest.approx(M.tap_k(y, a["score"], folds, 20))
    assert value["B", "map"] == pytest.approx(
        np.mean([M.average_precision(y[folds == f], b["score"][folds == f]) for f in range(3)])
    )
    assert np.isnan(value["A", "rmse"]) and value["B", "rmse"] == pytest.approx(M.rmse(y, b["score"]))
    assert value["A", "ap"] > value["B", "ap"]
    text = other_metrics_markdown(table)
    assert text.count("### ") == len(M.FAMILIES)
    assert "average precision *" in text and "- RMSE, A: needs probabilities" in text


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


def test_top_cutoff_is_a_count_or_a_share_of_the_list_and_says_which():
    from crocbench.data import Dataset
    from crocbench.metrics import hits_at_k, top_cutoff

    assert [
        top_cutoff(t, n)
        for t, n in [(1000, 41906), (1000, 642), (1000.0, 642), (0.01, 642), (0.01, 20), (0.015, 100), (0.5, 3)]
    ] == [1000, 642, 642, 6, 1, 2, 2]
    for bad in (0, -5, 1.5, 0.0, True, "1%"):
        with pytest.raises(ValueError, match="count >= 1 or a fraction"):
            top_cutoff(bad, 100)
    rng = np.random.default_rng(3)
    s = pd.DataFrame({"label": (rng.random(642) < 0.3).astype(int), "score": rng.random(642)})
    m = pooled_metrics(s, keys=("roc",), top=0.01)
    assert list(m) == ["roc", "top6"] and m["top6"] == hits_at_k(s["label"], s["score"], 6)
    assert [c.label for c in panel_for(s, 0.01)][-1] == "actives in top 6 (1% of 642)"
    assert [c.label for c in panel_for(s, 1000)][-1] == "actives in top 642"
    entry = {"files": [{"name": "a.csv", "url": "u"}], "structures": {"file": "a.csv"}}
    assert Dataset.from_config("x", entry).top_cutoff == 0.01
    assert Dataset.from_config("x", {**entry, "reproduces": "swamidass2010"}).top_cutoff == 1000
    assert Dataset.from_config("x", {**entry, "reproduces": "swamidass2010", "top": 0.02}).top_cutoff == 0.02


def test_paper_svm_matches_needs_every_published_svm_number():
    from crocbench.paper import load_published, svm_anchors
    from crocbench.report import anchor_matches

    paper_svm_matches = lambda table: anchor_matches(table, svm_anchors())  # noqa: E731

    svm = {a["metric"]: a["published"] for a in load_published()["anchors"] if a["model"] == "svm"}
    table = pd.DataFrame([svm, {**svm, "croc_exp_80": svm["croc_exp_80"] + 0.05}])
    assert paper_svm_matches(table).tolist() == [True, False]
    # a list shorter than 1,000 has no "top 1,000": no set-up can be said to match the paper
    assert paper_svm_matches(table.drop(columns="top1000")).tolist() == [False, False]


# --- across datasets -----------------------------------------------------------------------------


def test_datasets_table_against_scikit_learn_and_counting_by_hand():
    from sklearn.metrics import roc_auc_score

    from crocbench.metrics import bedroc
    from crocbench.report import datasets_table

    runs = {"one": {"A": _scores(1, 1.0), "B": _scores(1, 0.0)}, "two": {"A": _scores(2, 2.0)[:2050]}}
    runs["two"]["B"] = runs["two"]["A"].assign(score=-runs["two"]["A"]["score"])
    table = datasets_table(runs).set_index(["dataset", "model"])
    for dataset, pooled in runs.items():
        for model, s in pooled.items():
            row = table.loc[(dataset, model)]
            y, x = s["label"].to_numpy(), s["score"].to_numpy()
            k = int(np.floor(0.01 * len(s) + 0.5))  # 1% of the list, rounded half up: 30 and 21 (20.5)
            assert row["compounds"] == len(s) and row["actives"] == y.sum() and row["top_k"] == k
            assert row["roc"] == pytest.approx(roc_auc_score(y, x))
            assert row["top_1pct"] == y[np.argsort(-x)[:k]].sum()
            assert row["croc_exp_14"] == pytest.approx(croc_auc(y, x, alpha=14))
            assert row["bedroc_20"] == pytest.approx(bedroc(y, x, alpha=20))
            # EF 1%: the hit rate in the top 1% over the hit rate of the whole list, counted by hand
            assert row["ef_1pct"] == pytest.approx((y[np.argsort(-x)[:k]].sum() / k) / (y.sum() / len(y)))
    assert table["top_k"].tolist() == [30, 30, 21, 21]
    # with intervals: each metric's 95% percentile interval of the stratified bootstrap, drawn by index here
    # (positives and negatives resampled separately), must agree with the table's within the resampling noise
    wide = datasets_table(runs, n_resamples=400, seed=3).set_index(["dataset", "model"])
    rng = np.random.default_rng(7)
    s = runs["one"]["A"]
    y, x = s["label"].to_numpy(), s["score"].to_numpy()
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    draws = []
    for _ in range(400):
        idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        draws.append(roc_auc_score(y[idx], x[idx]))
    low, high = np.percentile(draws, [2.5, 97.5])
    se = np.std(draws)
    row = wide.loc[("one", "A")]
    assert row["roc_low"] <= row["roc"] <= row["roc_high"]
    assert abs(row["roc_low"] - low) < 0.5 * se and abs(row["roc_high"] - high) < 0.5 * se
    assert all(row[f"{k}_low"] <= row[k] <= row[f"{k}_high"] for k in ("croc_exp_80", "bedroc_20", "ef_1pct"))
    assert list(wide.columns[: len(table.columns)]) == list(table.columns)  # the same columns first, then intervals
    runs["two"]["B"] = runs["two"]["B"].iloc[::-1]
    with pytest.raises(ValueError, match="dataset two: B did not score the same compounds"):
        datasets_table(runs)


def test_ranks_table_by_hand():
    from crocbench.report import SUMMARY_RANK_METRICS, ranks_table

    rows = []
    values = {"d1": (0.9, 0.8, 0.7), "d2": (0.9, 0.6, 0.8), "d3": (0.7, 0.8, 0.6), "d4": (0.95, 0.9, 0.5)}
    for dataset, vs in values.items():
        for model, v in zip("xyz", vs):
            rows.append({"dataset": dataset, "model": model, **{m: v for m in SUMMARY_RANK_METRICS}, "ef_1pct": 10 * v})
    ranks, pairs = ranks_table(pd.DataFrame(rows))
    roc = ranks[ranks["metric"] == "roc"].set_index("model")
    assert roc["mean_rank"].tolist() == pytest.approx([1.25, 2.0, 2.75])  # ranks [1,2,3] [1,3,2] [2,1,3] [1,2,3]
    assert roc["friedman_chi2"].iloc[0] == pytest.approx(4.5)  # 12/(4*3*4) (5^2+8^2+11^2) - 3*4*4
    assert roc["nemenyi_cd"].iloc[0] == pytest.approx(2.3437 * np.sqrt(3 * 4 / (6 * 4)), abs=1e-3)
    assert set(ranks["metric"]) == set(SUMMARY_RANK_METRICS) and len(pairs) == 3 * len(SUMMARY_RANK_METRICS)
    assert {"ef_1pct", "log_auc_0.001_0.1", "dcg_100"} <= set(SUMMARY_RANK_METRICS)
    xz = pairs[(pairs["metric"] == "roc") & (pairs["a"] == "x") & (pairs["b"] == "z")].iloc[0]
    assert (xz["wins"], xz["losses"], xz["ties"]) == (4, 0, 0) and xz["p_value"] == pytest.approx(0.125)  # 2/2^4


def _ranked_by_hand():
    """Four datasets, three models x, y, z; every metric the same values (the ef_1pct ten times them)."""
    from crocbench.report import SUMMARY_RANK_METRICS

    values = {"d1": (0.9, 0.8, 0.7), "d2": (0.9, 0.6, 0.8), "d3": (0.7, 0.8, 0.6), "d4": (0.95, 0.9, 0.5)}
    return pd.DataFrame(
        [
            {"dataset": d, "model": m, **{k: v for k in SUMMARY_RANK_METRICS}, "ef_1pct": 10 * v}
            for d, vs in values.items()
            for m, v in zip("xyz", vs)
        ]
    )


def test_conover_table_by_hand():
    from scipy import stats

    from crocbench.report import SUMMARY_RANK_METRICS, conover_table, ranks_table

    table = _ranked_by_hand()
    conover = conover_table(table)
    _, pairs = ranks_table(table)
    assert conover[["metric", "a", "b"]].equals(pairs[["metric", "a", "b"]])  # the Wilcoxon table's pairs, in order
    assert set(conover["metric"]) == set(SUMMARY_RANK_METRICS)
    # ranks [1,2,3] [1,3,2] [2,1,3] [1,2,3]: R = (5, 8, 11), A = 56, N A - sum R^2 = 224 - 210 = 14, 6 df
    sd = np.sqrt(2 * 14 / 6)
    p = {
        ("x", "y"): 2 * stats.t.sf(3 / sd, 6),
        ("x", "z"): 2 * stats.t.sf(6 / sd, 6),
        ("y", "z"): 2 * stats.t.sf(3 / sd, 6),
    }
    for row in conover[conover["metric"] == "croc_exp_80"].itertuples():
        assert row.p_value == pytest.approx(p[(row.a, row.b)], abs=1e-14)
    roc = conover[conover["metric"] == "roc"].set_index(["a", "b"])
    assert roc.at[("x", "z"), "p_holm"] == pytest.approx(3 * p[("x", "z")])  # Holm: the smallest of 3, times 3
    assert roc.at[("x", "y"), "p_holm"] == roc.at[("y", "z"), "p_holm"] == pytest.approx(2 * p[("x", "y")])
    assert roc.at[("x", "z"), "mean_rank_a"] == 1.25 and roc.at[("x", "z"), "mean_rank_b"] == 2.75


def test_the_summary_names_its_tests_and_gives_conover_beside_wilcoxon():
    from crocbench.report import SUMMARY_RANK_METRICS, SUMMARY_TESTS, conover_table, ranks_markdown, ranks_table

    table = _ranked_by_hand()
    ranks, pairs = ranks_table(table)
    text = ranks_markdown(ranks, pairs, conover=conover_table(table))
    assert SUMMARY_TESTS == (
        "Tests across screens: Friedman, then Conover's post-hoc (Holm) and Nemenyi's critical difference; "
        "pairwise Wilcoxon signed-rank with Holm"
    )
    assert text.startswith(SUMMARY_TESTS + ".\n\n")
    roc = text[text.index("## AUC[ROC]") : text.index("## AUC[CROC(exp)] a=7")]
    wilcoxon, conover = roc.index("| pair | wins-losses-ties |"), roc.index("| Conover p (Holm) | x | y | z |")
    assert wilcoxon < conover  # each metric's Conover matrix follows its Wilcoxon pairs, models by mean rank
    assert "| x |  | 0.43 | 0.096 |" in roc and "| z | 0.096 | 0.43 |  |" in roc
    assert text.count("| Conover p (Holm) |") == len(SUMMARY_RANK_METRICS)
    plain = ranks_markdown(ranks, pairs)  # without Conover's table, the summary does not name his test
    assert plain.startswith("Tests across screens: Friedman, then Nemenyi's critical difference; pairwise Wilcoxon")
    assert "Conover" not in plain


def test_the_mean_over_repeats_is_the_repeats_tables_mean():
    """With repeats, the summary ranks each model's mean over them: the ``mean`` of repeats_table (the dataset's
    tables/repeats.tsv), each repeat's value on its own pooled ranking; one repeat is datasets_table itself."""
    from crocbench.report import (
        SUMMARY_RANK_METRICS,
        conover_table,
        datasets_table,
        ranks_table,
        repeats_datasets_table,
        repeats_table,
    )
    from crocbench.report import summary_calls as calls_for

    def repeat(r, dataset):
        seed = 10 * r + dataset
        return {"A": _scores(seed, 1.2), "B": _scores(seed, 1.0), "C": _scores(seed + 100, 0.2)}

    runs = {f"d{d}": [repeat(r, d) for r in range(3)] for d in range(4)}
    means = repeats_datasets_table(runs)
    assert list(means.columns[:-1]) == list(datasets_table({"d0": runs["d0"][0]}).columns)
    assert means["repeats"].eq(3).all() and means["dataset"].tolist() == [f"d{d}" for d in range(4) for _ in "ABC"]
    for dataset, by_repeat in runs.items():
        want = repeats_table(by_repeat, calls_for(3000)).set_index(["model", "key"])["mean"]
        got = means[means["dataset"] == dataset].set_index("model")
        for c in calls_for(3000):
            for model in "ABC":
                assert got.at[model, c.key] == want[(model, c.key)]
                values = [datasets_table({dataset: pooled}).set_index("model").at[model, c.key] for pooled in by_repeat]
                assert got.at[model, c.key] == pytest.approx(np.mean(values), rel=1e-12)
    one = repeats_datasets_table({d: by_repeat[:1] for d, by_repeat in runs.items()})
    alone = pd.concat([datasets_table({d: by_repeat[0]}) for d, by_repeat in runs.items()], ignore_index=True)
    pd.testing.assert_frame_equal(one.drop(columns="repeats"), alone)
    ranks, _ = ranks_table(means)  # what the summary ranks and tests with repeats
    assert len(ranks) == len(SUMMARY_RANK_METRICS) * 3 and len(conover_table(means)) == len(SUMMARY_RANK_METRICS) * 3


def test_critical_difference_cliques_against_brute_force():
    import itertools

    from crocbench.stats import cd_cliques

    rng = np.random.default_rng(0)
    for _ in range(200):
        k = int(rng.integers(2, 8))
        ranks = dict(zip("abcdefg", np.round(rng.uniform(1, k, k), 2)))
        cd = float(rng.uniform(0.2, 3))
        order = sorted(ranks, key=ranks.get)
        # runs of consecutive models (in rank order) spanning less than cd, not inside a longer one
        runs = [
            tuple(order[i : j + 1])
            for i, j in itertools.combinations(range(len(order)), 2)
            if ranks[order[j]] - ranks[order[i]] < cd
        ]
        maximal = [r for r in runs if not any(set(r) < set(o) for o in runs)]
        assert sorted(cd_cliques(ranks, cd)) == sorted(maximal)


def test_critical_difference_cliques_leave_out_pairs_exactly_cd_apart():
    from crocbench.stats import cd_cliques

    # |r_i - r_j| < CD: not significantly different (joined); a difference of exactly CD is significant.
    # Every number here is exact in binary floating point: 2.25 - 1.5 == 0.75 == CD.
    assert 2.25 - 1.5 == 0.75
    assert cd_cliques({"a": 1.0, "b": 1.5, "c": 2.25}, 0.75) == [("a", "b")]  # b-c exactly CD apart: not joined
    assert cd_cliques({"a": 1.0, "b": 1.75}, 0.75) == []  # exactly CD apart: no clique at all
    # a-c (1.0, 1.75) and b-d (1.5, 2.25) are exactly CD apart: only the neighbouring pairs are joined
    assert cd_cliques({"a": 1.0, "b": 1.5, "c": 1.75, "d": 2.25}, 0.75) == [("a", "b"), ("b", "c"), ("c", "d")]


def _fold_scores(negatives_per_fold, positives=5, seed=0):
    """A pooled score table with the given number of negatives in each fold (and ``positives`` actives)."""
    rng = np.random.default_rng(seed)
    parts = []
    for fold, n_neg in enumerate(negatives_per_fold):
        y = np.r_[np.ones(positives, int), np.zeros(n_neg, int)]
        parts.append(pd.DataFrame({"fold": fold, "label": y, "score": rng.normal(size=y.size) + y}))
    out = pd.concat(parts, ignore_index=True)
    return out.assign(id=np.arange(len(out)).astype(str))


def test_areas_markdown_says_why_a_per_fold_value_is_missing():
    from crocbench.metrics import parse_metric, per_fold_metrics
    from crocbench.report import areas_markdown, areas_table, per_fold_summary

    def cells(negatives_per_fold, call):
        pooled = _fold_scores(negatives_per_fold)
        calls = [c for c in panel_for(pooled, top=0.1) if c.key in ("roc", "roc50")] + ([call] if call else [])
        summary = per_fold_summary({"M": per_fold_metrics(pooled, calls)}, calls)
        md = areas_markdown(areas_table({"M": pooled}, calls), summary, calls).splitlines()
        return summary, dict(
            zip([c.strip() for c in md[0].strip("|").split("|")], [c.strip() for c in md[2].strip("|").split("|")])
        )

    # every fold has 40 negatives (the pooled list 120): ROC50 is defined pooled, on no fold
    summary, row = cells([40, 40, 40], None)
    assert row["ROC50"].endswith("<br>n/a (a fold has < 50 negatives)") and "nan" not in "".join(row.values())
    # one fold of three has 40 negatives: ROC50 is undefined on it, so there is no mean over the folds
    summary, row = cells([60, 40, 70], parse_metric("roc_n:n=45"))
    assert row["ROC50"].endswith("<br>n/a (a fold has < 50 negatives)")
    assert row["roc_n:n=45"].endswith("<br>n/a (a fold has < 45 negatives)")  # the n is the call's
    assert "nan" not in "".join(row.values())
    assert np.isnan(summary.loc[0, "roc50_mean"]) and np.isnan(summary.loc[0, "roc50_sd"])  # the .tsv: empty cells
    assert re.fullmatch(r"0\.\d{4}<br>0\.\d{3} ± 0\.\d{3}", row["AUC[ROC]"])
    # every fold has >= 50 negatives: a number +/- a number, as on dtp_aids
    summary, row = cells([60, 50, 70], None)
    assert re.fullmatch(r"0\.\d{4}<br>0\.\d{3} ± 0\.\d{3}", row["ROC50"])
    assert row["ROC50"].split("<br>")[1] == f"{summary.loc[0, 'roc50_mean']:.3f} ± {summary.loc[0, 'roc50_sd']:.3f}"


@pytest.mark.filterwarnings('ignore:Argument "writer_name":PendingDeprecationWarning')
def test_the_reports_introduction_names_every_screen_of_a_list():
    """workflow/report/workflow.rst, rendered as Snakemake's report does with the config: one dataset or a list
    (a list made `snakemake --report` fail with "dict object has no element [...]")."""
    from pathlib import Path
    from types import SimpleNamespace

    import yaml

    jinja2 = pytest.importorskip("jinja2")
    core = pytest.importorskip("docutils.core")
    root = Path(__file__).parents[1]
    template = jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(
        (root / "workflow" / "report" / "workflow.rst").read_text()
    )
    config = yaml.safe_load((root / "config.yaml").read_text())
    for chosen in ("dtp_aids_ca", ["dtp_aids_ca", "dtp_aids"]):
        text = template.render(snakemake=SimpleNamespace(config={**config, "dataset": chosen}))
        core.publish_parts(text, writer_name="html", settings_overrides={"halt_level": 2, "report_level": 5})
        names = [chosen] if isinstance(chosen, str) else chosen
        for name in names:
            assert f"- **{name}**: {config['datasets'][name]['description'][:40]}" in text
        assert ("published vs reproduced" in text) == ("dtp_aids" in names)  # dtp_aids reproduces the paper
        assert ("cross-dataset summary" in text) == (len(names) > 1)


def _claims_inputs(n_screens: int, svm_roc_lead: float):
    """n screens on which, at every CROC, IRV > SVM > kNN > MAX-SIM > RANDOM (by 0.05 steps, with a per-screen
    offset), and at AUC[ROC] the same but the SVM ``svm_roc_lead`` above the IRV; tables 1 and 2 per screen."""
    names = {"random": "RANDOM", "maxsim": "MAX-SIM", "knn": "kNN", "svm": "SVM", "irv": "IRV"}
    order = ["irv", "svm", "knn", "maxsim", "random"]
    rows, areas, significance = [], {}, {}
    for d in range(n_screens):
        base = 0.3 + 0.01 * d
        vals = {m: base - 0.05 * i for i, m in enumerate(order)}
        roc = {m: 0.5 + vals[m] for m in order}
        roc["svm"] = roc["irv"] + svm_roc_lead
        for m in order:
            metrics = {"roc": roc[m], **{f"croc_exp_{a}": vals[m] for a in (7, 14, 80)}, "bedroc_20": vals[m]}
            rows.append({"dataset": f"s{d}", "model": names[m], **metrics, "ef_1pct": 100 * vals[m]})
        areas[f"s{d}"] = pd.DataFrame([r for r in rows if r["dataset"] == f"s{d}"]).drop(columns="dataset")
        # table 2: IRV vs SVM significant at a=80 (p 0.01) but not at ROC (p 0.2); paired <= unpaired in 9 of the
        # paper's 10 pairs
        sig = [
            {"a": "IRV", "b": "SVM", "metric": "croc_exp_80", "paired_permutation": 0.01, "unpaired_permutation": 0.1},
            {"a": "IRV", "b": "SVM", "metric": "roc", "paired_permutation": 0.2, "unpaired_permutation": 0.3},
        ]
        sig += [{"a": "kNN", "b": "MAX-SIM", "metric": "m", "paired_permutation": 0.1, "unpaired_permutation": 0.2}] * 7
        sig += [{"a": "kNN", "b": "MAX-SIM", "metric": "m", "paired_permutation": 0.3, "unpaired_permutation": 0.2}]
        # an imported score's pairs are not the paper's: the paired tests' claim leaves them out (counted, 9 of 12
        # cases would be 75%, under the paper's 80%)
        sig += [{"a": "score", "b": "IRV", "metric": "m", "paired_permutation": 0.5, "unpaired_permutation": 0.1}] * 2
        significance[f"s{d}"] = pd.DataFrame(sig)
    return pd.DataFrame(rows), areas, significance, names


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
    assert "Holm p 0.02" in out.loc["croc_significant_roc_not", "evidence"]
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


def test_pairwise_wilcoxon_signed_rank_sum_by_hand():
    from crocbench.stats import pairwise_wilcoxon

    # differences a - b: +1, -2, +3, 0 (dropped): ranks of |d| 1, 2, 3; W+ - W- = 1 - 2 + 3
    row = pairwise_wilcoxon(np.array([[2.0, 1.0], [0.0, 2.0], [4.0, 1.0], [5.0, 5.0]]), ["a", "b"])[0]
    assert row["signed_rank_sum"] == 2.0 and (row["wins"], row["losses"], row["ties"]) == (2, 1, 1)


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


def test_a_panel_reference_is_compared_with_the_panels_beside_it_that_hold_its_campaigns(tmp_path):
    from crocbench.pages import compared_panels
    from crocbench.reference import Manifest, write_manifest

    def panel(name, screens, models=("IRV",)):
        """A panel reference; its manifest says what its name suggests (the code reads the manifest, not the
        name): ``*confirmed`` confirmed actives, ``*scaffold`` a scaffold split, each overlaying ``all``."""
        (tmp_path / name).mkdir()
        rows = [(s, m) for s in screens for m in models]
        pd.DataFrame(rows, columns=["dataset", "model"]).to_csv(tmp_path / name / "datasets.tsv", sep="\t")
        split = "scaffold" if name.endswith("scaffold") else "random"
        labels = "confirmed" if name.endswith("confirmed") else "primary"
        overlays = None if (split, labels) == ("random", "primary") else "all"
        write_manifest(Manifest(tmp_path / name, "panel", split, labels, overlays, campaign_key="campaign"))

    panel("all", ["X_primary", "Y_primary", "Z_primary"])
    panel(
        "more", ["X_primary", "Y_primary", "Z_primary"], models=("IRV", "RF")
    )  # more rankers: compared with all, not by it
    panel("confirmed", ["X_confirmed", "Y_confirmed"])
    panel("scaffold", ["X_primary", "Z_primary"])
    panel("other", ["X_primary", "W_primary"])
    (tmp_path / "not_a_panel").mkdir()
    assert compared_panels(tmp_path / "confirmed") == [tmp_path / "all"]
    assert compared_panels(tmp_path / "scaffold") == [tmp_path / "all"]
    assert compared_panels(tmp_path / "all") == [] and compared_panels(tmp_path / "other") == []
    assert compared_panels(tmp_path / "more") == [tmp_path / "all"]
    # an overlay is not compared with an overlay of the other kind, though it holds the campaigns
    panel("few_confirmed", ["X_confirmed"])
    assert compared_panels(tmp_path / "few_confirmed") == [tmp_path / "all", tmp_path / "confirmed", tmp_path / "other"]
    panel("few_scaffold", ["X_primary"])
    assert compared_panels(tmp_path / "few_scaffold") == [tmp_path / "all", tmp_path / "other", tmp_path / "scaffold"]


def test_pairs_markdown_turns_a_pair_round_and_keeps_its_p():
    """``only`` gives the pairs in the order and orientation asked: z vs x is the table's x vs z turned round (by
    hand: x beats z on all 4 datasets by 0.2, 0.1, 0.1 and 0.45, a mean of 0.2125; p = 2/2^4 = 0.125, Holm over
    3 pairs 0.375; x against y: 0.1, 0.3, -0.1, 0.05, a mean of 0.0875, 3 wins and 1 loss)."""
    from crocbench.report import pairs_markdown, ranks_table

    _, pairs = ranks_table(_ranked_by_hand())
    table = pairs_markdown(pairs, ["roc", "ef_1pct"], only=[("z", "x"), ("x", "y")])
    lines = table.splitlines()
    assert lines[0] == "| pair | AUC[ROC] | EF 1% |" and len(lines) == 4
    assert lines[2] == "| z vs x | -0.212, 0-4, p 0.38 | -2.12, 0-4, p 0.38 |"
    assert lines[3].startswith("| x vs y | +0.08") and ", 3-1, p " in lines[3]
    assert (
        pairs_markdown(pairs, ["roc"]).splitlines()[2:]
        == [  # without only: the table's own pairs and order
            line for line in pairs_markdown(pairs, ["roc"], only=[("x", "y"), ("x", "z"), ("y", "z")]).splitlines()[2:]
        ]
    )
    with pytest.raises(ValueError, match="no test of x against w"):
        pairs_markdown(pairs, ["roc"], only=[("x", "w")])


def test_findings_read_the_ranks_and_the_holm_tests_as_computed_by_hand():
    """Twelve screens where the SVM leads on ROC and GBM-rank on every other metric, each ranker in the same order
    on every screen: every pair's record is 12-0, its exact two-sided signed-rank p 2/2^12 (scipy's, without ties),
    times 10 pairs by Holm (all equal); the mean ranks are whole places."""
    from scipy.stats import wilcoxon

    from crocbench.report import SUMMARY_RANK_METRICS, SUMMARY_TABLE_METRICS, ranks_table
    from crocbench.report.findings import exploratory_markdown

    roc_order = ["SVM", "GBM", "GBM-rank", "MAX-SIM", "RANDOM"]
    top_order = ["GBM-rank", "GBM", "SVM", "MAX-SIM", "RANDOM"]
    rows = []
    for d in range(12):
        for m in roc_order:
            # a place's gap to the next grows with the screen: no two screens tie on a pair's difference
            gap = 0.1 - d / 10_000
            values = {k: 1.0 - top_order.index(m) * gap + d / 1000 for k in SUMMARY_RANK_METRICS}
            rows.append({"dataset": f"d{d}", "model": m, **values, "roc": 1.0 - roc_order.index(m) * gap + d / 1000})
    ranks, pairs = ranks_table(pd.DataFrame(rows))
    text = exploratory_markdown(
        ranks, pairs, SUMMARY_TABLE_METRICS, trained=[("GBM-rank", "GBM")], baseline="MAX-SIM", left_out=["RANDOM"]
    )
    holm = f"{min(1.0, wilcoxon(np.arange(1.0, 13.0)).pvalue * 10):.2g}"
    assert holm == "0.0049"
    lines = text.splitlines()
    assert lines[0] == (
        "- Best by mean rank over 12 screens: by AUC[ROC] SVM (1.00); by AUC[CROC(exp)] a=80 GBM-rank (1.00); "
        "by BEDROC a=20 GBM-rank (1.00); by EF 1% GBM-rank (1.00); by logAUC[0.001, 0.1] GBM-rank (1.00); "
        "by DCG@100 GBM-rank (1.00)."
    )
    assert lines[1] == f"- By AUC[CROC(exp)] a=80, GBM-rank against AUC[ROC]'s pick SVM: 12-0 (Holm p {holm})."
    assert len(lines) == 1 + 5 + 1 + 2  # a line per early metric against ROC's pick, the pair, MAX-SIM's two
    assert lines[6].startswith(f"- GBM-rank against GBM: AUC[ROC] 0-12 (Holm p {holm}); AUC[CROC(exp)] a=80 12-0")
    assert lines[7] == (
        "- MAX-SIM's place by mean rank: AUC[ROC] 4 of 5; AUC[CROC(exp)] a=80 4 of 5; BEDROC a=20 4 of 5; "
        "EF 1% 4 of 5; logAUC[0.001, 0.1] 4 of 5; DCG@100 4 of 5."
    )
    assert lines[8] == (
        "- By EF 1%, MAX-SIM is significantly below 3 of the 3 other rankers (Holm p < 0.05) and above 0; its record "
        f"against each: SVM 0-12 (Holm p {holm}); GBM 0-12 (Holm p {holm}); GBM-rank 0-12 (Holm p {holm})."
    )


def test_findings_name_every_ranker_tied_at_the_best_mean_rank():
    """Two rankers that win every other screen off each other share the best mean rank (1.5) by every metric: both
    are named, and no metric's pick is read against ROC's (they are the same pair); MAX-SIM, tied with kNN, has a
    place range."""
    from crocbench.report import SUMMARY_RANK_METRICS, SUMMARY_TABLE_METRICS, ranks_table
    from crocbench.report.findings import exploratory_markdown

    rows = []
    for d in range(6):  # MAX-SIM and kNN trade the last two places likewise
        order = ["GBM", "GBM-rank", "MAX-SIM", "kNN"] if d % 2 else ["GBM-rank", "GBM", "kNN", "MAX-SIM"]
        for m in order:
            rows.append(
                {"dataset": f"d{d}", "model": m, **{k: 1.0 - order.index(m) / 10 for k in SUMMARY_RANK_METRICS}}
            )
    ranks, pairs = ranks_table(pd.DataFrame(rows))
    lines = exploratory_markdown(ranks, pairs, SUMMARY_TABLE_METRICS, baseline="MAX-SIM").splitlines()
    assert lines[0].startswith("- Best by mean rank over 6 screens: by AUC[ROC] GBM-rank and GBM (1.50); ")
    assert lines[0].endswith("; by DCG@100 GBM-rank and GBM (1.50).")
    assert not any("'s pick" in line for line in lines)
    assert lines[1].startswith("- MAX-SIM's place by mean rank: AUC[ROC] 3-4 (tied) of 4; ")
    assert lines[2].startswith("- By EF 1%, MAX-SIM is significantly below 0 of the 3 other rankers")
    # a baseline the ranks lack, and metrics without EF 1%: those lines are left out, not an error
    assert len(exploratory_markdown(ranks, pairs, SUMMARY_TABLE_METRICS, baseline="RANDOM").splitlines()) == 1
    no_ef = [m for m in SUMMARY_TABLE_METRICS if m != "ef_1pct"]
    assert len(exploratory_markdown(ranks, pairs, no_ef, baseline="MAX-SIM").splitlines()) == 2


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


def test_two_references_of_todays_rankers_are_compared_on_every_ranker_and_metric_they_share():
    """The committed scaffold overlay of today's rankers against their primary screens: every ranker both rank, the
    six metrics of the panels' tables, and the trained-for-the-top pairs' records, counted again here with pandas
    from both references' datasets.tsv on the campaigns they share."""
    from crocbench.data.pubchem import campaign_of
    from crocbench.pages import comparison_markdown
    from crocbench.report import SUMMARY_TABLE_METRICS, summary_labels

    ref = Path(__file__).resolve().parents[1] / "results" / "reference"
    mine, other = ref / "pubchem_hts_modern_scaffold", ref / "pubchem_hts_modern"
    lines = comparison_markdown(mine, other).splitlines()
    rows = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ")[1:] for line in lines[2:]}
    ranked = set(pd.read_csv(mine / "ranks.tsv", sep="\t")["model"])
    assert len(ranked) == 11
    for metric in SUMMARY_TABLE_METRICS:
        for cell in rows[f"mean ranks, {summary_labels()[metric]}"]:
            assert {part.rsplit(" ", 1)[0] for part in cell.split(" (Friedman")[0].split(", ")} == ranked
    tables = [pd.read_csv(f / "datasets.tsv", sep="\t") for f in (mine, other)]
    shared = set(tables[0]["dataset"].map(campaign_of)) & set(tables[1]["dataset"].map(campaign_of))
    for (a, b), column in [(pair, i) for pair in (("GBM-rank", "GBM"), ("MLP-exp", "MLP")) for i in (0, 1)]:
        t = tables[column][tables[column]["dataset"].map(campaign_of).isin(shared)].set_index(["dataset", "model"])
        want = []
        for metric in SUMMARY_TABLE_METRICS:
            x, y = t[metric].xs(a, level="model"), t[metric].xs(b, level="model")
            ties = int((x == y).sum())
            want.append(
                f"{summary_labels()[metric]} {int((x > y).sum())}-{int((x < y).sum())}" + (f"-{ties}" if ties else "")
            )
        assert rows[f"record, {a} vs {b}"][column] == ", ".join(want)
    # against the paper's five under the scaffold split: the paper's five on the four metrics of the values figure
    lines = comparison_markdown(mine, ref / "pubchem_hts_scaffold").splitlines()
    assert not any(line.startswith("| record,") or "DCG@100" in line for line in lines)
    cell = lines[3].split(" | ")[1].split(" (Friedman")[0]  # mean ranks, AUC[ROC]: the paper's five only
    assert {part.rsplit(" ", 1)[0] for part in cell.split(", ")} == {"RANDOM", "MAX-SIM", "kNN", "SVM", "IRV"}

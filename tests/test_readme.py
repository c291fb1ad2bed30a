"""The README's and the docs' generated blocks are the committed references' (a stale number is a bug), and the
README's examples run as written."""

import re
from pathlib import Path

import pandas as pd
import pytest

from crocbench.reference import readme_tables, reference_blocks, regenerate_documents

ROOT = Path(__file__).resolve().parents[1]


def test_every_page_is_its_regeneration_from_the_committed_references():
    """`crocbench regenerate --check` from the repository alone: every generated block and figure of the README and
    the docs equals what the library writes from the committed references now, and every block names a table of
    them (a stale block, or one naming a table no reference has, fails)."""
    stale = regenerate_documents(ROOT, check=True)
    assert stale == [], f"stale: {stale}; `crocbench regenerate` rewrites them"


def test_update_readme_rewrites_a_stale_block_wherever_it_stands(tmp_path):
    from crocbench.reference import update_readme

    tables = readme_tables(ROOT / "results" / "reference")
    readme, page = tmp_path / "README.md", tmp_path / "page.md"
    readme.write_text(f"# x\n<!-- reference:published -->\n{tables['published']}\n<!-- /reference:published -->\n")
    page.write_text("text\n<!-- reference:pooled -->\n| stale |\n<!-- /reference:pooled -->\nmore\n")
    assert update_readme([readme, page], ROOT / "results" / "reference") == [(str(page), "pooled")]
    assert reference_blocks(page.read_text()) == {"pooled": tables["pooled"]} and page.read_text().endswith("more\n")
    with pytest.raises(ValueError, match="no <!-- reference:pooled --> block"):
        update_readme([readme], ROOT / "results" / "reference")


def test_readme_python_example_runs():
    """The "From Python" snippet, run as written on a small list, each line's value checked against an independent
    computation: the CROC area by the trapezoid rule on the curve computed here, BEDROC by RDKit's, the random
    baseline by the paper's 0.0125 at a = 80 (it failed once: a keyword where the API takes N and n_pos
    positionally)."""
    import ast

    import numpy as np
    from rdkit.ML.Scoring.Scoring import CalcBEDROC
    from sklearn.linear_model import LogisticRegression

    code = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S).group(1)
    rng = np.random.default_rng(0)
    y_true = rng.random(2000) < 0.05
    names = {
        "y_true": y_true,
        "y_score": rng.random(2000) + y_true,
        "score_irv": rng.random(2000) + y_true,
        "score_svm": rng.random(2000) + 0.5 * y_true,
    }
    values = []
    for statement in ast.parse(code).body:  # each expression's value kept, the imports run
        if isinstance(statement, ast.Expr):
            values.append(eval(compile(ast.Expression(statement.value), "README.md", "eval"), names))  # noqa: S307
        else:
            exec(compile(ast.Module([statement], []), "README.md", "exec"), names)  # noqa: S102
    croc, bedroc, baseline, comparison, scorer = values
    order = np.argsort(-names["y_score"], kind="stable")  # no ties in random floats
    y = y_true[order]
    tpr = np.r_[0, np.cumsum(y) / y.sum()]
    fpr = np.r_[0, np.cumsum(~y) / (~y).sum()]
    x = (1 - np.exp(-80 * fpr)) / (1 - np.exp(-80))  # the exponential magnification of the FPR axis
    assert croc == pytest.approx(np.trapezoid(tpr, x), abs=1e-12)
    assert bedroc == pytest.approx(CalcBEDROC([[v] for v in y], 0, 20.0), abs=1e-9)
    assert baseline.mean == pytest.approx(0.0125, abs=5e-5)  # the paper's random AUC[CROC(exp)] at a = 80
    assert comparison.value_a > comparison.value_b and comparison.results["paired_permutation"].p_value < 0.01
    model = LogisticRegression().fit(np.c_[names["y_score"]], y_true)
    assert scorer(model, np.c_[names["y_score"]], y_true) == pytest.approx(croc, abs=1e-12)  # a monotone score


def test_readme_plugin_example_runs_as_declared(tmp_path):
    """ "Benchmark your own ranker": the plug-in module and its config entry, as written, fit and score."""
    import numpy as np
    import yaml

    from crocbench.cv import fold_table, score_fold
    from crocbench.fingerprints import Fingerprints
    from crocbench.models import declared_runs, make_model
    from crocbench.similarity import SimilarityIndex

    text = (ROOT / "README.md").read_text()
    module = re.search(r"```python\n# plugins/my_rankers.py\n(.*?)```", text, flags=re.S).group(1)
    entry = re.search(r"```yaml\n(models:\n  logreg_paper: .*?)```", text, flags=re.S).group(1)
    (tmp_path / "my_rankers.py").write_text(module)
    models = yaml.safe_load(entry)["models"]
    runs = declared_runs(models, search=[tmp_path])
    assert runs["logreg_paper"].label == "LogReg-paper"
    import jsonschema  # the entry passes the config's schema, as it would in config.yaml

    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())
    jsonschema.validate({"models": models}, {**schema, "required": []})
    rng = np.random.default_rng(0)
    rows = [np.unique(rng.integers(0, 50, 12)) for _ in range(60)]
    y = np.arange(60) % 4 == 0
    rows = [np.union1d(r, [100, 101]) if a else r for r, a in zip(rows, y)]  # actives share two features
    fp = Fingerprints(np.r_[0, np.cumsum([r.size for r in rows])], np.concatenate(rows).astype(np.uint64))
    model = make_model("logreg_paper", models["logreg_paper"], seed=(0, 1), search=[tmp_path])
    scores = score_fold(model, SimilarityIndex(fp), fold_table([f"c{i}" for i in range(60)], y.astype(int), 3), 0)
    assert scores["score"].notna().all()
    assert scores.loc[scores["label"] == 1, "score"].min() > scores.loc[scores["label"] == 0, "score"].max()


def test_the_models_guide_quotes_the_defaults_study_as_committed():
    """The inner-fold study's numbers in docs/user_guide/models.md are those of its committed table."""
    study = pd.read_csv(ROOT / "results" / "reference" / "modern" / "ecfp_defaults.tsv", sep="\t")
    a80 = "AUC[CROC(exp)] a=80"
    rf, logreg = study[study["model"] == "rf"], study[study["model"] == "logreg"].set_index("C")
    text = " ".join((ROOT / "docs" / "user_guide" / "models.md").read_text().split())
    best = rf.loc[rf[a80].idxmax()]
    assert (best["max_features"], best["class_weight"]) == ("sqrt", "balanced_subsample")
    assert (
        f"within {rf[a80].max() - rf[a80].min():.3f} of each other ({rf[a80].min():.3f} to {rf[a80].max():.3f})" in text
    )
    assert f"from {logreg.loc[0.01, a80]:.3f} (C = 0.01) to {logreg.loc[0.1, a80]:.3f} (C = 0.1)" in text
    assert logreg[a80].idxmax() == 0.1


def _study_values(ref) -> pd.DataFrame:
    """A study reference's model x metric values: intervals.tsv's, and EF 1% from other_metrics.tsv."""
    iv = pd.read_csv(ref / "intervals.tsv", sep="\t")
    other = pd.read_csv(ref / "other_metrics.tsv", sep="\t")
    return iv.pivot(index="model", columns="key", values="value").join(
        other[other["key"] == "ef_1pct"].set_index("model")["value"].rename("ef_1pct")
    )


def test_the_modern_studys_statements_hold_in_its_reference():
    """docs/studies/modern_rankers.md's findings, each rebuilt here from results/reference/modern_random/ (the
    orders from intervals.tsv and other_metrics.tsv, the tests from significance.tsv): a number that moves and
    turns a statement false fails here."""
    ref = ROOT / "results" / "reference" / "modern_random"
    page = (ROOT / "docs" / "studies" / "modern_rankers.md").read_text()
    iv = pd.read_csv(ref / "intervals.tsv", sep="\t")
    sig = pd.read_csv(ref / "significance.tsv", sep="\t")
    areas = pd.read_csv(ref / "areas.tsv", sep="\t").set_index("model")
    values = _study_values(ref)
    label = {**dict(zip(iv["key"], iv["label"])), "ef_1pct": "EF 1%"}

    def order(key):
        return list(values[key].sort_values(ascending=False, kind="stable").index)

    def place(model, key):
        return f"{order(key).index(model) + 1}"

    def tests(a, b, key):
        row = sig[(sig["metric"] == key) & (((sig["a"] == a) & (sig["b"] == b)) | ((sig["a"] == b) & (sig["b"] == a)))]
        assert len(row) == 1
        return row.iloc[0]

    first = {key: order(key)[0] for key in ("roc", "croc_exp_80", "bedroc_20", "ef_1pct")}
    n = len(values)
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}
    th = lambda m, k: ordinal.get(int(place(m, k)), place(m, k) + "th")  # noqa: E731
    statements = [
        f"{first['roc']} is first by {label['roc']} and by {label['bedroc_20']}, the {first['croc_exp_80']} by "
        f"{label['croc_exp_80']}, and {first['ef_1pct']} by EF 1%.",
        f"the SVM is {th('SVM', 'roc')} by {label['roc']} and {th('SVM', 'croc_exp_80')} by {label['croc_exp_80']}; "
        f"GBM-rank is {th('GBM-rank', 'roc')} by {label['roc']} and {th('GBM-rank', 'croc_exp_80')} by "
        f"{label['croc_exp_80']}.",
        f"Chemprop is {th('Chemprop', 'croc_exp_80')} of {n} by {label['croc_exp_80']}",
        f"MAX-SIM, the nearest-active baseline, is {th('MAX-SIM', 'ef_1pct')} of {n} by EF 1%",
    ]
    for text in statements:
        assert text in " ".join(page.split()), f"modern_rankers.md no longer says: {text}"
    assert first == {"roc": "RF", "croc_exp_80": "IRV", "bedroc_20": "RF", "ef_1pct": "GBM-rank"}  # as the page names
    from crocbench.stats import TESTS

    rf_irv = tests("RF", "IRV", "croc_exp_80")
    assert rf_irv["better"] == "IRV" and all(rf_irv[t] >= 0.05 for t in TESTS)
    rf_svm = tests("RF", "SVM", "croc_exp_80")
    assert rf_svm["better"] == "RF" and rf_svm["paired_permutation"] < 0.01
    for key in ("roc", "croc_exp_80", "bedroc_20"):
        row = tests("GBM-rank", "GBM", key)
        assert row["better"] == "GBM" and row["paired_permutation"] < 0.01
        row = tests("MLP-exp", "MLP", key)
        assert row["better"] == "MLP" and row["paired_permutation"] < (0.05 if key == "croc_exp_80" else 0.01)
    at_80 = tests("MLP-exp", "MLP", "croc_exp_80")["paired_permutation"]
    assert at_80 >= 0.01 and f"at p = {at_80:.2g} by {label['croc_exp_80']}" in " ".join(page.split())
    for anchor in ("IRV", "SVM"):
        row = tests("Chemprop", anchor, "croc_exp_80")
        assert row["better"] == anchor and all(row[t] < 0.01 for t in TESTS)
    assert areas.at["GBM-rank", "roc50"] > areas.at["GBM", "roc50"]
    assert areas.at["GBM-rank", "roc_t0.0086"] > areas.at["GBM", "roc_t0.0086"]


def test_the_modern_studys_scaffold_statements_hold_in_its_reference():
    """The scaffold split's findings on docs/studies/modern_rankers.md, rebuilt from results/reference/modern_scaffold/
    (and modern_random/ for the drop from the random split)."""
    refs = {s: ROOT / "results" / "reference" / f"modern_{s}" for s in ("random", "scaffold")}
    page = " ".join((ROOT / "docs" / "studies" / "modern_rankers.md").read_text().split())

    scaffold, random = _study_values(refs["scaffold"]), _study_values(refs["random"])
    keys = ("roc", "croc_exp_80", "bedroc_20", "ef_1pct")
    first = {k: scaffold[k].idxmax() for k in keys}
    assert first == {"roc": "SVM", "croc_exp_80": "IRV", "bedroc_20": "SVM", "ef_1pct": "GBM"}
    assert (
        "the SVM is first by AUC[ROC] and by BEDROC a=20, the IRV again by AUC[CROC(exp)] a=80, and GBM by EF 1%"
        in page
    )
    for model in scaffold.index.drop("RANDOM"):
        assert all(scaffold.at[model, k] < random.at[model, k] for k in keys), model
    sig = pd.read_csv(refs["scaffold"] / "significance.tsv", sep="\t")
    for key in ("roc", "croc_exp_80", "bedroc_20"):
        row = sig[(sig["a"] == "GBM") & (sig["b"] == "GBM-rank") & (sig["metric"] == key)].iloc[0]
        assert row["better"] == "GBM" and row["paired_permutation"] < 0.01
    a80 = scaffold["croc_exp_80"].sort_values(ascending=False)
    assert list(a80.index[-4:]) == ["MLP", "Chemprop", "MAX-SIM", "RANDOM"]
    drop = (random["croc_exp_80"] - scaffold["croc_exp_80"]).drop("RANDOM")
    assert drop.idxmax() == "MLP" and drop["Chemprop"] < drop["MLP"]
    assert (
        f"it falls from {random.at['MLP', 'croc_exp_80']:.4f} to {a80['MLP']:.4f}, {list(a80.index).index('MLP') + 1}th "
        f"of {len(a80)}, below every ranker but Chemprop, MAX-SIM and RANDOM" in page
    )
    assert (
        f"Chemprop loses less than the MLP (AUC[CROC(exp)] a=80 from {random.at['Chemprop', 'croc_exp_80']:.4f} to "
        f"{a80['Chemprop']:.4f}) but stays {list(a80.index).index('Chemprop') + 1}th of {len(a80)} by it" in page
    )
    tests = ["paired_permutation", "unpaired_permutation", "paired_t", "unpaired_t", "paired_wilcoxon"]
    for other in ("IRV", "SVM"):
        for key in ("roc", "croc_exp_80", "bedroc_20"):
            row = sig[(sig["a"] == "Chemprop") & (sig["b"] == other) & (sig["metric"] == key)].iloc[0]
            assert row["better"] == other and (row[[*tests, "unpaired_wilcoxon"]] < 0.01).all(), (other, key)

    def mlp(key):
        pair = {"MLP-exp", "MLP"}
        rows = sig[sig["a"].isin(pair) & sig["b"].isin(pair) & (sig["metric"] == key)]
        assert len(rows) == 1
        return rows.iloc[0]

    assert (
        mlp("croc_exp_80")["better"] == "MLP-exp" and scaffold.at["MLP-exp", "ef_1pct"] > scaffold.at["MLP", "ef_1pct"]
    )
    assert mlp("roc")["better"] == "MLP" and mlp("roc")["paired_permutation"] < 0.01
    assert (
        f"above MLP by AUC[CROC(exp)] a=80 (paired permutation p = {mlp('croc_exp_80')['paired_permutation']:.2g}) and "
        f"by EF 1%, while below it by AUC[ROC] (p < 0.01); by BEDROC a=20 they do not differ "
        f"(p = {mlp('bedroc_20')['paired_permutation']:.2g})" in page
    )
    assert mlp("bedroc_20")["paired_permutation"] >= 0.05
    rf, rf_random = scaffold.at["RF", "roc"], random.at["RF", "roc"]
    assert 0.80 < rf < 0.848
    assert f"RF's AUC[ROC] under the scaffold split is {rf:.4f}, above the published forests' 0.78 to 0.80" in page
    assert f"the drop from the random split ({rf_random:.4f})" in page


def test_the_svm_subsample_table_and_its_reading_are_the_committed_studys():
    """docs/studies/modern_panel.md, question (d): the table is benchmarks/studies/svm_subsample.py's rendering of
    results/reference/svm_subsample.tsv, and the sentence under it holds in that file."""
    import importlib.util
    import re

    path = ROOT / "benchmarks" / "studies" / "svm_subsample.py"
    spec = importlib.util.spec_from_file_location("svm_subsample_study", path)
    study = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(study)
    table = pd.read_csv(ROOT / "results" / "reference" / "svm_subsample.tsv", sep="\t")
    page = (ROOT / "docs" / "studies" / "modern_panel.md").read_text()
    block = re.search(r"<!-- study:svm_subsample -->\n(.*?)\n<!-- /study:svm_subsample -->", page, flags=re.S)
    assert block and block.group(1) == study.markdown(table)
    closed = table[table["variant"] == "half"].set_index("screen")["closed_croc_exp_80"]
    assert -0.6 < closed["hsf1_primary"] < -0.4 and -0.6 < closed["transcription_5_primary"] < -0.4  # about half
    assert 0 < closed["GPCR_3_primary"] < 0.15  # slightly
    assert "widens the SVM's gap at a = 80 on the two large screens by about half of it and narrows it" in page
    double = table[table["variant"] == "double"].set_index("screen")
    closed = double["closed_croc_exp_80"].round(2)
    assert (closed["transcription_5_primary"], closed["hsf1_primary"], closed["GPCR_3_primary"]) == (0.43, 0.48, 0.20)
    assert "doubling them closes 0.43 and 0.48 of it on the two large screens and 0.20 on the" in page
    assert (double["croc_exp_80"] < double["best_croc_exp_80"]).all()  # "stays below the best ranker"
    ef = double["closed_ef_1pct"].round(2)
    assert (ef["GPCR_3_primary"], ef["hsf1_primary"], ef["transcription_5_primary"]) == (0.19, 0.40, 0.42)
    assert "at EF 1% doubling closes 0.19, 0.40 and 0.42 of the gap" in page

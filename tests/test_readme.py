"""The README's results tables are the committed reference's (a stale number is a bug)."""

import re
from pathlib import Path

import pandas as pd
import pytest

from crocbench.reference import (
    document_tables,
    is_panel_reference,
    is_study_reference,
    readme_tables,
    reference_blocks,
)

ROOT = Path(__file__).resolve().parents[1]


DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: dtp_aids's reference, each committed panel's (results/reference/<panel>/, its summary's tables) and each study's
#: (results/reference/<study>/, a run's areas, other metrics, intervals and tests).
REFERENCES = [
    ROOT / "results" / "reference",
    *sorted(p for p in (ROOT / "results" / "reference").iterdir() if is_panel_reference(p) or is_study_reference(p)),
]
TABLES = [(ref, name) for ref in REFERENCES for name in document_tables(ref)]


@pytest.mark.parametrize("reference,name", TABLES, ids=[name for _, name in TABLES])
def test_results_tables_in_the_readme_and_docs_are_the_reference(reference, name):
    want = document_tables(reference)[name]
    found = {doc: blocks[name] for doc in DOCUMENTS if name in (blocks := reference_blocks(doc.read_text()))}
    assert found, f"no <!-- reference:{name} --> block in README.md or docs/"
    run = (
        "results/summary --out " + str(reference.relative_to(ROOT))
        if is_panel_reference(reference)
        else "results/dtp_aids --out " + str(reference.relative_to(ROOT))
        if is_study_reference(reference)
        else "results/dtp_aids"
    )
    for doc, table in found.items():
        assert table == want, (
            f"{doc.relative_to(ROOT)}: the {name} table is stale: "
            f"crocbench reference {run} --readme README.md docs/.../page.md rewrites it"
        )


def test_every_reference_block_names_a_committed_table():
    """A block naming a table no reference has (a panel not committed, a typo) is stale too."""
    known = {name for _, name in TABLES}
    for doc in DOCUMENTS:
        unknown = set(reference_blocks(doc.read_text())) - known
        assert not unknown, f"{doc.relative_to(ROOT)}: blocks {sorted(unknown)} name no committed reference table"


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
    """The "From Python" snippet, run as written on a small list (it failed once: a keyword where the API takes
    N and n_pos positionally)."""
    import numpy as np

    code = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S).group(1)
    rng = np.random.default_rng(0)
    y_true = rng.random(2000) < 0.05
    names = {
        "y_true": y_true,
        "y_score": rng.random(2000) + y_true,
        "score_irv": rng.random(2000) + y_true,
        "score_svm": rng.random(2000) + 0.5 * y_true,
    }
    exec(compile(code, "README.md", "exec"), names)  # noqa: S102


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


def test_the_modern_panel_page_says_how_many_screens_holm_needs_for_its_rankers():
    """docs/studies/modern_panel.md's count of screens below which no pair of its rankers can pass Holm's correction
    is screens_needed of the reference's rankers."""
    from crocbench.stats import screens_needed

    ranks = pd.read_csv(ROOT / "results" / "reference" / "pubchem_hts_modern" / "ranks.tsv", sep="\t")
    k = ranks["model"].nunique()
    page = " ".join((ROOT / "docs" / "studies" / "modern_panel.md").read_text().split())
    assert k == 11
    pairs = k * (k - 1) // 2
    assert (
        f"Below {screens_needed(k)} screens no pair's Wilcoxon test can pass Holm's correction over the {pairs} pairs"
        in page
    )
    assert f"(`crocbench.stats.screens_needed({k})`)" in page


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


def test_the_readmes_sentence_on_todays_rankers_holds_in_the_modern_panels_reference():
    """README's sentence over the ranks table of today's rankers on the panel, rebuilt from
    results/reference/pubchem_hts_modern/ (ranks.tsv, wilcoxon.tsv): the screens counted, each metric's best mean
    rank, and the Holm-adjusted Wilcoxon tests of MLP-exp against MLP."""
    ref = ROOT / "results" / "reference" / "pubchem_hts_modern"
    ranks = pd.read_csv(ref / "ranks.tsv", sep="\t")
    tests = pd.read_csv(ref / "wilcoxon.tsv", sep="\t")
    readme = " ".join((ROOT / "README.md").read_text().split())
    screens = int(ranks["datasets"].iloc[0])
    assert (ranks["datasets"] == screens).all()
    assert f"On the {screens} primary screens the SVM still ranks first on AUC[ROC]" in readme
    best = ranks.sort_values("mean_rank", kind="stable").groupby("metric").first()["model"]
    assert best["roc"] == "SVM"
    for metric in ("croc_exp_80", "bedroc_20", "ef_1pct", "log_auc_0.001_0.1"):  # "the IRV first on four of the
        m = ranks[ranks["metric"] == metric]  # five early-retrieval metrics": first, or tied first, on each
        assert m.loc[m["model"] == "IRV", "mean_rank"].item() == m["mean_rank"].min(), metric
    dcg = ranks[ranks["metric"] == "dcg_100"].set_index("model")["mean_rank"]
    assert dcg.idxmin() == "GBM-rank" and dcg["IRV"] > dcg.min()  # "(on DCG@100, GBM-rank)"
    assert "the IRV first on four of the five early-retrieval metrics (on DCG@100, GBM-rank)" in readme

    def pair(metric):
        row = tests[
            (tests["metric"] == metric) & (tests["a"].isin(["MLP", "MLP-exp"])) & (tests["b"].isin(["MLP", "MLP-exp"]))
        ]
        row = row.iloc[0]
        exp_ahead = row["signed_rank_sum"] > 0 if row["a"] == "MLP-exp" else row["signed_rank_sum"] < 0
        return exp_ahead, row["p_holm"]

    ahead, p = pair("ef_1pct")  # "beats plain cross-entropy at EF 1%"
    assert ahead and p < 0.05
    ahead, p = pair("roc")  # "and loses on AUC[ROC]"
    assert not ahead and p < 0.05
    assert (
        "the MLP trained for the top beats plain cross-entropy at EF 1% and loses on AUC[ROC] (Wilcoxon-Holm" in readme
    )


@pytest.mark.parametrize(
    "run, figure, page",
    [
        ("", "modern_panel_cd.png", "modern_panel.md"),
        ("_scaffold", "modern_panel_scaffold_cd.png", "modern_panel_overlays.md"),
        ("_confirmed", "modern_panel_confirmed_cd.png", "modern_panel_overlays.md"),
    ],
)
def test_the_modern_panel_pages_critical_difference_figures_are_their_references(tmp_path, run, figure, page):
    """Each run's critical-difference diagrams on the study pages are its reference's ranks drawn again (pixel for
    pixel): a figure left behind when the reference moves fails here."""
    from matplotlib.image import imread

    from crocbench.reference import critical_difference_figure

    critical_difference_figure(ROOT / "results" / "reference" / f"pubchem_hts_modern{run}", tmp_path / "cd.png")
    committed, drawn = imread(ROOT / "docs" / "studies" / figure), imread(tmp_path / "cd.png")
    assert committed.shape == drawn.shape and (committed == drawn).all()
    assert "critical-difference diagrams of the six metrics" in (ROOT / "docs" / "studies" / page).read_text()
    assert f"]({figure})" in (ROOT / "docs" / "studies" / page).read_text()


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class _Panel:
    """A panel reference's ranks and Wilcoxon-Holm tests, read again with pandas for the prose tests."""

    LABELS = {
        "roc": "AUC[ROC]",
        "croc_exp_80": "AUC[CROC(exp)] a=80",
        "bedroc_20": "BEDROC a=20",
        "ef_1pct": "EF 1%",
        "log_auc_0.001_0.1": "logAUC[0.001, 0.1]",
        "dcg_100": "DCG@100",
    }
    EARLY = ("croc_exp_80", "bedroc_20", "ef_1pct", "log_auc_0.001_0.1", "dcg_100")

    def __init__(self, folder):
        self.ranks = pd.read_csv(folder / "ranks.tsv", sep="\t")
        self.tests = pd.read_csv(folder / "wilcoxon.tsv", sep="\t")
        self.screens = int(self.ranks["datasets"].iloc[0])
        self.models = self.ranks["model"].nunique()

    def order(self, metric) -> list:
        return list(self.ranks[self.ranks["metric"] == metric].sort_values("mean_rank", kind="stable")["model"])

    def place(self, metric, model) -> int:
        """1 + the rankers with a strictly better mean rank."""
        m = self.ranks[self.ranks["metric"] == metric].set_index("model")["mean_rank"]
        return int((m < m[model]).sum()) + 1

    def pair(self, metric, a, b) -> tuple:
        """(wins, losses, ties, Holm p, ahead) of a against b."""
        t = self.tests[self.tests["metric"] == metric]
        row = t[(t["a"] == a) & (t["b"] == b)]
        if len(row):
            r = row.iloc[0]
            return int(r["wins"]), int(r["losses"]), int(r["ties"]), float(r["p_holm"]), r["signed_rank_sum"] > 0
        r = t[(t["a"] == b) & (t["b"] == a)].iloc[0]
        return int(r["losses"]), int(r["wins"]), int(r["ties"]), float(r["p_holm"]), r["signed_rank_sum"] < 0

    def record(self, metric, a, b) -> str:
        w, lost, t, p, _ = self.pair(metric, a, b)
        return f"{w}-{lost}" + (f"-{t}" if t else "") + f", Holm p {p:.2g}"


_WORDS = dict(enumerate(("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")))


def _how_many(n: int) -> str:
    """A count in words, "none" for 0 ("on none of the five")."""
    return "none" if n == 0 else _WORDS[n]


def _listed(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _modern_answers(ref: _Panel) -> list:
    """The prose answers to (a), (b) and (c), rebuilt from a reference's ranks and tests."""
    n, k, L = ref.screens, ref.models, _Panel.LABELS
    # (a): ROC's pick, the IRV's metrics, the SVM's place at the top
    assert ref.order("roc")[0] == "SVM"
    irv_first = [m for m in _Panel.EARLY if ref.place(m, "IRV") == 1]
    others = [m for m in _Panel.EARLY if m not in irv_first]
    assert len(others) == 1  # "on the other, ..."
    other = others[0]
    a = (
        f"(a) Not the one ROC picks. ROC picks the SVM, first by mean rank on AUC[ROC] over the {n} screens. The IRV "
        f"is first on {_WORDS[len(irv_first)]} of the five early-retrieval metrics ({_listed(L[m] for m in irv_first)}) and "
        f"{ref.order(other)[0]} on {L[other]}, where the SVM is {_ordinal(ref.place(other, 'SVM'))} of {k}."
    )
    sig = [m for m in _Panel.EARLY if m in irv_first and ref.pair(m, "IRV", "SVM")[3] < 0.05]
    not_sig = [m for m in irv_first if m not in sig]
    assert all(ref.pair(m, "IRV", "SVM")[4] for m in sig)
    a2 = (
        f"At a = 80 the SVM is {_ordinal(ref.place('croc_exp_80', 'SVM'))} of {k}, and the IRV beats it there "
        f"({ref.record('croc_exp_80', 'IRV', 'SVM')})"
        + "".join(f" and on {L[m]} ({ref.record(m, 'IRV', 'SVM')})" for m in sig if m != "croc_exp_80")
        + "; on "
        + _listed(L[m] for m in not_sig)
        + " its lead over the SVM is not significant."
    )
    assert "croc_exp_80" in sig

    # (b): each pair trained for the top against its plain form, by significance and direction
    def split(a, b):
        ahead = [m for m in ("roc", *_Panel.EARLY) if ref.pair(m, a, b)[3] < 0.05 and ref.pair(m, a, b)[4]]
        behind = [m for m in ("roc", *_Panel.EARLY) if ref.pair(m, a, b)[3] < 0.05 and not ref.pair(m, a, b)[4]]
        return ahead, behind

    ahead, behind = split("MLP-exp", "MLP")
    b1 = (
        "(b) Training for the top helps the MLP, and the booster only on DCG@100. MLP-exp beats plain cross-entropy "
        "on " + _listed(f"{L[m]} ({ref.record(m, 'MLP-exp', 'MLP')})" for m in ahead)
        + " and loses on " + _listed(f"{L[m]} ({ref.record(m, 'MLP-exp', 'MLP')})" for m in behind) + "."
    )  # fmt: skip
    assert ahead and behind
    ahead, behind = split("GBM-rank", "GBM")
    assert ahead == ["dcg_100"] and not behind
    b2 = (
        f"GBM-rank beats GBM on DCG@100 alone ({ref.record('dcg_100', 'GBM-rank', 'GBM')}); on the other five "
        "metrics no difference is significant."
    )
    # (c): MAX-SIM's place, and its tests at EF 1%
    places = {ref.place(m, "MAX-SIM") for m in ("roc", *_Panel.EARLY)}
    assert places == {k - 1}  # "ahead only of RANDOM"
    rivals = [m for m in ref.order("ef_1pct") if m not in ("MAX-SIM", "RANDOM")]
    below = [
        m for m in rivals if ref.pair("ef_1pct", "MAX-SIM", m)[3] < 0.05 and not ref.pair("ef_1pct", "MAX-SIM", m)[4]
    ]
    above = [m for m in rivals if ref.pair("ef_1pct", "MAX-SIM", m)[3] < 0.05 and ref.pair("ef_1pct", "MAX-SIM", m)[4]]
    assert not above
    c = (
        f"(c) No. MAX-SIM is {_ordinal(k - 1)} of {k} on all six metrics, ahead only of RANDOM. At EF 1% it is "
        f"significantly below {len(below)} of the {len(rivals)} other rankers (Holm p < 0.05: "
        + _listed(below) + "), and above none."
    )  # fmt: skip
    return [a, a2, b1, b2, c]


def test_the_modern_panels_answers_a_to_c_hold_in_its_reference():
    """docs/studies/modern_panel.md's prose answers to (a), (b) and (c), each sentence rebuilt here from
    results/reference/pubchem_hts_modern/ranks.tsv and wilcoxon.tsv: a number moved there fails until the prose moves."""
    page = " ".join((ROOT / "docs" / "studies" / "modern_panel.md").read_text().replace("**", "").split())
    for sentence in _modern_answers(_Panel(ROOT / "results" / "reference" / "pubchem_hts_modern")):
        assert sentence in page, sentence


def test_the_modern_panel_says_where_its_run_stands_and_what_chemprop_would_cost():
    """docs/studies/modern_panel.md's "Where the run stands": the screens the reference holds, and Chemprop's estimate
    by compounds: the 25 screens' compounds (summed from datasets.tsv) at the rate of its DTP AIDS run on an H100
    (the 449 s of docs/studies/modern_rankers.md for DTP AIDS's 42,678 compounds)."""
    ref = ROOT / "results" / "reference" / "pubchem_hts_modern"
    datasets = pd.read_csv(ref / "datasets.tsv", sep="\t").drop_duplicates("dataset")
    page = " ".join((ROOT / "docs" / "studies" / "modern_panel.md").read_text().split())
    assert len(datasets) == 25 and "All 25 primary screens have run with the eleven rankers" in page
    compounds = int(datasets["compounds"].sum())
    assert f"the 25 screens' {compounds:,} compounds" in page
    assert "(the 10 folds side by side, 417 to 441 s each, 449 s in all)" in " ".join(
        (ROOT / "docs" / "studies" / "modern_rankers.md").read_text().split()
    )
    hours = round(compounds / 42_678 * 449 / 3600)
    assert "ten folds of 42,678 compounds in 449 s on one NVIDIA H100" in page
    assert f"would take about {hours} hours of that GPU" in page


class _Overlay:
    """An overlay reference beside the primary one on the campaigns they share, recomputed here with pandas and
    scipy from each reference's datasets.tsv (mean ranks, records); Conover's Holm p from the overlay's conover.tsv
    (tests/test_conover.py checks those against scikit-posthocs). ``declared`` is how many screens its panel config
    (config/panels/pubchem_hts_<overlay>.yaml) declares, ``complete`` whether the reference holds them all."""

    def __init__(self, folder, primary):
        import yaml

        def campaigns(name):
            table = pd.read_csv(ROOT / "results" / "reference" / name / "datasets.tsv", sep="\t")
            ranked = pd.read_csv(ROOT / "results" / "reference" / name / "ranks.tsv", sep="\t")["model"].unique()
            table = table[table["model"].isin(ranked)]  # the campaign's own score is shown, never ranked
            return table.assign(campaign=table["dataset"].str.replace(r"_(primary|confirmed)$", "", regex=True))

        self.here = campaigns(folder)
        there = campaigns(primary)
        self.there = there[there["campaign"].isin(self.here["campaign"])]
        self.screens = self.here["campaign"].nunique()
        assert self.there["campaign"].nunique() == self.screens  # every overlay campaign has its primary screen
        self.conover = pd.read_csv(ROOT / "results" / "reference" / folder / "conover.tsv", sep="\t")
        config = ROOT / "config" / "panels" / f"pubchem_hts_{folder.rsplit('_', 1)[1]}.yaml"
        self.declared = len(yaml.safe_load(config.read_text())["dataset"])
        self.complete = self.screens == self.declared

    @staticmethod
    def _wide(table, metric):
        return table.pivot(index="campaign", columns="model", values=metric)

    def mean_ranks(self, metric, here=True) -> pd.Series:
        from scipy.stats import rankdata

        wide = self._wide(self.here if here else self.there, metric)
        ranks = wide.apply(lambda row: pd.Series(rankdata(-row.to_numpy()), index=row.index), axis=1)
        return ranks.mean()

    def first(self, metric, here=True) -> list:
        """The rankers with the best mean rank (more than one when tied), by name."""
        ranks = self.mean_ranks(metric, here)
        return sorted(ranks[ranks == ranks.min()].index)

    def place(self, metric, model, here=True) -> int:
        ranks = self.mean_ranks(metric, here)
        return int((ranks < ranks[model]).sum()) + 1

    def record(self, metric, a, b, here=True) -> tuple:
        wide = self._wide(self.here if here else self.there, metric)
        return int((wide[a] > wide[b]).sum()), int((wide[a] < wide[b]).sum()), int((wide[a] == wide[b]).sum())

    def leaders(self) -> tuple:
        """(rankers, count): the rankers first (alone or tied) on the most of the five early-retrieval metrics here."""
        counts = pd.Series([m for metric in _Panel.EARLY for m in self.first(metric)]).value_counts()
        return sorted(counts[counts == counts.max()].index), int(counts.max())

    def top_training(self, primary) -> tuple:
        """(found, kept, lost, significant): the differences training for the top made on the primary screens
        (Wilcoxon-Holm p < 0.05 over all of them), each (a, b, metric, a ahead); those with more wins than losses here
        in the same direction; the others; those Conover's test finds here (Holm p < 0.05)."""
        found = [
            (a, b, m, primary.pair(m, a, b)[4])
            for a, b in (("MLP-exp", "MLP"), ("GBM-rank", "GBM"))
            for m in ("roc", *_Panel.EARLY)
            if primary.pair(m, a, b)[3] < 0.05
        ]

        def keeps(a, b, m, ahead):
            w, lost, _ = self.record(m, a, b)
            return w > lost if ahead else w < lost

        kept = [f for f in found if keeps(*f)]
        return (
            found,
            kept,
            [f for f in found if f not in kept],
            [f for f in found if self.conover_p(f[2], *f[:2]) < 0.05],
        )

    def conover_p(self, metric, a, b) -> float:
        c = self.conover[self.conover["metric"] == metric]
        row = c[((c["a"] == a) & (c["b"] == b)) | ((c["a"] == b) & (c["b"] == a))]
        return float(row["p_holm"].iloc[0])


def _first_on(ov: _Overlay, model: str = "SVM") -> int:
    """How many of the five early-retrieval metrics a ranker (by default ROC's pick, the SVM) is first on (alone or
    tied) in an overlay."""
    return sum(model in ov.first(m) for m in _Panel.EARLY)


def _verdict(ov: _Overlay) -> str:
    """(a) asked again: ROC's pick first at the top on most of the five, on two, or on at most one."""
    n = _first_on(ov)
    if n == 2:
        return "ROC's pick is first at the top on only two of the five"
    return "ROC's pick is also first at the top" if n >= 3 else "ROC's pick is still not the ranker best at the top"


def _overlay_answers(ov: _Overlay, primary: _Panel) -> list:
    """The prose answers to (e) for one overlay, each of (a), (b) and (c) asked again on its screens beside the primary
    screens of the same campaigns, rebuilt from the references; (b)'s differences are those the primary reference's
    Wilcoxon-Holm tests over all its screens found significant."""
    n, L, k = ov.screens, _Panel.LABELS, primary.models

    def firsts(here):
        groups = {}
        for m in _Panel.EARLY:
            who = ov.first(m, here)
            groups.setdefault(_listed(who) + (" (tied)" if len(who) > 1 else ""), []).append(L[m])
        return "; ".join(f"{who} on {_listed(metrics)}" for who, metrics in groups.items())

    # (a): ROC's pick here and there, and who is first at the top
    assert ov.first("roc") == ov.first("roc", here=False) == ["SVM"]
    leads = [
        f"{L[m]} (Conover-Holm p {ov.conover_p(m, ov.first(m)[0], 'SVM'):.2g})"
        for m in _Panel.EARLY
        if len(ov.first(m)) == 1 and ov.first(m) != ["SVM"] and ov.conover_p(m, ov.first(m)[0], "SVM") < 0.05
    ]
    svm_first = _first_on(ov)
    a = (
        f"(a) ROC picks the SVM here too, first by mean rank on AUC[ROC] as on the primary screens of the same {n} "
        f"campaigns, and the SVM is first at the top on {_how_many(svm_first)} of the five "
        "early-retrieval metrics" + ("" if svm_first == 2 else f": {_verdict(ov)} here") + ". "
        f"First at the top here: {firsts(True)}; on those campaigns' primary screens: {firsts(False)}. The leader's "
        f"lead over the SVM is significant by Conover's test on " + (_listed(leads) if leads else "none of them") + "."
    )
    # (b): the primary screens' significant differences of training for the top, here
    found, kept, lost_, sig = ov.top_training(primary)

    def on(differences):  # "MLP-exp against MLP on AUC[ROC] (1-3) and DCG@100 (4-0), GBM-rank against GBM on ..."
        pairs = {}
        for a_, b_, m, _ in differences:
            w, lost, t = ov.record(m, a_, b_)
            pairs.setdefault(f"{a_} against {b_}", []).append(f"{L[m]} ({w}-{lost}" + (f"-{t})" if t else ")"))
        return ", ".join(f"{pair} on {_listed(cells)}" for pair, cells in pairs.items())

    b = (
        f"(b) Of the {_WORDS[len(found)]} differences training for the top made on the 25 primary screens "
        f"(Wilcoxon-Holm p < 0.05), {_WORDS[len(kept)]} {'keeps its' if len(kept) == 1 else 'keep their'} direction here"
        + (f": {on(kept)}" if kept else "")
        + (f"; {_WORDS[len(lost_)]} {'does' if len(lost_) == 1 else 'do'} not: {on(lost_)}" if lost_ else "")
        + ". By Conover's test " + (f"{'this is' if len(sig) == 1 else 'these are'} significant here: {on(sig)}." if sig else "none is significant here.")
    )  # fmt: skip
    # (c): MAX-SIM at EF 1%
    ranks = ov.mean_ranks("ef_1pct")
    rivals = [m for m in ranks.index if m not in ("MAX-SIM", "RANDOM")]
    below = sorted(m for m in rivals if ov.conover_p("ef_1pct", "MAX-SIM", m) < 0.05 and ranks[m] < ranks["MAX-SIM"])
    above = sorted(m for m in rivals if ov.conover_p("ef_1pct", "MAX-SIM", m) < 0.05 and ranks[m] > ranks["MAX-SIM"])
    c = (
        f"(c) MAX-SIM is {_ordinal(ov.place('ef_1pct', 'MAX-SIM'))} of {k} at EF 1% here "
        f"({_ordinal(ov.place('ef_1pct', 'MAX-SIM', here=False))} on the same campaigns' primary screens), significantly "
        f"below {_how_many(len(below))} of the {len(rivals)} other rankers by Conover's test"
        + (f" ({_listed(below)})" if below else "") + f" and above {_listed(above) if above else 'none'}."
    )  # fmt: skip
    return [a, b, c]


@pytest.mark.parametrize("overlay", ["scaffold", "confirmed"])
def test_the_overlays_answers_to_e_hold_in_their_references(overlay):
    """docs/studies/modern_panel_overlays.md's answers to (e), each sentence rebuilt here from the overlay's and the
    primary reference's datasets.tsv (ranks and records recomputed), the overlay's conover.tsv and the primary
    reference's wilcoxon.tsv: a number moved in either fails until the prose moves."""
    page = " ".join((ROOT / "docs" / "studies" / "modern_panel_overlays.md").read_text().replace("**", "").split())
    primary = _Panel(ROOT / "results" / "reference" / "pubchem_hts_modern")
    ov = _Overlay(f"pubchem_hts_modern_{overlay}", "pubchem_hts_modern")
    for sentence in _overlay_answers(ov, primary):
        assert sentence in page, sentence
    ran = (
        f"all {ov.declared} of its screens" if ov.complete else f"{ov.screens} of its {ov.declared}"
    )  # where they stand
    assert re.search(rf"{overlay} overlay (has run )?on {ran}[,.]", page), ran


def _e_summary(scaffold: _Overlay, confirmed: _Overlay, primary: _Panel) -> list:
    """The (e) line of docs/studies/modern_panel.md: both overlays' answers in brief, rebuilt as _overlay_answers."""
    both = {"under the scaffold split": scaffold, "with confirmed actives": confirmed}
    assert all(ov.first("roc") == ["SVM"] for ov in both.values())
    irv = [m for m in _Panel.EARLY if primary.place(m, "IRV") == 1]

    def so_far(ov):
        return "" if ov.complete else ", so far,"

    def first_on(ov):
        n = _first_on(ov)
        return f"on {_how_many(n)}" + (" of them" if 0 < n < 5 else "")

    def led(ov):
        who, count = ov.leaders()
        return f"{_listed(who)} on " + ("all five" if count == 5 else f"{_WORDS[count]} of the five")

    cond_s, cond_c = both
    done = scaffold.complete and confirmed.complete
    verdicts = (_verdict(scaffold), _verdict(confirmed))
    if done and verdicts[0] == verdicts[1]:  # both overlays complete and of one answer: one clause
        head = f"(e) {cond_s.capitalize()} and {cond_c}, {verdicts[0]}."
    else:
        head = f"(e) {cond_s.capitalize()}{so_far(scaffold)} {verdicts[0]}; {cond_c}{so_far(confirmed)} {verdicts[1]}."
    ran = (
        f"On all {scaffold.declared} screens under the scaffold split and all {confirmed.declared} with confirmed "
        "actives"
        if done
        else f"On {scaffold.screens} of {scaffold.declared} screens under the scaffold split and {confirmed.screens} "
        f"of {confirmed.declared} with confirmed actives"
    )
    training = [ov.top_training(primary) for ov in both.values()]  # (found, kept, lost, significant) each
    found = training[0][0]
    kept = [len(t[1]) for t in training]
    sig = [len(t[3]) for t in training]
    places = [_ordinal(ov.place("ef_1pct", "MAX-SIM")) for ov in both.values()]
    return [
        head,
        f"{ran}, ROC picks the SVM under both; of the five early-retrieval metrics the SVM is first (alone or tied) "
        f"{first_on(scaffold)} {cond_s} and {first_on(confirmed)} {cond_c}.",
        f"First at the top on the most of the five: {led(scaffold)} {cond_s}, {led(confirmed)} {cond_c}; on the 25 "
        f"primary screens the IRV, on {_WORDS[len(irv)]}.",
        f"Of the {_WORDS[len(found)]} differences training for the top made on the primary screens, {_WORDS[kept[0]]} "
        f"keep their direction {cond_s} and {_WORDS[kept[1]]} {cond_c}"
        + (", none significant by Conover's test." if not any(sig) else
           f" ({_how_many(sig[0])} and {_how_many(sig[1])} of them significant by "
           "Conover's test)."),
        f"MAX-SIM is {places[0]} and {places[1]} of {primary.models} at EF 1%.",
    ]  # fmt: skip


def test_the_modern_panels_e_line_holds_in_the_overlays_references():
    """docs/studies/modern_panel.md's (e): the overlays' answers in brief, rebuilt from the references as above."""
    page = " ".join((ROOT / "docs" / "studies" / "modern_panel.md").read_text().replace("**", "").split())
    reference = ROOT / "results" / "reference" / "pubchem_hts_modern"
    overlays = [_Overlay(f"pubchem_hts_modern_{o}", "pubchem_hts_modern") for o in ("scaffold", "confirmed")]
    for sentence in _e_summary(*overlays, _Panel(reference)):
        assert sentence in page, sentence


def test_both_study_pages_say_how_far_the_overlays_have_run():
    """docs/studies/modern_panel.md's "Where the run stands" and the overlays page's "Where the runs stand" give the
    overlays' screens as their references hold them (datasets.tsv), and say (e) is open exactly while one overlay
    has screens to run."""
    pages = [ROOT / "docs" / "studies" / f"{p}.md" for p in ("modern_panel", "modern_panel_overlays")]
    panel, overlays = (" ".join(p.read_text().replace("**", "").split()) for p in pages)
    scaffold, confirmed = (_Overlay(f"pubchem_hts_modern_{o}", "pubchem_hts_modern") for o in ("scaffold", "confirmed"))
    if scaffold.complete and confirmed.complete:
        assert (
            "With today's rankers both overlays have run on all of their screens, the scaffold overlay's "
            f"{scaffold.declared} and the confirmed overlay's {confirmed.declared} ([their page]"
            "(modern_panel_overlays.md))." in panel
        )
        for text in (panel, overlays):
            assert "is open" not in text and "stays open" not in text and "so far" not in text
    else:
        assert "(e) is open" in panel and "(e) stays open" in overlays


def test_the_readmes_sentence_on_the_overlays_holds_in_their_references():
    """README's sentence on (e): the early-retrieval metrics the IRV and the SVM are first on (alone or tied) in each
    overlay, recomputed from the overlays' datasets.tsv, against the IRV's four on the 25 primary screens."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    primary = _Panel(ROOT / "results" / "reference" / "pubchem_hts_modern")
    overlays = [_Overlay(f"pubchem_hts_modern_{o}", "pubchem_hts_modern") for o in ("scaffold", "confirmed")]
    assert all(ov.complete for ov in overlays)  # the sentence speaks of the overlays complete
    irv = [_first_on(ov, "IRV") for ov in overlays]
    svm = [_first_on(ov) for ov in overlays]
    on_primary = sum(primary.place(m, "IRV") == 1 for m in _Panel.EARLY)
    assert on_primary == 4 and max(irv) < on_primary  # "the IRV's lead at the top does not hold"
    assert (
        "the IRV's lead at the top does not hold: it is first on "
        f"{_how_many(irv[0])} and on {_how_many(irv[1])} of the five early-retrieval metrics, ROC's pick, the SVM, on "
        f"{_how_many(svm[0])} and on {_how_many(svm[1])}." in readme
    )

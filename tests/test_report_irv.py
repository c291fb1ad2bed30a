"""crocbench.report._irv: the IRV training table, with the paper's epochs only for a dataset that reproduces it."""

from _synthetic import _scores

from crocbench.paper import irv_training_claims, paper_irv_epochs
from crocbench.report import claims_markdown, irv_training_table, markdown_table


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

"""crocbench.config: the cross-field checks the schema cannot make, each failing in one line."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from _configs import merged_config

from crocbench.config import (
    SIZE_UNKNOWN,
    check_archives,
    check_config,
    check_repeats,
    check_sizes,
    chosen_datasets,
    expected_compounds,
    summary_models,
)
from crocbench.models import declared_runs

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())


def _config(**over):
    return {**CONFIG, **over}


def test_the_default_config_passes_and_builds_dtp_aids():
    assert check_config(CONFIG, declared_runs(dict(CONFIG["models"]))) == ["dtp_aids"]


def test_datasets_must_be_declared_and_given_once():
    assert chosen_datasets(_config(dataset=["moleculenet_hiv", "dtp_aids"])) == ["moleculenet_hiv", "dtp_aids"]
    with pytest.raises(
        ValueError, match=r"^config.yaml: dataset 'x', 'y' is not declared under 'datasets' \(declared: dtp_aids"
    ):
        chosen_datasets(_config(dataset=["dtp_aids", "x", "y"]))
    with pytest.raises(ValueError, match="lists a name twice"):
        chosen_datasets(_config(dataset=["dtp_aids", "dtp_aids"]))


def test_summary_models_default_to_every_model_and_must_be_models():
    assert summary_models(_config(summary={**CONFIG["summary"], "models": None})) == list(CONFIG["models"])
    assert summary_models(_config(summary={**CONFIG["summary"], "models": ["svm", "irv"]})) == ["svm", "irv"]
    with pytest.raises(ValueError, match="summary: models names 'rf', not under models"):
        summary_models(_config(summary={**CONFIG["summary"], "models": ["svm", "rf"]}))


def test_imported_scores_with_folds_cannot_be_repeated():
    runs = declared_runs({"mine": {"scores": "s.csv", "fold": "fold"}, "fixed": {"scores": "t.csv"}})
    check_repeats(_config(cv={**CONFIG["cv"], "repeats": 1}), runs)
    check_repeats(_config(cv={**CONFIG["cv"], "repeats": 3}), {"fixed": runs["fixed"]})  # no folds: fine
    with pytest.raises(ValueError, match="models: mine import scores with their folds .* cv: repeats 3"):
        check_repeats(_config(cv={**CONFIG["cv"], "repeats": 3}), runs)


def test_one_archive_name_is_one_archive():
    archive = {"name": "w.whl", "sha256": "a" * 64, "url": "http://x/w.whl"}
    member = lambda a: {"files": [{"name": "f.csv", "member": "m", "archive": a}]}  # noqa: E731
    check_archives({"datasets": {"a": member(archive), "b": member(dict(archive))}})  # equal: one archive
    with pytest.raises(ValueError, match=r"dataset b: archive 'w.whl' is declared twice, differently"):
        check_archives({"datasets": {"a": member(archive), "b": member({**archive, "sha256": "b" * 64})}})


def test_expected_compounds_from_the_compounds_file_else_the_declaration(tmp_path):
    config = {
        "datasets": {"a": {"expected": {"kept": 120, "rows_in": 130}}, "b": {"expected": {"rows_in": 7}}, "c": {}}
    }
    assert [expected_compounds(n, config, tmp_path) for n in "abc"] == [120, 7, None]
    (tmp_path / "results" / "c").mkdir(parents=True)
    pd.DataFrame({"id": ["1", "2", "3"]}).to_parquet(tmp_path / "results" / "c" / "compounds.parquet")
    assert expected_compounds("c", config, tmp_path) == 3
    assert isinstance(SIZE_UNKNOWN, int) and SIZE_UNKNOWN > 0


def test_a_model_that_cannot_run_at_the_size_stops_naming_the_dataset():
    """The SVM refuses a kernel above max_kernel_gb with large: error (its own resources())."""
    runs = declared_runs({"svm": {"max_kernel_gb": 1, "large": "error"}})
    check_sizes(["dtp_aids"], CONFIG, runs, lambda name: 1000)
    check_sizes(["dtp_aids"], CONFIG, runs, lambda name: None)  # size unknown: nothing to check yet
    with pytest.raises(ValueError, match=r"^dataset dtp_aids: model svm: "):
        check_sizes(["dtp_aids"], CONFIG, runs, lambda name: 300_000)


def test_the_polaris_example_validates_and_gives_25_splits_per_dataset(tmp_path):
    """config/examples/polaris_5x5.yaml, merged over config.yaml as ``--configfile`` merges it, passes the schema and
    the cross-field checks, and splits each of its screens as the workflow's folds jobs do (repeat r: seed + r): 5
    repeats x 5 folds, 25 train/test splits, every compound tested once per repeat, each test fold a fifth of
    the positives."""
    from crocbench.cv import fold_table, repeat_seed, split

    config, runs = merged_config(ROOT / "config" / "examples" / "polaris_5x5.yaml")
    datasets = check_config(config, runs, root=tmp_path)
    assert datasets == ["dtp_aids", "dtp_aids_ca", "moleculenet_hiv"]  # two or more: the summary across them
    cv = config["cv"]
    assert (cv["folds"], cv["repeats"], cv["split"]) == (5, 5, "random")
    for name in datasets:
        n, positives = expected_compounds(name, config, tmp_path), config["datasets"][name]["expected"]["positives"]
        y = np.zeros(n, dtype=int)
        y[np.random.default_rng(0).choice(n, positives, replace=False)] = 1
        splits, assignments = [], []
        for r in range(cv["repeats"]):
            folds = fold_table(np.arange(n).astype(str), y, cv["folds"], repeat_seed(cv["seed"], r))["fold"].to_numpy()
            assignments.append(folds)
            tested = np.concatenate([split(folds, f)[1] for f in range(cv["folds"])])
            assert np.array_equal(np.sort(tested), np.arange(n))  # a repeat tests every compound once
            for f in range(cv["folds"]):
                train, test = split(folds, f)
                assert train.size + test.size == n and abs(int(y[test].sum()) - positives / 5) <= 1
                splits.append((r, f))
        assert len(splits) == 25, name
        assert all(not np.array_equal(assignments[0], a) for a in assignments[1:])  # five different splits


def test_each_built_in_model_s_schema_keys_are_its_parameters():
    """Every key the schema allows a built-in model is a parameter of its class; the ECFP rankers expose them all;
    ``tune`` is allowed exactly where the class declares a search space."""
    import inspect

    from crocbench.models import BUILTIN

    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())
    declared = schema["properties"]["models"]["properties"]
    assert list(declared) == [cls.name for cls in BUILTIN]
    for cls in BUILTIN:
        parameters = set(inspect.signature(cls).parameters) - {"seed", "progress", "n_jobs"}
        keys = set(declared[cls.name]["properties"]) - {"label", "tune", "features"}  # features: set on the model
        assert ("tune" in declared[cls.name]["properties"]) == hasattr(cls, "search_space"), cls.name
        assert keys <= parameters, cls.name
        if getattr(cls, "uses_ecfp", False):
            assert keys == parameters, cls.name


@pytest.mark.parametrize("path", ["examples/ecfp_rankers.yaml", "studies/ecfp_rankers_scaffold.yaml"])
def test_the_ecfp_studys_configs_validate_and_name_their_rankers(tmp_path, path):
    """The study of the ECFP rankers: each config, merged over config.yaml, passes the schema and the cross-field
    checks; each split's runs the paper's five and seven others (Chemprop imported from its split's GPU run)."""
    config, runs = merged_config(ROOT / "config" / path)
    assert check_config(config, runs, root=tmp_path) == ["dtp_aids"]
    paper = ["random", "maxsim", "knn", "svm", "irv"]
    others = {
        "examples/ecfp_rankers.yaml": ["rf", "gbm", "gbm_rank", "logreg", "mlp", "mlp_exp", "chemprop_gpu"],
        "studies/ecfp_rankers_scaffold.yaml": ["rf", "gbm", "gbm_rank", "logreg", "mlp", "mlp_exp", "chemprop_gpu"],
    }[path]
    assert sorted(runs) == sorted(paper + others)
    assert config["cv"]["split"] == ("scaffold" if "scaffold" in path else "random")


def test_the_fair_reruns_configs_validate_and_tune_on_campaigns_the_test_panel_does_not_hold(tmp_path):
    """config/studies/fair_*.yaml: the development panel's three screens come from campaigns outside the confirmed
    panel, every tuned ranker gets 8 candidates, each test split declares its family before the run, small
    enough for 10 screens to pass it, and all three keep neighbour lists deep enough for kNN's and the IRV's spaces."""
    from crocbench.config import compared_models, tuning_settings
    from crocbench.models._development import chosen_tuning
    from crocbench.report.findings import Questions
    from crocbench.stats import screens_needed

    panel = ROOT / "config" / "panels" / "pubchem_hts.yaml"
    confirmed = ROOT / "config" / "panels" / "pubchem_hts_confirmed.yaml"
    studies = ROOT / "config" / "studies"
    dev, runs = merged_config(panel, studies / "fair_development.yaml")
    dev_screens = check_config(dev, runs, root=tmp_path)
    assert tuning_settings(dev) == {
        "budget": 8,
        "metric": "croc_exp_80",
        "share": 0.2,
        "seed": 0,
        "design": "development",
        "folds": 1,
        "cost_margin": 0.01,
        "chosen_on": None,
        "chosen_by": None,
    }
    tuned = [m for m in compared_models(dev) if "." in m]
    assert len(tuned) == 8 * 8 and {m.split(".")[0] for m in tuned} == {
        "knn", "svm", "irv", "rf", "gbm", "gbm_rank", "logreg", "mlp"
    }  # fmt: skip
    for split in ("fair_random.yaml", "fair_cluster.yaml"):
        config, runs = merged_config(panel, confirmed, studies / split)
        screens = check_config(config, runs, root=tmp_path)
        assert len(screens) == 10 and not {s.rsplit("_", 1)[0] for s in screens} & {
            s.rsplit("_", 1)[0] for s in dev_screens
        }  # fmt: skip
        questions = Questions.from_dict(config["summary"]["questions"])
        assert questions.declared == "before the run" and questions.metric_of_record == "croc_exp_80"
        assert questions.size == 18 and screens_needed(tests=questions.size) <= len(screens)
        assert config["summary"]["pains"] and config["cv"]["folds"] == 5
        assert config["models"]["rf"]["n_estimators"] == 100  # the declared cap, as on the development panel
        assert config["similarity"]["k"] == dev["similarity"]["k"]
    # kNN's and the IRV's spaces read their training neighbours from the lists: at the largest k, a list in which
    # fewer than k of the others train (each one does with probability 1 - 1/folds) is all but impossible
    from scipy.stats import binom

    from crocbench.models import IRV, KNN

    largest = max(max(cls.search_space["k"]) for cls in (KNN, IRV))
    assert binom.cdf(largest - 1, dev["similarity"]["k"], 1 - 1 / dev["cv"]["folds"]) < 1e-9
    assert merged_config(panel, confirmed, studies / "fair_random.yaml")[0]["cv"]["repeats"] == 3  # 3 seeds
    # the chosen models' file names its development screens: the headline panel tests none of their campaigns, and a
    # panel that does is refused
    chosen = {"tuning": chosen_tuning(tuning_settings(dev), dev_screens), "models": {"knn": {"k": 10}}}
    config, runs = merged_config(panel, confirmed, studies / "fair_random.yaml", chosen)
    assert check_config(config, runs, root=tmp_path) == screens
    assert tuning_settings(config)["design"] == "nested" and tuning_settings(config)["chosen_by"]["folds"] == 1
    with pytest.raises(ValueError, match="chosen on hsf1_primary, a campaign this run tests \\(hsf1\\)"):
        check_config(*merged_config(panel, chosen, {"dataset": ["hsf1_confirmed", "GPCR_3_confirmed"]}), root=tmp_path)


@pytest.mark.parametrize("name", ["summary", "screens", "archives"])
def test_a_dataset_may_not_take_the_name_of_a_folder_the_workflow_writes_beside_the_datasets(name):
    """results/summary/ (the summary), results/screens/ (its tables of one screen each) and data/archives/: a dataset
    of that name would write into them."""
    from crocbench.config import load_config

    screen = CONFIG["datasets"]["dtp_aids"]
    with pytest.raises(ValueError, match=rf"^config: datasets: '{name}' should not be valid under "):
        load_config([{"datasets": {name: screen}}], ROOT)
    assert f"{name}_1" in load_config([{"datasets": {f"{name}_1": screen}}], ROOT)["datasets"]


@pytest.mark.parametrize("reference", ["fair_random", "fair_cluster"])
def test_a_reference_records_the_tuning_that_acted_and_no_unused_default(reference):
    """The fair re-run's configs, merged as its manifest lists them, give the manifest's split and tuning: its
    models were chosen on the development panel (``chosen_on``, ``chosen_by``) and none is tuned in the run, so
    no run-time tuning setting (``design: nested``, its default) is recorded beside them."""
    import yaml

    from crocbench.config import study_design

    manifest = yaml.safe_load((ROOT / "results" / "reference" / reference / "manifest.yaml").read_text())
    config, runs = merged_config(*[ROOT / f for f in manifest["config"]])
    design = study_design(config, runs)
    assert design["tuning"] == manifest["design"]["tuning"]
    assert (
        set(design["tuning"]) == {"chosen_on", "chosen_by"} and design["tuning"]["chosen_by"]["design"] == "development"
    )
    assert design["cv"] == manifest["design"]["cv"]
    dev, dev_runs = merged_config(
        ROOT / "config" / "panels" / "pubchem_hts.yaml", ROOT / "config" / "studies" / "fair_development.yaml"
    )
    assert study_design(dev, dev_runs)["tuning"]["design"] == "development"  # a tuned run records its settings

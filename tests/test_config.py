"""crocbench.config: the cross-field checks the schema cannot make, each failing in one line."""

from pathlib import Path

import pandas as pd
import pytest
import yaml

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

CONFIG = yaml.safe_load((Path(__file__).resolve().parents[1] / "config.yaml").read_text())


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

"""crocbench._workflow._plan and _files: a config's runs grouped into fold jobs, each job's files and the targets,
on configs as the workflow reads them (config.yaml merged and validated), against lists written by hand."""

from types import SimpleNamespace

import numpy as np
import pytest
from _configs import ROOT

from crocbench._workflow._files import Files
from crocbench._workflow._plan import Plan, plugin_dirs
from crocbench.config import load_config


def _plan(models: dict, **parts) -> Plan:
    """The plan of config.yaml merged with ``parts``, its ``models:`` replaced by ``models`` (a merge keeps them)."""
    config = load_config([parts], ROOT)
    config["models"] = models
    return Plan(config)


FOUR_FOLDS = {
    "random": {},
    "knn": {"k": 5},
    "svm": {"C_grid": None, "class_weight_grid": None, "fold_jobs": 2, "max_kernel_gb": 100},
    "svm_each": {"class": "svm", "C_grid": None, "class_weight_grid": None, "fold_jobs": None, "working_set": 1000},
}


def test_each_runs_folds_are_one_job_a_job_per_fold_or_n_jobs_of_consecutive_folds():
    plan = _plan(FOUR_FOLDS, cv={"folds": 4}, tuning={"design": "development", "folds": 1})
    assert plan.models == ["random", "knn", "svm", "svm_each"]
    assert plan.one_job == ["random", "knn"]  # their classes say fold_jobs = 1
    assert plan.per_fold == ["svm_each"]
    assert plan.split_jobs == {2: ["svm"]}
    assert plan.pooled == ["svm", "svm_each"]
    assert plan.fold_groups["svm"] == [[0, 1], [2, 3]]
    assert plan.fold_job_names("knn") == ["folds"]
    assert plan.fold_job_names("svm") == ["folds_0", "folds_1"]
    assert plan.fold_job_names("svm_each") == ["fold_0", "fold_1", "fold_2", "fold_3"]
    # tuning: folds 1: the development design's candidates are compared on fold 0 alone
    assert plan.validation_jobs("svm") == [("folds_0", [0, 1])]
    assert plan.validation_jobs("svm_each") == [("fold_0", [0])]
    # config.yaml's pairs [irv, svm], [irv, knn], [knn, svm], [svm, maxsim]: only one has both models here
    assert plan.power_pairs == [["knn", "svm"]] and plan.power_models() == ["knn", "svm"]
    assert plan.ranked_models() == ["knn", "svm", "svm_each"]  # RANDOM is a baseline
    assert plan.irv_schemes == [] and not plan.claims and not plan.summary


def test_a_fold_job_reads_what_its_models_class_says_it_needs():
    files = Files(_plan(FOUR_FOLDS, cv={"folds": 4}))
    job = SimpleNamespace(dataset="dtp_aids", model="knn", repeat="/repeats/1")
    assert files.fold_inputs(job) == {
        "compounds": "results/dtp_aids/compounds.parquet",
        "fingerprints": "results/dtp_aids/fingerprints.npz",
        "folds": "results/dtp_aids/repeats/1/folds.tsv",
        "neighbours": "results/dtp_aids/neighbours_k50.npz",
    }
    job.model = "svm"  # an exact fit on its whole training kernel: read from the all-pairs matrix
    assert files.fold_inputs(job) == {
        "compounds": "results/dtp_aids/compounds.parquet",
        "fingerprints": "results/dtp_aids/fingerprints.npz",
        "folds": "results/dtp_aids/repeats/1/folds.tsv",
        "matrix": "results/dtp_aids/similarity_matrix.npy",
    }
    job.model = "svm_each"  # on working sets of 1,000: its kernels computed as needed
    assert files.fold_inputs(job) == {
        "compounds": "results/dtp_aids/compounds.parquet",
        "fingerprints": "results/dtp_aids/fingerprints.npz",
        "folds": "results/dtp_aids/repeats/1/folds.tsv",
    }
    assert files.fold_parts(job) == [f"results/dtp_aids/repeats/1/scores/svm_each/fold_{k}.parquet" for k in range(4)]


def test_a_datasets_targets_and_its_repeats_files():
    plan = _plan(FOUR_FOLDS, cv={"folds": 4, "repeats": 3})
    files = Files(plan)
    assert files.dataset_targets("dtp_aids") == [
        "results/dtp_aids/compounds.parquet",
        "results/dtp_aids/fingerprints.npz",
        "results/dtp_aids/neighbours_k50.npz",
        "results/dtp_aids/scores/random.parquet",
        "results/dtp_aids/scores/knn.parquet",
        "results/dtp_aids/scores/svm.parquet",
        "results/dtp_aids/scores/svm_each.parquet",
        "results/dtp_aids/tables/folds.md",
        "results/dtp_aids/tables/areas.md",
        "results/dtp_aids/tables/intervals.md",
        "results/dtp_aids/tables/significance.md",
        "results/dtp_aids/repeats/1/tables/significance.md",
        "results/dtp_aids/repeats/2/tables/significance.md",
        "results/dtp_aids/tables/repeats.md",
        "results/dtp_aids/tables/published.md",  # dtp_aids reproduces the paper
        "results/dtp_aids/tables/power.md",
        "results/dtp_aids/tables/memorization.md",
        "results/dtp_aids/tables/split_similarity.md",
        "results/dtp_aids/figures/roc.png",
    ]
    assert files.all_targets() == files.dataset_targets("dtp_aids")  # one dataset: no summary
    folds = files.repeat_files("folds.tsv")(SimpleNamespace(dataset="d"))
    assert folds == ["results/d/folds.tsv", "results/d/repeats/1/folds.tsv", "results/d/repeats/2/folds.tsv"]
    scores = files.repeat_files("scores/{model}.parquet")(SimpleNamespace(dataset="d"))
    assert scores[:5] == [
        "results/d/scores/random.parquet",
        "results/d/scores/knn.parquet",
        "results/d/scores/svm.parquet",
        "results/d/scores/svm_each.parquet",
        "results/d/repeats/1/scores/random.parquet",
    ]
    assert len(scores) == 12
    assert plan.fold_seed(SimpleNamespace(repeat="/repeats/2")) == 2  # config.yaml's seed 0, plus the repeat
    with pytest.raises(
        ValueError, match=r"^the summary compares two or more datasets; dataset: names one \(dtp_aids\)$"
    ):
        files.summary_targets()


def test_the_irv_training_table_reads_each_schemes_scores_fold_records_and_job_benchmarks():
    models = {"knn": {"k": 5}, "irv": {"k": 5}}
    plan = _plan(models, cv={"folds": 2}, irv_training={"schemes": ["none", "exp"]})
    assert plan.irv_schemes == ["none", "exp"] and list(plan.runs) == ["knn", "irv", "irv_exp"]
    assert Files(plan).irv_training_inputs(SimpleNamespace(dataset="d")) == {
        "scores": ["results/d/scores/irv.parquet", "results/d/scores/irv_exp.parquet"],
        "infos": [
            "results/d/scores/irv/fold_0.json",
            "results/d/scores/irv/fold_1.json",
            "results/d/scores/irv_exp/fold_0.json",
            "results/d/scores/irv_exp/fold_1.json",
        ],
        "benchmarks": ["logs/d/benchmark/scores/irv/folds.tsv", "logs/d/benchmark/scores/irv_exp/folds.tsv"],
        "others": ["results/d/scores/knn.parquet"],
    }


def test_a_grouped_split_reads_its_groups():
    files = Files(_plan({"knn": {"k": 5}}, cv={"split": "scaffold", "scaffold": "generic"}))
    assert files.folds_inputs(SimpleNamespace(dataset="d")) == {
        "compounds": "results/d/compounds.parquet",
        "scaffolds": "results/d/scaffolds/generic.parquet",
    }
    assert files.split_similarity_inputs(SimpleNamespace(dataset="d")) == {  # config.yaml: random, scaffold, cluster
        "compounds": "results/d/compounds.parquet",
        "fingerprints": "results/d/fingerprints.npz",
        "neighbours": "results/d/neighbours_k50.npz",
        "scaffolds": "results/d/scaffolds/generic.parquet",
        "clusters": "results/d/clusters.parquet",
    }


def test_compounds_are_counted_from_the_fingerprints_file_once_it_exists(tmp_path):
    plan = _plan({"knn": {"k": 5}})
    fingerprints = tmp_path / "screen" / "fingerprints.npz"
    fingerprints.parent.mkdir()
    np.savez(fingerprints, indptr=np.array([0, 3, 5, 9, 12, 20, 21, 30]))  # 7 compounds' features
    assert plan.compounds_in(str(fingerprints)) == 7


def test_plugin_folders_beside_the_config_files_relative_inside_the_project(tmp_path):
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    for folder in (work / "studies" / "plugins", work / "plugins", elsewhere / "plugins"):
        folder.mkdir(parents=True)
    (work / "bare").mkdir()
    configs = ["studies/a.yaml", "bare/b.yaml", str(elsewhere / "c.yaml")]
    assert plugin_dirs(configs, work) == [str(elsewhere / "plugins"), "plugins", "studies/plugins"]

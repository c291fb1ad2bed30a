# Shared helpers: the chosen dataset, its files, and input functions.
import os
import re
from pathlib import Path

from crocbench.data import Dataset

DATASET = config["dataset"]
if DATASET not in config["datasets"]:
    raise ValueError(
        f"config.yaml: dataset {DATASET!r} is not declared under 'datasets' "
        f"(declared: {', '.join(config['datasets'])})"
    )
K = config["similarity"]["k"]
# The paper the dataset reproduces (None for a user's own screen): only then are its published numbers,
# claims and the published-vs-reproduced table built.
REPRODUCES = config["datasets"][DATASET].get("reproduces")
# sha256 records of files that publish none: checked on download, written once standardize has read them
LOCK_FILE = config.get("lock_file", "checksums.lock.json")


MODELS = list(config["models"])
# Runs = the models of the comparison plus the IRV's reweighting variants (irv_power, ...):
# run name -> (model, parameters).
RUNS = {name: (name, dict(params)) for name, params in config["models"].items()}
IRV_SCHEMES = config["irv_training"]["schemes"] if "irv" in RUNS else []
SENSITIVITY = config["svm_sensitivity"]
POWER_PAIRS = [pair for pair in config["power"]["pairs"] if set(pair) <= set(MODELS)]
if "irv" in RUNS:
    RUNS["irv"][1]["track"] = True
    _training = {k: v for k, v in config["irv_training"].items() if k != "schemes"}
    for _scheme in IRV_SCHEMES:
        if _scheme != "none":
            RUNS[f"irv_{_scheme}"] = ("irv", {**RUNS["irv"][1], **_training, "reweight": _scheme})


def irv_run(scheme):
    return "irv" if scheme == "none" else f"irv_{scheme}"

# Without `--resources mem_mb=...`, jobs may use up to 90% of this machine's memory
# together, so that `--cores N` never runs two SVM folds that do not fit side by side.
if "mem_mb" not in workflow.global_resources:
    workflow.register_resource(
        "mem_mb", int(0.9 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)
    )


wildcard_constraints:
    dataset="|".join(map(re.escape, config["datasets"])),
    file=r"[^/]+",
    model="|".join(map(re.escape, RUNS)),
    fold=r"\d+",


def svm_mem_mb(fingerprints):
    """Peak memory of one SVM job: the float64 kernel of (1 - 1/folds) N compounds, plus 3 GB (two LIBSVM
    fits at a time, the fingerprints, the test block: measured peak 13.8 GB for N = 41,906).

    Before the fingerprints exist, N is taken as 42,000 (the DTP AIDS screen).
    """
    import numpy as np

    n = 42000
    if os.path.exists(fingerprints):
        with np.load(fingerprints) as fp:
            n = fp["indptr"].size - 1
    n_train = n * (1 - 1 / config["cv"]["folds"])
    return int(8 * n_train**2 / 2**20 + 3000)


def dataset_spec(name):
    return Dataset.from_config(name, config["datasets"][name])


def top_cutoff(wildcards):
    """The dataset's cut-off of "actives in the top k": a count or a fraction of the list."""
    return dataset_spec(wildcards.dataset).top_cutoff


def raw_files(wildcards):
    return [f"data/{wildcards.dataset}/{f['name']}" for f in dataset_spec(wildcards.dataset).files]


def all_targets():
    return [
        f"results/{DATASET}/compounds.parquet",
        f"results/{DATASET}/fingerprints.npz",
        f"results/{DATASET}/neighbours_k{K}.npz",
        *(f"results/{DATASET}/scores/{m}.parquet" for m in MODELS),
        *([f"results/{DATASET}/tables/irv_training.md"] if IRV_SCHEMES else []),
        f"results/{DATASET}/tables/areas.md",
        f"results/{DATASET}/tables/significance.md",
        *([f"results/{DATASET}/tables/published.md"] if REPRODUCES else []),
        *([f"results/{DATASET}/tables/power.md"] if POWER_PAIRS else []),
        f"results/{DATASET}/figures/roc.png",
    ]


def pooled_scores(wildcards):
    return [f"results/{wildcards.dataset}/scores/{m}.parquet" for m in MODELS]


def sensitivity_fingerprints(wildcards):
    """The fingerprints of one SVM sensitivity variant: the workflow's own for "paper"."""
    if wildcards.variant == "paper":
        return f"results/{wildcards.dataset}/fingerprints.npz"
    return f"results/{wildcards.dataset}/fingerprints_{wildcards.variant}.npz"

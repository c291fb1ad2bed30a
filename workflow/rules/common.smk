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


wildcard_constraints:
    dataset="|".join(map(re.escape, config["datasets"])),
    file=r"[^/]+",


def dataset_spec(name):
    return Dataset.from_config(name, config["datasets"][name])


def raw_files(wildcards):
    return [f"data/{wildcards.dataset}/{f['name']}" for f in dataset_spec(wildcards.dataset).files]


def all_targets():
    return [
        f"results/{DATASET}/compounds.parquet",
        f"results/{DATASET}/fingerprints.npz",
        f"results/{DATASET}/neighbours_k{K}.npz",
    ]

# Shared helpers: the chosen dataset, its files, and input functions.
import os
import posixpath
import re
from pathlib import Path

from crocbench._parallel import memory_budget_mb
from crocbench._workflow import fold_groups, stale_summary_tables
from crocbench.config import (
    SIZE_UNKNOWN,
    check_config,
    compared_models,
    study_design,
    study_runs,
    summary_models,
    tuning_settings,
)
from crocbench.config import expected_compounds as _expected_compounds
from crocbench.data import Dataset
from crocbench.models import SVM, irv_run
from crocbench.paper import PAPER_MODELS

# `dataset:` names one dataset or a list of them (`--config dataset='[a,b]'`); each is built under results/{name}/,
# and with two or more the cross-dataset summary under results/summary/ too.
K = config["similarity"]["k"]
# sha256 records of files that publish none: checked on download, written once standardize has read them
LOCK_FILE = config.get("lock_file", "checksums.lock.json")


def _project_path(path):
    """``path`` relative to the working directory when it lies inside it, else absolute."""
    path, here = Path(path).resolve(), Path.cwd().resolve()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


FOLDS = config["cv"]["folds"]
SPLIT = config["cv"]["split"]
# Repeated cross-validation: repeat r (seed + r) lives under results/{dataset}/repeats/r, repeat 0 is the run
# itself (results/{dataset}), so one repeat is exactly the unrepeated run. The {repeat} wildcard is the folder
# suffix: empty, or a slash and repeats/r.
REPEATS = config["cv"]["repeats"]
# A development panel's candidates are compared on these folds of repeat 0 (tuning: folds; every fold by default).
VALIDATION_FOLDS = list(range(tuning_settings(config)["folds"] or FOLDS))


def repeat_dir(r):
    """The folder suffix of repeat ``r`` under results/{dataset}: "" for repeat 0."""
    return posixpath.join(posixpath.sep, "repeats", str(r)) if r else ""


def repeat_index(wildcards):
    """The repeat a job belongs to (0 for the run itself)."""
    repeat = getattr(wildcards, "repeat", "")
    return int(repeat.rsplit("/", 1)[1]) if repeat else 0


def fold_seed(wildcards):
    """The repeat's seed (crocbench.cv.repeat_seed): of its folds, RANDOM's scores, the SVM's inner CV, the tests."""
    from crocbench.cv import repeat_seed

    return repeat_seed(config["cv"]["seed"], repeat_index(wildcards))


# Plug-in models ("module:Class") are looked up on PYTHONPATH and in a `plugins/` folder beside each config file.
# Relative to the working directory where they are inside it: a job's params hold no absolute path of the checkout,
# so a moved or copied project with finished results plans nothing.
PLUGIN_DIRS = sorted(
    {
        _project_path(p)
        for p in (Path(f).resolve().parent / "plugins" for f in [*workflow.configfiles, "config.yaml"])
        if p.is_dir()
    }
)
# The models of the comparison, in config order: trained on the folds, or imported out-of-fold scores (a tuned entry
# of a development design: its candidates).
MODELS = compared_models(config, PLUGIN_DIRS)
# Runs = the models of the comparison plus the IRV's reweighting variants (irv_power, ...), each a checked
# crocbench.models.Run (class, parameters, label, resources): a bad entry stops here, before any job.
IRV_SCHEMES = config["irv_training"]["schemes"] if "irv" in MODELS else []
RUNS = study_runs(config, PLUGIN_DIRS)
LABELS = {name: run.label for name, run in RUNS.items()}
# The cross-field checks (crocbench.config): a bad combination stops here, before any job, in one line.
DATASETS = check_config(config, RUNS)
SUMMARY = len(DATASETS) > 1
# The models the summary's ranks and tests across datasets compare (summary: models; default every model).
SUMMARY_MODELS = summary_models(config)
IMPORTED = [name for name, run in RUNS.items() if run.imported]
TRAINED = [name for name, run in RUNS.items() if not run.imported]
# Each trained run's fold jobs, as its model's class says (fold_jobs): a job per fold (score_fold, PER_FOLD); all its
# folds in one job that pools them too (score_folds, ONE_JOB); or n jobs of consecutive folds (score_folds_<n>_<j>,
# SPLIT_JOBS[n]). Every run but ONE_JOB's is pooled by pool_scores (POOLED).
FOLD_GROUPS = {name: fold_groups(FOLDS, RUNS[name].fold_jobs) for name in TRAINED}
ONE_JOB = [name for name in TRAINED if len(FOLD_GROUPS[name]) == 1]
PER_FOLD = [name for name in TRAINED if len(FOLD_GROUPS[name]) == FOLDS > 1]
SPLIT_JOBS = {
    n: [name for name in TRAINED if len(FOLD_GROUPS[name]) == n]
    for n in sorted({len(groups) for groups in FOLD_GROUPS.values()} - {1, FOLDS})
}
POOLED = [name for name in TRAINED if name not in ONE_JOB]
SENSITIVITY = config["svm_sensitivity"]
POWER_PAIRS = [pair for pair in config["power"]["pairs"] if set(pair) <= set(MODELS)]
MEMORIZATION = config["memorization"]


def _alternatives(names):
    """A regex matching exactly these names (one that matches nothing for none)."""
    return "|".join(map(re.escape, names)) or "(?!)"


# Without `--resources mem_mb=...`, jobs may use up to 90% of this machine's memory
# together, so that `--cores N` never runs two SVM folds that do not fit side by side. Not on a cluster
# (an executor such as slurm): there each job gets its own node's memory, and this machine's is no limit.
if workflow.local_exec and not workflow.remote_exec and "mem_mb" not in workflow.global_resources:
    workflow.register_resource("mem_mb", memory_budget_mb())


wildcard_constraints:
    dataset="|".join(map(re.escape, config["datasets"])),
    file=r"[^/]+",
    model=_alternatives(RUNS),
    fold=r"\d+",
    repeat="(?:" + "|".join(re.escape(repeat_dir(r)) for r in range(1, REPEATS)) + ")?",
    kind="murcko|generic",
    chunk=r"\d+",
    k=r"\d+",


def compounds_in(fingerprints):
    """The number of compounds, from the fingerprints file; before it exists, the dataset's expected count
    (crocbench.config.expected_compounds), else crocbench.config.SIZE_UNKNOWN."""
    import numpy as np

    if fingerprints and os.path.exists(fingerprints):
        with np.load(fingerprints) as fp:
            return fp["indptr"].size - 1
    return _expected_compounds(Path(fingerprints).parent.name, config) or SIZE_UNKNOWN


def neighbour_chunks(wildcards):
    """How many jobs the dataset's neighbour search is split into: `similarity.chunks`, or from its size."""
    from crocbench.similarity import default_chunks

    fingerprints = checkpoints.fingerprints.get(dataset=wildcards.dataset).output[0]
    chosen = config["similarity"]["chunks"]
    return (
        chosen if chosen is not None else default_chunks(compounds_in(fingerprints), tile=config["similarity"]["tile"])
    )


def neighbour_chunk_files(wildcards):
    """The neighbour search's chunk files (known once the fingerprints say how many compounds there are)."""
    return [
        f"results/{wildcards.dataset}/neighbours_k{wildcards.k}.chunks/{c}.npz"
        for c in range(neighbour_chunks(wildcards))
    ]


def neighbours_mem_mb(wildcards):
    """A neighbour job's memory (crocbench.similarity.neighbours_mem_mb) on this dataset's fingerprints."""
    from crocbench.similarity import neighbours_mem_mb as mem_mb

    n = compounds_in(f"results/{wildcards.dataset}/fingerprints.npz")
    return mem_mb(n, int(wildcards.k), config["similarity"]["tile"])


def fold_inputs(wildcards):
    """A fold job's inputs (named); the neighbour lists unless the model's class says `uses_neighbours = False`, the
    all-pairs similarity matrix for one that says `uses_matrix`, the ECFP for one that says `uses_ecfp`."""
    d = f"results/{wildcards.dataset}"
    out = {
        "compounds": f"{d}/compounds.parquet",
        "fingerprints": f"{d}/fingerprints.npz",
        "folds": f"{d}{wildcards.repeat}/folds.tsv",
    }
    if RUNS[wildcards.model].uses_neighbours:  # the others start without waiting for the neighbour search
        out["neighbours"] = f"{d}/neighbours_k{K}.npz"
    if RUNS[wildcards.model].uses_matrix(compounds_in(out["fingerprints"]), FOLDS):
        out["matrix"] = f"{d}/similarity_matrix.npy"
    if RUNS[wildcards.model].uses_ecfp:
        out["ecfp"] = f"{d}/ecfp.npz"
    return out


def matrix_mem_mb(wildcards, input):
    """The similarity matrix job's memory (crocbench.similarity.matrix_mem_mb)."""
    from crocbench.similarity import matrix_mem_mb as mem_mb

    return mem_mb(compounds_in(input[0]))


def model_threads(wildcards):
    """A fold job's threads, as its model's class says (``resources``)."""
    return RUNS[wildcards.model].resources(compounds_in(f"results/{wildcards.dataset}/fingerprints.npz"), FOLDS)[
        "threads"
    ]


def model_mem_mb(wildcards, input):
    """A fold job's memory (MB), as its model's class says for this dataset's size."""
    return RUNS[wildcards.model].resources(compounds_in(input.fingerprints), FOLDS)["mem_mb"]


def sensitivity_mem_mb(wildcards, input):
    """One SVM sensitivity job: the SVM's own memory formula on these fingerprints."""
    return SVM().resources(compounds_in(input.fingerprints), FOLDS)["mem_mb"]


def dataset_spec(name):
    return Dataset.from_config(name, config["datasets"][name])


def top_cutoff(wildcards):
    """The dataset's cut-off of "actives in the top k": a count or a fraction of the list."""
    return dataset_spec(wildcards.dataset).top_cutoff


def raw_file_entry(wildcards):
    """The dataset's declaration of one raw file (name, url, sha256)."""
    return dataset_spec(wildcards.dataset).file(wildcards.file)


def file_threads(wildcards):
    """A raw file's job: 1 thread for a download, 2 for a file a command builds (e.g. `crocbench synthesize`)."""
    return 2 if "command" in raw_file_entry(wildcards) else 1


def dataset_declaration(wildcards):
    """What the dataset's compounds table follows from (files and sha256, columns, label values): a param of
    `standardize`, so that editing any of it rebuilds the table and all downstream, and editing the description
    or the expected counts rebuilds nothing."""
    return dataset_spec(wildcards.dataset).declaration


def raw_files(wildcards):
    return [f"data/{wildcards.dataset}/{f['name']}" for f in dataset_spec(wildcards.dataset).files]


def reproduces(wildcards):
    """The paper the dataset reproduces (None for a user's own screen): only then are its published numbers,
    claims and the published-vs-reproduced table built."""
    return dataset_spec(wildcards.dataset).reproduces


def dataset_targets(dataset):
    """Everything the default run builds for one dataset."""
    d = f"results/{dataset}"
    return [
        f"{d}/compounds.parquet",
        f"{d}/fingerprints.npz",
        f"{d}/neighbours_k{K}.npz",
        *(f"{d}/scores/{m}.parquet" for m in MODELS),
        *([f"{d}/tables/irv_training.md"] if IRV_SCHEMES else []),
        f"{d}/tables/folds.md",
        f"{d}/tables/areas.md",
        f"{d}/tables/intervals.md",
        f"{d}/tables/significance.md",
        *(f"{d}{repeat_dir(r)}/tables/significance.md" for r in range(1, REPEATS)),
        *([f"{d}/tables/repeats.md"] if REPEATS > 1 else []),
        *([f"{d}/tables/published.md"] if dataset_spec(dataset).reproduces else []),
        *([f"{d}/tables/power.md"] if POWER_PAIRS else []),
        f"{d}/tables/memorization.md",
        *([f"{d}/tables/split_similarity.md"] if MEMORIZATION["splits"] else []),
        f"{d}/figures/roc.png",
    ]


def all_targets():
    """Every dataset's targets, then (with two or more datasets) the cross-dataset summary."""
    targets = [t for dataset in DATASETS for t in dataset_targets(dataset)]
    return targets + (summary_targets() if SUMMARY else [])


def summary_targets(wildcards=None):
    """The cross-dataset tables and figures; with one dataset there are none to build, and asking for them is an error."""
    if not SUMMARY:
        raise ValueError(f"the summary compares two or more datasets; dataset: names one ({DATASETS[0]})")
    return [
        "results/summary/tables/ranks.md",
        *(["results/summary/tables/claims.md"] if set(PAPER_MODELS) <= set(MODELS) else []),
        "results/summary/figures/critical_difference.png",
        *(["results/summary/tables/pains.md"] if config["summary"]["pains"] else []),
        "results/summary/tables/novel.md",
        "results/summary/tables/shared.md",
        "results/summary/tables/design.yaml",
    ]


def screen_targets(wildcards=None):
    """The summary's tables of one screen each (any number of datasets, one included), with the design and the
    declared questions, in results/screens/: what `crocbench reference --add` merges into a panel's reference run
    screen by screen."""
    return [
        "results/screens/tables/datasets.tsv",
        *(["results/screens/tables/claims_per_screen.tsv"] if set(PAPER_MODELS) <= set(MODELS) else []),
        *(
            ["results/screens/tables/pains.tsv", "results/screens/tables/datasets_without_pains.tsv"]
            if config["summary"]["pains"]
            else []
        ),
        "results/screens/tables/novel.tsv",
        "results/screens/tables/design.yaml",
    ]


def stale_tables(wildcards):
    """The summary tables an earlier run may have left that this run does not write (crocbench._workflow.
    stale_summary_tables): screen_datasets removes them, so no reference keeps another run's."""
    return stale_summary_tables(wildcards.summary, config["summary"]["pains"], set(PAPER_MODELS) <= set(MODELS))


def summary_dataset_tables(name):
    """An input function: every dataset's ``tables/{name}.tsv`` (the claims read tables 1 and 2)."""
    return lambda wildcards: [f"results/{dataset}/tables/{name}.tsv" for dataset in DATASETS]


def summary_scores(wildcards):
    """Every dataset's pooled scores of every model (dataset by dataset, models in config order)."""
    return [f"results/{dataset}/scores/{m}.parquet" for dataset in DATASETS for m in MODELS]


def summary_repeat_scores(wildcards):
    """Every dataset's pooled scores of every model in repeats 1, 2, ... (dataset by dataset, then repeat by
    repeat, models in config order); none without repeats."""
    return [
        f"results/{dataset}{repeat_dir(r)}/scores/{m}.parquet"
        for dataset in DATASETS
        for r in range(1, REPEATS)
        for m in MODELS
    ]


def pooled_scores(wildcards):
    """Every model's pooled out-of-fold scores (of the job's repeat), in config order."""
    d = f"results/{wildcards.dataset}{getattr(wildcards, 'repeat', '')}"
    return [f"{d}/scores/{m}.parquet" for m in MODELS]


def per_fold_tables(wildcards):
    """Every model's per-fold metrics, in config order."""
    return [f"results/{wildcards.dataset}/scores/{m}.per_fold.tsv" for m in MODELS]


def fold_parts(wildcards):
    """One trained run's per-fold scores (of the job's repeat)."""
    d = f"results/{wildcards.dataset}{wildcards.repeat}/scores/{wildcards.model}"
    return [f"{d}/fold_{k}.parquet" for k in range(FOLDS)]


def folds_inputs(wildcards):
    """The folds job's inputs: the compounds, and for a scaffold split their scaffolds, for a cluster split
    their clusters."""
    d = f"results/{wildcards.dataset}"
    groups = {
        "random": {},
        "scaffold": {"scaffolds": f"{d}/scaffolds/{config['cv']['scaffold']}.parquet"},
        "cluster": {"clusters": f"{d}/clusters.parquet"},
    }[SPLIT]
    return {"compounds": f"{d}/compounds.parquet", **groups}


def split_similarity_inputs(wildcards):
    """The split table's inputs: compounds, fingerprints and neighbours, and the groups of its grouped splits."""
    d = f"results/{wildcards.dataset}"
    splits = MEMORIZATION["splits"]
    return {
        "compounds": f"{d}/compounds.parquet",
        "fingerprints": f"{d}/fingerprints.npz",
        "neighbours": f"{d}/neighbours_k{K}.npz",
        **({"scaffolds": f"{d}/scaffolds/{config['cv']['scaffold']}.parquet"} if "scaffold" in splits else {}),
        **({"clusters": f"{d}/clusters.parquet"} if "cluster" in splits else {}),
    }


def repeat_files(path):
    """``path`` (under results/{dataset}) of every repeat, repeat 0 first: an input function."""
    return lambda wildcards: [
        f"results/{wildcards.dataset}{repeat_dir(r)}/{path.format(model=m)}"
        for r in range(REPEATS)
        for m in (MODELS if "{model}" in path else [None])
    ]


def run_params(wildcards):
    """A run's checked config entry: its class and parameters, or an import's file and columns."""
    return RUNS[wildcards.model].params


def sensitivity_parts(wildcards):
    """Where an interrupted sensitivity job keeps its finished folds."""
    return f"results/{wildcards.dataset}/svm_sensitivity/{wildcards.variant}.parts"


def sensitivity_grids(wildcards):
    return [f"results/{wildcards.dataset}/svm_sensitivity/{v}.parquet" for v in SENSITIVITY["fingerprints"]]


def imported_scores(wildcards):
    """The file an imported run's scores come from (relative to the working directory); ``{dataset}`` in it is
    the dataset's name, so one entry serves every screen (e.g. an assay's own score kept in its compounds table:
    ``scores: results/{dataset}/compounds.parquet``)."""
    return RUNS[wildcards.model].params["scores"].replace("{dataset}", wildcards.dataset)


def irv_training_inputs(wildcards):
    """The IRV training table's inputs: each scheme's pooled scores, fold infos and benchmark files (named lists)."""
    runs = {s: irv_run(s) for s in IRV_SCHEMES}
    return {  # the script matches files to schemes by run name (the folder or file name), not by position
        "scores": [f"results/{wildcards.dataset}/scores/{r}.parquet" for r in runs.values()],
        "infos": [f"results/{wildcards.dataset}/scores/{r}/fold_{k}.json" for r in runs.values() for k in range(FOLDS)],
        "benchmarks": [  # the run's jobs: one per fold, or one for all (score_folds)
            f"logs/{wildcards.dataset}/benchmark/scores/{r}/{part}.tsv"
            for r in runs.values()
            for part in fold_job_names(r)
        ],
        # the paper's Appendix A claims compare the reweighted IRVs with its SVM and kNN
        "others": [f"results/{wildcards.dataset}/scores/{m}.parquet" for m in ("svm", "knn") if m in MODELS],
    }


def irv_training_runs(wildcards):
    """The tables the published comparison reads the IRV training numbers from (none without the IRV)."""
    return [f"results/{wildcards.dataset}/tables/irv_training.tsv"] if IRV_SCHEMES else []


def fold_job_names(run):
    """The names of a trained run's fold jobs' logs and benchmark files (one per job)."""
    if run in ONE_JOB:
        return ["folds"]
    if run in PER_FOLD:
        return [f"fold_{k}" for k in range(FOLDS)]
    return [f"folds_{j}" for j in range(len(FOLD_GROUPS[run]))]


def validation_jobs(run):
    """A trained run's fold jobs that hold a validation fold of the development design (VALIDATION_FOLDS): each
    job's name (its benchmark file's) and its folds."""
    return [
        (name, group)
        for name, group in zip(fold_job_names(run), FOLD_GROUPS[run])
        if set(group) & set(VALIDATION_FOLDS)
    ]


def power_models():
    """The models the power study's pairs name."""
    return sorted({m for pair in POWER_PAIRS for m in pair})


def power_scores(wildcards):
    return [f"results/{wildcards.dataset}/scores/{m}.parquet" for m in power_models()]


def ranked_models():
    """The models of the sensitivity study's pooling table: every one but a baseline (its class says so)."""
    return [m for m in MODELS if not RUNS[m].baseline]


def sensitivity_per_fold(wildcards):
    return [f"results/{wildcards.dataset}/scores/{m}.per_fold.tsv" for m in ranked_models()]


def svm_fold_infos(wildcards):
    """The default SVM run's per-fold choices (none without one)."""
    return [f"results/{wildcards.dataset}/scores/svm/fold_{k}.json" for k in range(FOLDS)] if "svm" in TRAINED else []


def sensitivity_fingerprints(wildcards):
    """The fingerprints of one SVM sensitivity variant: the workflow's own for "paper"."""
    if wildcards.variant == "paper":
        return f"results/{wildcards.dataset}/fingerprints.npz"
    return f"results/{wildcards.dataset}/fingerprints_{wildcards.variant}.npz"

# The workflow's plan of this config (crocbench._workflow._plan.Plan) and its files (_files.Files), wired as the
# names the rules use. A bad entry or combination stops here, before any job, in one line.
import re

from crocbench._parallel import memory_budget_mb
from crocbench._workflow import fold_groups
from crocbench._workflow._files import FEATURE_SUFFIX, Files
from crocbench._workflow._plan import Plan, alternatives as _alternatives, plugin_dirs, repeat_dir
from crocbench.config import study_design
from crocbench.models import irv_run
from crocbench.report.findings import declared_arms

# `dataset:` names one dataset or a list of them (`--config dataset='[a,b]'`); each is built under results/{name}/,
# and with two or more the cross-dataset summary under results/summary/ too. Plug-in models ("module:Class") are
# looked up on PYTHONPATH and in a `plugins/` folder beside each config file.
PLAN = Plan(config, plugin_dirs(workflow.configfiles))
FILES = Files(PLAN)

K = PLAN.k
LOCK_FILE = PLAN.lock_file
FOLDS = PLAN.folds
SPLIT = PLAN.split
# Repeat r lives under results/{dataset}/repeats/r; the {repeat} wildcard is the folder suffix (repeat_dir).
REPEATS = PLAN.repeats
VALIDATION_FOLDS = PLAN.validation_folds
PLUGIN_DIRS = PLAN.plugins
MODELS = PLAN.models
IRV_SCHEMES = PLAN.irv_schemes
RUNS = PLAN.runs
LABELS = PLAN.labels
DATASETS = PLAN.datasets
SUMMARY = PLAN.summary
SUMMARY_MODELS = PLAN.summary_models
IMPORTED = PLAN.imported
TRAINED = PLAN.trained
# Each trained run's fold jobs (fold_jobs): a job per fold (score_fold, PER_FOLD); all its folds in one job that
# pools them too (score_folds, ONE_JOB); or n jobs of consecutive folds (score_folds_<n>_<j>, SPLIT_JOBS[n]).
FOLD_GROUPS = PLAN.fold_groups
ONE_JOB = PLAN.one_job
PER_FOLD = PLAN.per_fold
SPLIT_JOBS = PLAN.split_jobs
POOLED = PLAN.pooled
SENSITIVITY = PLAN.sensitivity
POWER_PAIRS = PLAN.power_pairs
MEMORIZATION = PLAN.memorization
# A verdict study's arms (`verdict:`), each read under its model's label in the summary's tables; {} without one.
VERDICT_ARMS = declared_arms(config["verdict"], RUNS) if config.get("verdict") else {}

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
    fp="|".join(map(re.escape, FEATURE_SUFFIX.values())),


def neighbour_chunks(wildcards):
    """How many jobs the dataset's neighbour search is split into (known once its fingerprints are)."""
    return PLAN.neighbour_chunks(checkpoints.fingerprints.get(dataset=wildcards.dataset).output[0])


def neighbour_chunk_files(wildcards):
    """The neighbour search's chunk files."""
    return FILES.neighbour_chunk_files(wildcards, neighbour_chunks(wildcards))


# The plan's params and resources
fold_seed = PLAN.fold_seed
neighbours_mem_mb = PLAN.neighbours_mem_mb
matrix_mem_mb = PLAN.matrix_mem_mb
model_threads = PLAN.model_threads
model_mem_mb = PLAN.model_mem_mb
sensitivity_mem_mb = PLAN.sensitivity_mem_mb
top_cutoff = PLAN.top_cutoff
raw_file_entry = PLAN.raw_file_entry
file_threads = PLAN.file_threads
dataset_declaration = PLAN.dataset_declaration
reproduces = PLAN.reproduces
run_params = PLAN.run_params
validation_jobs = PLAN.validation_jobs
power_models = PLAN.power_models
ranked_models = PLAN.ranked_models
# The files: targets and input functions
fold_inputs = FILES.fold_inputs
raw_files = FILES.raw_files
all_targets = FILES.all_targets
summary_targets = FILES.summary_targets
screen_targets = FILES.screen_targets
design_infos = FILES.design_infos
stale_tables = FILES.stale_tables
summary_dataset_tables = FILES.summary_dataset_tables
summary_scores = FILES.summary_scores
summary_repeat_scores = FILES.summary_repeat_scores
pooled_scores = FILES.pooled_scores
per_fold_tables = FILES.per_fold_tables
fold_parts = FILES.fold_parts
folds_inputs = FILES.folds_inputs
split_similarity_inputs = FILES.split_similarity_inputs
repeat_files = FILES.repeat_files
sensitivity_parts = FILES.sensitivity_parts
sensitivity_grids = FILES.sensitivity_grids
imported_scores = FILES.imported_scores
irv_training_inputs = FILES.irv_training_inputs
irv_training_runs = FILES.irv_training_runs
power_scores = FILES.power_scores
sensitivity_per_fold = FILES.sensitivity_per_fold
svm_fold_infos = FILES.svm_fold_infos
sensitivity_fingerprints = FILES.sensitivity_fingerprints

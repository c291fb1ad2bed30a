"""The workflow's plan of a config: its datasets, its runs and their fold jobs, each job's resources.

``workflow/rules/common.smk`` builds one :class:`Plan` (and its :class:`~crocbench._workflow._files.Files`) when the
workflow is read, before any job: a bad entry or combination stops there, in one line. Methods that take
``wildcards`` are Snakemake input, params and resource functions; any object with the wildcards as attributes does.
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

from ..config import (
    SIZE_UNKNOWN,
    check_config,
    compared_models,
    expected_compounds,
    study_runs,
    summary_models,
    tuning_settings,
)
from ..cv import repeat_seed
from ..data import Dataset
from ..models import SVM
from ..paper import PAPER_MODELS
from ..similarity import default_chunks, matrix_mem_mb, neighbours_mem_mb
from ._steps import fold_groups

#: The file of sha256 records of files that publish none, unless the config's ``lock_file`` names another.
LOCK_FILE = "checksums.lock.json"


def project_path(path, here=None) -> str:
    """``path`` relative to the working directory (``here``) when it lies inside it, else absolute.

    Parameters
    ----------
    path : path-like
        A file or folder.
    here : path-like, default=None
        The working directory; None for the current one.

    Returns
    -------
    str
        The relative or absolute path.

    Examples
    --------
    >>> project_path("/srv/study/plugins", "/srv/study"), project_path("/opt/plugins", "/srv/study")
    ('plugins', '/opt/plugins')
    """
    path, here = Path(path).resolve(), Path(here or Path.cwd()).resolve()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


def plugin_dirs(configfiles, here=None) -> list[str]:
    """The ``plugins/`` folders beside the config files (and ``config.yaml``) that exist, sorted: where plug-in
    models (``"module:Class"``) are looked up besides ``PYTHONPATH``.

    Relative to the working directory where they are inside it: a job's params hold no absolute path of the
    checkout, so a moved or copied project with finished results plans nothing.

    Parameters
    ----------
    configfiles : sequence of path-like
        The workflow's config files.
    here : path-like, default=None
        The working directory; None for the current one.

    Returns
    -------
    list of str
    """
    here = Path(here or Path.cwd())
    folders = (here / Path(f).parent / "plugins" for f in [*configfiles, "config.yaml"])
    return sorted({project_path(p, here) for p in folders if p.is_dir()})


def repeat_dir(r: int) -> str:
    """The folder suffix of repeat ``r`` under ``results/{dataset}``: "" for repeat 0 (the run itself).

    Examples
    --------
    >>> repeat_dir(0), repeat_dir(2)
    ('', '/repeats/2')
    """
    return posixpath.join(posixpath.sep, "repeats", str(r)) if r else ""


def repeat_index(wildcards) -> int:
    """The repeat a job belongs to (0 for the run itself), from its ``repeat`` wildcard (:func:`repeat_dir`).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> repeat_index(SimpleNamespace(repeat="/repeats/3")), repeat_index(SimpleNamespace())
    (3, 0)
    """
    repeat = getattr(wildcards, "repeat", "")
    return int(repeat.rsplit("/", 1)[1]) if repeat else 0


def alternatives(names) -> str:
    """A regex matching exactly these names (one that matches nothing for none): a wildcard constraint.

    Examples
    --------
    >>> alternatives(["svm", "irv.1"]), alternatives([])
    ('svm|irv\\\\.1', '(?!)')
    """
    return "|".join(map(re.escape, names)) or "(?!)"


class Plan:
    """A config's datasets and runs, each run's fold jobs, and what each job needs.

    Parameters
    ----------
    config : dict
        The workflow's config, validated against its schema.
    plugins : sequence of str, default=()
        The folders searched for plug-in models (:func:`plugin_dirs`).

    Attributes
    ----------
    models : list of str
        The models of the comparison, in config order: trained on the folds, or imported out-of-fold scores (a
        tuned entry of a development design: its candidates).
    runs : dict
        The models plus the IRV's reweighting variants (``irv_power``, ...), each a checked
        :class:`crocbench.models.Run`.
    datasets : list of str
        The datasets built (``dataset:``, one or a list), checked with the runs (:func:`crocbench.config.check_config`).
    fold_groups : dict
        Each trained run's fold jobs as its model's class says (``fold_jobs``): the folds of each job.
    one_job, per_fold, pooled : list of str
        The trained runs whose folds are one job that pools them too (``score_folds``); a job per fold
        (``score_fold``); every one but ``one_job``'s, pooled by ``pool_scores``.
    split_jobs : dict
        ``{n: runs}``: the runs whose folds are n jobs of consecutive folds (``score_folds_<n>_<j>``).
    claims : bool
        Whether every model of the paper (:data:`crocbench.paper.PAPER_MODELS`) is compared: then its claims
        are built.
    """

    def __init__(self, config: dict, plugins=()):
        self.config = config
        self.k = config["similarity"]["k"]
        self.lock_file = config.get("lock_file", LOCK_FILE)
        self.folds = config["cv"]["folds"]
        self.split = config["cv"]["split"]
        # repeat r (seed + r) lives under results/{dataset}/repeats/r; repeat 0 is the run itself
        self.repeats = config["cv"]["repeats"]
        # a development panel's candidates are compared on these folds of repeat 0 (tuning: folds; default every one)
        self.validation_folds = list(range(tuning_settings(config)["folds"] or self.folds))
        self.plugins = list(plugins)
        self.models = compared_models(config, self.plugins)
        self.irv_schemes = config["irv_training"]["schemes"] if "irv" in self.models else []
        self.runs = study_runs(config, self.plugins)
        self.labels = {name: run.label for name, run in self.runs.items()}
        self.datasets = check_config(config, self.runs)
        self.summary = len(self.datasets) > 1
        self.summary_models = summary_models(config)
        self.imported = [name for name, run in self.runs.items() if run.imported]
        self.trained = [name for name, run in self.runs.items() if not run.imported]
        self.fold_groups = {name: fold_groups(self.folds, self.runs[name].fold_jobs) for name in self.trained}
        sizes = {name: len(groups) for name, groups in self.fold_groups.items()}
        self.one_job = [name for name in self.trained if sizes[name] == 1]
        self.per_fold = [name for name in self.trained if sizes[name] == self.folds > 1]
        self.split_jobs = {
            n: [name for name in self.trained if sizes[name] == n]
            for n in sorted(set(sizes.values()) - {1, self.folds})
        }
        self.pooled = [name for name in self.trained if name not in self.one_job]
        self.sensitivity = config["svm_sensitivity"]
        self.power_pairs = [pair for pair in config["power"]["pairs"] if set(pair) <= set(self.models)]
        self.memorization = config["memorization"]
        # the paper's claims are built when all its models are compared
        self.claims = set(PAPER_MODELS) <= set(self.models)

    def fold_seed(self, wildcards) -> int:
        """The repeat's seed (:func:`crocbench.cv.repeat_seed`): of its folds, RANDOM's scores, the SVM's inner CV,
        the tests."""
        return repeat_seed(self.config["cv"]["seed"], repeat_index(wildcards))

    def compounds_in(self, fingerprints) -> int:
        """The number of compounds, from the fingerprints file; before it exists, the dataset's expected count
        (:func:`crocbench.config.expected_compounds`), else :data:`crocbench.config.SIZE_UNKNOWN`."""
        import numpy as np

        if fingerprints and os.path.exists(fingerprints):
            with np.load(fingerprints) as fp:
                return fp["indptr"].size - 1
        return expected_compounds(Path(fingerprints).parent.name, self.config) or SIZE_UNKNOWN

    def neighbour_chunks(self, fingerprints) -> int:
        """How many jobs a dataset's neighbour search is split into: ``similarity.chunks``, or from its size."""
        chosen = self.config["similarity"]["chunks"]
        tile = self.config["similarity"]["tile"]
        return chosen if chosen is not None else default_chunks(self.compounds_in(fingerprints), tile=tile)

    def neighbours_mem_mb(self, wildcards) -> int:
        """A neighbour job's memory (:func:`crocbench.similarity.neighbours_mem_mb`) on the dataset's fingerprints."""
        n = self.compounds_in(f"results/{wildcards.dataset}/fingerprints.npz")
        return neighbours_mem_mb(n, int(wildcards.k), self.config["similarity"]["tile"])

    def matrix_mem_mb(self, wildcards, input) -> int:
        """The similarity matrix job's memory (:func:`crocbench.similarity.matrix_mem_mb`)."""
        return matrix_mem_mb(self.compounds_in(input[0]))

    def model_threads(self, wildcards) -> int:
        """A fold job's threads, as its model's class says (``resources``)."""
        n = self.compounds_in(f"results/{wildcards.dataset}/fingerprints.npz")
        return self.runs[wildcards.model].resources(n, self.folds)["threads"]

    def model_mem_mb(self, wildcards, input) -> int:
        """A fold job's memory (MB), as its model's class says for this dataset's size."""
        return self.runs[wildcards.model].resources(self.compounds_in(input.fingerprints), self.folds)["mem_mb"]

    def sensitivity_mem_mb(self, wildcards, input) -> int:
        """One SVM sensitivity job: the SVM's own memory formula on these fingerprints."""
        return SVM().resources(self.compounds_in(input.fingerprints), self.folds)["mem_mb"]

    def dataset_spec(self, name: str) -> Dataset:
        """The declared dataset ``name``."""
        return Dataset.from_config(name, self.config["datasets"][name])

    def top_cutoff(self, wildcards):
        """The dataset's cut-off of "actives in the top k": a count or a fraction of the list."""
        return self.dataset_spec(wildcards.dataset).top_cutoff

    def raw_file_entry(self, wildcards) -> dict:
        """The dataset's declaration of one raw file (name, url, sha256)."""
        return self.dataset_spec(wildcards.dataset).file(wildcards.file)

    def file_threads(self, wildcards) -> int:
        """A raw file's job: 1 thread for a download, 2 for a file a command builds (e.g. ``crocbench synthesize``)."""
        return 2 if "command" in self.raw_file_entry(wildcards) else 1

    def dataset_declaration(self, wildcards):
        """What the dataset's compounds table follows from (files and sha256, columns, label values): a param of
        ``standardize``, so that editing any of it rebuilds the table and all downstream, and editing the
        description or the expected counts rebuilds nothing."""
        return self.dataset_spec(wildcards.dataset).declaration

    def reproduces(self, wildcards):
        """The paper the dataset reproduces (None for a user's own screen): only then are its published numbers,
        claims and the published-vs-reproduced table built."""
        return self.dataset_spec(wildcards.dataset).reproduces

    def run_params(self, wildcards) -> dict:
        """A run's checked config entry: its class and parameters, or an import's file and columns."""
        return self.runs[wildcards.model].params

    def fold_job_names(self, run: str) -> list[str]:
        """The names of a trained run's fold jobs' logs and benchmark files (one per job)."""
        if run in self.one_job:
            return ["folds"]
        if run in self.per_fold:
            return [f"fold_{k}" for k in range(self.folds)]
        return [f"folds_{j}" for j in range(len(self.fold_groups[run]))]

    def validation_jobs(self, run: str) -> list[tuple]:
        """A trained run's fold jobs that hold a validation fold of the development design
        (:attr:`validation_folds`): each job's name (its benchmark file's) and its folds."""
        return [
            (name, group)
            for name, group in zip(self.fold_job_names(run), self.fold_groups[run])
            if set(group) & set(self.validation_folds)
        ]

    def power_models(self) -> list[str]:
        """The models the power study's pairs name."""
        return sorted({m for pair in self.power_pairs for m in pair})

    def ranked_models(self) -> list[str]:
        """The models of the sensitivity study's pooling table: every one but a baseline (its class says so)."""
        return [m for m in self.models if not self.runs[m].baseline]

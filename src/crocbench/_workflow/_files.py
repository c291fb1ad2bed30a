"""The workflow's files of a plan: each job's inputs and every target, as paths under ``results/``.

Methods that take ``wildcards`` are Snakemake input functions (any object with the wildcards as attributes does);
:meth:`Files.summary_dataset_tables` and :meth:`Files.repeat_files` return one.
"""

from __future__ import annotations

from ..models import FEATURES, irv_run
from ._plan import Plan, repeat_dir
from ._steps import stale_summary_tables

#: The ``{fp}`` wildcard of each fingerprint's files (``crocbench.models.FEATURES``): ``fingerprints{fp}.npz``,
#: ``neighbours{fp}_k{k}.npz``, ``similarity_matrix{fp}.npy`` under ``results/{dataset}/``; the paper's keep their
#: names.
FEATURE_SUFFIX = {f: "" if f == "paper" else f"_{f}" for f in FEATURES}


def feature_files(folder, run, k: int) -> dict:
    """The fingerprint files a run's fold job loads from a dataset's results ``folder``: ``fingerprints``,
    ``neighbours`` (top ``k``) and the all-pairs ``matrix`` of its ``features``; the paper's for a model that reads
    the ECFP from ``ecfp.npz`` (its fingerprints input, which it does not read, as before the arms).

    Parameters
    ----------
    folder : str or Path
        The dataset's results folder (``results/{dataset}``).
    run : crocbench.models.Run
        The trained run.
    k : int
        The neighbour lists' depth.

    Returns
    -------
    dict
        ``{"fingerprints", "neighbours", "matrix"}``: paths, as ``folder`` is given.

    Examples
    --------
    >>> from crocbench.models import declared_runs
    >>> runs = declared_runs({"knn_ecfp4": {"class": "knn", "features": "ecfp4"}, "rf": {}})
    >>> feature_files("results/dtp_aids", runs["knn_ecfp4"], 20)["neighbours"]
    'results/dtp_aids/neighbours_ecfp4_k20.npz'
    >>> feature_files("results/dtp_aids", runs["rf"], 20)["fingerprints"]
    'results/dtp_aids/fingerprints.npz'
    """
    fp = FEATURE_SUFFIX["paper" if run.uses_ecfp else run.features]
    return {
        "fingerprints": f"{folder}/fingerprints{fp}.npz",
        "neighbours": f"{folder}/neighbours{fp}_k{k}.npz",
        "matrix": f"{folder}/similarity_matrix{fp}.npy",
    }


class Files:
    """Where a plan's jobs read and write.

    Parameters
    ----------
    plan : Plan
        The config's plan.
    """

    def __init__(self, plan: Plan):
        self.plan = plan

    def fold_inputs(self, wildcards) -> dict:
        """A fold job's inputs (named): the fingerprints its run's ``features`` names (:func:`feature_files`),
        their neighbour lists unless the model's class says ``uses_neighbours = False``, their all-pairs
        similarity matrix for one that says ``uses_matrix``, the ECFP for one that says ``uses_ecfp``."""
        plan, run = self.plan, self.plan.runs[wildcards.model]
        d = f"results/{wildcards.dataset}"
        files = feature_files(d, run, plan.k)
        out = {
            "compounds": f"{d}/compounds.parquet",
            "fingerprints": files["fingerprints"],
            "folds": f"{d}{wildcards.repeat}/folds.tsv",
        }
        if run.uses_neighbours:  # the others start without waiting for the neighbour search
            out["neighbours"] = files["neighbours"]
        if run.uses_matrix(plan.compounds_in(f"{d}/fingerprints.npz"), plan.folds):  # either fingerprint's count
            out["matrix"] = files["matrix"]
        if run.uses_ecfp:
            out["ecfp"] = f"{d}/ecfp.npz"
        return out

    @staticmethod
    def neighbour_chunk_files(wildcards, chunks: int) -> list[str]:
        """The neighbour search's ``chunks`` chunk files (of the fingerprint whose suffix is ``wildcards.fp``)."""
        d = f"results/{wildcards.dataset}/neighbours{wildcards.fp}_k{wildcards.k}"
        return [f"{d}.chunks/{c}.npz" for c in range(chunks)]

    def raw_files(self, wildcards) -> list[str]:
        """The dataset's raw files, under ``data/{dataset}/``."""
        return [f"data/{wildcards.dataset}/{f['name']}" for f in self.plan.dataset_spec(wildcards.dataset).files]

    def dataset_targets(self, dataset: str) -> list[str]:
        """Everything the default run builds for one dataset."""
        plan, d = self.plan, f"results/{dataset}"
        return [
            f"{d}/compounds.parquet",
            f"{d}/fingerprints.npz",
            f"{d}/neighbours_k{plan.k}.npz",
            *(f"{d}/scores/{m}.parquet" for m in plan.models),
            *([f"{d}/tables/irv_training.md"] if plan.irv_schemes else []),
            f"{d}/tables/folds.md",
            f"{d}/tables/areas.md",
            f"{d}/tables/intervals.md",
            f"{d}/tables/significance.md",
            *(f"{d}{repeat_dir(r)}/tables/significance.md" for r in range(1, plan.repeats)),
            *([f"{d}/tables/repeats.md"] if plan.repeats > 1 else []),
            *([f"{d}/tables/published.md"] if plan.dataset_spec(dataset).reproduces else []),
            *([f"{d}/tables/power.md"] if plan.power_pairs else []),
            f"{d}/tables/memorization.md",
            *([f"{d}/tables/split_similarity.md"] if plan.memorization["splits"] else []),
            f"{d}/figures/roc.png",
        ]

    def all_targets(self) -> list[str]:
        """Every dataset's targets, then (with two or more datasets) the cross-dataset summary."""
        targets = [t for dataset in self.plan.datasets for t in self.dataset_targets(dataset)]
        return targets + (self.summary_targets() if self.plan.summary else [])

    def summary_targets(self, wildcards=None) -> list[str]:
        """The cross-dataset tables and figures; with one dataset there are none to build, and asking for them is an
        error."""
        plan = self.plan
        if not plan.summary:
            raise ValueError(f"the summary compares two or more datasets; dataset: names one ({plan.datasets[0]})")
        return [
            "results/summary/tables/ranks.md",
            *(["results/summary/tables/claims.md"] if plan.claims else []),
            "results/summary/figures/critical_difference.png",
            *(["results/summary/tables/pains.md"] if plan.config["summary"]["pains"] else []),
            "results/summary/tables/novel.md",
            *(["results/summary/tables/verdict.md"] if plan.config.get("verdict") else []),
            "results/summary/tables/shared.md",
            "results/summary/tables/design.yaml",
        ]

    def design_infos(self, wildcards) -> list[str]:
        """Every dataset's fold 0 info of every trained run (dataset by dataset, runs in config order): the
        design's record of the features each run read (:func:`crocbench._workflow.features_design`)."""
        plan = self.plan
        return [
            f"results/{dataset}/scores/{m}/fold_0.json"
            for dataset in plan.datasets
            for m in plan.models
            if m in plan.trained
        ]

    def screen_targets(self, wildcards=None) -> list[str]:
        """The summary's tables of one screen each (any number of datasets, one included), with the design and the
        declared questions, in ``results/screens/``: what ``crocbench reference --add`` merges into a panel's
        reference run screen by screen."""
        plan = self.plan
        return [
            "results/screens/tables/datasets.tsv",
            *(["results/screens/tables/claims_per_screen.tsv"] if plan.claims else []),
            *(
                ["results/screens/tables/pains.tsv", "results/screens/tables/datasets_without_pains.tsv"]
                if plan.config["summary"]["pains"]
                else []
            ),
            "results/screens/tables/novel.tsv",
            "results/screens/tables/design.yaml",
        ]

    def stale_tables(self, wildcards) -> list[str]:
        """The summary tables an earlier run may have left that this run does not write
        (:func:`crocbench._workflow.stale_summary_tables`): ``screen_datasets`` removes them, so no reference keeps
        another run's."""
        return stale_summary_tables(wildcards.summary, self.plan.config["summary"]["pains"], self.plan.claims)

    def summary_dataset_tables(self, name: str):
        """An input function: every dataset's ``tables/{name}.tsv`` (the claims read tables 1 and 2)."""
        return lambda wildcards: [f"results/{dataset}/tables/{name}.tsv" for dataset in self.plan.datasets]

    def summary_scores(self, wildcards) -> list[str]:
        """Every dataset's pooled scores of every model (dataset by dataset, models in config order)."""
        return [f"results/{dataset}/scores/{m}.parquet" for dataset in self.plan.datasets for m in self.plan.models]

    def summary_repeat_scores(self, wildcards) -> list[str]:
        """Every dataset's pooled scores of every model in repeats 1, 2, ... (dataset by dataset, then repeat by
        repeat, models in config order); none without repeats."""
        return [
            f"results/{dataset}{repeat_dir(r)}/scores/{m}.parquet"
            for dataset in self.plan.datasets
            for r in range(1, self.plan.repeats)
            for m in self.plan.models
        ]

    def pooled_scores(self, wildcards) -> list[str]:
        """Every model's pooled out-of-fold scores (of the job's repeat), in config order."""
        d = f"results/{wildcards.dataset}{getattr(wildcards, 'repeat', '')}"
        return [f"{d}/scores/{m}.parquet" for m in self.plan.models]

    def per_fold_tables(self, wildcards) -> list[str]:
        """Every model's per-fold metrics, in config order."""
        return [f"results/{wildcards.dataset}/scores/{m}.per_fold.tsv" for m in self.plan.models]

    def fold_parts(self, wildcards) -> list[str]:
        """One trained run's per-fold scores (of the job's repeat)."""
        d = f"results/{wildcards.dataset}{wildcards.repeat}/scores/{wildcards.model}"
        return [f"{d}/fold_{k}.parquet" for k in range(self.plan.folds)]

    def _groups(self, d: str, splits) -> dict:
        """The group files of the grouped splits among ``splits``: scaffolds, clusters."""
        scaffolds = f"{d}/scaffolds/{self.plan.config['cv']['scaffold']}.parquet"
        return {
            **({"scaffolds": scaffolds} if "scaffold" in splits else {}),
            **({"clusters": f"{d}/clusters.parquet"} if "cluster" in splits else {}),
        }

    def folds_inputs(self, wildcards) -> dict:
        """The folds job's inputs: the compounds, and for a scaffold split their scaffolds, for a cluster split
        their clusters, for a novelty split their ECFP counts."""
        d = f"results/{wildcards.dataset}"
        ecfp = {"ecfp": f"{d}/ecfp.npz"} if self.plan.split == "novelty" else {}
        return {"compounds": f"{d}/compounds.parquet", **self._groups(d, [self.plan.split]), **ecfp}

    def split_similarity_inputs(self, wildcards) -> dict:
        """The split table's inputs: compounds, fingerprints and neighbours, the groups of its grouped splits, and
        for a novelty split the ECFP counts."""
        d = f"results/{wildcards.dataset}"
        splits = self.plan.memorization["splits"]
        return {
            "compounds": f"{d}/compounds.parquet",
            "fingerprints": f"{d}/fingerprints.npz",
            "neighbours": f"{d}/neighbours_k{self.plan.k}.npz",
            **self._groups(d, splits),
            **({"ecfp": f"{d}/ecfp.npz"} if "novelty" in splits else {}),
        }

    def repeat_files(self, path: str):
        """An input function: ``path`` (under ``results/{dataset}``) of every repeat, repeat 0 first; with
        ``{model}`` in it, of every model."""
        plan = self.plan
        return lambda wildcards: [
            f"results/{wildcards.dataset}{repeat_dir(r)}/{path.format(model=m)}"
            for r in range(plan.repeats)
            for m in (plan.models if "{model}" in path else [None])
        ]

    @staticmethod
    def sensitivity_parts(wildcards) -> str:
        """Where an interrupted sensitivity job keeps its finished folds."""
        return f"results/{wildcards.dataset}/svm_sensitivity/{wildcards.variant}.parts"

    def sensitivity_grids(self, wildcards) -> list[str]:
        """Every fingerprint variant's SVM sensitivity grid."""
        d = f"results/{wildcards.dataset}/svm_sensitivity"
        return [f"{d}/{v}.parquet" for v in self.plan.sensitivity["fingerprints"]]

    def imported_scores(self, wildcards) -> str:
        """The file an imported run's scores come from (relative to the working directory); ``{dataset}`` in it is
        the dataset's name, so one entry serves every screen (e.g. an assay's own score kept in its compounds
        table: ``scores: results/{dataset}/compounds.parquet``)."""
        return self.plan.runs[wildcards.model].params["scores"].replace("{dataset}", wildcards.dataset)

    def irv_training_inputs(self, wildcards) -> dict:
        """The IRV training table's inputs: each scheme's pooled scores, fold infos and benchmark files (named
        lists)."""
        plan, d = self.plan, f"results/{wildcards.dataset}"
        runs = [irv_run(s) for s in plan.irv_schemes]
        return {  # the script matches files to schemes by run name (the folder or file name), not by position
            "scores": [f"{d}/scores/{r}.parquet" for r in runs],
            "infos": [f"{d}/scores/{r}/fold_{k}.json" for r in runs for k in range(plan.folds)],
            "benchmarks": [  # the run's jobs: one per fold, or one for all (score_folds)
                f"logs/{wildcards.dataset}/benchmark/scores/{r}/{part}.tsv"
                for r in runs
                for part in plan.fold_job_names(r)
            ],
            # the paper's Appendix A claims compare the reweighted IRVs with its SVM and kNN
            "others": [f"{d}/scores/{m}.parquet" for m in ("svm", "knn") if m in plan.models],
        }

    def irv_training_runs(self, wildcards) -> list[str]:
        """The tables the published comparison reads the IRV training numbers from (none without the IRV)."""
        return [f"results/{wildcards.dataset}/tables/irv_training.tsv"] if self.plan.irv_schemes else []

    def power_scores(self, wildcards) -> list[str]:
        """The pooled scores of the models the power study's pairs name."""
        return [f"results/{wildcards.dataset}/scores/{m}.parquet" for m in self.plan.power_models()]

    def sensitivity_per_fold(self, wildcards) -> list[str]:
        """The per-fold metrics of every model of the sensitivity study's pooling table."""
        return [f"results/{wildcards.dataset}/scores/{m}.per_fold.tsv" for m in self.plan.ranked_models()]

    def svm_fold_infos(self, wildcards) -> list[str]:
        """The default SVM run's per-fold choices (none without one)."""
        if "svm" not in self.plan.trained:
            return []
        return [f"results/{wildcards.dataset}/scores/svm/fold_{k}.json" for k in range(self.plan.folds)]

    @staticmethod
    def sensitivity_fingerprints(wildcards) -> str:
        """The fingerprints of one SVM sensitivity variant: the workflow's own for "paper"."""
        if wildcards.variant == "paper":
            return f"results/{wildcards.dataset}/fingerprints.npz"
        return f"results/{wildcards.dataset}/fingerprints_{wildcards.variant}.npz"

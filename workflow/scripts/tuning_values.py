import pandas as pd

from crocbench._accounting import seconds_per_fold
from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.cv import pool_scores
from crocbench.report import datasets_table

with step(snakemake) as log:
    models, labels, folds = snakemake.params.models, snakemake.params.labels, snakemake.params.folds
    jobs = snakemake.params.jobs  # each trained run's fold jobs holding a validation fold: their folds
    scores = iter(snakemake.input.scores)  # expand's order: dataset, model, fold
    imported, benchmarks = iter(snakemake.input.imported), iter(snakemake.input.benchmarks)
    parts = []
    for dataset, folds_path in zip(snakemake.params.datasets, snakemake.input.folds):
        table = pd.read_csv(folds_path, sep="\t", dtype={"id": str})
        validation = table[table["fold"].isin(folds)].reset_index(drop=True)
        runs = {}
        for m in models:
            if m in snakemake.params.imported:
                pooled = pd.read_parquet(next(imported))
                parts_of_run = [pooled[pooled["fold"].isin(folds)]]
            else:
                parts_of_run = [pd.read_parquet(next(scores)) for _ in folds]
            runs[labels[m]] = pool_scores(parts_of_run, validation)
        seconds = {  # a validation fold's job seconds (an imported run's: none)
            labels[m]: seconds_per_fold([next(benchmarks) for _ in jobs[m]], jobs[m], folds)
            if m in jobs
            else float("nan")
            for m in models
        }
        part = datasets_table({dataset: runs})
        parts.append(part.assign(seconds=part["model"].map(seconds)))
        print(f"{dataset}: {len(validation):,} compounds of folds {folds}, {len(models)} runs", file=log, flush=True)
    write_table(pd.concat(parts, ignore_index=True), snakemake.output[0], sep="\t", index=False, float_format="%.10g")

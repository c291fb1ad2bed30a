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
        files = {m: [next(benchmarks) for _ in jobs[m]] for m in models if m in jobs}
        costs = {  # a validation fold's job seconds, wall and CPU (an imported run's: none)
            name: {
                labels[m]: seconds_per_fold(files[m], jobs[m], folds, column) if m in jobs else float("nan")
                for m in models
            }
            for name, column in (("seconds", "s"), ("cpu_seconds", "cpu_time"))
        }
        part = datasets_table({dataset: runs})
        parts.append(part.assign(**{name: part["model"].map(cost) for name, cost in costs.items()}))
        print(f"{dataset}: {len(validation):,} compounds of folds {folds}, {len(models)} runs", file=log, flush=True)
    write_table(pd.concat(parts, ignore_index=True), snakemake.output[0], sep="\t", index=False, float_format="%.10g")

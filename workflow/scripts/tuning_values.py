import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.cv import pool_scores
from crocbench.report import datasets_table

with step(snakemake) as log:
    models, labels, folds = snakemake.params.models, snakemake.params.labels, snakemake.params.folds
    scores, imported = (
        iter(snakemake.input.scores),
        iter(snakemake.input.imported),
    )  # expand's order: dataset, model, fold
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
        parts.append(datasets_table({dataset: runs}))
        print(f"{dataset}: {len(validation):,} compounds of folds {folds}, {len(models)} runs", file=log, flush=True)
    write_table(pd.concat(parts, ignore_index=True), snakemake.output[0], sep="\t", index=False, float_format="%.10g")

import pandas as pd

from crocbench._workflow import step
from crocbench.cv import pool_scores
from crocbench.report import write_pooled

with step(snakemake) as log:
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    pooled = pool_scores((pd.read_parquet(p) for p in snakemake.input.parts), folds)
    write_pooled(pooled, snakemake.params.top, snakemake.output.scores, snakemake.output.per_fold, log)

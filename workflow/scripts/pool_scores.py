import pandas as pd

from crocbench._workflow import step
from crocbench.cv import pool_scores
from crocbench.metrics import per_fold_metrics
from crocbench.report import panel_for

with step(snakemake) as log:
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    pooled = pool_scores((pd.read_parquet(p) for p in snakemake.input.parts), folds)
    pooled.to_parquet(snakemake.output.scores, index=False)
    notes = []
    table = per_fold_metrics(pooled, panel_for(pooled, snakemake.params.top, notes=notes), notes)
    print("\n".join(notes), file=log)
    table.to_csv(snakemake.output.per_fold, sep="\t", index=False, float_format="%.6g")
    print(table.to_string(), file=log)

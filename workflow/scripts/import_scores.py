from pathlib import Path

import pandas as pd

from crocbench._workflow import step
from crocbench.cv import import_scores
from crocbench.data import read_table
from crocbench.metrics import per_fold_metrics
from crocbench.report import panel_for

with step(snakemake) as log:
    run, path = snakemake.params.run, Path(snakemake.input.scores)
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    table = pd.read_parquet(path) if path.suffix == ".parquet" else read_table(path)
    pooled = import_scores(table, folds, id=run["id"], score=run["score"], fold=run["fold"], source=str(path))
    print(f"{path}: {len(pooled)} compounds, each scored once", file=log)
    pooled.to_parquet(snakemake.output.scores, index=False)
    notes = []
    per_fold = per_fold_metrics(pooled, panel_for(pooled, snakemake.params.top, notes=notes), notes)
    print("\n".join(notes), file=log)
    per_fold.to_csv(snakemake.output.per_fold, sep="\t", index=False, float_format="%.6g")
    print(per_fold.to_string(), file=log)

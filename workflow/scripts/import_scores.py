from pathlib import Path

import pandas as pd

from crocbench._workflow import step
from crocbench.cv import import_scores
from crocbench.data import read_table
from crocbench.report import write_pooled

with step(snakemake) as log:
    run, path = snakemake.params.run, Path(snakemake.input.scores)
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    table = pd.read_parquet(path) if path.suffix == ".parquet" else read_table(path)
    pooled = import_scores(table, folds, id=run["id"], score=run["score"], fold=run["fold"], source=str(path))
    print(f"{path}: {len(pooled)} compounds, each scored once", file=log)
    write_pooled(pooled, snakemake.params.top, snakemake.output.scores, snakemake.output.per_fold, log)

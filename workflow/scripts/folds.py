import pandas as pd

from crocbench._workflow import step
from crocbench.cv import fold_table

with step(snakemake) as log:
    compounds = pd.read_parquet(snakemake.input[0], columns=["id", "label"])
    table = fold_table(compounds["id"], compounds["label"], snakemake.params.n_folds, snakemake.params.seed)
    table.to_csv(snakemake.output[0], sep="\t", index=False)
    print(table.groupby("fold")["label"].agg(["size", "sum"]).to_string(), file=log)

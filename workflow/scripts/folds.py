import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.cv import fold_table, read_split_groups

with step(snakemake) as log:
    compounds = pd.read_parquet(snakemake.input.compounds, columns=["id", "label"])
    groups = read_split_groups(
        compounds["id"], **{k: snakemake.input[k] for k in ("scaffolds", "clusters") if k in snakemake.input.keys()}
    )
    table = fold_table(compounds["id"], compounds["label"], snakemake.params.n_folds, snakemake.params.seed, **groups)
    write_table(table, snakemake.output[0], sep="\t", index=False)
    print(table.groupby("fold")["label"].agg(["size", "sum"]).to_string(), file=log)

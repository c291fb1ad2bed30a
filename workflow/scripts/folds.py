import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.cv import fold_table

with step(snakemake) as log:
    compounds = pd.read_parquet(snakemake.input.compounds, columns=["id", "label"])
    groups = {}
    for name, column in (("scaffolds", "scaffold"), ("clusters", "cluster")):
        if name in snakemake.input.keys():
            table = pd.read_parquet(snakemake.input[name])
            if not table["id"].equals(compounds["id"]):
                raise ValueError(f"{snakemake.input[name]} does not list the compounds of {snakemake.input.compounds}")
            groups[name] = table[column].to_numpy()
    table = fold_table(compounds["id"], compounds["label"], snakemake.params.n_folds, snakemake.params.seed, **groups)
    write_table(table, snakemake.output[0], sep="\t", index=False)
    print(table.groupby("fold")["label"].agg(["size", "sum"]).to_string(), file=log)

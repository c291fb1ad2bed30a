import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.report.findings import stratum_datasets

with step(snakemake) as log:
    tables = {d: pd.read_csv(p, sep="\t") for d, p in zip(snakemake.params.datasets, snakemake.input.tables)}
    novel = stratum_datasets(tables, "novel")
    write_table(novel, snakemake.output[0], sep="\t", index=False, float_format="%.10g")
    print(novel.to_string(), file=log)

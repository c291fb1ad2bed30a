import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report.findings import novel_markdown, stratum_datasets

with step(snakemake) as log:
    tables = {d: pd.read_csv(p, sep="\t") for d, p in zip(snakemake.params.datasets, snakemake.input.tables)}
    novel = stratum_datasets(tables, "novel")
    write_table(novel, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    text = "# The novel actives, across the screens\n\n" + novel_markdown(novel, snakemake.params.questions) + "\n"
    write_text(snakemake.output.md, text)
    print(text, file=log)

import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import shared_markdown, shared_structures, structure_keys

with step(snakemake) as log:
    keys = {}
    for dataset, path in zip(snakemake.params.datasets, snakemake.input.compounds):  # one screen in memory at a time
        keys[dataset] = structure_keys(pd.read_parquet(path, columns=["smiles"])["smiles"])
        print(f"{dataset}: {keys[dataset].size:,} structures", file=log, flush=True)
    counts, pairs = shared_structures(keys)
    write_table(counts, snakemake.output.counts, sep="\t", index=False)
    write_table(pairs, snakemake.output.pairs, sep="\t", index=False)
    text = "# The structures the screens share\n\n" + shared_markdown(counts, pairs) + "\n"
    write_text(snakemake.output.md, text)
    print(text, file=log)

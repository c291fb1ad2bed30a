import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.paper import PAPER_MODELS, screen_claims

with step(snakemake) as log:
    datasets, labels = snakemake.params.datasets, snakemake.params.labels
    areas = {d: pd.read_csv(p, sep="\t") for d, p in zip(datasets, snakemake.input.areas)}
    significance = {d: pd.read_csv(p, sep="\t") for d, p in zip(datasets, snakemake.input.significance)}
    screens = screen_claims(areas, significance, {m: labels[m] for m in PAPER_MODELS})
    write_table(screens, snakemake.output[0], sep="\t", index=False)
    print(screens.to_string(), file=log)

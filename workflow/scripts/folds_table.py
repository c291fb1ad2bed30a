from pathlib import Path

import pandas as pd

from crocbench._workflow import step
from crocbench.report import folds_markdown

with step(snakemake) as log:
    tables = [
        pd.read_csv(p, sep="\t", dtype={"id": str, "scaffold": str}, keep_default_na=False) for p in snakemake.input
    ]
    text = (
        f"# Folds ({snakemake.wildcards.dataset})\n\n"
        + folds_markdown(tables, snakemake.params.split, snakemake.params.scaffold, snakemake.params.seed)
        + "\n"
    )
    Path(snakemake.output.md).write_text(text)
    print(text, file=log)

import pandas as pd

from crocbench._io import write_text
from crocbench._workflow import step
from crocbench.report import folds_markdown, markdown_html

with step(snakemake) as log:
    tables = [
        pd.read_csv(p, sep="\t", dtype={"id": str, "scaffold": str}, keep_default_na=False) for p in snakemake.input
    ]
    text = (
        f"# Folds ({snakemake.wildcards.dataset})\n\n"
        + folds_markdown(
            tables,
            snakemake.params.split,
            snakemake.params.scaffold,
            snakemake.params.seed,
            snakemake.params.cluster_threshold,
            snakemake.params.novelty,
        )
        + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    print(text, file=log)

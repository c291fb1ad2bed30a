import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import markdown_html, metric_set_for, significance_markdown, significance_table
from crocbench.stats import TESTS

with step(snakemake) as log:
    models = snakemake.params.models
    pooled = {snakemake.params.labels[m]: pd.read_parquet(p) for m, p in zip(models, snakemake.input.scores)}
    calls = metric_set_for(next(iter(pooled.values())), snakemake.params.top)
    samples = snakemake.params.samples
    table = significance_table(pooled, calls, TESTS, n_samples=samples, seed=snakemake.params.seed)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Significance ({snakemake.wildcards.dataset}{snakemake.wildcards.repeat}): one-sided p-values in the observed direction, "
        f"{samples:,} permutation samples; **p < 0.01**, *p < 0.05*\n\n" + significance_markdown(table, TESTS) + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    print(f"{len(table)} comparisons", file=log)

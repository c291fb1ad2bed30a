import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import intervals_markdown, intervals_table, markdown_html, metric_set_for

with step(snakemake) as log:
    label = snakemake.params.labels
    pooled = {label[m]: pd.read_parquet(p) for m, p in zip(snakemake.params.models, snakemake.input.scores)}
    calls = metric_set_for(next(iter(pooled.values())), snakemake.params.top)
    resamples = snakemake.params.resamples
    table = intervals_table(pooled, calls, n_resamples=resamples, seed=snakemake.params.seed)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Areas with 95% intervals ({snakemake.wildcards.dataset}): pooled ranking; percentile intervals of a "
        f"stratified bootstrap over compounds, {resamples:,} resamples\n\n" + intervals_markdown(table, calls) + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    print(text, file=log)

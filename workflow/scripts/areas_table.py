import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import (
    areas_markdown,
    areas_table,
    markdown_html,
    metric_set_for,
    other_metrics_markdown,
    other_metrics_table,
    per_fold_summary,
)

with step(snakemake) as log:
    models, notes = snakemake.params.models, []
    label = snakemake.params.labels
    pooled = {label[m]: pd.read_parquet(p) for m, p in zip(models, snakemake.input.scores)}
    calls = metric_set_for(next(iter(pooled.values())), snakemake.params.top, notes=notes)
    print("\n".join(notes), file=log)
    per_fold = {label[m]: pd.read_csv(p, sep="\t") for m, p in zip(models, snakemake.input.per_fold)}
    areas, summary = areas_table(pooled, calls), per_fold_summary(per_fold, calls)
    write_table(areas, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    write_table(summary, snakemake.output.per_fold, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Areas ({snakemake.wildcards.dataset}): pooled {snakemake.params.n_folds}-fold ranking; below, mean ± SD over the folds\n\n"
        + areas_markdown(areas, summary, calls)
        + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    print(text, file=log)
    other = other_metrics_table(pooled, top=snakemake.params.top)
    write_table(other, snakemake.output.other_tsv, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Other metrics ({snakemake.wildcards.dataset}): the other papers' measures on the pooled "
        "ranking; per-query metrics take each fold as a query\n\n" + other_metrics_markdown(other) + "\n"
    )
    write_text(snakemake.output.other_md, text)
    write_text(snakemake.output.other_html, markdown_html(text))
    print(text, file=log)

from pathlib import Path

import pandas as pd

from crocbench._workflow import step
from crocbench.report import datasets_markdown, datasets_table, ranks_markdown, ranks_table

with step(snakemake) as log:
    datasets, models, labels = snakemake.params.datasets, snakemake.params.models, snakemake.params.labels
    paths = iter(snakemake.input.scores)  # dataset by dataset, models in config order (common.smk: summary_scores)
    runs = {d: {labels[m]: pd.read_parquet(next(paths)) for m in models} for d in datasets}
    table = datasets_table(runs, n_resamples=snakemake.params.resamples, seed=snakemake.params.seed)
    table.to_csv(snakemake.output.datasets_tsv, sep="\t", index=False, float_format="%.10g")
    Path(snakemake.output.datasets_md).write_text(
        f"# Datasets: {len(datasets)} screens, each model's pooled out-of-fold ranking; in brackets the 95% "
        f"stratified bootstrap interval ({snakemake.params.resamples} resamples)\n\n" + datasets_markdown(table) + "\n"
    )
    ranked = snakemake.params.ranked  # summary: models (default: every model)
    ranks, pairs = ranks_table(table[table["model"].isin(ranked)])
    ranks.to_csv(snakemake.output.ranks_tsv, sep="\t", index=False, float_format="%.10g")
    pairs.to_csv(snakemake.output.pairs_tsv, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Ranks of {', '.join(ranked)} across {len(datasets)} datasets ({', '.join(datasets)}): 1 = best; "
        "Friedman test, Nemenyi "
        "critical difference (Demsar 2006), two-sided paired Wilcoxon signed-rank tests with Holm correction\n\n"
        + ranks_markdown(ranks, pairs)
        + "\n"
    )
    Path(snakemake.output.ranks_md).write_text(text)
    print(text, file=log)

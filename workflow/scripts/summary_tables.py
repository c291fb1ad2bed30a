import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import datasets_markdown, datasets_table, ranks_markdown, ranks_table

with step(snakemake) as log:
    datasets, models, labels = snakemake.params.datasets, snakemake.params.models, snakemake.params.labels
    paths = iter(snakemake.input.scores)  # dataset by dataset, models in config order (common.smk: summary_scores)
    parts = []
    for d in datasets:  # one dataset's scores in memory at a time (25 screens' would be gigabytes)
        run = {labels[m]: pd.read_parquet(next(paths), columns=["id", "label", "score"]) for m in models}
        parts.append(datasets_table({d: run}, n_resamples=snakemake.params.resamples, seed=snakemake.params.seed))
        print(f"{d}: {len(run[labels[models[0]]]):,} compounds, {len(models)} models", file=log, flush=True)
    table = pd.concat(parts, ignore_index=True)
    write_table(table, snakemake.output.datasets_tsv, sep="\t", index=False, float_format="%.10g")
    write_text(
        snakemake.output.datasets_md,
        f"# Datasets: {len(datasets)} screens, each model's pooled out-of-fold ranking; in brackets the 95% "
        f"stratified bootstrap interval ({snakemake.params.resamples} resamples)\n\n" + datasets_markdown(table) + "\n",
    )
    ranked = snakemake.params.ranked  # summary: models (default: every model)
    ranks, pairs = ranks_table(table[table["model"].isin(ranked)])
    write_table(ranks, snakemake.output.ranks_tsv, sep="\t", index=False, float_format="%.10g")
    write_table(pairs, snakemake.output.pairs_tsv, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Ranks of {', '.join(ranked)} across {len(datasets)} datasets ({', '.join(datasets)}): 1 = best; "
        "Friedman test, Nemenyi "
        "critical difference (Demsar 2006), two-sided paired Wilcoxon signed-rank tests with Holm correction\n\n"
        + ranks_markdown(ranks, pairs)
        + "\n"
    )
    write_text(snakemake.output.ranks_md, text)
    print(text, file=log)

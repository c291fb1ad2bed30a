import pandas as pd
import yaml

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import (
    datasets_markdown,
    datasets_table,
    markdown_html,
    ranks_markdown,
    repeats_datasets_table,
    tests_across_screens,
)

with step(snakemake) as log:
    datasets, models, labels = snakemake.params.datasets, snakemake.params.models, snakemake.params.labels
    repeats = snakemake.params.repeats
    paths = iter(snakemake.input.scores)  # dataset by dataset, models in config order (common.smk: summary_scores)
    repeat_paths = iter(snakemake.input.repeat_scores)  # repeats 1.. of each dataset (summary_repeat_scores)
    read = lambda path: pd.read_parquet(path, columns=["id", "label", "score"])  # noqa: E731
    parts, means, per_repeat = [], [], []
    for d in datasets:  # one dataset's scores in memory at a time (25 screens' would be gigabytes)
        run = {labels[m]: read(next(paths)) for m in models}
        parts.append(datasets_table({d: run}, n_resamples=snakemake.params.resamples, seed=snakemake.params.seed))
        by_repeat = [run]
        if repeats > 1:  # the ranks and tests read each model's mean over the repeats (tables/repeats.tsv's mean)
            by_repeat += [{labels[m]: read(next(repeat_paths)) for m in models} for _ in range(1, repeats)]
            means.append(repeats_datasets_table({d: by_repeat}))
        per_repeat += [datasets_table({d: r}).assign(repeat=i) for i, r in enumerate(by_repeat)]
        print(f"{d}: {len(run[labels[models[0]]]):,} compounds, {len(models)} models", file=log, flush=True)
    table = pd.concat(parts, ignore_index=True)
    write_table(table, snakemake.output.datasets_tsv, sep="\t", index=False, float_format="%.10g")
    # each repeat's values (the declared family is tested on their means, and in each repeat on its own)
    write_table(
        pd.concat(per_repeat, ignore_index=True),
        snakemake.output.repeats_tsv,
        sep="\t",
        index=False,
        float_format="%.10g",
    )
    text = (
        f"# Datasets: {len(datasets)} screens, each model's pooled out-of-fold ranking; in brackets the 95% "
        f"stratified bootstrap interval ({snakemake.params.resamples} resamples)\n\n" + datasets_markdown(table) + "\n"
    )
    write_text(snakemake.output.datasets_md, text)
    write_text(snakemake.output.datasets_html, markdown_html(text))
    ranked = snakemake.params.ranked  # summary: models (default: every model)
    values = pd.concat(means, ignore_index=True) if repeats > 1 else table
    ranks, pairs, conover = tests_across_screens(values, ranked)
    write_table(ranks, snakemake.output.ranks_tsv, sep="\t", index=False, float_format="%.10g")
    write_table(pairs, snakemake.output.pairs_tsv, sep="\t", index=False, float_format="%.10g")
    write_table(conover, snakemake.output.conover_tsv, sep="\t", index=False, float_format="%.10g")
    source = (
        f"each screen's value the mean over the {repeats} repeats of its cross-validation (each on that repeat's "
        "pooled ranking)"
        if repeats > 1
        else "each screen's pooled out-of-fold ranking"
    )
    text = (
        f"# Ranks of {', '.join(ranked)} across {len(datasets)} datasets ({', '.join(datasets)}): 1 = best; "
        f"{source}\n\n" + ranks_markdown(ranks, pairs, conover=conover) + "\n"
    )
    write_text(snakemake.output.ranks_md, text)
    write_text(snakemake.output.ranks_html, markdown_html(text))
    # the study's declared questions (summary: questions; null where none): crocbench reference keeps them
    write_text(snakemake.output.questions, yaml.safe_dump(snakemake.params.questions, sort_keys=False))
    print(text, file=log)

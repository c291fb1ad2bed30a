from pathlib import Path

import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import screen_runs, step
from crocbench.report import datasets_markdown, datasets_table, markdown_html

with step(snakemake) as log:
    datasets, models, labels = snakemake.params.datasets, snakemake.params.models, snakemake.params.labels
    parts, per_repeat = [], []
    runs = screen_runs(
        datasets, models, labels, snakemake.input.scores, snakemake.input.repeat_scores, snakemake.params.repeats
    )
    for d, by_repeat in runs:
        run = by_repeat[0]
        part = datasets_table({d: run}, n_resamples=snakemake.params.resamples, seed=snakemake.params.seed)
        parts.append(part)
        intervals = [f"{c}_{end}" for c in part.columns for end in ("low", "high") if f"{c}_{end}" in part.columns]
        per_repeat.append(part.drop(columns=intervals).assign(repeat=0))  # repeat 0's values, computed once
        per_repeat += [datasets_table({d: r}).assign(repeat=i) for i, r in enumerate(by_repeat[1:], 1)]
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
        f"# Datasets: {len(datasets)} screen{'s' if len(datasets) > 1 else ''}, each model's pooled out-of-fold "
        "ranking; in brackets the 95% "
        f"stratified bootstrap interval ({snakemake.params.resamples} resamples)\n\n" + datasets_markdown(table) + "\n"
    )
    write_text(snakemake.output.datasets_md, text)
    write_text(snakemake.output.datasets_html, markdown_html(text))
    print(text, file=log)
    for path in map(Path, snakemake.params.stale):  # no table of an earlier run stays that this run does not write
        if path.exists():
            path.unlink()
            print(f"removed {path}: this run does not write it", file=log)

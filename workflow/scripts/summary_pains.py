import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.pains import flag_counts, without_flagged
from crocbench.report import datasets_table, pains_markdown

with step(snakemake) as log:
    models, labels = snakemake.params.models, snakemake.params.labels
    paths = iter(snakemake.input.scores)  # dataset by dataset, models in config order (common.smk: summary_scores)
    read = lambda path: pd.read_parquet(path, columns=["id", "label", "score"])  # noqa: E731
    parts, counts = [], []
    for dataset, flags_path in zip(snakemake.params.datasets, snakemake.input.pains):
        flags = pd.read_parquet(flags_path, columns=["id", "pains"])
        run = {labels[m]: read(next(paths)) for m in models}
        counts.append({"dataset": dataset, **flag_counts(flags, next(iter(run.values())))})
        kept = {label: without_flagged(scores, flags) for label, scores in run.items()}
        parts.append(
            datasets_table({dataset: kept}, n_resamples=snakemake.params.resamples, seed=snakemake.params.seed)
        )
        print(f"{dataset}: {counts[-1]}", file=log, flush=True)
    counts, without = pd.DataFrame(counts), pd.concat(parts, ignore_index=True)
    write_table(counts, snakemake.output.counts, sep="\t", index=False)
    write_table(without, snakemake.output.datasets, sep="\t", index=False, float_format="%.10g")
    text = "# Without the PAINS compounds\n\n" + pains_markdown(counts, without, snakemake.params.questions) + "\n"
    write_text(snakemake.output.md, text)
    print(text, file=log)

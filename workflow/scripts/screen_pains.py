import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import screen_runs, step
from crocbench.chem.pains import flag_counts, without_flagged
from crocbench.report import datasets_table

with step(snakemake) as log:
    models, labels, repeats = snakemake.params.models, snakemake.params.labels, snakemake.params.repeats
    parts, counts = [], []
    runs = screen_runs(
        snakemake.params.datasets, models, labels, snakemake.input.scores, snakemake.input.repeat_scores, repeats
    )
    for (dataset, by_repeat), flags_path in zip(runs, snakemake.input.pains):
        flags = pd.read_parquet(flags_path, columns=["id", "pains"])
        for r, run in enumerate(by_repeat):  # each repeat's values without the flagged compounds
            kept = {label: without_flagged(scores, flags) for label, scores in run.items()}  # a missing flag: one line
            parts.append(datasets_table({dataset: kept}).assign(repeat=r))
        counts.append({"dataset": dataset, **flag_counts(flags, next(iter(by_repeat[0].values())))})
        print(f"{dataset}: {counts[-1]}", file=log, flush=True)
    write_table(pd.DataFrame(counts), snakemake.output.counts, sep="\t", index=False)
    write_table(
        pd.concat(parts, ignore_index=True), snakemake.output.datasets, sep="\t", index=False, float_format="%.10g"
    )

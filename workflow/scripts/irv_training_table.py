import json
from pathlib import Path

import pandas as pd

from crocbench._workflow import step
from crocbench.plots import plot_training_curves
from crocbench.report import (IRV_TRAINING_NOTES, claims_markdown, irv_training_claims, irv_training_table,
                              markdown_table, pooled_metrics)

with step(snakemake) as log:
    schemes, n_folds = snakemake.params.schemes, snakemake.params.n_folds
    infos = [json.loads(Path(p).read_text()) for p in snakemake.input.infos]
    seconds = [float(pd.read_csv(p, sep="\t")["s"].iloc[0]) for p in snakemake.input.benchmarks]
    runs = {}
    for i, scheme in enumerate(schemes):
        part = slice(i * n_folds, (i + 1) * n_folds)
        runs[scheme] = (pd.read_parquet(snakemake.input.scores[i]), infos[part], seconds[part])
    table = irv_training_table(runs, top=snakemake.params.top)
    table.to_csv(snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    text = (f"# IRV training with rank reweighting ({snakemake.wildcards.dataset})\n\n{markdown_table(table)}\n\n"
            f"train_seconds: wall time of the {n_folds} fold jobs (loading included).\n")
    if snakemake.params.reproduces:  # the paper's Appendix A numbers and claims apply to this dataset only
        others = {Path(p).stem: pooled_metrics(pd.read_parquet(p), top=snakemake.params.top) for p in snakemake.input.others}
        claims = irv_training_claims(table, others)
        text += (f"\n{IRV_TRAINING_NOTES}\n\n## The paper's claims on this run\n\n"
                 f"{claims_markdown([c[1:] for c in claims])}\n")
    Path(snakemake.output.md).write_text(text)
    plot_training_curves({s: [i["history"] for i in runs[s][1]] for s in schemes}, snakemake.output.figure,
                         title=f"IRV training, {snakemake.wildcards.dataset}")
    print(text, file=log)

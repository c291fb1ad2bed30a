import pandas as pd

from crocbench._workflow import step
from crocbench.plots import plot_ac_cac, plot_croc_subplots, plot_magnification, plot_proc, plot_roc

with step(snakemake) as log:
    models, out = snakemake.params.models, snakemake.output
    rankings = {}
    for m, path in zip(models, snakemake.input.scores):
        scores = pd.read_parquet(path)
        rankings[snakemake.params.labels[m]] = (scores["label"].to_numpy(), scores["score"].to_numpy())
    plot_magnification(out.magnification)
    plot_roc(rankings, out.roc)
    plot_croc_subplots(rankings, out.croc)
    plot_ac_cac(rankings, out.ac_cac)
    plot_proc(rankings, out.proc)
    print(f"figures written; curves: {', '.join(rankings)}", file=log)

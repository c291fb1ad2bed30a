import pandas as pd

from crocbench._workflow import step
from crocbench.plots import colour_map, plot_critical_difference, plot_datasets
from crocbench.report import SUMMARY_FIGURE_METRICS, SUMMARY_TABLE_METRICS, summary_labels

with step(snakemake) as log:
    table = pd.read_csv(snakemake.input.datasets, sep="\t")
    ranks = pd.read_csv(snakemake.input.ranks, sep="\t")
    labels = summary_labels()
    panels = {}
    for metric in SUMMARY_TABLE_METRICS:  # the tables' six, each a diagram
        part = ranks[ranks["metric"] == metric]
        if part.empty:
            raise ValueError(f"{snakemake.input.ranks}: no ranks of {metric}")
        panels[labels[metric]] = (dict(zip(part["model"], part["mean_rank"])), float(part["nemenyi_cd"].iloc[0]))
    colours = colour_map(list(dict.fromkeys(table["model"])))  # as the datasets figure's, every model's
    plot_critical_difference(panels, snakemake.output.critical_difference, colours)
    plot_datasets(table, snakemake.output.datasets, {m: labels[m] for m in SUMMARY_FIGURE_METRICS})
    print(f"figures of {table['dataset'].nunique()} datasets written", file=log)

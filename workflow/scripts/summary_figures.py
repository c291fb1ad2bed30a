import pandas as pd

from crocbench._workflow import step
from crocbench.plots import colour_map, plot_critical_difference, plot_datasets
from crocbench.report import SUMMARY_FIGURE_METRICS, critical_difference_subplots, summary_labels

with step(snakemake) as log:
    table = pd.read_csv(snakemake.input.datasets, sep="\t")
    ranks = pd.read_csv(snakemake.input.ranks, sep="\t")
    try:
        diagrams = critical_difference_subplots(ranks)  # the tables' six, each a diagram
    except ValueError as exc:
        raise ValueError(f"{snakemake.input.ranks}: {exc}") from None
    colours = colour_map(list(dict.fromkeys(table["model"])))  # as the datasets figure's, every model's
    plot_critical_difference(diagrams, snakemake.output.critical_difference, colours)
    plot_datasets(table, snakemake.output.datasets, {m: summary_labels()[m] for m in SUMMARY_FIGURE_METRICS})
    print(f"figures of {table['dataset'].nunique()} datasets written", file=log)

"""The evaluation protocol's figure: a random and a scaffold split compared."""

from __future__ import annotations

import matplotlib.pyplot as plt

from ._style import colour_map, save_figure


def plot_split_comparison(table, out, splits=("random", "scaffold")) -> list:
    """Each model's metric under two splits (mean ± SD over the repeats), one subplot per metric.

    ``table`` is :func:`crocbench.report.split_comparison`'s output.
    """
    keys = list(dict.fromkeys(table["key"]))
    models = list(dict.fromkeys(table["model"]))
    colours = colour_map(models)
    fig, axes = plt.subplots(1, len(keys), figsize=(4.6 * len(keys), 4.2), constrained_layout=True, squeeze=False)
    for ax, key in zip(axes[0], keys):
        part = table[table["key"] == key].set_index("model")
        for model in models:
            means = [part.at[model, f"{s}_mean"] for s in splits]
            sds = [part.at[model, f"{s}_sd"] for s in splits]
            ax.errorbar(range(len(splits)), means, yerr=sds, color=colours[model], marker="o", capsize=3, label=model)
        ax.set_xticks(range(len(splits)), [f"{s} split" for s in splits])
        ax.set(title=part["label"].iloc[0], xlim=(-0.4, len(splits) - 0.6))
        ax.grid(alpha=0.3, axis="y")
    axes[0, -1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="small")
    return save_figure(fig, out)

"""Figures across screens: critical-difference diagrams and each metric per screen."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..stats import cd_cliques
from ._style import colour_map, legible_points, save_figure


def plot_critical_difference(diagrams: dict, out, colours: dict | None = None, formats=("png", "pdf")) -> list:
    """Critical-difference diagrams (Demsar 2006), one subplot each, two to a row, or one to a row for more than six
    models; every text at least ``MIN_TEXT_PX`` high where a docs page shows the figure at its text width
    (``legible_points``).

    Parameters
    ----------
    diagrams : dict
        ``{title: (mean ranks {model: rank}, critical difference)}``.  Each
        diagram's axis runs from rank 1 (best, left) to k; a model's line drops
        from its mean rank to its name; the bar above the axis is the critical
        difference, and thick bars join models whose ranks differ by less.
    colours : dict, optional
        ``{model: colour}``, e.g. :func:`colour_map` of every model of another
        figure, so that a model keeps its colour (default: of these models).
    formats : tuple of str, default=("png", "pdf")
        ``out`` and beside it these other formats (:func:`save_figure`).
    """
    return save_figure(_critical_difference_figure(diagrams, colours), out, formats)


def _critical_difference_figure(diagrams: dict, colours: dict | None = None):
    """:func:`plot_critical_difference`'s figure, unsaved."""
    k_most = max(len(ranks) for ranks, _ in diagrams.values())
    cols = min(1 if k_most > 6 else 2, len(diagrams))
    rows = -(-len(diagrams) // cols)
    width = 5.6 * cols
    size = legible_points(width)
    fig, axes = plt.subplots(rows, cols, figsize=(width, 3.6 * rows), constrained_layout=True, squeeze=False)
    for ax in axes.flat[len(diagrams) :]:
        ax.axis("off")
    for ax, (title, (ranks, cd)) in zip(axes.flat, diagrams.items()):
        colours = colours or colour_map(ranks)
        k = len(ranks)
        order = sorted(ranks, key=lambda m: ranks[m])
        half = (k + 1) // 2
        ax.hlines(0, 1, k, color="black", lw=1.2)
        for r in range(1, k + 1):
            ax.vlines(r, 0, 0.12, color="black", lw=1)
            ax.text(r, 0.18, str(r), ha="center", va="bottom", fontsize=size)
        ax.hlines(0.55, 1, 1 + cd, color="black", lw=1.5)
        ax.vlines([1, 1 + cd], 0.5, 0.6, color="black", lw=1.5)
        ax.text(1 + cd / 2, 0.65, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=size)
        for i, model in enumerate(order):
            left = i < half
            depth = -0.45 - 0.32 * (i if left else k - 1 - i)
            end = 0.65 if left else k + 0.35
            ax.plot([ranks[model], ranks[model], end], [0, depth, depth], color=colours[model], lw=1.3)
            ax.text(
                end - 0.05 if left else end + 0.05,
                depth,
                f"{model} ({ranks[model]:.2f})",
                ha="right" if left else "left",
                va="center",
                color=colours[model],
                fontsize=size,
            )
        for level, clique in enumerate(cd_cliques(ranks, cd)):
            y = -0.12 - 0.1 * level
            ax.hlines(y, ranks[clique[0]] - 0.03, ranks[clique[-1]] + 0.03, color="black", lw=4)
        ax.set(xlim=(-1.6, k + 2.6), ylim=(-0.6 - 0.32 * half, 1.0))
        ax.set_title(title, fontsize=max(size, legible_points(width, 12.0)))
        ax.axis("off")
    return fig


def plot_datasets(table, out, metrics: dict) -> list:
    """Each model's value of each metric on each dataset (one subplot per metric, stacked; one colour per model).

    ``table`` is :func:`crocbench.report.datasets_table`'s output; ``metrics`` maps its columns to labels.  Where
    the table has a metric's interval (``<key>_low``, ``<key>_high``), it is drawn as an error bar.
    """
    datasets = list(dict.fromkeys(table["dataset"]))
    models = list(dict.fromkeys(table["model"]))
    colours = colour_map(models)
    fig, axes = plt.subplots(
        len(metrics),
        1,
        figsize=(max(7.0, 0.55 * len(datasets) + 3.5), 3.0 * len(metrics) + 1.2),
        constrained_layout=True,
        squeeze=False,
        sharex=True,
    )
    step = 0.7 / max(1, len(models))
    for ax, (metric, label) in zip(axes[:, 0], metrics.items()):
        for j, model in enumerate(models):
            part = table[table["model"] == model].set_index("dataset").loc[datasets]
            x = np.arange(len(datasets)) - 0.35 + step * (j + 0.5)
            bars = None
            if f"{metric}_low" in part:
                bars = np.vstack([part[metric] - part[f"{metric}_low"], part[f"{metric}_high"] - part[metric]])
                bars = np.clip(bars, 0, None)  # a percentile interval need not contain the point estimate
            ax.errorbar(x, part[metric], yerr=bars, fmt="o", color=colours[model], label=model, ms=4, lw=0.8)
        ax.set(title=label, xlim=(-0.6, len(datasets) - 0.4))
        ax.grid(alpha=0.3, axis="y")
    axes[-1, 0].set_xticks(np.arange(len(datasets)), datasets, rotation=45 if len(datasets) > 4 else 20, ha="right")
    axes[0, 0].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return save_figure(fig, out)

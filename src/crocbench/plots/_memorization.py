"""What a split lets a ranker remember: each split's train-to-test similarities, and each ranker on the test
actives of each stratum."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..cv import ALL_ACTIVES as ALL
from ..cv import MEASURES
from ._style import colour_map, save_figure

#: A split's line colour (the splits are not rankers: greys and one accent).
_SPLIT_STYLE = {"random": ("#000000", "-"), "scaffold": ("#0072B2", "--"), "cluster": ("#D55E00", ":")}


def plot_split_similarity(curves, out, novel: float = 0.4, analog: float = 0.7, formats=("png", "pdf")) -> list:
    """Per split, the share of test compounds (left) and of test actives (right) whose nearest training compound
    (training active) is at least as similar as each level: the splits' distributions side by side.

    ``curves`` is :func:`crocbench.report.split_similarity_curves`'s output.
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 3.9), constrained_layout=True, sharey=True)
    for ax, (measure, title) in zip(axes, MEASURES.items()):
        part = curves[curves["measure"] == measure]
        for split in dict.fromkeys(part["split"]):
            line = part[part["split"] == split]
            colour, style = _SPLIT_STYLE.get(split, ("#999999", "-."))
            ax.plot(line["level"], line["share"], color=colour, linestyle=style, label=f"{split} split")
        for level in (novel, analog):
            ax.axvline(level, color="#999999", linewidth=0.8)
        ax.set(title=title, xlabel="Tanimoto similarity s", xlim=(0, 1), ylim=(0, 1.01))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share at or above s")
    axes[1].legend(loc="upper right", fontsize="small")
    return save_figure(fig, out, formats)


def plot_memorization(table, keys, out, formats=("png", "pdf")) -> list:
    """Each ranker's metric on all test actives and on each stratum (bars), the exact random mean of each list
    (a tick), one panel per metric key.

    ``table`` is :func:`crocbench.report.memorization_table`'s output.
    """
    keys = [k for k in keys if k in set(table["key"])]
    models = list(dict.fromkeys(table["model"]))
    colours = colour_map(models)
    fig, axes = plt.subplots(1, len(keys), figsize=(4.8 * len(keys), 4.0), constrained_layout=True, squeeze=False)
    for ax, key in zip(axes[0], keys):
        part = table[table["key"] == key]
        lists = list(dict.fromkeys(part["stratum"]))
        width = 0.8 / len(models)
        for i, model in enumerate(models):
            rows = part[part["model"] == model].set_index("stratum")
            x = np.arange(len(lists)) + (i - (len(models) - 1) / 2) * width
            ax.bar(x, [rows.at[s, "value"] for s in lists], width, color=colours[model], label=model)
        random = part.drop_duplicates("stratum").set_index("stratum")["random"]
        for j, s in enumerate(lists):
            ax.hlines(random[s], j - 0.45, j + 0.45, color="#000000", linestyle=":", linewidth=1)
        counts = part.drop_duplicates("stratum").set_index("stratum")["actives"]
        ax.set_xticks(range(len(lists)), [f"{s}\n({counts[s]:,})" for s in lists])
        ax.set(title=part["label"].iloc[0])
        ax.grid(alpha=0.3, axis="y")
        if ALL in lists:
            ax.axvline(0.5, color="#999999", linewidth=0.8)
    axes[0, -1].legend(loc="upper right", fontsize="small")
    return save_figure(fig, out, formats)

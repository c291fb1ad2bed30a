"""What a split lets a ranker remember: each split's train-to-test similarities, and each ranker on the test
actives of each stratum."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..cv import ALL_ACTIVES as ALL
from ..cv import MEASURES, STRATA
from ._style import colour_map, save_figure

#: A split's line colour (the splits are not rankers: greys and one accent).
_SPLIT_STYLE = {
    "random": ("#000000", "-"),
    "scaffold": ("#0072B2", "--"),
    "cluster": ("#D55E00", ":"),
    "novelty": ("#009E73", "-."),
}


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
    (a dotted tick), a row of subplots per metric key; the novel stratum, whose values may be a hundredth of the
    others', has a subplot of its own on its own scale.

    ``table`` is :func:`crocbench.report.memorization_table`'s output.
    """
    return save_figure(_memorization_figure(table, keys), out, formats)


def _memorization_figure(table, keys):
    """:func:`plot_memorization`'s figure, unsaved."""
    keys = [k for k in keys if k in set(table["key"])]
    models = list(dict.fromkeys(table["model"]))
    colours = colour_map(models)
    novel = STRATA[-1]
    fig, axes = plt.subplots(
        len(keys),
        2,
        figsize=(9.6, 3.6 * len(keys)),
        constrained_layout=True,
        squeeze=False,
        gridspec_kw={"width_ratios": (3, 1.3)},
    )
    for (ax, ax_novel), key in zip(axes, keys):
        part = table[table["key"] == key]
        lists = list(dict.fromkeys(part["stratum"]))
        label = part["label"].iloc[0]
        for axis, shown in ((ax, [s for s in lists if s != novel]), (ax_novel, [s for s in lists if s == novel])):
            _stratum_bars(axis, part, shown, models, colours)
        ax.set_title(label)
        ax_novel.set_title(f"{label}, own scale", fontsize="medium")
        if ALL in lists:
            ax.axvline(0.5, color="#999999", linewidth=0.8)
    axes[0, 0].legend(loc="upper right", fontsize="small")
    return fig


def _stratum_bars(ax, part, lists, models, colours) -> None:
    """Each model's bar on each of ``lists`` (strata), the random mean a dotted tick, the actives counted below."""
    width = 0.8 / len(models)
    for i, model in enumerate(models):
        rows = part[part["model"] == model].set_index("stratum")
        x = np.arange(len(lists)) + (i - (len(models) - 1) / 2) * width
        ax.bar(x, [rows.at[s, "value"] for s in lists], width, color=colours[model], label=model)
    first = part.drop_duplicates("stratum").set_index("stratum")
    for j, s in enumerate(lists):
        ax.hlines(first.at[s, "random"], j - 0.45, j + 0.45, color="#000000", linestyle=":", linewidth=1)
    ax.set_xticks(range(len(lists)), [f"{s}\n({first.at[s, 'actives']:,})" for s in lists])
    ax.set_xlim(-0.5, len(lists) - 0.5)
    ax.grid(alpha=0.3, axis="y")

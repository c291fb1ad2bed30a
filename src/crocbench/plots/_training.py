"""Training figures: the IRV's training curves and the IRV training study."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import colour_map, save_figure


def plot_training_curves(histories: dict, out, title: str | None = None) -> list:
    """Save loss and training AUC[CROC(exp)] a=80 against epoch, one colour per scheme, one line per fold.

    Parameters
    ----------
    histories : dict
        ``{scheme: [history of fold 0, history of fold 1, ...]}``, a history being rows of
        ``(epoch, loss, training AUC[CROC(exp)] a=80)``.
    """
    colours = colour_map(histories)
    fig, (ax_loss, ax_croc) = plt.subplots(1, 2, figsize=(10, 4.2), constrained_layout=True)
    for scheme, folds in histories.items():
        for i, history in enumerate(folds):
            h = np.asarray(history, dtype=float).reshape(-1, 3)
            label = scheme if i == 0 else None
            ax_loss.plot(h[:, 0], h[:, 1], color=colours[scheme], lw=0.9, alpha=0.7, label=label)
            ax_croc.plot(h[:, 0], h[:, 2], color=colours[scheme], lw=0.9, alpha=0.7, label=label)
    ax_loss.set(xlabel="epoch", ylabel="weighted cross-entropy", title="training loss", xscale="log", yscale="log")
    ax_croc.set(
        xlabel="epoch", ylabel="AUC[CROC(exp)], $\\alpha$ = 80", title="training folds, early retrieval", xscale="log"
    )
    for ax in (ax_loss, ax_croc):
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    return save_figure(fig, out)


def plot_irv_study(table, out, paper: dict | None = None) -> list:
    """Mean epochs to convergence per reweighting scheme, one line per optimizer setting, one subplot per stop rule
    (``table``: :func:`crocbench.report.irv_study_table`); ``paper`` ({scheme: "101", "exp": "4-8", ...}) as stars."""
    stops = list(dict.fromkeys(table["stop"]))
    schemes = list(dict.fromkeys(table["scheme"]))
    settings = list(dict.fromkeys(table["setting"]))
    colours = colour_map(settings)
    fig, axes = plt.subplots(
        1, len(stops), figsize=(4.6 * len(stops) + 2.2, 4.4), constrained_layout=True, squeeze=False, sharey=True
    )
    x = np.arange(len(schemes))
    for ax, stop in zip(axes[0], stops):
        part = table[table["stop"] == stop]
        for setting in settings:
            line = part[part["setting"] == setting].set_index("scheme").reindex(schemes)
            ax.plot(x, line["epochs_mean"], marker="o", ms=4, lw=1.3, color=colours[setting], label=setting)
        if paper:
            known = [(i, np.mean([float(v) for v in paper[s].split("-")])) for i, s in enumerate(schemes) if s in paper]
            if known:
                ax.plot(*zip(*known), "k*", ms=11, label="paper (Appendix A)")
        ax.set_xticks(x, schemes, rotation=20, ha="right")
        ax.set(yscale="log", title=f"stop rule: {stop}", xlabel="reweighting scheme")
        ax.grid(alpha=0.3)
    axes[0, 0].set_ylabel("epochs to convergence (mean over folds)")
    axes[0, -1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="small")
    return save_figure(fig, out)

"""What a novelty guarantee costs: the share of each screen's compounds and actives the novelty split keeps."""

from __future__ import annotations

import matplotlib.pyplot as plt

from ._style import colour_map, save_figure


def plot_novelty_cost(table, out, formats=("png", "pdf")) -> list:
    """The share of the compounds and of the actives kept against tau, one line per screen, one panel each.

    Parameters
    ----------
    table : pandas.DataFrame
        ``screen, tau, compounds, compounds_kept, actives, actives_kept`` (:func:`crocbench.cv.kept_by_tau`'s
        columns, with the screen's name).
    out : str or Path
        The figure's path (e.g. ``kept.png``).
    formats : tuple of str, default=("png", "pdf")
        The formats also written beside it (same stem).

    Returns
    -------
    list of Path
        The files written.
    """
    screens = list(dict.fromkeys(table["screen"]))
    colours = colour_map(screens)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), constrained_layout=True, sharey=True)
    for ax, what in zip(axes, ("compounds", "actives"), strict=True):
        for screen in screens:
            part = table[table["screen"] == screen].sort_values("tau")
            share = 100 * part[f"{what}_kept"] / part[what]
            label = f"{screen} ({int(part[what].iloc[0]):,})"
            ax.plot(part["tau"], share, marker="o", color=colours[screen], label=label)
        ax.set(xlabel="tau (ECFP4 Tanimoto)", title=f"{what} kept", ylim=(0, 102))
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize="small", title=what, title_fontsize="small")
    axes[0].set_ylabel("% kept by the novelty split")
    return save_figure(fig, out, formats)

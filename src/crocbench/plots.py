"""Figures: ROC and CROC curves, one colour per method everywhere (Okabe-Ito palette)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .metrics import croc_curve, get_transform, roc_curve  # noqa: E402

# Okabe & Ito (2008), colour-blind safe.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")


def colour_map(names) -> dict:
    """A fixed colour per method name, in the order given."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}


def plot_roc_croc(rankings: dict, out, alpha: float = 14.0, title: str | None = None) -> None:
    """Save a two-panel figure: ROC and CROC(exp, alpha) curves of each ranking.

    Parameters
    ----------
    rankings : dict
        ``{name: (y_true, y_score)}``.
    out : path-like
        Output file; the format follows the extension (png, pdf, svg).
    """
    colours = colour_map(rankings)
    fig, (ax_roc, ax_croc) = plt.subplots(1, 2, figsize=(10, 4.6), constrained_layout=True)
    x = np.linspace(0, 1, 512)
    f = get_transform("exp", alpha)
    ax_roc.plot(x, x, ":", color="grey", label="random")
    ax_croc.plot(f(x), x, ":", color="grey", label="random")
    for name, (y, s) in rankings.items():
        ax_roc.plot(*roc_curve(y, s), color=colours[name], label=name, lw=1.6)
        ax_croc.plot(*croc_curve(y, s, alpha=alpha), color=colours[name], label=name, lw=1.6)
    ax_roc.set(xlabel="false positive rate", ylabel="true positive rate", title="ROC")
    ax_croc.set(
        xlabel=f"transformed FPR, exp, $\\alpha$ = {alpha:g}",
        ylabel="true positive rate",
        title=f"CROC(exp), $\\alpha$ = {alpha:g}",
    )
    for ax in (ax_roc, ax_croc):
        ax.set(xlim=(0, 1), ylim=(0, 1.01), aspect="equal")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize="small")
    if title:
        fig.suptitle(title)
    fig.savefig(out, dpi=150)
    plt.close(fig)

"""One screen's curves: ROC, CROC at each alpha, AC/CAC, pROC, and the magnification functions."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..metrics import ac_curve, cac_curve, croc_curve, cutoff_transform, get_transform, roc_curve
from ._style import PALETTE, _finish, _random_style, colour_map, save_figure


def plot_magnification(out, alphas=(7.0, 14.0, 80.0), cutoffs=(0.5, 0.1, 0.0086)) -> list:
    """The magnification functions: exp, pow and log at each alpha, and the hard cutoffs (four subplots)."""
    x = np.linspace(0, 1, 2001)
    x = np.unique(np.concatenate([x, np.geomspace(1e-5, 1, 2000)]))
    fig, axes = plt.subplots(1, 4, figsize=(15, 4), constrained_layout=True)
    shades = PALETTE[: len(alphas)]
    for ax, name in zip(axes, ("exp", "pow", "log")):
        for colour, a in zip(shades, alphas):
            ax.plot(x, get_transform(name, a)(x), color=colour, label=f"$\\alpha$ = {a:g}")
        ax.set(title=f"{name}", xlabel="x (FPR)", ylabel="f(x)")
    for colour, t in zip(shades, cutoffs):
        axes[3].plot(x, cutoff_transform(t)(x), color=colour, label=f"t = {t:g}")
    axes[3].set(title="hard cutoff min(x/t, 1)", xlabel="x (FPR)", ylabel="f(x)")
    for ax in axes:
        ax.plot([0, 1], [0, 1], **{**_random_style(), "label": "identity"})
        ax.set(xlim=(0, 1), ylim=(0, 1.01), aspect="equal")
    _finish(axes)
    return save_figure(fig, out)


def plot_roc(rankings: dict, out) -> list:
    """ROC curves of every ranking (``{name: (y, score)}``), random classifier dotted."""
    colours = colour_map(rankings)
    fig, ax = plt.subplots(figsize=(5.2, 5), constrained_layout=True)
    ax.plot([0, 1], [0, 1], **_random_style())
    for name, (y, s) in rankings.items():
        ax.plot(*roc_curve(y, s), color=colours[name], label=name, lw=1.5)
    ax.set(
        xlabel="false positive rate",
        ylabel="true positive rate",
        title="ROC",
        xlim=(0, 1),
        ylim=(0, 1.01),
        aspect="equal",
    )
    _finish(ax)
    return save_figure(fig, out)


def plot_croc_subplots(rankings: dict, out, alphas=(7.0, 14.0, 80.0)) -> list:
    """CROC(exp) curves at each alpha (one subplot each), random classifier's CROC dotted."""
    colours = colour_map(rankings)
    fig, axes = plt.subplots(1, len(alphas), figsize=(5 * len(alphas), 5), constrained_layout=True)
    x = np.linspace(0, 1, 4001)
    for ax, a in zip(np.atleast_1d(axes), alphas):
        ax.plot(get_transform("exp", a)(x), x, **_random_style())
        for name, (y, s) in rankings.items():
            ax.plot(*croc_curve(y, s, alpha=a), color=colours[name], label=name, lw=1.5)
        ax.set(
            xlabel=f"f(FPR), exp, $\\alpha$ = {a:g}",
            ylabel="true positive rate",
            title=f"CROC(exp), $\\alpha$ = {a:g}",
            xlim=(0, 1),
            ylim=(0, 1.01),
            aspect="equal",
        )
    _finish(axes)
    return save_figure(fig, out)


def plot_ac_cac(rankings: dict, out, alpha: float = 14.0) -> list:
    """AC and CAC(exp) curves; the regions above the best and below the worst possible curves are shaded."""
    colours = colour_map(rankings)
    y0 = np.asarray(next(iter(rankings.values()))[0]).astype(bool)
    n, n_pos = y0.size, int(y0.sum())
    x = np.unique(np.concatenate([np.linspace(0, 1, 4001), [n_pos / n, 1 - n_pos / n]]))
    best = np.minimum(1.0, x * n / n_pos)
    worst = np.maximum(0.0, (x * n - (n - n_pos)) / n_pos)
    f = get_transform("exp", alpha)
    fig, (ax_ac, ax_cac) = plt.subplots(1, 2, figsize=(10, 5), constrained_layout=True)
    for ax, u, title in ((ax_ac, x, "AC"), (ax_cac, f(x), f"CAC(exp), $\\alpha$ = {alpha:g}")):
        ax.fill_between(u, best, 1.01, color="0.85", lw=0, label="beyond best / worst possible")
        ax.fill_between(u, 0, worst, color="0.85", lw=0)
        ax.plot(u, x, **_random_style())
        ax.set(title=title, ylabel="true positive rate", xlim=(0, 1), ylim=(0, 1.01), aspect="equal")
    for name, (y, s) in rankings.items():
        ax_ac.plot(*ac_curve(y, s), color=colours[name], label=name, lw=1.5)
        ax_cac.plot(*cac_curve(y, s, alpha=alpha), color=colours[name], label=name, lw=1.5)
    ax_ac.set(xlabel="fraction of the list ranked above")
    ax_cac.set(xlabel=f"f(fraction above), exp, $\\alpha$ = {alpha:g}")
    _finish((ax_ac, ax_cac))
    return save_figure(fig, out)


def plot_proc(rankings: dict, out) -> list:
    """pROC curves: TPR against log10(FPR), FPR floored at 0.5/N (Clark & Webster-Clark)."""
    colours = colour_map(rankings)
    fig, ax = plt.subplots(figsize=(6, 5), constrained_layout=True)
    floor = None
    for name, (y, s) in rankings.items():
        fpr, tpr = roc_curve(y, s)
        floor = 0.5 / len(y)
        ax.plot(np.maximum(fpr, floor), tpr, color=colours[name], label=name, lw=1.5, drawstyle="steps-post")
    grid = np.geomspace(floor, 1, 400)
    ax.plot(grid, grid, **_random_style())
    ax.set(
        xscale="log",
        xlim=(floor, 1),
        ylim=(0, 1.01),
        xlabel="false positive rate (log scale)",
        ylabel="true positive rate",
        title="pROC",
    )
    _finish(ax, "upper left")
    return save_figure(fig, out)


def plot_roc_croc(rankings: dict, out, alpha: float = 14.0, title: str | None = None) -> None:
    """Save a figure of two subplots: ROC and CROC(exp, alpha) curves of each ranking.

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
    save_figure(fig, out, formats=())

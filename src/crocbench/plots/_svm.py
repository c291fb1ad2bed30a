"""The SVM set-up study's figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import PALETTE, save_figure


def _marker_sizes(C) -> np.ndarray:
    """Marker areas (points^2) from 18 at the smallest C to 74 at the largest, linear in log10(C): every C > 0
    the schema allows gets a visible marker (46 when all are equal).

    Examples
    --------
    >>> _marker_sizes([0.01, 1, 100]).tolist()
    [18.0, 46.0, 74.0]
    """
    log = np.log10(np.asarray(C, dtype=float))
    span = log.max() - log.min()
    return np.full(log.shape, 46.0) if span == 0 else 18 + 56 * (log - log.min()) / span


def plot_svm_sensitivity(table, out, references: dict | None = None) -> list:
    """Pooled AUC[ROC] against AUC[CROC(exp)] a=80 for every SVM set-up (``report.svm_sensitivity_table``).

    Marker = fingerprint, colour = class weight, filled = Platt probability / hollow = decision
    function, size grows with C; ``references`` maps a name to an (AUC[ROC], CROC) point drawn as a star.
    """
    markers = ("o", "s", "^", "D", "v")
    table = table.assign(class_weight=table["class_weight"].fillna("none"))
    fingerprints = list(dict.fromkeys(table["fingerprint"]))
    weights = list(dict.fromkeys(table["class_weight"]))
    colours = {w: PALETTE[i] for i, w in enumerate(weights)}
    sizes = _marker_sizes(table["C"])
    fig, ax = plt.subplots(figsize=(7.5, 5.5), constrained_layout=True)
    for size, (_, r) in zip(sizes, table.iterrows()):
        colour = colours[r["class_weight"]]
        ax.scatter(
            r["roc"],
            r["croc_exp_80"],
            s=size,
            marker=markers[fingerprints.index(r["fingerprint"]) % len(markers)],
            facecolors=colour if r["score"] == "platt" else "none",
            edgecolors=colour,
            linewidths=1.2,
        )
    for i, (name, (x, y)) in enumerate((references or {}).items()):
        ax.scatter([x], [y], marker="*", s=220, color=PALETTE[(len(weights) + i) % len(PALETTE)], zorder=3)
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(6, 6), fontsize="small")
    handles = [
        plt.Line2D([], [], ls="", marker=markers[i % len(markers)], color="grey", label=f)
        for i, f in enumerate(fingerprints)
    ]
    handles += [plt.Line2D([], [], ls="", marker="o", color=c, label=f"class_weight {w}") for w, c in colours.items()]
    handles += [
        plt.Line2D([], [], ls="", marker="o", color="grey", label="Platt probability"),
        plt.Line2D([], [], ls="", marker="o", color="grey", markerfacecolor="none", label="decision function"),
    ]
    ax.legend(handles=handles, fontsize="small", loc="best")
    ax.set(
        xlabel="AUC[ROC] (pooled)",
        ylabel="AUC[CROC(exp)], $\\alpha$ = 80 (pooled)",
        title=f"SVM set-ups (marker size grows with C = {table['C'].min():g} ... {table['C'].max():g})",
    )
    ax.grid(alpha=0.3)
    return save_figure(fig, out)

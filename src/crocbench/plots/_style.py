"""Shared style of every figure: the palette (one colour per method everywhere), the random baseline's line, saving with deterministic bytes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

# Okabe & Ito (2008), colour-blind safe, without their yellow (too pale for a name written on white), then six
# of Tol's (2021) darker colours: thirteen distinct colours, for the panel's eleven rankers, the campaign's own
# score and Chemprop.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#882255",
    "#44AA99",
    "#999933",
    "#332288",
    "#AA4499",
    "#117733",
)


def colour_map(names) -> dict:
    """A fixed colour per method name, in the order given: distinct for up to thirteen names, then repeating."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}


def save_figure(fig, out, formats=("png", "pdf")) -> list:
    """Save ``fig`` as ``out`` and beside it in the other ``formats`` (same stem); deterministic bytes.

    Returns the paths written.
    """
    from pathlib import Path

    from .._io import atomic_write

    out = Path(out)
    paths = [out] + [out.with_suffix(f".{f}") for f in formats if f".{f}" != out.suffix]
    for path in paths:
        metadata = (
            {"CreationDate": None} if path.suffix == ".pdf" else {"Software": None} if path.suffix == ".png" else {}
        )
        with atomic_write(path) as tmp:  # complete or absent
            fig.savefig(tmp, dpi=150, metadata=metadata)
    plt.close(fig)
    return paths


def _random_style():
    return {"ls": ":", "color": "grey", "lw": 1.2, "label": "random"}


def _finish(axes, legend_loc="lower right"):
    for ax in np.atleast_1d(axes):
        ax.grid(alpha=0.3)
        ax.legend(loc=legend_loc, fontsize="small")

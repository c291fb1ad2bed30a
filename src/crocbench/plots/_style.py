"""Shared style of every figure: the palette (one colour per method everywhere), the random baseline's line, saving with deterministic bytes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

# Okabe & Ito (2008), colour-blind safe, without their yellow (too pale for a name written on white), then six
# of Tol's (2021) darker colours: thirteen distinct colours, for the panel's eleven rankers, the campaign's own
# score and Chemprop.  A figure of more methods stops with a ValueError naming the first without a colour (and
# tests/test_plots.py fails when the built-in rankers outgrow the palette): add a colour here.
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
    """A fixed colour per method name, in the order given, each distinct: at most ``len(PALETTE)`` names.

    Raises ValueError (one line, naming the first method without a colour) for more names than colours, rather than
    give two methods of one figure the same colour.

    Examples
    --------
    >>> colour_map(["RANDOM", "IRV"])
    {'RANDOM': '#0072B2', 'IRV': '#D55E00'}
    """
    names = list(names)
    if len(names) > len(PALETTE):
        raise ValueError(
            f"no colour for {names[len(PALETTE)]!r}: {len(names)} methods in one figure, "
            f"{len(PALETTE)} colours in crocbench.plots.PALETTE"
        )
    return {name: PALETTE[i] for i, name in enumerate(names)}


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

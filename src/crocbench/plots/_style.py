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

#: The resolution every figure is saved at (:func:`save_figure`), in pixels per inch.
FIGURE_DPI = 150
#: The width of the docs' text column, in CSS pixels, at a 1280 px wide window (the studies' pages, measured in
#: Chromium): a figure wider than it is shown scaled down to it.
PAGE_WIDTH_PX = 929
#: The smallest text a figure shows on a page, in CSS pixels.
MIN_TEXT_PX = 11


def shown_text_px(points: float, width_inches: float) -> float:
    """The height in CSS pixels of text of ``points`` in a figure ``width_inches`` wide, as a docs page shows it:
    saved at :data:`FIGURE_DPI`, scaled down to :data:`PAGE_WIDTH_PX` when wider.

    Examples
    --------
    >>> shown_text_px(10, 5.6), round(shown_text_px(10, 11.2), 2)
    (20.833333333333332, 11.52)
    """
    pixels = width_inches * FIGURE_DPI
    return points * FIGURE_DPI / 72 * min(1.0, PAGE_WIDTH_PX / pixels)


def legible_points(width_inches: float, points: float = 8.0) -> float:
    """``points``, or the smallest size above it that a docs page shows at :data:`MIN_TEXT_PX` or more in a figure
    ``width_inches`` wide (:func:`shown_text_px`).

    Examples
    --------
    >>> legible_points(5.6), round(legible_points(11.2), 2)
    (8.0, 9.55)
    """
    return max(points, MIN_TEXT_PX / shown_text_px(1.0, width_inches))


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
            fig.savefig(tmp, dpi=FIGURE_DPI, metadata=metadata)
    plt.close(fig)
    return paths


def _random_style():
    return {"ls": ":", "color": "grey", "lw": 1.2, "label": "random"}


def _finish(axes, legend_loc="lower right"):
    for ax in np.atleast_1d(axes):
        ax.grid(alpha=0.3)
        ax.legend(loc=legend_loc, fontsize="small")

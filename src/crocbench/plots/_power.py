"""The power study's figures: power by metric and by test."""

from __future__ import annotations

import matplotlib.pyplot as plt
import matplotlib.ticker

from ._style import PALETTE, save_figure


def _pair_title(a: str, b: str, labels: dict) -> str:
    return f"{labels.get(a, a)} vs {labels.get(b, b)}"


def _power_subplots(table, out, *, series: str, names: dict, title: str, labels: dict) -> list:
    """Power against subset size, one subplot per pair, one line per ``series`` value (metric or test)."""
    pairs = list(dict.fromkeys(zip(table["a"], table["b"])))
    keys = list(dict.fromkeys(table[series]))
    colours = {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(keys)}
    styles = ("-", "--", "-.", ":")
    fig, axes = plt.subplots(
        1, len(pairs), figsize=(4.2 * len(pairs) + 2.2, 4.2), constrained_layout=True, squeeze=False
    )
    for ax, (a, b) in zip(axes[0], pairs):
        part = table[(table["a"] == a) & (table["b"] == b)]
        for i, key in enumerate(keys):
            line = part[part[series] == key].sort_values("fraction")
            ax.plot(
                100 * line["fraction"],
                line["power"],
                marker="o",
                ms=3,
                lw=1.3,
                color=colours[key],
                ls=styles[(i // len(PALETTE)) % len(styles)],
                label=names.get(key, key),
            )
        ax.axhline(0.05, color="grey", lw=0.8, ls=":")
        sizes = sorted(set(100 * part["fraction"]))
        ax.set(
            xscale="log",
            ylim=(-0.02, 1.02),
            xlabel="subset size (% of compounds)",
            ylabel="power",
            title=_pair_title(a, b, labels),
        )
        ax.set_xticks(sizes, [f"{s:g}" for s in sizes])
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.grid(alpha=0.3)
    axes[0, -1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="small")
    fig.suptitle(title)
    return save_figure(fig, out)


def plot_power_by_metric(table, out, test: str = "paired_permutation", labels: dict | None = None) -> list:
    """Power of every metric under one test against subset size (``table``: :func:`crocbench.power.power_study`)."""
    part = table[table["test"] == test]
    names = dict(zip(part["metric"], part["label"]))
    return _power_subplots(
        part,
        out,
        series="metric",
        names=names,
        labels=labels or {},
        title=f"power at p < 0.05, {test.replace('_', ' ')} test, in the full-data direction",
    )


def plot_power_by_test(table, out, metric: str = "croc_exp_14", labels: dict | None = None) -> list:
    """Power of the six tests on one metric against subset size."""
    part = table[table["metric"] == metric]
    label = part["label"].iloc[0] if len(part) else metric
    return _power_subplots(
        part, out, series="test", names={}, labels=labels or {}, title=f"power at p < 0.05 of the six tests, {label}"
    )

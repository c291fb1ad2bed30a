"""Figures: ROC and CROC curves, one colour per method everywhere (Okabe-Ito palette)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

from .metrics import ac_curve, cac_curve, croc_curve, cutoff_transform, get_transform, roc_curve  # noqa: E402

# Okabe & Ito (2008), colour-blind safe.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")


def colour_map(names) -> dict:
    """A fixed colour per method name, in the order given."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}


def save_figure(fig, out, formats=("png", "pdf")) -> list:
    """Save ``fig`` as ``out`` and beside it in the other ``formats`` (same stem); deterministic bytes.

    Returns the paths written.
    """
    from pathlib import Path

    from ._io import atomic_write

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


def plot_magnification(out, alphas=(7.0, 14.0, 80.0), cutoffs=(0.5, 0.1, 0.0086)) -> list:
    """The magnification functions: exp, pow and log at each alpha, and the hard cutoffs (four panels)."""
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


def plot_croc_panels(rankings: dict, out, alphas=(7.0, 14.0, 80.0)) -> list:
    """CROC(exp) curves at each alpha (one panel each), random classifier's CROC dotted."""
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
    save_figure(fig, out, formats=())


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


def _pair_title(a: str, b: str, labels: dict) -> str:
    return f"{labels.get(a, a)} vs {labels.get(b, b)}"


def _power_panels(table, out, *, series: str, names: dict, title: str, labels: dict) -> list:
    """Power against subset size, one panel per pair, one line per ``series`` value (metric or test)."""
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
    return _power_panels(
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
    return _power_panels(
        part, out, series="test", names={}, labels=labels or {}, title=f"power at p < 0.05 of the six tests, {label}"
    )


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
    fig, ax = plt.subplots(figsize=(7.5, 5.5), constrained_layout=True)
    for _, r in table.iterrows():
        colour = colours[r["class_weight"]]
        ax.scatter(
            r["roc"],
            r["croc_exp_80"],
            s=18 + 14 * (np.log10(float(r["C"])) + 2),
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
        title="SVM set-ups (marker size grows with C = 0.01 ... 100)",
    )
    ax.grid(alpha=0.3)
    return save_figure(fig, out)


def cd_cliques(ranks: dict, cd: float) -> list[tuple]:
    """The groups a critical-difference diagram joins: maximal runs of models, in rank order, whose mean ranks
    span less than ``cd`` (no two of them differ significantly); runs of one model are left out.

    >>> cd_cliques({"a": 1.0, "b": 1.5, "c": 3.0, "d": 3.2}, 1.0)
    [('a', 'b'), ('c', 'd')]
    """
    order = sorted(ranks, key=lambda m: ranks[m])
    runs = []
    for i in range(len(order)):
        j = i
        while j + 1 < len(order) and ranks[order[j + 1]] - ranks[order[i]] < cd:
            j += 1
        if j > i and not (runs and runs[-1][1] >= j):
            runs.append((i, j))
    return [tuple(order[i : j + 1]) for i, j in runs]


def plot_critical_difference(panels: dict, out, colours: dict | None = None) -> list:
    """Critical-difference diagrams (Demsar 2006), two to a row.

    Parameters
    ----------
    panels : dict
        ``{title: (mean ranks {model: rank}, critical difference)}``.  Each
        panel's axis runs from rank 1 (best, left) to k; a model's line drops
        from its mean rank to its name; the bar above the axis is the critical
        difference, and thick bars join models whose ranks differ by less.
    colours : dict, optional
        ``{model: colour}``, e.g. :func:`colour_map` of every model of another
        figure, so that a model keeps its colour (default: of these models).
    """
    cols = min(2, len(panels))
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.6 * cols, 3.6 * rows), constrained_layout=True, squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.axis("off")
    for ax, (title, (ranks, cd)) in zip(axes.flat, panels.items()):
        colours = colours or colour_map(ranks)
        k = len(ranks)
        order = sorted(ranks, key=lambda m: ranks[m])
        half = (k + 1) // 2
        ax.hlines(0, 1, k, color="black", lw=1.2)
        for r in range(1, k + 1):
            ax.vlines(r, 0, 0.12, color="black", lw=1)
            ax.text(r, 0.18, str(r), ha="center", va="bottom", fontsize="small")
        ax.hlines(0.55, 1, 1 + cd, color="black", lw=1.5)
        ax.vlines([1, 1 + cd], 0.5, 0.6, color="black", lw=1.5)
        ax.text(1 + cd / 2, 0.65, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize="small")
        for i, model in enumerate(order):
            left = i < half
            depth = -0.45 - 0.32 * (i if left else k - 1 - i)
            end = 0.65 if left else k + 0.35
            ax.plot([ranks[model], ranks[model], end], [0, depth, depth], color=colours[model], lw=1.3)
            ax.text(
                end - 0.05 if left else end + 0.05,
                depth,
                f"{model} ({ranks[model]:.2f})",
                ha="right" if left else "left",
                va="center",
                color=colours[model],
                fontsize="small",
            )
        for level, clique in enumerate(cd_cliques(ranks, cd)):
            y = -0.12 - 0.1 * level
            ax.hlines(y, ranks[clique[0]] - 0.03, ranks[clique[-1]] + 0.03, color="black", lw=4)
        ax.set(xlim=(-1.6, k + 2.6), ylim=(-0.6 - 0.32 * half, 1.0), title=title)
        ax.axis("off")
    return save_figure(fig, out)


def plot_datasets(table, out, metrics: dict) -> list:
    """Each model's value of each metric on each dataset (one panel per metric, stacked; one colour per model).

    ``table`` is :func:`crocbench.report.datasets_table`'s output; ``metrics`` maps its columns to labels.  Where
    the table has a metric's interval (``<key>_low``, ``<key>_high``), it is drawn as an error bar.
    """
    datasets = list(dict.fromkeys(table["dataset"]))
    models = list(dict.fromkeys(table["model"]))
    colours = colour_map(models)
    fig, axes = plt.subplots(
        len(metrics),
        1,
        figsize=(max(7.0, 0.55 * len(datasets) + 3.5), 3.0 * len(metrics) + 1.2),
        constrained_layout=True,
        squeeze=False,
        sharex=True,
    )
    step = 0.7 / max(1, len(models))
    for ax, (metric, label) in zip(axes[:, 0], metrics.items()):
        for j, model in enumerate(models):
            part = table[table["model"] == model].set_index("dataset").loc[datasets]
            x = np.arange(len(datasets)) - 0.35 + step * (j + 0.5)
            bars = None
            if f"{metric}_low" in part:
                bars = np.vstack([part[metric] - part[f"{metric}_low"], part[f"{metric}_high"] - part[metric]])
                bars = np.clip(bars, 0, None)  # a percentile interval need not contain the point estimate
            ax.errorbar(x, part[metric], yerr=bars, fmt="o", color=colours[model], label=model, ms=4, lw=0.8)
        ax.set(title=label, xlim=(-0.6, len(datasets) - 0.4))
        ax.grid(alpha=0.3, axis="y")
    axes[-1, 0].set_xticks(np.arange(len(datasets)), datasets, rotation=45 if len(datasets) > 4 else 20, ha="right")
    axes[0, 0].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return save_figure(fig, out)


def plot_irv_study(table, out, paper: dict | None = None) -> list:
    """Mean epochs to convergence per reweighting scheme, one line per optimizer setting, one panel per stop rule
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


def plot_split_comparison(table, out, splits=("random", "scaffold")) -> list:
    """Each model's metric under two splits (mean ± SD over the repeats), one panel per metric.

    ``table`` is :func:`crocbench.report.split_comparison`'s output.
    """
    keys = list(dict.fromkeys(table["key"]))
    models = list(dict.fromkeys(table["model"]))
    colours = colour_map(models)
    fig, axes = plt.subplots(1, len(keys), figsize=(4.6 * len(keys), 4.2), constrained_layout=True, squeeze=False)
    for ax, key in zip(axes[0], keys):
        part = table[table["key"] == key].set_index("model")
        for model in models:
            means = [part.at[model, f"{s}_mean"] for s in splits]
            sds = [part.at[model, f"{s}_sd"] for s in splits]
            ax.errorbar(range(len(splits)), means, yerr=sds, color=colours[model], marker="o", capsize=3, label=model)
        ax.set_xticks(range(len(splits)), [f"{s} split" for s in splits])
        ax.set(title=part["label"].iloc[0], xlim=(-0.4, len(splits) - 0.6))
        ax.grid(alpha=0.3, axis="y")
    axes[0, -1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="small")
    return save_figure(fig, out)

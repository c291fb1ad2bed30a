"""Figures: every plot writes PNG and PDF, deterministically."""

from pathlib import Path

import numpy as np
import pytest

from crocbench import plots

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rankings():
    rng = np.random.default_rng(0)
    y = (rng.random(800) < 0.1).astype(int)
    return {name: (y, rng.normal(size=800) + shift * y) for name, shift in (("A", 0.0), ("B", 1.0), ("C", 2.5))}


@pytest.mark.parametrize("name", ["magnification", "roc", "croc", "ac_cac", "proc"])
def test_figures_are_written_in_both_formats_deterministically(rankings, tmp_path, name):
    draw = {
        "magnification": lambda out: plots.plot_magnification(out),
        "roc": lambda out: plots.plot_roc(rankings, out),
        "croc": lambda out: plots.plot_croc_subplots(rankings, out),
        "ac_cac": lambda out: plots.plot_ac_cac(rankings, out),
        "proc": lambda out: plots.plot_proc(rankings, out),
    }[name]
    first = draw(tmp_path / f"{name}.png")
    assert [p.suffix for p in first] == [".png", ".pdf"]
    content = [p.read_bytes() for p in first]
    assert content[0][:8] == b"\x89PNG\r\n\x1a\n" and content[1][:5] == b"%PDF-"
    assert len(content[0]) > 20_000
    draw(tmp_path / f"{name}.png")
    assert [p.read_bytes() for p in first] == content


def test_same_colour_per_method_everywhere():
    assert plots.colour_map(["RANDOM", "IRV"])["IRV"] == plots.colour_map(["RANDOM", "IRV", "SVM"])["IRV"]


def _contrast_on_white(colour: str) -> float:
    """WCAG 2's contrast ratio of a hex colour against white, computed here from its definition."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def test_thirteen_rankers_get_thirteen_colours_each_readable_on_white():
    """The panel's eleven rankers, the campaign's score and Chemprop each get their own colour, and every colour can
    write a name on a white figure (WCAG contrast at least 2; Okabe-Ito's yellow has 1.3)."""
    names = [f"ranker {i}" for i in range(13)]
    colours = plots.colour_map(names)
    assert len(set(colours.values())) == 13
    assert min(_contrast_on_white(c) for c in colours.values()) >= 2.0


def test_more_methods_than_colours_stop_the_figure_with_one_line_naming_the_first_without_one():
    """No two methods of one figure share a colour (the 14th used to get the 1st's)."""
    names = [f"ranker {i}" for i in range(13)]
    with pytest.raises(ValueError, match=r"^no colour for 'one more': 14 methods in one figure, 13 colours in [\w.]+$"):
        plots.colour_map([*names, "one more"])
    with pytest.raises(ValueError, match="no colour for 'ranker 13': 20 methods"):
        plots.colour_map(f"ranker {i}" for i in range(20))  # any iterable of names


def test_every_built_in_ranker_has_a_colour_beside_the_summarys_other_runs():
    """The summary of the panel and the ECFP rankers draws every built-in ranker, the campaign's own score and a
    second run of a built-in (mlp_exp beside mlp): a ranker added to the registry (crocbench.models.BUILTIN)
    without a colour added to the palette fails here, not in a user's summary figure."""
    from crocbench.models import BUILTIN

    runs = [cls.name for cls in BUILTIN] + ["primary_score", "mlp_exp"]
    assert len(set(plots.colour_map(runs).values())) == len(runs)


def test_svm_setup_markers_are_visible_for_any_c_the_schema_allows(tmp_path):
    """Marker areas run from 18 (smallest C) to 74 (largest), linear in log10(C), for any C > 0: C = 1e-4 used to get
    a negative area (drawn as nothing) from a scale fixed to C = 0.01 ... 100."""
    import pandas as pd

    from crocbench.plots._svm import _marker_sizes

    assert _marker_sizes([1e-4, 1, 1e6]).tolist() == pytest.approx([18, 18 + 56 * 4 / 10, 74])
    assert _marker_sizes([0.5, 0.5]).tolist() == [46, 46]
    table = pd.DataFrame(
        {
            "fingerprint": "paper",
            "C": [1e-4, 1.0, 1e6],
            "class_weight": [None, "balanced", None],
            "score": ["platt", "decision", "platt"],
            "roc": [0.7, 0.8, 0.75],
            "croc_exp_80": [0.2, 0.3, 0.25],
        }
    )
    paths = plots.plot_svm_sensitivity(table, tmp_path / "svm.png", references={"paper": (0.85, 0.31)})
    assert [p.suffix for p in paths] == [".png", ".pdf"] and all(p.stat().st_size > 10_000 for p in paths)


def test_the_memorization_figures_draw_their_tables(tmp_path):
    """The splits' curves and the strata's bars: PNG and PDF, the same bytes twice; each split a line whose points
    are the curves table's, each ranker's bars its values per stratum."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from crocbench.metrics import parse_metric
    from crocbench.report import memorization_table, split_similarity_curves

    rng = np.random.default_rng(1)
    label = (rng.random(300) < 0.15).astype(np.int8)
    sim = rng.random(300).astype(np.float32)
    overlap = pd.DataFrame({"id": np.arange(300).astype(str), "label": label, "to_train": sim, "to_train_actives": sim})
    curves = split_similarity_curves({"random": overlap, "cluster": overlap.assign(to_train=sim / 2)})
    shown = []
    real_plot = plt.Axes.plot
    plt.Axes.plot = lambda ax, x, y, **kw: shown.append((kw["label"], list(x), list(y))) or real_plot(ax, x, y, **kw)
    try:
        first = plots.plot_split_similarity(curves, tmp_path / "splits.png")
    finally:
        plt.Axes.plot = real_plot
    part = curves[(curves["measure"] == "to_train") & (curves["split"] == "cluster")]
    assert ("cluster split", part["level"].tolist(), part["share"].tolist()) in shown
    assert [p.read_bytes() for p in first] == [
        p.read_bytes() for p in plots.plot_split_similarity(curves, tmp_path / "b.png")
    ]
    pooled = {
        m: pd.DataFrame({"id": overlap["id"], "label": label, "score": label * s + rng.normal(size=300)})
        for m, s in (("A", 2), ("B", 1))
    }
    table = memorization_table(pooled, overlap, [parse_metric("roc_auc")], 0.4, 0.7)
    paths = plots.plot_memorization(table, ["roc"], tmp_path / "strata.png")
    assert [p.suffix for p in paths] == [".png", ".pdf"] and all(p.stat().st_size > 1000 for p in paths)


# The docs' text column at a 1280 px window, in CSS px (measured in Chromium on the built studies' pages), and the
# figures' saving resolution: what a reader sees of a figure is its size in points x 150 / 72, scaled to the column.
_COLUMN_PX, _DPI = 929, 150


def _page_scale(fig) -> float:
    return min(1.0, _COLUMN_PX / (fig.get_figwidth() * _DPI))


def test_the_memorization_figure_gives_the_novel_stratum_an_axis_on_which_its_bars_show():
    """The committed DTP AIDS reference (random split), whose novel AUC[CROC(exp)] a=80 values are about 0.01
    beside analog values near 0.7: the novel stratum stands alone on its own axis, its bars the table's novel
    values (read here from memorization.tsv), the tallest filling at least half of its axis and at least 40 px
    high as the page shows it; the other axis holds every other list and not the novel one."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from crocbench.plots._memorization import _memorization_figure

    folder = ROOT / "results" / "reference" / "memorization_random"
    table = pd.read_csv(folder / "memorization.tsv", sep="\t")
    keys = ["croc_exp_80", "ef_1pct"]
    fig = _memorization_figure(table, keys)
    fig.canvas.draw()
    try:
        for (main, novel), key in zip(zip(fig.axes[0::2], fig.axes[1::2]), keys):
            ticks = [t.get_text().split("\n")[0] for t in main.get_xticklabels()]
            assert ticks == ["all", "analog", "middle"]
            assert [t.get_text().split("\n")[0] for t in novel.get_xticklabels()] == ["novel"]
            part = table[(table["key"] == key) & (table["stratum"] == "novel")]
            heights = [p.get_height() for p in novel.patches]
            assert heights == pytest.approx(part["value"].tolist())
            low, high = novel.get_ylim()
            tallest = max(heights)
            assert (tallest - low) / (high - low) >= 0.5
            axis_px = novel.get_window_extent().height  # at the figure's dpi
            shown = (tallest - low) / (high - low) * axis_px * _DPI / fig.dpi * _page_scale(fig)
            assert shown >= 40, f"{key}: the tallest novel bar is {shown:.1f} px high on the page"
    finally:
        plt.close(fig)


@pytest.mark.parametrize("k", [5, 11])
def test_critical_difference_text_is_at_least_11_px_as_the_docs_page_shows_it(k):
    """Four diagrams of k rankers (two to a row for 5, one for 11): every text (names, ranks, CD, titles) is at
    least 11 px high where the page shows the figure scaled to its text column."""
    import matplotlib.pyplot as plt

    from crocbench.plots._summary import _critical_difference_figure

    names = [f"ranker-{i}" for i in range(k)]
    diagrams = {f"metric {j}": ({n: 1 + (i + j) % k for i, n in enumerate(names)}, 1.5) for j in range(4)}
    fig = _critical_difference_figure(diagrams)
    try:
        texts = [t for ax in fig.axes for t in (*ax.texts, ax.title) if t.get_text()]
        assert len(texts) >= 4 * (2 * k + 1)
        smallest = min(t.get_fontsize() for t in texts) * _DPI / 72 * _page_scale(fig)
        assert smallest >= 11, f"the smallest text is {smallest:.1f} px on the page"
    finally:
        plt.close(fig)

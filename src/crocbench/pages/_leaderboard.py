"""A leaderboard page per benchmark: the reference's rankers and the filed entries
(:mod:`crocbench.benchmark._entries`) in one table, and the critical-difference figure with the entries marked.

Each committed benchmark of two screens or more whose reference folder the repository holds gets a block
``leaderboard/<name>`` (on ``docs/leaderboards/<name>.md``) and a figure ``docs/leaderboards/<name>_cd.png``.
Every model is ranked on each screen among all the others (reference rankers and entries together; 1 = best, ties
sharing their mean rank), each value taken to the records' precision; a model's place is
:func:`~crocbench.benchmark._evaluate.place_of` the number of models with a strictly lower mean rank on the
benchmark's metric of record.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

#: The folder of the leaderboard pages and figures, relative to the project.
LEADERBOARDS = Path("docs") / "leaderboards"
REFERENCE_ROW, NOT_VERIFIABLE, VERIFIABLE = "reference ranker", "not re-verifiable", "scores committed"
#: The class of the container around a page's tables: docs/_static/crocbench.css lets their cells wrap anywhere, so
#: that a name with no break opportunity (``a_long_entry_name``) does not widen its column past the page.
TABLES_CLASS = "leaderboard-tables"


def leaderboard_specs(root) -> list:
    """The committed benchmarks (those shipped, :data:`crocbench.benchmark.SPECS`) of two screens or more (mean
    ranks need them) whose reference ``root`` holds, by name."""
    from ..benchmark import SPECS, committed_specs

    specs = committed_specs(SPECS).values()
    return [s for s in specs if len(s.screens) > 1 and (Path(root) / s.reference).is_dir()]


def _long(spec, reference: pd.DataFrame, entries: list) -> pd.DataFrame:
    """Every model's value per screen and metric (``dataset``, ``model``, a column per metric)."""
    from ..benchmark._values import at_precision

    frames = [reference[["dataset", "model", *spec.metrics]]]
    for entry in entries:
        if entry.record["benchmark"]["sha256"] != spec.sha256:
            raise ValueError(f"{entry.folder}: an entry of {entry.record['benchmark']['name']} (sha256 "
                             f"{entry.record['benchmark']['sha256'][:12]}), not of {spec.title}")  # fmt: skip
        values = pd.DataFrame(entry.record["values"])
        frames.append(values[["dataset", *spec.metrics]].assign(model=entry.name))
    table = pd.concat(frames, ignore_index=True)
    return at_precision(table[table["dataset"].isin(spec.screens)], list(spec.metrics))


def leaderboard(spec, reference: pd.DataFrame, entries: list) -> pd.DataFrame:
    """The models ranked: ``model``, ``entry`` (bool), the mean rank per metric (one column per metric key) and
    ``place`` (on the metric of record), sorted by that mean rank, then by name.

    Parameters
    ----------
    spec : Spec
    reference : DataFrame
        The reference rankers' values (:func:`crocbench.benchmark._recipe.reference_values`).
    entries : list of Entry
        The benchmark's entries (:func:`crocbench.benchmark._entries.entries`).
    """
    from ..benchmark._evaluate import place_of
    from ..stats import dataset_ranks

    table = _long(spec, reference, entries)
    models = [*spec.rankers, *(e.name for e in entries)]
    ranks = pd.DataFrame({"model": models, "entry": [m not in spec.rankers for m in models]})
    for metric in spec.metrics:
        wide = table.pivot(index="dataset", columns="model", values=metric).loc[list(spec.screens), models]
        ranks[metric] = dataset_ranks(wide.to_numpy(float)).mean(axis=0)
    of_record = ranks[spec.metric_of_record]
    ranks["place"] = [place_of((of_record < r).sum()) for r in of_record]
    return ranks.sort_values([spec.metric_of_record, "model"], kind="stable").reset_index(drop=True)


def _versus(entry, spec, ranker: str) -> str:
    rows = [r for r in entry.record["placement"]["versus"] if r["metric"] == spec.metric_of_record]
    row = next((r for r in rows if r["ranker"] == ranker), None)
    if row is None:
        return "-"
    return (
        f"{row['wins']}-{row['losses']}-{row['ties']}; {row['mean_difference']:+.4f} "
        f"[{row['low']:+.4f}, {row['high']:+.4f}]"
    )


def _tuning(fields: dict) -> str:
    tuning = fields["tuning"]
    return "none" if tuning == "none" else f"{tuning['budget']} settings, on {tuning['tuned_on']}"


def leaderboard_markdown(
    spec, reference: pd.DataFrame, entries: list, figure: str | None = None, ranks: pd.DataFrame | None = None
) -> str:
    """The leaderboard page's block: what the place is, the table of every model, the mean ranks on every metric
    (the two tables in a container of class :data:`TABLES_CLASS`), and the figure (``figure``: its path relative
    to the page), or that no entry is filed yet. ``ranks``: :func:`leaderboard` of these inputs, when at hand."""
    from ..benchmark._evaluate import metric_label
    from ..report import markdown_table

    ranks = leaderboard(spec, reference, entries) if ranks is None else ranks
    by_name = {e.name: e for e in entries}
    best = ranks[~ranks["entry"]]["model"].iloc[0]
    record = metric_label(spec.metric_of_record)
    rows = []
    for r in ranks.to_dict("records"):
        entry = by_name.get(r["model"])
        rows.append(
            {
                "place": r["place"],
                "model": r["model"] if entry is None else f"**{r['model']}** ({entry.fields['model']})",
                f"mean rank, {record}": f"{r[spec.metric_of_record]:.2f}",
                f"vs {best}: W-L-T; mean difference [95% CI]": "-" if entry is None else _versus(entry, spec, best),
                "features": "-" if entry is None else entry.fields["features"],
                "tuning": "-" if entry is None else _tuning(entry.fields),
                "scores": REFERENCE_ROW if entry is None else VERIFIABLE if entry.verifiable else NOT_VERIFIABLE,
            }
        )
    n = len(spec.screens)
    table = pd.DataFrame(rows)
    if not entries:  # the reference alone
        table = table[["place", "model", f"mean rank, {record}"]]
    metrics = [spec.metric_of_record, *(m for m in spec.metrics if m != spec.metric_of_record)]
    lines = [
        f"Benchmark {spec.title}: {n} screen{'s' if n > 1 else ''}, {len(spec.rankers)} reference rankers and "
        f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}. "
        + (
            "No entry is filed yet: the table is the reference alone. "
            if not entries
            else "Entries are in bold, each with the model's name from its `entry.yaml`. "
        )
        + f"Every model is ranked on each screen among all the others (1 = best, ties sharing their mean rank); the "
        f"place is 1 + the number of models whose mean rank on the metric of record, {record}, is strictly lower. "
        f"An entry's record is against the best reference ranker, {best}, on that metric across the screens "
        "(wins, losses, ties; the mean paired difference with its 95% bootstrap interval), from its result record. "
        f"An entry whose scores are not committed is {NOT_VERIFIABLE} (`crocbench benchmark verify`).",
        "",
        f":::{{container}} {TABLES_CLASS}",
        markdown_table(table),
        "",
        "Mean rank on every metric (the metric of record's first; the others are exploratory):",
        "",
        markdown_table(
            pd.DataFrame({"model": ranks["model"]} | {metric_label(m): [f"{r:.2f}" for r in ranks[m]] for m in metrics})
        ),
        ":::",
    ]
    if figure is not None:
        lines += ["", f"![Critical-difference diagram of {spec.name}, the entries in red]({figure})"]
    return "\n".join(lines)


def leaderboard_figure(spec, reference: pd.DataFrame, entries: list, out, ranks: pd.DataFrame | None = None) -> list:
    """The critical-difference diagram on the metric of record of every model, the entries in red (``ranks``: as
    :func:`leaderboard_markdown` takes it)."""
    from ..benchmark._evaluate import ALPHA, metric_label
    from ..benchmark._record import ENTRY_COLOUR, OTHER_COLOUR
    from ..plots import plot_critical_difference
    from ..stats import nemenyi_critical_difference

    ranks = leaderboard(spec, reference, entries) if ranks is None else ranks
    cd = nemenyi_critical_difference(len(ranks), len(spec.screens), ALPHA)
    panels = {metric_label(spec.metric_of_record): (dict(zip(ranks["model"], ranks[spec.metric_of_record])), cd)}
    colours = {m: ENTRY_COLOUR if e else OTHER_COLOUR for m, e in zip(ranks["model"], ranks["entry"])}
    return plot_critical_difference(panels, out, colours=colours, formats=("png",))


def _board(root, spec, memo: dict | None = None) -> tuple:
    """(reference values, entries, :func:`leaderboard`) of a benchmark in ``root``: read and ranked once per
    ``memo`` (None: each time)."""
    from ..benchmark._entries import entries
    from ..benchmark._recipe import reference_values

    key = ("leaderboard", Path(root).resolve(), spec.name)
    if memo is not None and key in memo:
        return memo[key]
    reference, filed = reference_values(spec, root), entries(root, spec.name)
    board = reference, filed, leaderboard(spec, reference, filed)
    if memo is not None:
        memo[key] = board
    return board


def figure_path(spec) -> Path:
    """The leaderboard figure's path relative to the project."""
    return LEADERBOARDS / f"{spec.name}_cd.png"


def _figure(root, spec, memo: dict | None, out) -> list:
    """:func:`leaderboard_figure` of a benchmark in ``root`` drawn into ``out`` (``memo``: as :func:`_board`)."""
    reference, filed, ranks = _board(root, spec, memo)
    return leaderboard_figure(spec, reference, filed, out, ranks=ranks)


def leaderboard_tables(root, memo: dict | None = None) -> dict:
    """``{"leaderboard/<name>": the page's block}`` of every benchmark of :func:`leaderboard_specs`. ``memo``: what
    one regeneration keeps of each benchmark (its inputs and :func:`leaderboard`), shared with
    :func:`leaderboard_figures`; None: nothing kept."""
    boards = [(spec, *_board(root, spec, memo)) for spec in leaderboard_specs(root)]
    return {
        f"leaderboard/{spec.name}": leaderboard_markdown(
            spec, reference, filed, figure=figure_path(spec).name, ranks=ranks
        )
        for spec, reference, filed, ranks in boards
    }


def leaderboard_figures(root, memo: dict | None = None) -> dict:
    """``{figure path relative to root: draw(out)}`` of every benchmark of :func:`leaderboard_specs` across screens
    (``memo``: as :func:`leaderboard_tables` takes it)."""
    return {
        str(figure_path(spec)): lambda out, spec=spec: _figure(root, spec, memo, out)
        for spec in leaderboard_specs(root)
    }

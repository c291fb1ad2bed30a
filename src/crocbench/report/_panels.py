"""Panels compared on the screens they share: a change of protocol (the split, the definition of activity) read
on the same screens."""

from __future__ import annotations

import pandas as pd

from ..stats import friedman_test
from ._claims import holds_per_claim
from ._matrix import metric_matrix
from ._summary import SUMMARY_FIGURE_METRICS, summary_labels
from ._summary_markdown import _value_cell, _wins_losses


def panels_compared(
    panels: dict, names: dict, key=None, metrics=SUMMARY_FIGURE_METRICS, across=None, pairs=()
) -> pd.DataFrame:
    """Two or more panels on the screens they share: the paper's rankers' mean ranks per metric and each claim's
    verdict, per panel, so that a change of protocol (the split, the definition of activity) is read on the same
    screens.

    Parameters
    ----------
    panels : dict
        ``{panel name: (datasets table, claims per screen)}``: :func:`crocbench.report.datasets_table`'s and :func:`crocbench.paper.screen_claims`'s
        outputs (a panel reference's ``datasets.tsv`` and ``claims_per_screen.tsv``, or None for a panel without the
        paper's five: its claims' cells read "not run"); a third item, where given, is
        the values the claims are tested on across the screens (a repeated panel's first repeat, as its claims per
        screen), in place of the datasets table.
    names : dict
        The model keys compared -> the labels of the tables; other models are left out (none given: every model).
    key : callable, optional
        Maps a screen's name to what matches it across the panels (default: the name itself;
        :func:`crocbench.data.pubchem.campaign_of` matches a campaign's primary and confirmed screens).
    metrics : sequence of str
        The metrics whose mean ranks are compared.
    across : callable, optional
        ``across(claims per screen, datasets table)``: each claim's verdict across the shared screens, as a table
        with ``id``, ``text``, ``screens``, ``holds_in`` and ``supported_across`` (a paper's, e.g.
        :func:`crocbench.paper.claims_across`); without it, the counts per screen only.
    pairs : sequence of (str, str), optional
        Pairs of models ``(a, b)`` whose records over the shared screens are compared: per metric, the screens
        on which a's value is above b's, below it, and equal to it.

    Returns
    -------
    DataFrame
        ``what`` (the screens, ``mean ranks, <metric>``, ``mean <metric>`` or a claim's text), then one column per
        panel: the number of screens shared; the rankers by mean rank (1 = best) with the Friedman p-value; by their
        mean value over the shared screens; each pair's record (``record, a vs b``) per metric, wins-losses(-ties) of a;
        "holds in h of n", and
        whether the Wilcoxon-Holm tests across the shared screens support it (``across``; the paired
        tests' claim, pooled from the full significance tables, is counted per screen only).

    Examples
    --------
    >>> rows = [(d, m, v) for d, vs in (("a", (0.9, 0.5)), ("b", (0.8, 0.6)), ("c", (0.7, 0.2))) for m, v in zip("XY", vs)]
    >>> t = pd.DataFrame(rows, columns=["dataset", "model", "roc"])
    >>> claims = pd.DataFrame({"dataset": ["a", "b"], "id": ["c1", "c1"], "text": ["X wins", "X wins"],
    ...                        "holds": [True, False], "evidence": ["", ""]})
    >>> out = panels_compared({"p": (t, claims), "q": (t[t.dataset != "c"], claims)}, {}, metrics=["roc"])
    >>> out.to_dict("records")[:2]  # doctest: +NORMALIZE_WHITESPACE
    [{'what': 'screens', 'p': '2', 'q': '2'},
     {'what': 'mean ranks, AUC[ROC]', 'p': 'X 1.00, Y 2.00 (Friedman p 0.16)', 'q': 'X 1.00, Y 2.00 (Friedman p 0.16)'}]
    """
    key = key or (lambda screen: screen)
    labels = list(names.values())
    shared = set.intersection(*({key(d) for d in entry[0]["dataset"]} for entry in panels.values()))
    columns = {}
    for panel, (table, per_screen, *claimed) in panels.items():

        def kept(frame):
            return frame[frame["dataset"].map(key).isin(shared) & (frame["model"].isin(labels) if labels else True)]

        table = kept(table)
        claimed = kept(claimed[0]) if claimed else table
        per_screen = None if per_screen is None else per_screen[per_screen["dataset"].map(key).isin(shared)]
        cells = {"screens": str(table["dataset"].nunique())}
        matrices = {metric: metric_matrix(table, metric) for metric in metrics}
        for metric in metrics:
            values, _, models = matrices[metric]
            friedman = friedman_test(values)
            order = sorted(zip(models, friedman.mean_ranks), key=lambda mr: mr[1])
            cells[f"mean ranks, {summary_labels()[metric]}"] = (
                ", ".join(f"{m} {r:.2f}" for m, r in order) + f" (Friedman p {friedman.p_value:.2g})"
            )
            means = sorted(zip(models, values.mean(axis=0)), key=lambda mv: -mv[1])
            cells[f"mean {summary_labels()[metric]}"] = ", ".join(f"{m} {_value_cell(metric, v)}" for m, v in means)
        for a, b in pairs:
            records = []
            for metric in metrics:
                values, _, models = matrices[metric]
                x, y = values[:, models.index(a)], values[:, models.index(b)]
                counts = {"wins": int((x > y).sum()), "losses": int((x < y).sum()), "ties": int((x == y).sum())}
                records.append(f"{summary_labels()[metric]} {_wins_losses(counts)}")
            cells[f"record, {a} vs {b}"] = ", ".join(records)
        if per_screen is None:  # the paper's five not run: no claim to count
            counted = []
        elif across is not None:
            counted = across(per_screen, claimed).to_dict("records")
        else:  # no test across the screens: the counts only
            counted = holds_per_claim(per_screen)
        mark = {True: "; supported", False: "; not supported", None: ""}
        for row in counted:
            cells[row["text"]] = f"holds in {row['holds_in']} of {row['screens']}" + mark[row.get("supported_across")]
        columns[panel] = cells
    frame = pd.DataFrame(columns).fillna("not run")  # a claim of a panel without the paper's five
    frame.index.name = "what"
    return frame.reset_index()

"""The development design of tuning: each tuned ranker's candidates run as runs of their own on a development panel
of screens the study does not report, and each ranker's best mean over those screens is chosen
(``tuning: design: development``; ``crocbench tuning choose``). The spaces and the draw of the candidates are
:mod:`._tuning`'s."""

from __future__ import annotations

import re

import pandas as pd

from ._tuning import candidates

_EPS = 1e-12  # a mean within the margin but for the last bits of its subtraction is within it

#: A candidate run's name: the tuned entry's name, then ``.c`` and the candidate's number (from 1).
CANDIDATE = re.compile(r"^(?P<run>.+)\.c(?P<number>[0-9]+)$")
#: The development tuning's settings a chosen file records (``tuning: chosen_by``).
CHOSEN_BY = ("design", "budget", "metric", "share", "seed", "folds", "cost_margin")


def candidate_runs(name: str, entry: dict, label: str) -> dict:
    """A tuned entry's candidates as runs of a development panel: ``{name}.c1`` ... labelled ``{label}.c1`` ...,
    each the entry's fixed parameters (those of the space give way) and one configuration (:func:`candidates`).

    Parameters
    ----------
    name : str
        The entry's name.
    entry : dict
        The entry, its ``tune`` resolved (``crocbench.models.resolve_tune``).
    label : str
        The ranker's label.

    Returns
    -------
    dict
        ``{run name: params}``, in the candidates' order.

    Examples
    --------
    >>> tune = {"space": {"k": [5, 10]}, "budget": 2, "metric": "roc", "share": 0.2, "sample_seed": 0}
    >>> candidate_runs("knn", {"k": 20, "tie_break": None, "tune": tune}, "kNN")
    {'knn.c1': {'class': 'knn', 'tie_break': None, 'k': 5, 'label': 'kNN.c1'}, 'knn.c2': {'class': 'knn', 'tie_break': None, 'k': 10, 'label': 'kNN.c2'}}
    """
    tune = entry["tune"]
    fixed = {k: v for k, v in entry.items() if k not in ("tune", "label", "class") and k not in tune["space"]}
    return {
        f"{name}.c{i}": {"class": entry.get("class", name), **fixed, **config, "label": f"{label}.c{i}"}
        for i, config in enumerate(candidates(tune["space"], tune["budget"], tune["sample_seed"]), 1)
    }


def choose_candidates(values: pd.DataFrame, entries: dict, metric: str, margin: float | None = None) -> pd.DataFrame:
    """Each tuned ranker's configuration chosen on a development panel: the candidate with the best mean of
    ``metric`` over the panel's screens (the earlier on a tie); with ``margin``, the cheapest candidate (least mean
    CPU seconds a validation fold over the screens) whose mean is within ``margin`` of that best (the earlier on a
    tie).

    Parameters
    ----------
    values : DataFrame
        The development panel's candidate values (``results/tuning/values.tsv``: ``dataset``, ``model`` by label, a
        column per metric), each on the screen's validation folds (``tuning: folds``).
    entries : dict
        The development config's run entries (``crocbench.models.expand_runs``): the candidate runs
        (:func:`candidate_runs`) among them.
    metric : str
        The metric of record (a column of ``values``).
    margin : float, optional
        ``tuning: cost_margin``: how far below the best mean a cheaper candidate may be; ``values`` then needs a
        ``cpu_seconds`` column (a validation fold's job CPU seconds on the screen, all threads: unlike its wall
        seconds, barely moved by other load on the machine).

    Returns
    -------
    DataFrame
        One row per candidate, in the entries' order: ``ranker``, ``candidate`` (its run), ``label``, ``params``
        (the configuration, JSON), ``screens``, ``mean`` (of ``metric``), ``sd`` (over the screens), ``seconds`` and
        ``cpu_seconds`` (wall and CPU, the means over the screens, where ``values`` has them), ``best`` (the best
        mean) and ``chosen``.

    Raises
    ------
    ValueError
        When there is no candidate run, ``metric`` is not a column, or a candidate lacks a screen.
    """
    import json

    if metric not in values.columns:
        raise ValueError(f"the development panel's table has no metric {metric!r}")
    if margin is not None and "cpu_seconds" not in values.columns:
        raise ValueError("tuning: cost_margin compares the candidates' CPU seconds: the values table has none")
    screens = list(dict.fromkeys(values["dataset"]))
    wide = values.pivot(index="dataset", columns="model", values=metric).reindex(screens)
    costs = {
        name: values.pivot(index="dataset", columns="model", values=name).mean()
        if name in values.columns
        else pd.Series(dtype=float)
        for name in ("seconds", "cpu_seconds")
    }
    rows = []
    for run, params in entries.items():
        match = CANDIDATE.match(run)
        if match is None or "label" not in params:
            continue
        label = params["label"]
        if label not in wide.columns or wide[label].isna().any():
            raise ValueError(f"candidate {run} ({label}) lacks {metric} on a screen of the development panel")
        config = {k: v for k, v in params.items() if k not in ("class", "label")}
        rows.append(
            {
                "ranker": match["run"],
                "candidate": run,
                "label": label,
                "params": json.dumps(config, sort_keys=True),
                "screens": len(screens),
                "mean": float(wide[label].mean()),
                "sd": float(wide[label].std(ddof=1)) if len(screens) > 1 else float("nan"),
                **{name: float(cost.get(label, float("nan"))) for name, cost in costs.items()},
            }
        )
    if not rows:
        raise ValueError("the development config has no candidate runs (tune: with tuning: design: development)")
    table = pd.DataFrame(rows)
    top = table.groupby("ranker", sort=False)["mean"].transform("max")
    best = table.index.isin(table[table["mean"] == top].groupby("ranker", sort=False).head(1).index)
    if margin is None:
        return table.assign(best=best, chosen=best)
    missing = table["cpu_seconds"].isna()
    if missing.any():
        raise ValueError(f"candidate {table['candidate'][missing].iloc[0]} has no CPU seconds to compare")
    near = table[top - table["mean"] <= margin + _EPS]  # within the margin, a rounding below it included
    cheapest = near.loc[near.groupby("ranker", sort=False)["cpu_seconds"].idxmin()].index  # the earlier on a tie
    return table.assign(best=best, chosen=table.index.isin(cheapest))


def chosen_tuning(tuning: dict, screens) -> dict:
    """The ``tuning:`` a chosen file records for its test config: the development screens (``chosen_on``: a run
    testing one of their campaigns stops) and the development tuning's settings (``chosen_by``, for the record; the
    test config's own tuning stays its own).

    Examples
    --------
    >>> t = {"design": "development", "budget": 8, "metric": "roc", "share": 0.2, "seed": 0, "folds": 1,
    ...      "cost_margin": None, "chosen_on": None}
    >>> chosen_tuning(t, ["a_primary"])["chosen_on"], chosen_tuning(t, ["a_primary"])["chosen_by"]["folds"]
    (['a_primary'], 1)
    """
    return {"chosen_on": list(screens), "chosen_by": {k: tuning[k] for k in CHOSEN_BY}}


def chosen_models(table: pd.DataFrame, entries: dict) -> dict:
    """The ``models:`` of a test config from :func:`choose_candidates`: each ranker's chosen candidate's class (where
    it is not the entry's own name) and parameters, without its candidate label.

    Examples
    --------
    >>> t = pd.DataFrame({"ranker": ["knn", "knn"], "candidate": ["knn.c1", "knn.c2"], "chosen": [False, True]})
    >>> chosen_models(t, {"knn.c1": {"class": "knn", "k": 5, "label": "kNN.c1"},
    ...                   "knn.c2": {"class": "knn", "k": 10, "label": "kNN.c2"}})
    {'knn': {'k': 10}}
    """
    out = {}
    for row in table[table["chosen"]].itertuples():
        params = entries[row.candidate]
        own = params.get("class") == row.ranker  # a built-in under its own name names no class (the schema's)
        out[row.ranker] = {k: v for k, v in params.items() if k != "label" and not (own and k == "class")}
    return out

"""A verdict study's tables and words (a config's ``verdict:``): every test of its families' union with its
leave-one-out count and its mixed model, each cross-fingerprint pair's decomposition, and the sentences, all
computed from a run's per-screen values by :mod:`crocbench.stats` (:func:`crocbench.stats.robustness`,
:func:`crocbench.stats.pairwise_wilcoxon`, :func:`crocbench.stats.decompose`); no verdict is written by hand.

A run's values come as tables shaped as the summary's (``datasets_repeats.tsv``: ``dataset``, ``model``,
``repeat`` and a column per metric; a table without ``repeat`` holds one value per screen), one per set of actives
the families are scored on (``confirmed actives``: ``datasets_repeats.tsv``; ``novel actives``: ``novel.tsv``),
each arm's rows under its model's label (:func:`declared_arms`). The effects' and the mixed model's intervals take
the decomposition's declared ``level``, ``resamples`` and ``seed``: one declaration for every interval of the study.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ...stats import decompose, pairwise_wilcoxon, robustness, screens_needed
from .._summary_markdown import _wins_losses
from ._questions import DECLARED, _label, _listed, _number, _signed

#: The actives the decomposition is scored on (the metric of record on every confirmed active).
DECOMPOSED_ON = "confirmed actives"


class Arm(NamedTuple):
    """An arm of the factorial: whose rows of a run's tables it reads, which ranker and which features.

    Parameters
    ----------
    model : str
        The label of its ``models:`` entry: the ``model`` of its rows in the run's tables.
    ranker : str
        Its ranker (the model class's name): two arms with one ranker differ only in features.
    fingerprint : str
        Its set of features (a key of ``verdict: fingerprints``).
    """

    model: str
    ranker: str
    fingerprint: str


def declared_arms(verdict: dict, runs: dict) -> dict:
    """``{arm label: Arm}`` of a ``verdict:`` section over the config's runs (:func:`crocbench.models.declared_runs`).

    Examples
    --------
    >>> from crocbench.models import declared_runs
    >>> runs = declared_runs({"rf": {}, "rf_paper": {"class": "rf", "features": "paper"}})
    >>> declared_arms({"arms": {"RF/paper": {"ranker": "rf_paper", "fingerprint": "paper"}}}, runs)
    {'RF/paper': Arm(model='RF/paper', ranker='RandomForest', fingerprint='paper')}
    """

    def ranker(run) -> str:  # a tuned ranker is its ranker's class; an import, its own name
        if run.model is None:
            return run.name
        return (getattr(run.model, "base_class", None) or type(run.model)).__name__

    return {
        label: Arm(runs[spec["ranker"]].label, ranker(runs[spec["ranker"]]), spec["fingerprint"])
        for label, spec in verdict["arms"].items()
    }


def _screens(values: dict) -> list:
    """The screens of the run, in the order of the confirmed actives' table (else the first table's)."""
    first = values.get(DECOMPOSED_ON, next(iter(values.values())))
    return list(dict.fromkeys(first["dataset"]))


def _arm_values(values: dict, scored_on: str, arm: Arm, label: str, metric: str, screens: list) -> np.ndarray:
    """An arm's values on one metric: (screens, repeats), the screens in ``screens``' order."""
    if scored_on not in values:
        raise ValueError(f"verdict: no table of the values on the {scored_on}")
    table = values[scored_on]
    if metric not in table.columns:
        raise ValueError(f"verdict: the table of the {scored_on} has no metric {metric!r}")
    rows = table[table["model"] == arm.model]
    if rows.empty:
        raise ValueError(f"verdict: arm {label}: no rows of model {arm.model!r} in the table of the {scored_on}")
    repeat = rows["repeat"] if "repeat" in rows.columns else 0
    wide = rows.assign(repeat=repeat).pivot(index="dataset", columns="repeat", values=metric)
    missing = [s for s in screens if s not in wide.index or wide.loc[s].isna().any()]
    if missing:
        raise ValueError(f"verdict: arm {label} has no {metric} on the {scored_on} of screen {missing[0]}")
    return wide.loc[screens].to_numpy(dtype=float)


def _level(verdict: dict) -> dict:
    d = verdict["decomposition"]
    return {"level": float(d["level"]), "n_resamples": int(d["resamples"]), "seed": int(d["seed"])}


def verdict_table(values: dict, verdict: dict, arms: dict) -> pd.DataFrame:
    """Every test of the union of a verdict study's families, from a run's values.

    Parameters
    ----------
    values : dict
        ``{scored_on: table}`` (``confirmed actives``, ``novel actives``): per screen, model and repeat, a column
        per metric (the module's shapes); every table holds the same screens.
    verdict : dict
        The config's ``verdict:`` section.
    arms : dict
        :func:`declared_arms`'s.

    Returns
    -------
    DataFrame
        One row per family, pair and metric, in declared order: ``family``, ``a``, ``b``, ``metric``, ``screens``,
        ``repeats``, ``wins``, ``losses``, ``ties`` (a against b on the repeats' means), ``effect`` (mean of
        a - b), ``low``, ``high`` (its bootstrap interval over the screens), ``p_value`` (the exact signed-rank
        test), ``p_holm`` (Holm over the union), ``verdict`` (+1: a ahead, -1: b ahead, 0: none shown),
        ``panels``, ``holding`` (the leave-one-screen-out panels, and those in which the verdict holds),
        ``mixed``, ``mixed_low``, ``mixed_high``, ``mixed_p_holm`` (the mixed model's estimate, interval and Holm
        p over the union), ``mixed_verdict`` and ``robust``; from :func:`crocbench.stats.robustness`.
    """
    screens, options = _screens(values), _level(verdict)
    rows, a_values, b_values = [], [], []
    for family in verdict["families"]:
        for a, b in family["pairs"]:
            for metric in family["metrics"]:
                x, y = (_arm_values(values, family["scored_on"], arms[arm], arm, metric, screens) for arm in (a, b))
                test = pairwise_wilcoxon(np.column_stack([x.mean(axis=1), y.mean(axis=1)]), [a, b], **options)[0]
                rows.append({"family": family["name"], "a": a, "b": b, "metric": metric, "screens": len(screens),
                             "repeats": x.shape[1], "wins": test["wins"], "losses": test["losses"],
                             "ties": test["ties"], "effect": test["mean_difference"], "low": test["low"],
                             "high": test["high"], "p_value": test["p_value"]})  # fmt: skip
                a_values.append(x)
                b_values.append(y)
    checked = robustness(a_values, b_values, alpha=float(verdict["alpha"]), level=options["level"])
    for row, r in zip(rows, checked):
        row.update(
            p_holm=r.p_holm, verdict=r.verdict, panels=r.panels, holding=r.holding, mixed=r.secondary.estimate,
            mixed_low=r.secondary.low, mixed_high=r.secondary.high, mixed_p_holm=r.secondary_p_holm,
            mixed_verdict=r.secondary_verdict, robust=r.robust,
        )  # fmt: skip
    return pd.DataFrame(rows)


def decomposition_table(values: dict, verdict: dict, arms: dict) -> pd.DataFrame:
    """Each declared cross-fingerprint pair (ranker A on features 1 against ranker B on features 2) split into a
    ranker part and a features part (:func:`crocbench.stats.decompose`), on the metric of record's repeat means
    over the confirmed actives.

    Returns
    -------
    DataFrame
        Per pair, a row per part: ``a``, ``b``, ``metric``, ``part`` (``total``; ``ranker`` and ``features``,
        which sum to it; ``ranker at <features>`` for each set, ``features of <arm>`` for each ranker, the parts'
        two halves), ``effect``, ``low``, ``high``, ``screens``.
    """
    screens, options, metric = _screens(values), _level(verdict), verdict["metric_of_record"]

    def means(label):
        return _arm_values(values, DECOMPOSED_ON, arms[label], label, metric, screens).mean(axis=1)

    def twin(label, fingerprint):
        found = [k for k, arm in arms.items() if arm.ranker == arms[label].ranker and arm.fingerprint == fingerprint]
        if not found:
            raise ValueError(f"verdict: decomposition: no arm of {label}'s ranker on {fingerprint}")
        return found[0]

    rows = []
    for a1, b2 in verdict["decomposition"]["pairs"]:
        f1, f2 = arms[a1].fingerprint, arms[b2].fingerprint
        a2, b1 = twin(a1, f2), twin(b2, f1)
        d = decompose(means(a1), means(a2), means(b1), means(b2), **options)
        parts = {
            "total": d.total, "ranker": d.ranker, "features": d.features,
            f"ranker at {f1}": d.ranker_at[0], f"ranker at {f2}": d.ranker_at[1],
            f"features of {a1}": d.features_of[0], f"features of {b1}": d.features_of[1],
        }  # fmt: skip
        rows += [
            {
                "a": a1,
                "b": b2,
                "metric": metric,
                "part": part,
                "effect": e.mean,
                "low": e.low,
                "high": e.high,
                "screens": e.screens,
            }  # fmt: skip
            for part, e in parts.items()
        ]
    return pd.DataFrame(rows)


def _status(verdict: dict) -> str:
    confirmatory = verdict.get("declared") == DECLARED[0]
    return "confirmatory" if confirmatory else "exploratory: the study was declared after the run"


def _ahead(r) -> str:
    return r.a if r.verdict > 0 else r.b if r.verdict < 0 else "none shown"


def _interval(effect, low, high) -> str:
    return f"{_signed(effect)} [{_number(low)}, {_number(high)}]"


def _words(r) -> str:
    """A test with a difference shown, in words: who is ahead, by how much, and whether it is robust."""
    winner, loser, sign = (r.a, r.b, 1) if r.verdict > 0 else (r.b, r.a, -1)
    low, high = sorted((sign * r.low, sign * r.high))
    wins, losses = (r.wins, r.losses) if sign > 0 else (r.losses, r.wins)
    record = _wins_losses({"wins": wins, "losses": losses, "ties": r.ties})
    said = (
        f"{winner} over {loser} on {_label(r.metric)} by {_number(sign * r.effect)} ({_number(low)} to "
        f"{_number(high)}; {record}, Holm p {r.p_holm:.2g}): "
    )
    if r.robust:
        return said + f"robust: holds in all {r.panels} leave-one-out panels and the mixed model agrees"
    mixed = "agrees" if r.mixed_verdict == r.verdict else f"does not agree (Holm p {r.mixed_p_holm:.2g})"
    return said + f"fragile: holds in {r.holding} of {r.panels} leave-one-out panels, and the mixed model {mixed}"


def verdict_markdown(table: pd.DataFrame, verdict: dict) -> str:
    """:func:`verdict_table` as the study's words: a sentence on the union, per family its verdicts in sentences
    ("robust" only where the declared rule holds; "fragile" with its count of panels otherwise; "not reproduced on
    these panels" where no difference is shown), then the table."""
    level = f"{_level(verdict)['level']:.0%}"
    families = list(dict.fromkeys(table["family"]))
    lines = [
        f"- {len(table)} tests in {len(families)} families, Holm over their union at {float(verdict['alpha']):g}, "
        f"on {int(table['screens'].iloc[0])} screens; robust: the verdict holds in every leave-one-screen-out "
        f"panel and the mixed model on the repeat-level differences gives the same. The verdicts are "
        f"{_status(verdict)}."
    ]
    for family in families:
        part = table[table["family"] == family]
        shown = part[part["verdict"] != 0]
        if shown.empty:
            lines.append(f"- {family}: no test of the family shows a difference; not reproduced on these panels.")
            continue
        lines.append(f"- {family}:" + "".join(f"\n  - {_words(r)}." for r in shown.itertuples()))
        none = part[part["verdict"] == 0]
        if len(none):
            cells = [f"{a} vs {b} on {_label(m)}" for a, b, m in zip(none["a"], none["b"], none["metric"])]
            lines.append(f"  - Not reproduced on these panels: {_listed(cells)}.")
    lines += [
        "",
        f"| family | pair | metric | record | mean difference [{level}] | Holm p | ahead | leave-one-out | "
        f"mixed model [{level}] | its Holm p | robust |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in table.itertuples():
        record = _wins_losses({"wins": r.wins, "losses": r.losses, "ties": r.ties})
        lines.append(
            f"| {r.family} | {r.a} vs {r.b} | {_label(r.metric)} | {record} | {_interval(r.effect, r.low, r.high)} "
            f"| {r.p_holm:.2g} | {_ahead(r)} | {r.holding} of {r.panels} | "
            f"{_interval(r.mixed, r.mixed_low, r.mixed_high)} | {r.mixed_p_holm:.2g} | {'yes' if r.robust else 'no'} |"
        )
    return "\n".join(lines)


def decomposition_markdown(table: pd.DataFrame, verdict: dict) -> str:
    """:func:`decomposition_table` as a Markdown table: per pair, the difference, its ranker part and its features
    part, each with its interval."""
    level = f"{_level(verdict)['level']:.0%}"
    lines = [
        f"| pair | metric | difference [{level}] | ranker part [{level}] | features part [{level}] |",
        "|---|---|---|---|---|",
    ]
    for (a, b), part in table.groupby(["a", "b"], sort=False):
        cell = {r.part: _interval(r.effect, r.low, r.high) for r in part.itertuples()}
        metric = _label(part["metric"].iloc[0])
        lines.append(f"| {a} vs {b} | {metric} | {cell['total']} | {cell['ranker']} | {cell['features']} |")
    return "\n".join(lines)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def awaiting_markdown(verdict: dict) -> str:
    """What a declared verdict study will test, in words, while no run of it is committed."""
    tests = sum(len(f["pairs"]) * len(f["metrics"]) for f in verdict["families"])
    alpha = float(verdict["alpha"])
    names = [f"{f['name']} ({_count(len(f['pairs']), 'pair')} x {_count(len(f['metrics']), 'metric')})"
             for f in verdict["families"]]  # fmt: skip
    return (
        f"The study awaits its run: no reference of it is committed. It declares {tests} tests, "
        f"{_listed(names)}, Holm over their union at {alpha:g}; a unanimous record passes from "
        f"{screens_needed(tests=tests, alpha=alpha)} screens (`crocbench.stats.screens_needed(tests={tests})`), and "
        f"{_count(len(verdict['decomposition']['pairs']), 'pair')} across fingerprints to decompose on "
        f"{_label(verdict['metric_of_record'])}. The verdicts will be {_status(verdict)}."
    )

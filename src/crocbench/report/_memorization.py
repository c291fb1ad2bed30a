"""What a split lets a ranker remember, tabulated: each split's train-to-test similarities, and every metric on the
test actives of each stratum (analog, middle, novel; :func:`crocbench.cv.strata`) beside all of them.

A stratum's metric is the metric of the list with the other strata's actives deleted (every negative kept), from
one sort of the whole list (:meth:`crocbench.metrics.Ranking.stratum`), with its exact random baseline.  The
*analogs' share* of a ranker's gain over random is ``sum over analog actives of (h_i - h0)`` over the same sum on
all actives, ``h_i`` each active's per-positive value on the whole list and ``h0`` its random expectation: of the
metric's excess over random, the part the analog actives contribute (exact for any metric that is an affine map
of a mean over the positives).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cv import ALL_ACTIVES as ALL
from ..cv import MEASURES, SPLITS, STRATA, strata
from ..metrics import Ranking
from ..stats import TEST_LABELS
from ._format import markdown_table, number_cell, p_cell
from ._tables import RANDOM_ROW

#: The similarity levels the split table gives the share at or above.
SHARE_LEVELS = (0.4, 0.6, 0.7, 0.8, 1.0)
#: The quantiles the split table gives.
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


#: What an analogs' share of a gain over random above 100% means, said wherever one is shown: the share is the
#: analog actives' excess over the random mean divided by every active's, so it passes 100% when the other actives
#: fall below random.
SHARE_ABOVE_WHOLE = "above 100%, the other actives together rank below random and take back part of the gain"


def split_similarity_table(overlaps: dict) -> pd.DataFrame:
    """Per split and measure: compounds, quantiles, and the share at or above each of ``SHARE_LEVELS``.

    Parameters
    ----------
    overlaps : dict
        A split's name -> its overlap table (:func:`crocbench.cv.train_test_similarity`).

    Returns
    -------
    pandas.DataFrame
        ``split``, ``measure``, ``compounds``, ``q5``, ``q25``, ``q50``, ``q75``, ``q95``, ``ge0.4``, ...; the
        ``to_train_actives`` measure is over the test actives only.

    Examples
    --------
    >>> t = pd.DataFrame({"label": [1, 1, 0, 0], "to_train": [1.0, 0.5, 0.7, 0.2], "to_train_actives": [0.8, 0.3, 0, 0]})
    >>> row = split_similarity_table({"random": t}).iloc[1]
    >>> int(row["compounds"]), float(row["ge0.4"]), float(row["ge0.8"])
    (2, 0.5, 0.5)
    """
    rows = []
    for split, measure, values in _measured(overlaps):
        row = {"split": split, "measure": measure, "compounds": int(values.size)}
        row.update({f"q{round(q * 100)}": float(np.quantile(values, q)) for q in QUANTILES})
        row.update({f"ge{level}": float(np.mean(values >= np.float32(level))) for level in SHARE_LEVELS})
        rows.append(row)
    return pd.DataFrame(rows)


def _measured(overlaps: dict):
    """``(split, measure, values)`` for each split and measure: float32 similarities, of the test actives only for
    ``to_train_actives``."""
    for split, table in overlaps.items():
        for measure in MEASURES:
            values = table[measure].to_numpy(dtype=np.float32)
            if measure == "to_train_actives":
                values = values[table["label"].to_numpy() == 1]
            yield split, measure, values


def split_similarity_curves(overlaps: dict, points: int = 201) -> pd.DataFrame:
    """Per split and measure, the share of test compounds (test actives) at or above each similarity level: the
    distributions a figure draws (:func:`crocbench.plots.plot_split_similarity`).

    Returns
    -------
    pandas.DataFrame
        ``split``, ``measure``, ``level`` (``points`` levels from 0 to 1) and ``share``.

    Examples
    --------
    >>> t = pd.DataFrame({"label": [1, 0], "to_train": [0.5, 1.0], "to_train_actives": [0.25, 0.0]})
    >>> c = split_similarity_curves({"random": t}, points=3)
    >>> c[c["measure"] == "to_train"]["share"].tolist()
    [1.0, 1.0, 0.5]
    """
    levels = np.linspace(0.0, 1.0, points).astype(np.float32)
    rows = []
    for split, measure, values in _measured(overlaps):
        share = 1.0 - np.searchsorted(np.sort(values), levels, side="left") / values.size
        rows.append(pd.DataFrame({"split": split, "measure": measure, "level": levels, "share": share}))
    return pd.concat(rows, ignore_index=True)


def split_similarity_markdown(table: pd.DataFrame, notes: dict | None = None) -> str:
    """The split table as Markdown: a table per measure, a row per split; then each split that could not be made
    (``notes``: split -> why)."""
    parts = []
    for measure, what in MEASURES.items():
        part = table[table["measure"] == measure]
        cells = pd.DataFrame(
            {
                "split": part["split"],
                "n": [f"{v:,}" for v in part["compounds"]],
                **{f"q{round(q * 100)}": [number_cell(v, 2) for v in part[f"q{round(q * 100)}"]] for q in QUANTILES},
                **{
                    (f">= {level}" if level < 1 else "= 1"): [f"{100 * v:.1f}%" for v in part[f"ge{level}"]]
                    for level in SHARE_LEVELS
                },
            }
        )
        parts.append(f"**{what[0].upper() + what[1:]}** (Tanimoto):\n\n{markdown_table(cells)}")
    parts += [f"The {split} split could not be made: {why}." for split, why in (notes or {}).items()]
    verdicts = split_similarity_verdicts(table)
    if verdicts:
        parts.append(verdicts)
    return "\n\n".join(parts)


def split_similarity_verdicts(table: pd.DataFrame) -> str:
    """How each split compares with the one before it (random, scaffold, cluster, as far as present), point by
    point: at how many of the quantiles and shares of each measure it sits at or below the other, naming those
    where it sits above.

    Examples
    --------
    >>> t = pd.DataFrame({"label": [1, 1, 0, 0], "to_train": [0.9, 0.5, 0.7, 0.3], "to_train_actives": [0.8, 0.2, 0, 0]})
    >>> print(split_similarity_verdicts(split_similarity_table({"random": t, "cluster": t.assign(to_train=t["to_train"] / 2)})))
    - The cluster split against the random split: at or below it at 10 of 10 points of test compound to nearest training compound, and at 10 of 10 of test active to nearest training active.
    """
    order = [s for s in SPLITS if s in set(table["split"])]
    points = [f"q{round(q * 100)}" for q in QUANTILES] + [f"ge{level}" for level in SHARE_LEVELS]
    names = {
        **{f"q{round(q * 100)}": f"q{round(q * 100)}" for q in QUANTILES},
        **{f"ge{v}": f">= {v}" for v in SHARE_LEVELS},
    }
    lines = []
    for before, after in zip(order, order[1:]):
        words = []
        for measure, what in MEASURES.items():
            a = table[(table["split"] == before) & (table["measure"] == measure)].iloc[0]
            b = table[(table["split"] == after) & (table["measure"] == measure)].iloc[0]
            above = [p for p in points if b[p] > a[p]]
            text = f"{len(points) - len(above)} of {len(points)}"
            if above:
                text += (
                    " (above at "
                    + ", ".join(f"{names[p]}: {_point(b[p], p)} vs {_point(a[p], p)}" for p in above)
                    + ")"
                )
            words.append((text, what))
        lines.append(
            f"- The {after} split against the {before} split: at or below it at {words[0][0]} points of {words[0][1]}, "
            f"and at {words[1][0]} of {words[1][1]}."
        )
    return "\n".join(lines)


def _point(value: float, point: str) -> str:
    return f"{100 * value:.1f}%" if point.startswith("ge") else f"{value:.3f}"


def active_strata(overlap: pd.DataFrame, novel: float, analog: float) -> np.ndarray:
    """Each test active's stratum (the actives in the order of ``overlap``'s rows)."""
    actives = overlap["label"].to_numpy() == 1
    return strata(overlap["to_train_actives"].to_numpy()[actives], novel, analog)


def memorization_table(pooled: dict, overlap: pd.DataFrame, calls, novel: float, analog: float) -> pd.DataFrame:
    """Every metric of ``calls`` on each stratum's actives and on all of them, per model, beside its exact random
    baseline, and the analogs' share of the model's gain over random.

    Parameters
    ----------
    pooled : dict
        A model's label -> its pooled scores (``id``, ``label``, ``score``), the compounds of ``overlap`` in its
        order.
    overlap : pandas.DataFrame
        The run's overlap table (:func:`crocbench.cv.train_test_similarity`).
    calls : list of MetricCall
        The metrics.
    novel, analog : float
        The strata's thresholds (:func:`crocbench.cv.strata`).

    Returns
    -------
    pandas.DataFrame
        Long format: ``model``, ``stratum`` (``all`` or one of ``STRATA``), ``actives``,
        ``key``, ``label``, ``value``, ``random`` (the exact random mean on that list; both NaN where the metric is
        undefined on a stratum's shorter list, e.g. a top k beyond its length) and, on the ``all`` rows,
        ``analog_share``.
    """
    label = strata_of = None  # from the first model's scores
    rows = []
    _check_order(pooled, overlap)
    for name, scores in pooled.items():
        if label is None:
            label = scores["label"].to_numpy()
            strata_of = active_strata(overlap, novel, analog)
        ranking = Ranking(label, scores["score"].to_numpy())
        n_neg = ranking.counts.n_neg
        lists = {ALL: ranking, **{s: ranking.stratum(strata_of == s) for s in STRATA if (strata_of == s).any()}}
        for stratum, r in lists.items():
            for c in calls:
                row = {"model": name, "stratum": stratum, "actives": r.counts.n_pos, "key": c.key, "label": c.label}
                try:  # a metric undefined on a stratum's shorter list (a top k beyond it): NaN
                    row.update(value=c.value(r), random=c.random(n_neg + r.counts.n_pos, r.counts.n_pos).mean)
                except ValueError:
                    row.update(value=np.nan, random=np.nan)
                if stratum == ALL:
                    row["analog_share"] = _analog_share(c, r, strata_of == "analog") if _defined(c, r) else np.nan
                rows.append(row)
    return pd.DataFrame(rows)


def _check_order(pooled: dict, overlap: pd.DataFrame) -> None:
    """Every model's scores list the overlap table's compounds in its order, else a one-line ValueError."""
    for name, scores in pooled.items():
        if not np.array_equal(scores["id"].to_numpy(), overlap["id"].to_numpy()):
            raise ValueError(f"{name}'s scores do not list the compounds of the overlap table in its order")


def _analog_share(call, ranking: Ranking, analog: np.ndarray) -> float:
    """The analog actives' share of the metric's excess over its random mean (NaN without an excess)."""
    d = call.definition(ranking.counts)
    h0 = (call.random(ranking.counts.n, ranking.counts.n_pos).mean - d.offset) / d.scale
    excess = call.per_positive(ranking) - h0
    total = excess.sum()
    return float(excess[analog].sum() / total) if total > 0 else float("nan")  # no gain: no share of it


def stratum_tests(
    pooled: dict, overlap: pd.DataFrame, calls, tests, novel: float, analog: float, *, n_samples: int, seed: int = 0
) -> pd.DataFrame:
    """The six paired tests for every pair of models and metric on each stratum's list (its actives, every
    negative), each with its effect: the difference ``value_a - value_b`` and its 95% percentile bootstrap
    interval over the stratum's actives (the unit of the paired tests beside it; :func:`crocbench.stats.paired_effect`
    on the per-positive values, scaled).

    Returns
    -------
    pandas.DataFrame
        :func:`significance_table`'s columns with ``stratum`` first and ``effect``, ``effect_low``,
        ``effect_high`` added.
    """
    from ..stats import paired_effect
    from ._tables import significance_table

    columns = [
        "stratum",
        "a",
        "b",
        "metric",
        "value_a",
        "value_b",
        "better",
        *tests,
        "effect",
        "effect_low",
        "effect_high",
    ]
    first = next(iter(pooled.values()))
    _check_order(pooled, overlap)
    if len(pooled) < 2:
        return pd.DataFrame(columns=columns)
    label = first["label"].to_numpy() == 1
    actives = np.flatnonzero(label)
    of = active_strata(overlap, novel, analog)
    parts = []
    for stratum in (ALL, *STRATA):
        chosen = actives if stratum == ALL else actives[of == stratum]
        if not chosen.size:
            continue
        keep = ~label
        keep[chosen] = True
        lists = {name: scores[keep].reset_index(drop=True) for name, scores in pooled.items()}
        rankings = {name: Ranking(t["label"].to_numpy(), t["score"].to_numpy()) for name, t in lists.items()}
        some = next(iter(rankings.values()))
        defined = [c for c in calls if _defined(c, some)]
        if not defined:
            continue
        table = significance_table(lists, defined, tests, n_samples=n_samples, seed=seed)
        by_key = {c.key: c for c in defined}
        effects = []
        for row in table.itertuples():
            c = by_key[row.metric]
            scale = c.definition(rankings[row.a].counts).scale
            e = paired_effect(
                scale * c.per_positive(rankings[row.a]), scale * c.per_positive(rankings[row.b]), seed=seed
            )
            effects.append((e.mean, e.low, e.high))
        table[["effect", "effect_low", "effect_high"]] = effects
        table.insert(0, "stratum", stratum)
        parts.append(table)
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True)


def _defined(call, ranking: Ranking) -> bool:
    """Whether the metric is defined on the list (a top k within it, ...)."""
    try:
        call.definition(ranking.counts)
    except ValueError:
        return False
    return True


def memorization_markdown(table: pd.DataFrame, keys) -> str:
    """A table per metric of ``keys``: a row per model, its value on all actives and on each stratum, the gap
    all - novel, and the analogs' share of its gain over random; the random baseline of each list beneath."""
    parts = []
    for key in keys:
        part = table[table["key"] == key]
        if part.empty:
            continue
        present = [s for s in (ALL, *STRATA) if s in set(part["stratum"])]
        lists = part.drop_duplicates("stratum").set_index("stratum")
        wide = part.pivot(index="model", columns="stratum", values="value").reindex(
            index=list(dict.fromkeys(part["model"])), columns=present
        )
        random = pd.DataFrame([[lists.loc[s, "random"] for s in present]], columns=present, index=[RANDOM_ROW])
        shares = part[part["stratum"] == ALL].set_index("model")["analog_share"]
        share_cells = ["" if np.isnan(shares[m]) else f"{100 * shares[m]:.0f}%" for m in wide.index] + [""]
        wide = pd.concat([wide, random])  # the baseline row last, whatever the models are called
        cells = pd.DataFrame({"model": wide.index})
        for s in present:
            cells[f"{s} ({lists.loc[s, 'actives']:,})"] = [number_cell(v) for v in wide[s].to_numpy()]
        if "novel" in present:
            cells["all - novel"] = [number_cell(v + 0.0) for v in (wide[ALL] - wide["novel"]).round(12).to_numpy()]
        cells["analogs' share of the gain over random"] = share_cells
        note = f"\n\nThe analogs' share: {SHARE_ABOVE_WHOLE}." if (shares > 1).any() else ""
        parts.append(
            f"**{part['label'].iloc[0]}** (the test actives of each list in brackets):\n\n{markdown_table(cells)}"
            + note
        )
    return "\n\n".join(parts)


def stratum_tests_markdown(table: pd.DataFrame, labels: dict, tests) -> str:
    """The per-stratum tests as Markdown: a row per stratum, pair and metric (by ``labels``), the effect
    ``a - b`` with its interval, and the six p-values (bold below 0.01, italics below 0.05)."""
    cells = pd.DataFrame(
        {
            "stratum": table["stratum"],
            "pair": table["a"] + " vs " + table["b"],
            "metric": table["metric"].map(labels),
            "a - b [95% CI]": [
                f"{number_cell(e)} [{number_cell(lo)}, {number_cell(hi)}]"
                for e, lo, hi in zip(table["effect"], table["effect_low"], table["effect_high"])
            ],
            **{TEST_LABELS[t]: [p_cell(p) for p in table[t]] for t in tests},
        }
    )
    return markdown_table(cells)

"""What the strata of the test actives answer: which ranker is best on novel actives, and how much of each ranker's
gain over random comes from analogs of its training actives (from a run's ``memorization.tsv`` and
``memorization_tests.tsv``; :mod:`crocbench.report._memorization`)."""

from __future__ import annotations

import pandas as pd

from .._memorization import SHARE_ABOVE_WHOLE
from ._questions import Questions, _label, _listed, _number, _signed
from ._screens import family_markdown, family_table


def _first(values: pd.Series) -> tuple:
    best = values.max()
    return _listed(sorted(values.index[values == best])), best


def memorization_findings_markdown(table: pd.DataFrame, tests: pd.DataFrame, keys, novel: float, analog: float) -> str:
    """The answers of a run's strata, a bullet each: the strata's sizes, then per metric of ``keys`` the first ranker
    on all actives and on novel ones (with the paired permutation test and the effect against the runner-up there),
    each ranker's gap all - novel, and the analogs' share of each ranker's gain over random.

    The strata and their tests are not a declared family: every line here is exploratory, and says so.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`crocbench.report.memorization_table`'s output.
    tests : pandas.DataFrame
        :func:`crocbench.report.stratum_tests`'s output.
    keys : sequence of str
        The metrics answered (``memorization: metrics``).
    novel, analog : float
        The strata's thresholds.

    Returns
    -------
    str
        Markdown bullets.
    """
    sizes = table.drop_duplicates("stratum").set_index("stratum")["actives"]
    n = int(sizes["all"])
    parts = [f"{int(sizes.get(s, 0)):,} {s} ({100 * sizes.get(s, 0) / n:.0f}%)" for s in ("analog", "middle", "novel")]
    lines = [
        f"- Of the {n:,} test actives, {_listed(parts)}: analog when a training active is at least {analog:g} similar, "
        f"novel when every training active is below {novel:g} (the paper's fingerprints, exact Tanimoto)."
    ]
    for key in keys:
        part = table[table["key"] == key]
        if part.empty:
            continue
        label = part["label"].iloc[0]
        wide = part.pivot(index="model", columns="stratum", values="value")
        who, best = _first(wide["all"])
        line = f"- {label}: first on all actives {who} ({_number(best)})"
        if "novel" in wide.columns:
            random = part[part["stratum"] == "novel"]["random"].iloc[0]
            who_novel, best_novel = _first(wide["novel"])
            line += f"; first on novel actives {who_novel} ({_number(best_novel)}; random {_number(random)})"
            runner = wide["novel"].drop(index=[m for m in wide.index if wide.at[m, "novel"] == best_novel])
            if len(runner):
                second = runner.idxmax()
                pair = tests[
                    (tests["stratum"] == "novel")
                    & (tests["metric"] == key)
                    & (tests["a"].isin([who_novel, second]))
                    & (tests["b"].isin([who_novel, second]))
                ]
                if len(pair) == 1:
                    r = pair.iloc[0]
                    sign = 1 if r["a"] == who_novel else -1
                    low, high = sorted((sign * r["effect_low"] + 0.0, sign * r["effect_high"] + 0.0))
                    line += (
                        f", ahead of {second} by {_signed(sign * r['effect'])} [{_number(low)}, {_number(high)}], "
                        f"paired permutation p = {r['paired_permutation']:.2g}"
                    )
            gaps = (wide["all"] - wide["novel"]).sort_values(ascending=False)
            line += ". All minus novel: " + ", ".join(f"{m} {_signed(g)}" for m, g in gaps.items())
        line += "."
        lines.append(line)
        shares = part[part["stratum"] == "all"].set_index("model")["analog_share"].dropna()
        if len(shares):
            lines.append(
                f"- Of each ranker's gain over random on {label}, the analog actives give "
                + ", ".join(f"{m} {100 * s:.0f}%" for m, s in shares.sort_values(ascending=False).items())
                + f" (they are {100 * sizes.get('analog', 0) / n:.0f}% of the actives"
                + (f"; {SHARE_ABOVE_WHOLE})." if (shares > 1).any() else ").")
            )
    lines.append(
        "- Exploratory: the strata and their tests were not declared as a family, and no p-value here is adjusted."
    )
    return "\n".join(lines)


def memorization_headline_markdown(table: pd.DataFrame, key: str, what: str = "") -> str:
    """One sentence for an index page, after ``what`` (the split, as :func:`describe` words it): the novel actives'
    share, the first ranker on them by ``key`` against random, and the range of the analogs' shares of the gains."""
    part = table[table["key"] == key]
    sizes = part.drop_duplicates("stratum").set_index("stratum")["actives"]
    wide = part.pivot(index="model", columns="stratum", values="value")
    shares = part[part["stratum"] == "all"]["analog_share"].dropna()
    text = f"{what}: " if what else ""
    text += f"{100 * sizes.get('novel', 0) / sizes['all']:.0f}% of the test actives are novel"
    if "novel" in wide.columns:
        who, best = _first(wide["novel"])
        random = part[part["stratum"] == "novel"]["random"].iloc[0]
        text += f"; on them the first by {part['label'].iloc[0]} is {who} ({_number(best)}, random {_number(random)})"
    if len(shares):
        text += (
            f"; analog actives ({100 * sizes.get('analog', 0) / sizes['all']:.0f}% of the actives) give "
            f"{100 * shares.min():.0f}% to {100 * shares.max():.0f}% of each ranker's gain over random"
        )
    above = f"{SHARE_ABOVE_WHOLE}; " if len(shares) and (shares > 1).any() else ""
    return text + f" ({above}exploratory)."


def stratum_datasets(tables: dict, stratum: str = "novel") -> pd.DataFrame:
    """Each screen's values on one stratum of its test actives, shaped as a panel's ``datasets.tsv``.

    Parameters
    ----------
    tables : dict
        ``{screen: its memorization.tsv}`` (:func:`crocbench.report.memorization_table`), in the panel's order.
    stratum : str, default="novel"
        The stratum (``all``, ``analog``, ``middle`` or ``novel``).

    Returns
    -------
    DataFrame
        ``dataset``, ``model``, ``actives`` (the stratum's) and a column per metric key, models in each table's
        order; a screen with no test active in the stratum has 0 and no values.

    Examples
    --------
    >>> t = pd.DataFrame({"model": ["A", "A", "B", "B"], "stratum": ["all", "novel"] * 2, "actives": [9, 3, 9, 3],
    ...                   "key": "roc", "value": [0.8, 0.6, 0.7, 0.65]})
    >>> stratum_datasets({"s1": t}).to_dict("records")
    [{'dataset': 's1', 'model': 'A', 'actives': 3, 'roc': 0.6}, {'dataset': 's1', 'model': 'B', 'actives': 3, 'roc': 0.65}]
    """
    parts = []
    for screen, table in tables.items():
        models, keys = list(dict.fromkeys(table["model"])), list(dict.fromkeys(table["key"]))
        part = table[table["stratum"] == stratum]  # none where the screen has no test active in the stratum
        wide = part.pivot(index="model", columns="key", values="value").reindex(index=models, columns=keys)
        actives = part.drop_duplicates("model").set_index("model")["actives"].reindex(models).fillna(0)
        frame = wide.reset_index()
        frame.insert(0, "dataset", screen)
        frame.insert(2, "actives", actives.to_numpy().astype(int))
        frame.columns.name = None
        parts.append(frame)
    return pd.concat(parts, ignore_index=True)


def novel_markdown(novel: pd.DataFrame, questions: dict | None = None) -> str:
    """Which ranker is best on the novel actives across the screens: each ranker's mean over the screens per metric,
    and, where the study declared its questions, the declared family's tests on the novel actives' values
    (:func:`crocbench.report.findings.family_table`; exploratory: the family was declared on all the actives).

    Parameters
    ----------
    novel : DataFrame
        :func:`stratum_datasets`'s output for the novel stratum.
    questions : dict, default=None
        The study's ``summary: questions``.

    Returns
    -------
    str
    """
    keys = [c for c in novel.columns if c not in ("dataset", "model", "actives")]
    shown = [k for k in (questions or {}).get("metrics", keys) if k in keys] or keys
    screens = novel.drop_duplicates("dataset")
    means = novel.groupby("model", sort=False)[shown].mean()
    lines = [
        f"Novel actives (every training active below the novel threshold): {int(screens['actives'].sum()):,} over "
        f"{len(screens)} screens, {int(screens['actives'].min()):,} to {int(screens['actives'].max()):,} a screen. Each "
        "ranker's mean over the screens where the metric is defined on them:",
        "",
        "| ranker | " + " | ".join(_label(k) for k in shown) + " |",
        "|---|" + "---:|" * len(shown),
    ]
    for model, row in means.iterrows():
        lines.append(f"| {model} | " + " | ".join(f"{row[k]:.4f}" for k in shown) + " |")
    if questions is not None:
        defined = [m for m in questions["metrics"] if m in keys and novel[m].notna().all()]
        left = [m for m in questions["metrics"] if m not in defined]
        if defined:
            record = questions["metric_of_record"] if questions["metric_of_record"] in defined else defined[0]
            declared = Questions.from_dict(
                {
                    **questions,
                    "metric_of_record": record,
                    "metrics": defined,
                    "thresholds": {m: questions["thresholds"][m] for m in defined},
                }
            )
            lines += [
                "",
                "The declared family's tests on the novel actives (exploratory: the family was declared on all "
                "the actives):",
                "",
                family_markdown(family_table(novel, declared), declared),
            ]
        if left:
            lines += ["", "Not defined on every screen's novel actives: " + ", ".join(_label(m) for m in left) + "."]
    return "\n".join(lines)

"""What the strata of the test actives answer: which ranker is best on novel actives, and how much of each ranker's
gain over random comes from analogs of its training actives (from a run's ``memorization.tsv`` and
``memorization_tests.tsv``; :mod:`crocbench.report._memorization`)."""

from __future__ import annotations

import pandas as pd

from ._questions import _listed, _number, _signed


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
                + f" (they are {100 * sizes.get('analog', 0) / n:.0f}% of the actives)."
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
    return text + " (exploratory)."

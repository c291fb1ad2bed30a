"""Across datasets (``results/summary/``): each model's metrics per dataset, and which model wins (Demsar 2006)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics import MetricCall, Ranking, paper_panel, top_cutoff
from ..stats import bootstrap, friedman_test, nemenyi_critical_difference, pairwise_wilcoxon
from ._format import interval_cell, markdown_table
from ._published import PAPER_MODELS, among_paper_models, check_claims
from ._tables import HEADLINE_BEDROC_KEYS, HEADLINE_KEYS, named_calls

#: The summary's metrics (paper-panel keys), then "actives in the top 1%" (:data:`SUMMARY_TOP`).
SUMMARY_METRICS = HEADLINE_BEDROC_KEYS
#: The summary's "actives in the top k": 1% of each dataset's list.
SUMMARY_TOP = 0.01
SUMMARY_TOP_KEY = "top_1pct"
#: The enrichment factor at 1%: it ranks a screen's models as "actives in the top 1%" does, and, unlike that
#: count, its differences compare across screens of different sizes (the Wilcoxon test weighs them).
SUMMARY_EF_KEY = "ef_1pct"
#: The metrics ranked across datasets (:func:`ranks_table`).
SUMMARY_RANK_METRICS = (*SUMMARY_METRICS, SUMMARY_EF_KEY)
#: The metrics of the summary's figures (critical-difference diagrams, values per dataset).
SUMMARY_FIGURE_METRICS = ("roc", "croc_exp_80", "bedroc_20", SUMMARY_EF_KEY)


def summary_labels() -> dict:
    """The summary's column keys and their labels."""
    panel = {c.key: c.label for c in paper_panel()}
    return {**{k: panel[k] for k in SUMMARY_METRICS}, SUMMARY_TOP_KEY: "actives in top 1%", SUMMARY_EF_KEY: "EF 1%"}


def summary_calls(n: int) -> list[MetricCall]:
    """The datasets table's metric calls for a list of ``n``: :data:`SUMMARY_METRICS`, the actives in the top 1%
    (key ``top_1pct``) and the enrichment factor at 1% (key ``ef_1pct``)."""
    *panel, hits = named_calls(SUMMARY_METRICS, n, SUMMARY_TOP)
    return [
        *panel,
        hits._replace(key=SUMMARY_TOP_KEY),
        MetricCall(SUMMARY_EF_KEY, "EF 1%", "enrichment_factor", {"fraction": SUMMARY_TOP}),
    ]


def datasets_table(runs: dict, n_resamples: int | None = None, seed: int = 0) -> pd.DataFrame:
    """One row per (dataset, model): compounds, actives and the summary's metrics on the pooled ranking.

    Parameters
    ----------
    runs : dict
        ``{dataset: {model label: pooled scores (id, label, score)}}``; a
        dataset's models all score the same compounds.
    n_resamples : int, optional
        With it, every metric gets its 95% stratified bootstrap interval
        (:func:`crocbench.stats.bootstrap`, seeded by ``seed``): columns
        ``<key>_low`` and ``<key>_high``.

    Returns
    -------
    DataFrame
        dataset, model, compounds, actives, the :data:`SUMMARY_METRICS`,
        ``top_1pct`` (actives among the top 1% of the list, k rounded half up),
        ``ef_1pct`` (the enrichment factor at 1%), ``top_k`` (that k) and the
        intervals.
    """
    rows = []
    for dataset, pooled in runs.items():
        reference = None
        for model, scores in pooled.items():
            if reference is None:
                reference = scores["id"].to_numpy()
            elif not np.array_equal(reference, scores["id"].to_numpy()):
                raise ValueError(f"dataset {dataset}: {model} did not score the same compounds as the others")
            ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
            calls = summary_calls(len(scores))
            row = {
                "dataset": dataset,
                "model": model,
                "compounds": len(scores),
                "actives": int(scores["label"].sum()),
                **{c.key: c.value(ranking) for c in calls},
                "top_k": top_cutoff(SUMMARY_TOP, len(scores)),
            }
            if n_resamples is not None:
                for iv in bootstrap(ranking, None, calls, n_resamples=n_resamples, seed=seed):
                    row[f"{iv.key}_low"], row[f"{iv.key}_high"] = iv.low, iv.high
            rows.append(row)
    return pd.DataFrame(rows)


def _metric_matrix(table: pd.DataFrame, metric: str) -> tuple[np.ndarray, list, list]:
    """(datasets x models) values of one metric, datasets and models in their first-seen order."""
    wide = table.pivot(index="dataset", columns="model", values=metric)
    datasets, models = list(dict.fromkeys(table["dataset"])), list(dict.fromkeys(table["model"]))
    return wide.loc[datasets, models].to_numpy(dtype=float), datasets, models


def ranks_table(table: pd.DataFrame, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Which model wins across datasets, per metric of :data:`SUMMARY_RANK_METRICS` (Demsar 2006).

    Parameters
    ----------
    table : DataFrame
        :func:`datasets_table`'s output (at least 2 datasets and 2 models).
    alpha : float
        The level of the Nemenyi critical difference.

    Returns
    -------
    ranks : DataFrame
        Per (metric, model): mean_rank (1 = best; ties share their mean rank),
        and per metric: datasets, friedman_chi2, friedman_p, iman_davenport_f,
        iman_davenport_p, nemenyi_cd (at ``alpha``).
    pairs : DataFrame
        Per (metric, pair of models): wins, losses, ties over the datasets,
        mean_difference, the two-sided paired Wilcoxon signed-rank p_value and
        p_holm (Holm-adjusted over the metric's pairs).
    """
    rank_rows, pair_rows = [], []
    for metric in SUMMARY_RANK_METRICS:
        values, datasets, models = _metric_matrix(table, metric)
        if len(datasets) < 2 or len(models) < 2:
            raise ValueError(
                f"ranks across datasets need at least 2 datasets and 2 models; got {len(datasets)} and {len(models)}"
            )
        friedman = friedman_test(values)
        cd = nemenyi_critical_difference(len(models), len(datasets), alpha)
        for model, rank in zip(models, friedman.mean_ranks):
            rank_rows.append(
                {
                    "metric": metric,
                    "model": model,
                    "mean_rank": float(rank),
                    "datasets": len(datasets),
                    "friedman_chi2": friedman.statistic,
                    "friedman_p": friedman.p_value,
                    "iman_davenport_f": friedman.iman_davenport,
                    "iman_davenport_p": friedman.iman_davenport_p,
                    "nemenyi_cd": cd,
                }
            )
        pair_rows += [{"metric": metric, **row} for row in pairwise_wilcoxon(values, models)]
    return pd.DataFrame(rank_rows), pd.DataFrame(pair_rows)


def datasets_markdown(table: pd.DataFrame) -> str:
    """The datasets table as Markdown: a section per dataset, models as rows."""
    labels = summary_labels()
    parts = []
    for dataset, part in table.groupby("dataset", sort=False):
        first = part.iloc[0]
        cells = part[["model", *labels]].rename(columns=labels)
        if f"{SUMMARY_EF_KEY}_low" in part:  # "value [low, high]", as the intervals table writes them
            for key, label in labels.items():
                count = key == SUMMARY_TOP_KEY
                cells[label] = [
                    interval_cell(v, lo, hi, count)
                    for v, lo, hi in zip(part[key], part[f"{key}_low"], part[f"{key}_high"])
                ]
        parts.append(
            f"## {dataset}: {first['compounds']:,} compounds, {first['actives']:,} actives "
            f"(top 1% = top {first['top_k']:,})\n\n" + markdown_table(cells)
        )
    return "\n\n".join(parts)


def ranks_markdown(ranks: pd.DataFrame, pairs: pd.DataFrame, alpha: float = 0.05) -> str:
    """The ranks table as Markdown: per metric, mean ranks, Friedman and Nemenyi, then the pairs' Wilcoxon
    tests."""
    labels = summary_labels()
    parts = []
    for metric, part in ranks.groupby("metric", sort=False):
        first = part.iloc[0]
        order = part.sort_values("mean_rank", kind="stable")
        best = order["mean_rank"].min()
        cells = pd.DataFrame(
            {
                "model": order["model"],
                "mean rank": order["mean_rank"],
                f"within CD of the best ({first['nemenyi_cd']:.2f})": np.where(
                    order["mean_rank"] - best < first["nemenyi_cd"], "yes", "no"
                ),
            }
        )
        pair = pairs[pairs["metric"] == metric]
        pair_cells = pd.DataFrame(
            {
                "pair": pair["a"] + " vs " + pair["b"],
                "wins-losses-ties": [
                    f"{w}-{lost}-{t}" for w, lost, t in zip(pair["wins"], pair["losses"], pair["ties"])
                ],
                "mean difference": pair["mean_difference"],
                "Wilcoxon p": pair["p_value"],
                "Holm p": pair["p_holm"],
            }
        )
        parts.append(
            f"## {labels[metric]}\n\nOver {first['datasets']} datasets: Friedman chi2 = {first['friedman_chi2']:.3f} "
            f"(p = {first['friedman_p']:.3g}), Iman-Davenport F = {first['iman_davenport_f']:.3f} "
            f"(p = {first['iman_davenport_p']:.3g}); Nemenyi critical difference of mean ranks at alpha = "
            f"{alpha:g}: {first['nemenyi_cd']:.3f}.\n\n"
            + markdown_table(cells, digits=2)
            + "\n\n"
            + markdown_table(pair_cells)
        )
    return "\n\n".join(parts)


# --- compact views for a panel of many screens (the docs' tables; crocbench.reference.panel_tables) -----------


def _value_cell(key: str, value, low=None, high=None) -> str:
    """A metric's value, with its interval when given: counts whole, EF with 2 decimals, areas with 3."""
    digits = 0 if key == SUMMARY_TOP_KEY else 2 if key == SUMMARY_EF_KEY else 3
    text = f"{value:.{digits}f}"
    return text if low is None or pd.isna(low) else f"{text} [{low:.{digits}f}, {high:.{digits}f}]"


def screens_markdown(table: pd.DataFrame, metric: str) -> str:
    """One metric of :func:`datasets_table` as Markdown: a row per screen (its compounds and actives), a column
    per model, each cell the value and, where the table has them, its 95% interval.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["s", "s"], "model": ["A", "B"], "compounds": [1000, 1000],
    ...                   "actives": [20, 20], "roc": [0.7512, 0.6], "roc_low": [0.7, 0.55], "roc_high": [0.8, 0.65]})
    >>> print(screens_markdown(t, "roc"))
    | screen | compounds | actives | A | B |
    |---|---|---|---|---|
    | s | 1,000 | 20 | 0.751 [0.700, 0.800] | 0.600 [0.550, 0.650] |
    """
    models = list(dict.fromkeys(table["model"]))
    lines = ["| screen | compounds | actives | " + " | ".join(models) + " |", "|---" * (3 + len(models)) + "|"]
    bounds = f"{metric}_low" in table
    for dataset, part in table.groupby("dataset", sort=False):
        by = part.set_index("model")
        cells = [
            _value_cell(
                metric,
                by.at[m, metric],
                by.at[m, f"{metric}_low"] if bounds else None,
                by.at[m, f"{metric}_high"] if bounds else None,
            )
            for m in models
        ]
        first = part.iloc[0]
        lines.append(f"| {dataset} | {first['compounds']:,} | {first['actives']:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ranks_overview_markdown(ranks: pd.DataFrame, metrics=None) -> str:
    """:func:`ranks_table`'s ranks in one Markdown table: per metric, the Friedman p-value, the Nemenyi critical
    difference and the models by mean rank (1 = best)."""
    labels = summary_labels()
    lines = ["| metric | screens | Friedman p | Nemenyi CD | mean ranks, best first |", "|---|---|---|---|---|"]
    for metric in metrics or dict.fromkeys(ranks["metric"]):
        part = ranks[ranks["metric"] == metric].sort_values("mean_rank", kind="stable")
        first = part.iloc[0]
        order = ", ".join(f"{m} {r:.2f}" for m, r in zip(part["model"], part["mean_rank"]))
        lines.append(
            f"| {labels[metric]} | {first['datasets']} | {first['friedman_p']:.2g} | {first['nemenyi_cd']:.2f} | "
            f"{order} |"
        )
    return "\n".join(lines)


def pairs_markdown(pairs: pd.DataFrame, metrics=None, alpha: float = 0.05) -> str:
    """:func:`ranks_table`'s Wilcoxon tests in one Markdown table: a row per pair of models, a column per metric,
    each cell the mean difference (a - b), wins-losses(-ties) of a and the Holm-adjusted p-value, bold below
    ``alpha``."""
    labels = summary_labels()
    metrics = list(metrics or dict.fromkeys(pairs["metric"]))
    lines = ["| pair | " + " | ".join(labels[m] for m in metrics) + " |", "|---" * (1 + len(metrics)) + "|"]
    first = pairs[pairs["metric"] == metrics[0]]
    for a, b in zip(first["a"], first["b"]):
        cells = []
        for metric in metrics:
            row = pairs[(pairs["metric"] == metric) & (pairs["a"] == a) & (pairs["b"] == b)].iloc[0]
            diff = _value_cell(metric, row["mean_difference"])
            record = f"{row['wins']}-{row['losses']}" + (f"-{row['ties']}" if row["ties"] else "")
            p = f"{row['p_holm']:.2g}"
            cells.append(
                f"{'+' if row['mean_difference'] >= 0 else ''}{diff}, {record}, "
                + (f"**p {p}**" if row["p_holm"] < alpha else f"p {p}")
            )
        lines.append(f"| {a} vs {b} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- the paper's claims across screens ---------------------------------------------------------------------


def screen_claims(areas: dict, significance: dict, names: dict) -> pd.DataFrame:
    """Each of the paper's claims (``published.yaml``) checked on each screen, as on the one screen of the paper.

    Parameters
    ----------
    areas, significance : dict
        ``{dataset: table 1}`` and ``{dataset: table 2}`` (:func:`areas_table`, :func:`significance_table`).
    names : dict
        Model keys (irv, svm, knn, maxsim, random) -> the labels used in the tables.

    Returns
    -------
    DataFrame
        dataset, id, text, holds (True, False or None when the screen lacks what it needs), evidence.
    """
    rows = []
    for dataset, table in areas.items():
        for c in check_claims(table, significance.get(dataset), names):
            rows.append({"dataset": dataset, "id": c.id, "text": c.text, "holds": c.holds, "evidence": c.evidence})
    return pd.DataFrame(rows)


def claims_across(
    screens: pd.DataFrame, table: pd.DataFrame, names: dict, significance: dict | None = None, alpha: float = 0.05
) -> pd.DataFrame:
    """Per claim of the paper: in how many screens it holds, and whether a test across the screens supports it.

    Across screens, a claim that one ranker beats another is supported when the two-sided paired Wilcoxon
    signed-rank test across the screens (:func:`crocbench.stats.pairwise_wilcoxon` among the paper's five
    rankers only, Holm-adjusted over their 10 pairs per metric, whatever models the run's ranks compare:
    ``summary: models``) finds the difference at ``alpha`` in the claimed direction (W+ > W-); an order
    of rankers, when the Friedman test rejects equal ranks and each step of it is such a difference (between
    kNN and SVM none is claimed); "significant at a = 80 but not at ROC" when
    IRV vs SVM is a supported difference at a = 80 and not at AUC[ROC]; "paired tests are more powerful" on
    all screens' pair-metric cases among the paper's five rankers pooled (the paper's 80% share), from
    ``significance``.

    Parameters
    ----------
    screens : DataFrame
        :func:`screen_claims`'s output.
    table : DataFrame
        :func:`datasets_table`'s output, with the paper's five rankers among its models.
    names : dict
        Model keys -> labels, as for :func:`screen_claims`.
    significance : dict, optional
        ``{dataset: table 2}``, for the pooled share of the paired tests' claim.

    Returns
    -------
    DataFrame
        id, text, screens (checked), holds_in (screens where it holds), supported_across (True, False, or None
        when not checked) and evidence.
    """
    labels = [names[m] for m in PAPER_MODELS]
    paper = table[table["model"].isin(labels)]
    n_screens = paper["dataset"].nunique()
    pairs = {}
    for metric in HEADLINE_KEYS:
        values, _, models = _metric_matrix(paper, metric)
        for row in pairwise_wilcoxon(values, models):
            pairs[(metric, row["a"], row["b"])] = row

    def pair(metric: str, a: str, b: str) -> tuple[dict, float, int, float]:
        """The Wilcoxon row of labels a and b; a's mean lead, wins and signed-rank sum (W+ - W-)."""
        la, lb = names[a], names[b]
        row = pairs.get((metric, la, lb)) or pairs[(metric, lb, la)]
        sign = 1 if row["a"] == la else -1
        wins = row["wins" if sign == 1 else "losses"]
        return row, sign * row["mean_difference"], wins, sign * row["signed_rank_sum"]

    def beats(metric: str, a: str, b: str) -> tuple[bool, str]:
        """Whether a is significantly above b across the screens on ``metric`` (the signed-rank test's own
        direction, W+ > W-, not the mean's, which one outlying screen can flip), and the evidence."""
        row, diff, wins, signed = pair(metric, a, b)
        evidence = (
            f"{names[a]} - {names[b]} {metric} {diff:+.4f}, {wins}/{n_screens} screens, Holm p {row['p_holm']:.2g}"
        )
        return signed > 0 and row["p_holm"] < alpha, evidence

    checks = {}
    parts = [beats("roc", "svm", "irv")] + [beats(m, "irv", "svm") for m in HEADLINE_KEYS[1:]]
    checks["svm_best_roc_irv_best_croc"] = (all(ok for ok, _ in parts), "; ".join(e for _, e in parts))
    values, _, models = _metric_matrix(paper, "croc_exp_80")
    friedman = friedman_test(values)
    mean_ranks, friedman_p = dict(zip(models, friedman.mean_ranks)), friedman.p_value
    r = {m: mean_ranks[names[m]] for m in PAPER_MODELS}
    steps = [beats("croc_exp_80", "irv", "svm"), beats("croc_exp_80", "irv", "knn")]
    steps += [beats("croc_exp_80", m, "maxsim") for m in ("svm", "knn")] + [beats("croc_exp_80", "maxsim", "random")]
    checks["croc_order"] = (
        friedman_p < alpha and all(ok for ok, _ in steps),
        f"Friedman p {friedman_p:.2g}; mean ranks "
        + ", ".join(f"{names[m]} {r[m]:.2f}" for m in sorted(PAPER_MODELS, key=r.get))
        + "; "
        + "; ".join(e for _, e in steps),
    )
    at80 = beats("croc_exp_80", "irv", "svm")
    roc_row = pair("roc", "irv", "svm")[0]
    checks["croc_significant_roc_not"] = (
        at80[0] and not roc_row["p_holm"] < alpha,
        f"{at80[1]}; AUC[ROC]: Holm p {roc_row['p_holm']:.2g}",
    )
    if significance:
        cases = among_paper_models(pd.concat(significance.values(), ignore_index=True), names)
        share = float((cases["paired_permutation"] <= cases["unpaired_permutation"]).mean())
        checks["paired_more_powerful"] = (share >= 0.8, f"{100 * share:.0f}% of {len(cases)} pair-metric cases pooled")
    out = []
    for row in _holds_per_claim(screens):
        ok, evidence = checks.get(row["id"], (None, "not checked"))
        out.append({**row, "supported_across": None if ok is None else bool(ok), "evidence": evidence})
    return pd.DataFrame(out)


def _holds_per_claim(screens: pd.DataFrame) -> list[dict]:
    """Per claim of :func:`screen_claims`'s table, in its order: id, text, the screens where it was checked and
    those where it holds."""
    out = []
    for claim_id, part in screens.groupby("id", sort=False):
        checked = part[part["holds"].notna()]
        out.append(
            {
                "id": claim_id,
                "text": part["text"].iloc[0],
                "screens": len(checked),
                "holds_in": int(checked["holds"].astype(bool).sum()),
            }
        )
    return out


def claims_across_markdown(table: pd.DataFrame) -> str:
    """:func:`claims_across`'s table as Markdown: per claim, the screens where it holds and the test across them."""
    mark = {True: "supported", False: "not supported", None: "not checked"}
    cells = pd.DataFrame(
        {
            "claim": table["text"],
            "holds in": [f"{h} of {n}" for h, n in zip(table["holds_in"], table["screens"])],
            "across the screens": [mark[None if pd.isna(v) else bool(v)] for v in table["supported_across"]],
            "evidence": table["evidence"],
        }
    )
    return markdown_table(cells)


# --- the same screens under two protocols (a random and a scaffold split; primary and confirmed actives) -------


def panels_compared(panels: dict, names: dict, key=None, metrics=SUMMARY_FIGURE_METRICS) -> pd.DataFrame:
    """Two or more panels on the screens they share: the paper's rankers' mean ranks per metric and each claim's
    verdict, per panel, so that a change of protocol (the split, the definition of activity) is read on the same
    screens.

    Parameters
    ----------
    panels : dict
        ``{panel name: (datasets table, claims per screen)}``: :func:`datasets_table`'s and :func:`screen_claims`'s
        outputs (a panel reference's ``datasets.tsv`` and ``claims_per_screen.tsv``).
    names : dict
        The paper's model keys (:data:`PAPER_MODELS`) -> the labels of the tables; other models are left out.
    key : callable, optional
        Maps a screen's name to what matches it across the panels (default: the name itself;
        :func:`crocbench.data.pubchem.campaign_of` matches a campaign's primary and confirmed screens).
    metrics : sequence of str
        The metrics whose mean ranks are compared.

    Returns
    -------
    DataFrame
        ``what`` (the screens, ``mean ranks, <metric>``, ``mean <metric>`` or a claim's text), then one column per
        panel: the number of screens shared; the rankers by mean rank (1 = best) with the Friedman p-value; by their
        mean value over the shared screens; "holds in h of n", and
        whether the Wilcoxon-Holm tests across the shared screens support it (:func:`claims_across`; the paired
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
    labels = [names[m] for m in PAPER_MODELS if m in names]
    shared = set.intersection(*({key(d) for d in table["dataset"]} for table, _ in panels.values()))
    columns = {}
    for panel, (table, per_screen) in panels.items():
        table = table[table["dataset"].map(key).isin(shared) & (table["model"].isin(labels) if labels else True)]
        per_screen = per_screen[per_screen["dataset"].map(key).isin(shared)]
        cells = {"screens": str(table["dataset"].nunique())}
        for metric in metrics:
            values, _, models = _metric_matrix(table, metric)
            friedman = friedman_test(values)
            order = sorted(zip(models, friedman.mean_ranks), key=lambda mr: mr[1])
            cells[f"mean ranks, {summary_labels()[metric]}"] = (
                ", ".join(f"{m} {r:.2f}" for m, r in order) + f" (Friedman p {friedman.p_value:.2g})"
            )
            means = sorted(zip(models, values.mean(axis=0)), key=lambda mv: -mv[1])
            cells[f"mean {summary_labels()[metric]}"] = ", ".join(f"{m} {_value_cell(metric, v)}" for m, v in means)
        if labels and set(PAPER_MODELS) <= set(names):
            counted = claims_across(per_screen, table, names).to_dict("records")
        else:  # without the paper's five there is no test across the screens: the counts only
            counted = _holds_per_claim(per_screen)
        mark = {True: "; supported", False: "; not supported", None: ""}
        for row in counted:
            cells[row["text"]] = f"holds in {row['holds_in']} of {row['screens']}" + mark[row.get("supported_across")]
        columns[panel] = cells
    frame = pd.DataFrame(columns)
    frame.index.name = "what"
    return frame.reset_index()

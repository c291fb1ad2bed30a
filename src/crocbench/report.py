"""Tables of the report: built from pooled scores and fit records, written as TSV and Markdown."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .metrics import (FAMILIES, Ranking, hits_call, other_panel, other_values, paper_panel, per_fold_metrics,
                      top_cutoff)
from .stats import compare_many, friedman_test, nemenyi_critical_difference, pairwise_wilcoxon

#: The IRV training table's metrics, followed by the list's "actives in the top k" (:func:`hits_call`).
_TRAINING_METRICS = ("roc", "croc_exp_7", "croc_exp_14", "croc_exp_80")


def panel_for(scores: pd.DataFrame, top=1000, notes: list | None = None) -> list:
    """The paper's panel for this list: "top k" from ``top`` (a count capped at the list's size, or a
    fraction of it: :func:`crocbench.metrics.top_cutoff`), and any metric undefined for a list this
    small (e.g. ROC50 with fewer than 50 negatives) left out, with a note."""
    ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
    calls = []
    for call in paper_panel(top_k=top, n=len(scores)):
        try:
            call.definition(ranking.counts)
        except ValueError as exc:
            if notes is not None:
                notes.append(f"{call.key} left out: {exc}")
            continue
        calls.append(call)
    return calls


def write_pooled(pooled: pd.DataFrame, top, scores_path, per_fold_path, log=None) -> pd.DataFrame:
    """Write a model's pooled out-of-fold scores and its per-fold metrics table (folds and ``all``).

    Metrics undefined for a list this size are left out, with a note in ``log``.  Returns the per-fold table.
    """
    pooled.to_parquet(scores_path, index=False)
    notes = []
    table = per_fold_metrics(pooled, panel_for(pooled, top, notes=notes), notes)
    table.to_csv(per_fold_path, sep="\t", index=False, float_format="%.6g")
    if log is not None:
        print("\n".join(notes), file=log)
        print(table.to_string(), file=log)
    return table


def pooled_metrics(scores: pd.DataFrame, keys=_TRAINING_METRICS, top=1000) -> dict:
    """The paper-panel metrics named by ``keys``, then "actives in the top k" (key ``top<k>``, k from
    ``top`` as in :func:`panel_for`), on a pooled score table (columns label, score)."""
    ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
    return {c.key: c.value(ranking) for c in _named_calls(keys, len(scores), top)}


def _named_calls(keys, n: int, top) -> list:
    """The paper-panel calls named by ``keys``, then the list's "actives in the top k" (:func:`hits_call`)."""
    panel = {c.key: c for c in paper_panel(top_k=top, n=n)}
    return [*(panel[k] for k in keys), hits_call(top, n)]


#: The paper whose numbers ``published.yaml`` holds: a dataset's ``reproduces:`` (config.yaml) names it.
PAPER = "swamidass2010"


def irv_training_table(runs: dict, top=1000, paper: str | None = None) -> pd.DataFrame:
    """One row per reweighting scheme.

    Parameters
    ----------
    runs : dict
        scheme -> (pooled scores DataFrame, list of per-fold fit records (``IRV.info()``),
        list of per-fold seconds)
    top : int or float
        The cut-off of "actives in the top k" (:func:`crocbench.metrics.top_cutoff`).
    paper : str or None
        The paper the dataset reproduces (its ``reproduces:`` in config.yaml, :data:`PAPER`): a
        ``paper_epochs`` column (after the metrics) then gives the epochs its Appendix A reports for each
        scheme.  None (a user's own dataset): no paper column.
    """
    if paper is not None and paper != PAPER:
        raise ValueError(f"no published numbers for paper {paper!r}; published.yaml holds {PAPER!r}")
    rows, paper_epochs = [], paper_irv_epochs() if paper else None
    for scheme, (scores, infos, seconds) in runs.items():
        epochs = [int(i["epochs"]) for i in infos]
        rows.append({
            "scheme": scheme,
            "epochs_mean": float(np.mean(epochs)),
            "epochs_per_fold": "/".join(map(str, epochs)),
            "converged_folds": int(sum(bool(i["converged"]) for i in infos)),
            **pooled_metrics(scores, top=top),
            **({"paper_epochs": paper_epochs.get(scheme, "")} if paper else {}),
            "train_seconds": float(np.sum(seconds)),
        })
    return pd.DataFrame(rows)


def irv_training_claims(table: pd.DataFrame, others: dict | None = None, published: dict | None = None) -> list:
    """The paper's Appendix A claims (``published.yaml``, ``appendix_claims``) checked on a training table.

    Returns ``[(id, text, reproduced, evidence, note), ...]`` as :func:`check_claims`;
    ``others`` maps model names (``svm``, ``knn``) to their pooled metrics dicts;
    ``reproduced`` is None when the table lacks what a claim needs.
    """
    published = published or load_published()
    t = table.set_index("scheme")
    have = set(t.index)

    def epochs(s):
        return t.loc[s, "epochs_mean"]

    def croc(s):
        return t.loc[s, "croc_exp_80"]

    checks = {  # id: (schemes needed, test, evidence)
        "power_faster": (["none", "power"], lambda: epochs("power") < epochs("none"),
                         lambda: f"{epochs('power'):.1f} vs {epochs('none'):.1f} epochs"),
        "density_faster": (["power", "power_density"], lambda: epochs("power_density") < epochs("power"),
                           lambda: f"{epochs('power_density'):.1f} vs {epochs('power'):.1f} epochs"),
        "exp_fast": (["exp"], lambda: epochs("exp") <= 8, lambda: f"{epochs('exp'):.1f} epochs"),
        "exp_slightly_lower": (["none", "exp"], lambda: croc("exp") < croc("none"),
                               lambda: f"{croc('exp'):.4f} vs {croc('none'):.4f}"),
        "same_final": (["none", "power"], lambda: abs(croc("power") - croc("none")) <= 0.01,
                       lambda: f"1/r {croc('power'):.4f}, none {croc('none'):.4f}"),
    }
    if others and {"svm", "knn"} <= set(others):
        best = max(others["svm"]["croc_exp_80"], others["knn"]["croc_exp_80"])
        checks["exp_beats_svm_knn"] = (["exp"], lambda: croc("exp") > best,
                                       lambda: f"{croc('exp'):.4f} vs SVM {others['svm']['croc_exp_80']:.4f}, "
                                               f"kNN {others['knn']['croc_exp_80']:.4f}")
    out = []
    for c in published["appendix_claims"]:
        needs, test, evidence = checks.get(c["id"], (None, None, None))
        if needs is None or not set(needs) <= have:
            out.append((c["id"], c["text"], None, "not run", ""))
            continue
        ok = bool(test())
        out.append((c["id"], c["text"], ok, evidence(), c.get("known_deviation", "") if not ok else ""))
    return out


def markdown_table(df: pd.DataFrame, digits: int = 4) -> str:
    """A DataFrame as a GitHub Markdown table (floats to ``digits`` decimals, integral floats as integers)."""
    def cell(v):
        if isinstance(v, (float, np.floating)):
            if np.isnan(v):
                return ""
            return f"{v:.0f}" if float(v).is_integer() and abs(v) >= 10 else f"{v:.{digits}f}"
        return str(v)

    lines = ["| " + " | ".join(map(str, df.columns)) + " |", "|" + "---|" * df.shape[1]]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def claims_markdown(claims, marks=("reproduced", "NOT reproduced", "not checked")) -> str:
    """Claims as a Markdown list; each is (text, ok, evidence) or (text, ok, evidence, known-deviation note).

    ``marks`` are the words for ok = True, False and None.
    """
    mark = dict(zip((True, False, None), marks))
    lines = []
    for text, ok, evidence, *note in claims:
        status = "known deviation" if ok is False and note and note[0] else mark[ok]
        lines.append(f"- {status}: {text} ({evidence})" + (f". {note[0]}" if status == "known deviation" else ""))
    return "\n".join(lines)


# --- table 1: areas -------------------------------------------------------------------------

RANDOM_ROW = "random (expected)"


def areas_table(pooled: dict, calls) -> pd.DataFrame:
    """Table 1: every metric of ``calls`` on each model's pooled ranking, and the random classifier's exact
    expectation for a list of that size (last row).

    ``pooled`` maps a model label to its pooled score table (label, score); all share the same compounds.
    """
    rows, n, n_pos = [], None, None
    for name, scores in pooled.items():
        ranking = Ranking(scores["label"].to_numpy(), scores["score"].to_numpy())
        n, n_pos = len(scores), int(scores["label"].sum())
        rows.append({"model": name, **{c.key: c.value(ranking) for c in calls}})
    rows.append({"model": RANDOM_ROW, **{c.key: c.random(n, n_pos).mean for c in calls}})
    return pd.DataFrame(rows)


def other_metrics_table(pooled: dict, top=1000, n: int = 50) -> pd.DataFrame:
    """Table 1b: the other references' metrics (:func:`crocbench.metrics.other_panel`) per model.

    Single-list metrics are computed on the pooled ranking; the per-query
    ones (TAP-k, MAP, ROC_n per query, TOP1, rank of the last positive)
    treat each fold as a query.  Long format: model, key, label, family,
    value (NaN when it does not apply), note, in_tests, higher_is_better.
    """
    rows = []
    for name, scores in pooled.items():
        y, s = scores["label"].to_numpy(), scores["score"].to_numpy()
        panel = other_panel(top_k=top_cutoff(top, len(scores)), n=n)
        for r in other_values(y, s, scores["fold"].to_numpy(), panel=panel):
            rows.append({"model": name, **r, "value": np.nan if r["value"] is None else r["value"]})
    return pd.DataFrame(rows)


def other_metrics_markdown(table: pd.DataFrame) -> str:
    """Table 1b as Markdown: one table per family, models as rows, with the notes beneath."""
    parts = []
    for family in FAMILIES:
        part = table[table["family"] == family]
        if part.empty:
            continue
        labels = list(dict.fromkeys(part["label"]))
        wide = part.pivot(index="model", columns="label", values="value").reindex(
            index=list(dict.fromkeys(part["model"])), columns=labels)
        meta = part.drop_duplicates("label").set_index("label")
        wide.columns = [f"{c}{'' if meta.loc[c, 'higher_is_better'] else ' (lower is better)'}"
                        f"{' *' if meta.loc[c, 'in_tests'] else ''}" for c in labels]
        missing = part[part["value"].isna()].groupby(["label", "note"], sort=False)["model"]
        lines = [f"- {label}, {', '.join(models)}: {note}" for (label, note), models in missing]
        text = f"### {family}\n\n" + markdown_table(wide.reset_index()) + "".join(
            ["\n\n" + "\n".join(lines)] if lines else [])
        parts.append(text)
    parts.append("\n\\* a mean over the positives: the six significance tests apply to it "
                 "(`crocbench compare --metric NAME`); the other metrics are ratios of counts, "
                 "means over queries or functions of probabilities, and are not tested.")
    return "\n\n".join(parts)


def per_fold_summary(per_fold: dict, calls) -> pd.DataFrame:
    """Mean and SD over the folds of each metric (``per_fold`` maps a model label to its per-fold table;
    ``calls`` are metric calls or their keys).

    Both are NaN where the metric is undefined on any fold (NaN in the per-fold table, e.g. ROC50 on a
    fold with fewer than 50 negatives): a mean over the other folds would not be a mean over the folds.
    """
    keys = [getattr(c, "key", c) for c in calls]
    rows = []
    for name, table in per_fold.items():
        folds = table[table["fold"].astype(str) != "all"]
        row = {"model": name}
        for key in keys:
            undefined = bool(folds[key].isna().any())
            row[f"{key}_mean"] = np.nan if undefined else float(folds[key].mean())
            row[f"{key}_sd"] = np.nan if undefined else float(folds[key].std(ddof=1))
        rows.append(row)
    return pd.DataFrame(rows)


#: The count parameter each metric's definition checks against a list (``crocbench.metrics._areas``),
#: and what it counts: ROC-n needs n negatives, "actives in the top k" k compounds.
_NEEDS = {"roc_n": ("n", "negatives"), "hits_at_k": ("k", "compounds"), "precision_at_k": ("k", "compounds"),
          "recall_at_k": ("k", "compounds")}


def undefined_per_fold(call) -> str:
    """Why ``call`` has no per-fold mean: ``"a fold has < 50 negatives"`` for ROC50 (n from the call)."""
    need = _NEEDS.get(call.metric)
    if need is None or need[0] not in call.params:
        return "undefined on a fold"
    return f"a fold has < {call.params[need[0]]} {need[1]}"


def areas_markdown(areas: pd.DataFrame, summary: pd.DataFrame, calls) -> str:
    """Table 1 as Markdown: pooled value, and per-fold mean +/- SD beneath it (``n/a (why)`` where the
    metric is undefined on a fold: :func:`undefined_per_fold`)."""
    by_model = summary.set_index("model") if len(summary) else None
    rows = []
    for record in areas.to_dict("records"):
        row = {"model": record["model"]}
        for c in calls:
            count = c.is_count
            text = f"{record[c.key]:.1f}" if count else f"{record[c.key]:.4f}"
            if by_model is not None and record["model"] in by_model.index:
                mean, sd = by_model.loc[record["model"], f"{c.key}_mean"], by_model.loc[record["model"], f"{c.key}_sd"]
                if pd.isna(mean):
                    text += f"<br>n/a ({undefined_per_fold(c)})"
                else:
                    text += f"<br>{mean:.1f} ± {sd:.1f}" if count else f"<br>{mean:.3f} ± {sd:.3f}"
            row[c.label] = text
        rows.append(row)
    return markdown_table(pd.DataFrame(rows))


# --- table 2: significance ------------------------------------------------------------------------


def significance_table(pooled: dict, calls, tests, *, n_samples: int = 10_000, seed: int = 0) -> pd.DataFrame:
    """Table 2: for every pair of models (in the given order) and every metric, the six tests' p-values.

    One-sided in the observed direction, as in the paper; ``better`` names the model with the higher value.
    """
    names = list(pooled)
    y = next(iter(pooled.values()))["label"].to_numpy()
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if not np.array_equal(pooled[a]["id"].to_numpy(), pooled[b]["id"].to_numpy()):
                raise ValueError(f"{a} and {b} did not score the same compounds in the same order")
            results = compare_many(y, pooled[a]["score"].to_numpy(), pooled[b]["score"].to_numpy(), calls,
                                   tests=tests, n_samples=n_samples, seed=seed)
            for c, result in zip(calls, results):
                row = {"a": a, "b": b, "metric": c.key, "value_a": result.value_a, "value_b": result.value_b,
                       "better": a if result.value_a > result.value_b else b if result.value_b > result.value_a else "="}
                row.update({t: result.results[t].p_value for t in tests})
                rows.append(row)
    return pd.DataFrame(rows)


def _p_cell(p: float) -> str:
    text = f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"
    return f"**{text}**" if p < 0.01 else f"*{text}*" if p < 0.05 else text


def significance_markdown(table: pd.DataFrame, tests) -> str:
    """Table 2 as Markdown, p < 0.01 in bold and 0.01 <= p < 0.05 in italics (as in the paper)."""
    cells = pd.DataFrame({"pair": table["a"] + " vs " + table["b"], "metric": table["metric"],
                          "better": table["better"], **{t: table[t].map(_p_cell) for t in tests}})
    return markdown_table(cells)


# --- table 4: published vs reproduced ---------------------------------------------------------------


def load_published() -> dict:
    """The paper's published numbers and claims (``crocbench/published.yaml``)."""
    from importlib.resources import files

    import yaml

    return yaml.safe_load(files("crocbench").joinpath("published.yaml").read_text())


def paper_irv_epochs() -> dict:
    """``{scheme: "101", ..., "exp": "4-8"}``: the epochs the paper's Appendix A gives each reweighting scheme."""
    return {a["model"].removeprefix("irv_"): str(a.get("shown", a["published"])) for a in load_published()["anchors"]
            if a["metric"] == "epochs_mean" and a["published"] is not None}


def irv_training_notes() -> str:
    """The paper's Appendix A results, as prose for the IRV training table."""
    return load_published()["appendix_note"].strip()


def published_points(models=("svm", "irv"), metrics=("roc", "croc_exp_80")) -> dict:
    """``{"paper SVM": (0.852, 0.310), ...}``: each model's published values of ``metrics`` (``published.yaml``),
    as points to mark on a figure."""
    anchors = {(a["model"], a["metric"]): a["published"] for a in load_published()["anchors"]}
    return {f"paper {m.upper()}": tuple(anchors[(m, k)] for k in metrics) for m in models}


def measured_values(areas: pd.DataFrame, training: pd.DataFrame | None = None, names: dict | None = None) -> dict:
    """``{(model, metric): value}`` from table 1 (and the IRV training table as ``irv_<scheme>``).

    ``names`` maps the table's model labels back to model keys (e.g. ``{"IRV": "irv"}``); the
    random classifier's expectation row is ``random_expected``.
    """
    names = dict(names or {})
    names[RANDOM_ROW] = "random_expected"
    out = {}
    for row in areas.to_dict("records"):
        model = names.get(row["model"], row["model"])
        out.update({(model, k): v for k, v in row.items() if k != "model"})
    if training is not None:
        for row in training.to_dict("records"):
            out.update({(f"irv_{row['scheme']}", k): v for k, v in row.items() if k != "scheme"})
    return out


def published_comparison(measured: dict, published: dict | None = None) -> pd.DataFrame:
    """Every published anchor next to the reproduced value.

    Status: ``pass`` (within the tolerance of the published number), ``known
    deviation`` (outside it, documented, and inside the anchor's ``band``
    around our own reproduced value), ``in band`` (no published number; inside
    its band), ``FAIL`` (anything else) or ``not run``.
    """
    published = published or load_published()
    rows = []
    for a in published["anchors"]:
        value = measured.get((a["model"], a["metric"]))
        low, high = a.get("band", (np.nan, np.nan))
        in_band = value is not None and low <= value <= high
        if value is None:
            status = "not run"
        elif a["published"] is not None and abs(value - a["published"]) <= a["tolerance"]:
            status = "pass"
        elif a["published"] is None:
            status = "in band" if in_band else "FAIL"
        else:
            status = "known deviation" if a.get("known_deviation") and in_band else "FAIL"
        rows.append({"id": a["id"], "model": a["model"], "metric": a["metric"], "published": a["published"],
                     "reproduced": value, "tolerance": a["tolerance"], "band_low": low, "band_high": high,
                     "status": status,
                     "note": a.get("known_deviation") if status == "known deviation" else a["why"]})
    return pd.DataFrame(rows)


def check_claims(areas: pd.DataFrame, significance: pd.DataFrame | None, names: dict, published: dict | None = None):
    """The paper's claims on this run: a list of (id, text, reproduced True/False/None, evidence, note).

    ``note`` is the documented known deviation of a claim that is not reproduced (else "").

    ``names`` maps model keys (irv, svm, knn, maxsim, random) to the labels used in the tables.
    """
    published = published or load_published()
    table = areas.set_index("model")
    have = {k for k, label in names.items() if label in table.index}

    def v(model, metric):
        return float(table.loc[names[model], metric])

    checks = {}
    if {"irv", "svm"} <= have:
        alphas = ("croc_exp_7", "croc_exp_14", "croc_exp_80")
        checks["svm_best_roc_irv_best_croc"] = (
            v("svm", "roc") > v("irv", "roc") and all(v("irv", m) > v("svm", m) for m in alphas),
            f"AUC[ROC] SVM {v('svm', 'roc'):.4f} vs IRV {v('irv', 'roc'):.4f}; AUC[CROC(exp)] a=7/14/80 IRV "
            + "/".join(f"{v('irv', m):.4f}" for m in alphas) + " vs SVM " + "/".join(f"{v('svm', m):.4f}" for m in alphas))
    if {"irv", "knn", "svm", "maxsim", "random"} <= have:
        m = "croc_exp_80"
        ok = v("irv", m) > max(v("knn", m), v("svm", m)) and min(v("knn", m), v("svm", m)) > v("maxsim", m) > v("random", m)
        checks["croc_order"] = (ok, ", ".join(f"{k} {v(k, m):.4f}" for k in sorted(have, key=lambda k: -v(k, m))))
    if significance is not None and {"irv", "svm"} <= have:
        a, b = significance["a"], significance["b"]
        pair = significance[((a == names["irv"]) & (b == names["svm"])) | ((a == names["svm"]) & (b == names["irv"]))]
        p = pair.set_index("metric")["paired_permutation"]
        checks["croc_significant_roc_not"] = (
            p["croc_exp_80"] < 0.05 <= p["roc"],
            f"paired permutation p: AUC[CROC(exp)] a=80 {p['croc_exp_80']:.3g}, AUC[ROC] {p['roc']:.3g}")
    if significance is not None and len(significance):
        share = float((significance["paired_permutation"] <= significance["unpaired_permutation"]).mean())
        checks["paired_more_powerful"] = (share >= 0.8, f"{100 * share:.0f}% of {len(significance)} pair-metric cases")
    out = []
    for c in published["claims"]:
        ok, evidence = checks.get(c["id"], (None, "not run"))
        ok = None if ok is None else bool(ok)
        out.append((c["id"], c["text"], ok, evidence, c.get("known_deviation", "") if ok is False else ""))
    return out


# --- the power study ---------------------------------------------------------------------------

_TEST_ABBREVIATIONS = {
    "paired_permutation": "PP", "unpaired_permutation": "UP", "paired_t": "PT",
    "unpaired_t": "UT", "paired_wilcoxon": "PW", "unpaired_wilcoxon": "UW",
}


def _pair_name(a, b, labels) -> str:
    return f"{labels.get(a, a)} vs {labels.get(b, b)}"


def power_markdown(table: pd.DataFrame, labels: dict | None = None) -> str:
    """The power table as Markdown: per pair, rows = metric, columns = test x subset size (power in %)."""
    labels = labels or {}
    tests = list(dict.fromkeys(table["test"]))
    fractions = sorted(set(table["fraction"]))
    parts = ["Power in % (share of subsets rejecting at p < 0.05 in the full-data direction); "
             "in brackets, where not 0, the % rejecting in the opposite direction. Tests: "
             + ", ".join(f"{_TEST_ABBREVIATIONS.get(t, t)} = {t.replace('_', ' ')}" for t in tests) + "."]
    for (a, b), part in table.groupby(["a", "b"], sort=False):
        sizes = part.drop_duplicates("fraction").set_index("fraction")
        head = ", ".join(f"{100 * f:g}% = {int(sizes.loc[f, 'size'])} compounds ({int(sizes.loc[f, 'positives'])} "
                         "positives)" for f in fractions)
        rows = []
        for metric, g in part.groupby("metric", sort=False):
            cells = g.set_index(["test", "fraction"])
            row = {"metric": g["label"].iloc[0], "full-data difference": f"{g['full_difference'].iloc[0]:+.4f}"}
            for t in tests:
                for f in fractions:
                    power, wrong = cells.loc[(t, f), "power"], cells.loc[(t, f), "wrong"]
                    row[f"{_TEST_ABBREVIATIONS.get(t, t)} {100 * f:g}%"] = (
                        f"{100 * power:.0f}" + (f" [{100 * wrong:.0f}]" if wrong > 0 else ""))
            rows.append(row)
        parts.append(f"### {_pair_name(a, b, labels)}\n\nSubsets: {head}.\n\n" + markdown_table(pd.DataFrame(rows)))
    return "\n\n".join(parts)


def power_claims(table: pd.DataFrame, labels: dict | None = None) -> list:
    """The paper's power claims checked on the power table: ``[(claim, supported, evidence), ...]``.

    "Power" of a metric is its mean over pairs and subset sizes under the
    paired permutation test; of a test, its mean over metrics, pairs and
    sizes.  ``supported`` is True, False, or None when the table lacks
    what a claim needs.
    """
    labels = labels or {}
    pp = table[table["test"] == "paired_permutation"]
    by_metric = pp.groupby("metric")["power"].mean()
    name = dict(zip(table["metric"], table["label"]))
    fmt = lambda keys: ", ".join(f"{name[k]} {by_metric[k]:.2f}" for k in keys)  # noqa: E731
    claims = []
    croc = [k for k in by_metric.index if k.startswith("croc_exp_")]
    others = [k for k in ("roc", "proc", "slr", "rie_20", "bedroc_20", "bedroc_80", "cac_exp_7", "cac_exp_14",
                          "cac_exp_80", "roc_t0.5", "roc_t0.1", "roc_t0.0086", "roc50") if k in by_metric.index]
    text = "AUC[CROC(exp)] has more power than ROC, pROC, SLR, RIE, BEDROC, CAC and the hard-cutoff metrics"
    if croc and others:
        best = max(croc, key=by_metric.get)
        beaten_by = [k for k in others if by_metric[k] > by_metric[best]]
        below = [k for k in others if by_metric[k] <= by_metric[best]]
        evidence = f"best CROC: {fmt([best])}; above it: {fmt(beaten_by) or 'none'}; below it: {fmt(below)}"
        claims.append((text, not beaten_by, evidence))
    else:
        claims.append((text, None, "no CROC or no competing metric in the table"))
    pairs = [(f"croc_exp_{a}", f"cac_exp_{a}") for a in ("7", "14", "80")]
    pairs = [p for p in pairs if set(p) <= set(by_metric.index)]
    claims.append(("CROC variants have more power than the CAC variants at the same alpha",
                   all(by_metric[c] >= by_metric[k] for c, k in pairs) if pairs else None,
                   "; ".join(fmt(p) for p in pairs) or "not in the table"))
    pairs = [(f"croc_exp_{a}", f"roc_t{t}") for a, t in (("7", "0.5"), ("14", "0.1"), ("80", "0.0086"))]
    pairs = [p for p in pairs if set(p) <= set(by_metric.index)]
    claims.append(("hard-cutoff metrics are weaker than the smooth CROC at the matching alpha",
                   all(by_metric[c] >= by_metric[k] for c, k in pairs) if pairs else None,
                   "; ".join(fmt(p) for p in pairs) or "not in the table"))
    by_test = table.groupby("test")["power"].mean().sort_values(ascending=False)
    croc14 = table[table["metric"] == "croc_exp_14"].groupby("test")["power"].mean().sort_values(ascending=False)
    evidence = ("mean power over all metrics: " + ", ".join(f"{t.replace('_', ' ')} {v:.3f}" for t, v in by_test.items())
                + ("; on AUC[CROC(exp)] a=14: " + ", ".join(f"{t.replace('_', ' ')} {v:.3f}" for t, v in croc14.items())
                   if len(croc14) else ""))
    claims.append(("the paired permutation test is the most powerful of the six tests",
                   bool(by_test.index[0] == "paired_permutation") if "paired_permutation" in by_test else None,
                   evidence))
    irv_svm = pp[(pp["a"] == "irv") & (pp["b"] == "svm")]
    if {"roc", "croc_exp_80"} <= set(irv_svm["metric"]):
        at = irv_svm.pivot_table(index="fraction", columns="metric", values="power")
        wrong = irv_svm.pivot_table(index="fraction", columns="metric", values="wrong")
        diff = irv_svm.drop_duplicates("metric").set_index("metric")["full_difference"]
        evidence = "; ".join(f"{100 * f:g}%: ROC {at.loc[f, 'roc']:.2f} (wrong {wrong.loc[f, 'roc']:.2f}), "
                             f"CROC a=80 {at.loc[f, 'croc_exp_80']:.2f}" for f in at.index)
        evidence += (f"; full-data IRV - SVM: ROC {diff['roc']:+.4f}, CROC a=80 {diff['croc_exp_80']:+.4f}")
        claims.append(("on IRV vs SVM, AUC[CROC(exp)] a=80 detects the difference more often than AUC[ROC]",
                       bool((at["croc_exp_80"] >= at["roc"]).all()), evidence))
    return claims


def power_notes(table: pd.DataFrame) -> str:
    """Plain-language caveats read off the power table: wrong-direction rejections per test."""
    wrong = table.groupby("test")["wrong"].max().sort_values(ascending=False)
    worst = table.loc[table["wrong"].idxmax()]
    lines = [
        "- Power here is the paper's notion: how often a test on a metric detects the full-data "
        "difference. It mixes the metric's sensitivity with how different the two classifiers really are "
        "on what it measures; a metric whose full-data difference is near 0 for a pair cannot have power there.",
        "- Highest share of subsets rejecting in the direction opposite to the full-data difference, per test: "
        + ", ".join(f"{t.replace('_', ' ')} {w:.2f}" for t, w in wrong.items())
        + f" (worst: {worst['label']}, {worst['a']} vs {worst['b']}, {100 * worst['fraction']:g}% subsets). "
        "The Wilcoxon tests compare the location (median) of the per-positive values, not their mean, "
        "which is what the metric is: they can be significant against the metric's own difference, so "
        "their extra power is not power for the metric.",
    ]
    return "\n".join(lines)


# --- SVM set-up sensitivity ------------------------------------------------------------------

#: The sensitivity study's areas, followed by the list's "actives in the top k" (:func:`sensitivity_keys`).
SENSITIVITY_KEYS = ("roc", "croc_exp_7", "croc_exp_14", "croc_exp_80", "bedroc_20")
SETUP_COLUMNS = ["fingerprint", "C", "class_weight", "score"]


def sensitivity_keys(n: int, top=1000) -> tuple:
    """The sensitivity and pooling tables' metric keys for a list of ``n``: :data:`SENSITIVITY_KEYS` and
    ``top<k>``."""
    return (*SENSITIVITY_KEYS, hits_call(top, n).key)


def svm_sensitivity_table(scores: pd.DataFrame, top=1000) -> pd.DataFrame:
    """One row per SVM set-up: each metric on the pooled out-of-fold ranking, and its per-fold mean and SD.

    ``scores`` is long: id, fold, label, fingerprint, C, class_weight, score
    ("decision" or "platt") and value.  Pooling ranks the folds' values
    together: comparable across folds for Platt probabilities, not
    necessarily for raw decision values.
    """
    per_fold, n = {}, scores["id"].nunique()
    for setup, part in scores.groupby(SETUP_COLUMNS, sort=True, dropna=False):
        per_fold[setup] = per_fold_metrics(part.rename(columns={"score": "kind", "value": "score"}),
                                           _named_calls(SENSITIVITY_KEYS, n, top))
    table = pooling_table(per_fold, sensitivity_keys(n, top))
    setups = pd.DataFrame(table.pop("model").tolist(), columns=SETUP_COLUMNS)
    return pd.concat([setups, table], axis=1)


def pooling_table(per_fold: dict, keys=SENSITIVITY_KEYS) -> pd.DataFrame:
    """Pooled value (fold ``all``) beside the per-fold mean and SD of each metric in ``keys`` that every
    table has (``per_fold``: model label -> its per-fold table)."""
    keys = [k for k in keys if all(k in t.columns for t in per_fold.values())]
    summary = per_fold_summary(per_fold, keys).set_index("model")
    rows = []
    for name, table in per_fold.items():
        pooled = table[table["fold"].astype(str) == "all"].iloc[0]
        rows.append({"model": name, **{k: float(pooled[k]) for k in keys}, **summary.loc[[name]].iloc[0].to_dict()})
    return pd.DataFrame(rows)


def paper_svm_matches(table: pd.DataFrame, where: str = "") -> pd.Series:
    """Which set-ups reproduce every published SVM number within its tolerance (``published.yaml``), pooled
    (``where=""``) or as per-fold means (``where="_mean"``)."""
    ok = pd.Series(True, index=table.index)
    for anchor in load_published()["anchors"]:
        if anchor["model"] != "svm":
            continue
        column = anchor["metric"] + where
        if column not in table:  # e.g. no top 1,000 on a list shorter than that: no match can be claimed
            return pd.Series(False, index=table.index)
        ok &= (table[column] - anchor["published"]).abs() <= anchor["tolerance"]
    return ok


def svm_choices(infos) -> pd.DataFrame:
    """What the workflow's SVM chose in each outer fold (its fold info: C, class_weight, inner_cv values).

    One row per chosen set-up: C, class weight, the folds that chose it, and
    for every candidate set-up its inner-CV value averaged over the folds
    (``inner <C> <class weight>`` columns; none without an inner CV).
    """
    rows = {}
    inner = {}
    for info in infos:
        key = (float(info["C"]), info.get("class_weight") or "none")
        rows.setdefault(key, []).append(int(info["fold"]))
        for cand in info.get("inner_cv", []):
            share = cand.get("fit_share", 1.0)  # successive halving: a value on a share of the inner sets
            name = f"inner {cand['C']:g} {cand['class_weight'] or 'none'}" + (f" (1/{1 / share:.0f})" if share < 1 else "")
            inner.setdefault(name, []).append(cand["value"])
    table = pd.DataFrame([{"C": f"{C:g}", "class_weight": cw, "folds": ", ".join(map(str, sorted(f))), "n_folds": len(f)}
                          for (C, cw), f in sorted(rows.items(), key=lambda kv: -len(kv[1]))])
    for col, values in inner.items():
        table[col] = float(np.mean(values))
    return table


def svm_sensitivity_markdown(table: pd.DataFrame, pooling: pd.DataFrame | None = None,
                             choices: pd.DataFrame | None = None, select_metric: str = "",
                             reproduces: bool = True) -> str:
    """The sensitivity table as Markdown (pooled value, per-fold mean +/- SD beneath); where the dataset
    ``reproduces`` the paper, the set-ups that match its SVM numbers are marked."""
    keys = [c for c in table.columns if c not in SETUP_COLUMNS and not c.endswith(("_mean", "_sd"))]

    def cells(row):
        out = {}
        for k in (k for k in keys if k in row):
            digits = 1 if k.startswith("top") else 3  # "actives in the top k": a count
            out[k] = (f"{row[k]:.{digits}f}<br>{row[k + '_mean']:.{digits}f} ± {row[k + '_sd']:.{digits}f}"
                      if f"{k}_mean" in row else f"{row[k]:.{digits}f}")
        return out

    rows = []
    for i, row in table.iterrows():
        rows.append({**{c: ("none" if c == "class_weight" and pd.isna(row[c]) else row[c]) for c in SETUP_COLUMNS},
                     **cells(row)})
    text = "Each cell: pooled value, then per-fold mean ± SD.\n\n"
    if reproduces:
        anchors = {a["metric"]: a for a in load_published()["anchors"] if a["model"] == "svm"}
        target = ", ".join(f"{k} {a['published']:g} +/- {a['tolerance']:g}" for k, a in anchors.items())
        match_pooled, match_folds = paper_svm_matches(table), paper_svm_matches(table, "_mean")
        for i, row in zip(table.index, rows):
            row["matches the paper's SVM"] = ", ".join(
                m for m, ok in (("pooled", match_pooled[i]), ("per fold", match_folds[i])) if ok)
        text = f"Published SVM: {target} (pooled 10-fold ranking, presumably). " + text
    text += markdown_table(pd.DataFrame(rows))
    if pooling is not None and len(pooling):
        rows = [{"model": r["model"], **cells(r)} for _, r in pooling.iterrows()]
        text += ("\n\n### Pooled ranking vs per-fold mean, the workflow's models\n\n" + markdown_table(pd.DataFrame(rows)))
    if choices is not None and len(choices):
        inner = [c for c in choices.columns if c.startswith("inner ")]
        how = (f"chosen in each outer fold by an inner CV on {select_metric} (inner values: mean over the outer folds)"
               if inner else "fixed (no inner CV)")
        text += (f"\n\n### The workflow's SVM set-up\n\nC and class weight {how}:\n\n" + markdown_table(choices))
    return text


# --- across datasets: results/summary/ ---------------------------------------------------------------

#: The summary's metrics (paper-panel keys), then "actives in the top 1%" (:data:`SUMMARY_TOP`).
SUMMARY_METRICS = ("roc", "croc_exp_7", "croc_exp_14", "croc_exp_80", "bedroc_20")
SUMMARY_TOP = 0.01
SUMMARY_TOP_KEY = "top_1pct"


def summary_labels() -> dict:
    """The summary's column keys and their labels."""
    panel = {c.key: c.label for c in paper_panel()}
    return {**{k: panel[k] for k in SUMMARY_METRICS}, SUMMARY_TOP_KEY: "actives in top 1%"}


def datasets_table(runs: dict) -> pd.DataFrame:
    """One row per (dataset, model): compounds, actives and the summary's metrics on the pooled ranking.

    Parameters
    ----------
    runs : dict
        ``{dataset: {model label: pooled scores (id, label, score)}}``; a
        dataset's models all score the same compounds.

    Returns
    -------
    DataFrame
        dataset, model, compounds, actives, the :data:`SUMMARY_METRICS`,
        ``top_1pct`` (actives among the top 1% of the list, k rounded half up)
        and ``top_k`` (that k).
    """
    rows = []
    for dataset, pooled in runs.items():
        reference = None
        for model, scores in pooled.items():
            if reference is None:
                reference = scores["id"].to_numpy()
            elif not np.array_equal(reference, scores["id"].to_numpy()):
                raise ValueError(f"dataset {dataset}: {model} did not score the same compounds as the others")
            values = pooled_metrics(scores, SUMMARY_METRICS, top=SUMMARY_TOP)
            k = top_cutoff(SUMMARY_TOP, len(scores))
            rows.append({"dataset": dataset, "model": model, "compounds": len(scores),
                         "actives": int(scores["label"].sum()), **{m: values[m] for m in SUMMARY_METRICS},
                         SUMMARY_TOP_KEY: values[f"top{k}"], "top_k": k})
    return pd.DataFrame(rows)


def _metric_matrix(table: pd.DataFrame, metric: str) -> tuple[np.ndarray, list, list]:
    """(datasets x models) values of one metric, datasets and models in their first-seen order."""
    wide = table.pivot(index="dataset", columns="model", values=metric)
    datasets, models = list(dict.fromkeys(table["dataset"])), list(dict.fromkeys(table["model"]))
    return wide.loc[datasets, models].to_numpy(dtype=float), datasets, models


def ranks_table(table: pd.DataFrame, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Which model wins across datasets, per summary metric (Demsar 2006).

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
    for metric in (*SUMMARY_METRICS, SUMMARY_TOP_KEY):
        values, datasets, models = _metric_matrix(table, metric)
        if len(datasets) < 2 or len(models) < 2:
            raise ValueError(f"ranks across datasets need at least 2 datasets and 2 models; got "
                             f"{len(datasets)} and {len(models)}")
        friedman = friedman_test(values)
        cd = nemenyi_critical_difference(len(models), len(datasets), alpha)
        for model, rank in zip(models, friedman.mean_ranks):
            rank_rows.append({"metric": metric, "model": model, "mean_rank": float(rank), "datasets": len(datasets),
                              "friedman_chi2": friedman.statistic, "friedman_p": friedman.p_value,
                              "iman_davenport_f": friedman.iman_davenport, "iman_davenport_p": friedman.iman_davenport_p,
                              "nemenyi_cd": cd})
        pair_rows += [{"metric": metric, **row} for row in pairwise_wilcoxon(values, models)]
    return pd.DataFrame(rank_rows), pd.DataFrame(pair_rows)


def datasets_markdown(table: pd.DataFrame) -> str:
    """The datasets table as Markdown: a section per dataset, models as rows."""
    labels = summary_labels()
    parts = []
    for dataset, part in table.groupby("dataset", sort=False):
        first = part.iloc[0]
        cells = part[["model", *labels]].rename(columns=labels)
        parts.append(f"## {dataset}: {first['compounds']:,} compounds, {first['actives']:,} actives "
                     f"(top 1% = top {first['top_k']:,})\n\n" + markdown_table(cells))
    return "\n\n".join(parts)


def ranks_markdown(ranks: pd.DataFrame, pairs: pd.DataFrame, alpha: float = 0.05) -> str:
    """The ranks table as Markdown: per metric, mean ranks, Friedman and Nemenyi, then the pairs' Wilcoxon tests."""
    labels = summary_labels()
    parts = []
    for metric, part in ranks.groupby("metric", sort=False):
        first = part.iloc[0]
        order = part.sort_values("mean_rank", kind="stable")
        best = order["mean_rank"].min()
        cells = pd.DataFrame({"model": order["model"], "mean rank": order["mean_rank"],
                              f"within CD of the best ({first['nemenyi_cd']:.2f})":
                                  np.where(order["mean_rank"] - best < first["nemenyi_cd"], "yes", "no")})
        pair = pairs[pairs["metric"] == metric]
        pair_cells = pd.DataFrame({"pair": pair["a"] + " vs " + pair["b"],
                                   "wins-losses-ties": [f"{w}-{l}-{t}" for w, l, t in
                                                        zip(pair["wins"], pair["losses"], pair["ties"])],
                                   "mean difference": pair["mean_difference"], "Wilcoxon p": pair["p_value"],
                                   "Holm p": pair["p_holm"]})
        parts.append(
            f"## {labels[metric]}\n\nOver {first['datasets']} datasets: Friedman chi2 = {first['friedman_chi2']:.3f} "
            f"(p = {first['friedman_p']:.3g}), Iman-Davenport F = {first['iman_davenport_f']:.3f} "
            f"(p = {first['iman_davenport_p']:.3g}); Nemenyi critical difference of mean ranks at alpha = {alpha:g}: "
            f"{first['nemenyi_cd']:.3f}.\n\n" + markdown_table(cells, digits=2) + "\n\n" + markdown_table(pair_cells))
    return "\n\n".join(parts)


# --- the IRV training study (optional target irv_sensitivity) ------------------------------------------------

_STUDY_METRICS = ("roc", "croc_exp_7", "croc_exp_14", "croc_exp_80")


def irv_study_table(scores: pd.DataFrame, runs: pd.DataFrame, top=1000) -> pd.DataFrame:
    """Per (optimizer setting, scheme, stop rule): epochs over the folds and the pooled test metrics.

    Parameters
    ----------
    scores : DataFrame
        Test scores of every fold: setting, scheme, stop, id, fold, label, score.
    runs : DataFrame
        One row per (fold, setting, scheme, stop): epochs, converged.

    Returns
    -------
    DataFrame
        setting, scheme, stop, epochs_mean, epochs_min, epochs_max, converged_folds, folds, the pooled
        AUC[ROC] and AUC[CROC(exp)] a=7/14/80 and the actives in the top k (``top``).
    """
    keys = ["setting", "scheme", "stop"]
    epochs = runs.groupby(keys, sort=False).agg(epochs_mean=("epochs", "mean"), epochs_min=("epochs", "min"),
                                                epochs_max=("epochs", "max"), converged_folds=("converged", "sum"),
                                                folds=("epochs", "size")).reset_index()
    rows = []
    for key, part in scores.groupby(keys, sort=False):
        rows.append(dict(zip(keys, key)) | pooled_metrics(part, _STUDY_METRICS, top))
    metrics = pd.DataFrame(rows)
    hits = [c for c in metrics.columns if c.startswith("top")]
    return epochs.merge(metrics.rename(columns={hits[0]: "top_hits"}) if hits else metrics, on=keys, how="left")


def irv_study_closest(table: pd.DataFrame, paper: dict | None = None) -> pd.DataFrame:
    """Per (setting, stop rule): how far its mean epochs per scheme are from the paper's Appendix A counts (the mean
    of |log(ours / paper)| over the schemes the paper gives; "4-8" counts as 6), closest first."""
    paper = paper or paper_irv_epochs()
    counts = {s: float(np.mean([float(x) for x in v.split("-")])) for s, v in paper.items()}
    rows = []
    for (setting, stop), part in table.groupby(["setting", "stop"], sort=False):
        ours = part.set_index("scheme")["epochs_mean"]
        common = [s for s in counts if s in ours.index]
        if common:
            rows.append({"setting": setting, "stop": stop,
                         "log_distance": float(np.mean([abs(np.log(ours[s] / counts[s])) for s in common])),
                         **{f"epochs_{s}": float(ours[s]) for s in common}})
    return pd.DataFrame(rows).sort_values("log_distance", kind="stable").reset_index(drop=True)


def irv_study_markdown(table: pd.DataFrame, curve: pd.DataFrame, closest: pd.DataFrame) -> str:
    """The study as Markdown: the paper's counts beside the closest set-ups, then one table per stop rule, then the
    training curve (mean over the folds of the training ranking's AUC[CROC(exp)] a=80 after each tabulated epoch)."""
    paper = paper_irv_epochs()
    parts = ["The paper (Appendix A): " + ", ".join(f"{s} {v} epochs" for s, v in paper.items())
             + "; final AUC[CROC(exp)] a=80 about 0.396.",
             "## Closest to the paper's epoch counts (mean |log(ours / paper)| over its schemes)\n\n"
             + markdown_table(closest.head(8), digits=2)]
    hits = "top_hits" if "top_hits" in table.columns else None
    for stop, part in table.groupby("stop", sort=False):
        cells = pd.DataFrame({
            "optimizer": part["setting"], "scheme": part["scheme"],
            "epochs (mean, min-max)": [f"{m:.1f} ({lo}-{hi})" for m, lo, hi in
                                       zip(part["epochs_mean"], part["epochs_min"], part["epochs_max"])],
            "converged folds": [f"{c}/{f}" for c, f in zip(part["converged_folds"], part["folds"])],
            "AUC[ROC]": part["roc"], "AUC[CROC(exp)] a=80": part["croc_exp_80"],
            **({"actives in top k": part[hits]} if hits else {})})
        parts.append(f"## Stop rule: {stop}\n\n" + markdown_table(cells))
    wide = curve.groupby(["setting", "scheme", "epoch"], sort=False)["train_croc_exp_80"].mean().unstack("epoch")
    wide.columns = [f"after {e}" for e in wide.columns]
    parts.append("## Training AUC[CROC(exp)] a=80 after n epochs (mean over the folds)\n\n"
                 + markdown_table(wide.reset_index().rename(columns={"setting": "optimizer"})))
    return "\n\n".join(parts)

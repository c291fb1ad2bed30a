"""The README's and the docs' tables, answers and figures, generated from a committed reference folder."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..reference import read_manifest
from ._compare import TRAINED_FOR_THE_TOP, compared_panels, comparison_markdown, panel_values_from, read_panel_tables

#: The metrics of table 1b (``other_metrics.tsv``) that the scoring guide shows on the paper's run: the information
#: retrieval family's, local AUC's, and ROC50 pooled beside its mean over the folds (Carroll et al.'s point).
SCORING_METRICS = ("r_precision", "ap", "precision_at_1000", "loc_auc_0.01", "roc50_pooled", "roc50_per_query")


def readme_tables(reference) -> dict:
    """The paper's run's results tables as Markdown, from the reference folder: ``"published"`` (every anchor
    of ``published.yaml`` with the run's value and status), ``"pooled"`` (the paper's three numbers per
    model beside the run's) and ``"other_metrics"`` (``SCORING_METRICS`` of table 1b, a row per model)."""
    from ..models import LABELS
    from ..paper import load_published
    from ..report import RANDOM_ROW, markdown_table, published_cells, quantity_labels

    labels = quantity_labels()
    published = published_cells(pd.read_csv(Path(reference) / "published.tsv", sep="\t"))
    lines = ["| " + " | ".join(published.columns) + " |", "|" + "---|" * published.shape[1]]
    lines += ["| " + " | ".join(row) + " |" for row in published.itertuples(index=False)]
    areas = pd.read_csv(Path(reference) / "areas.tsv", sep="\t").set_index("model")
    paper = {(a["model"], a["metric"]): a["published"] for a in load_published()["anchors"]}
    keys = {**{label: key for key, label in LABELS.items()}, RANDOM_ROW: "random_expected"}
    metrics = ("roc", "croc_exp_80", "top1000")
    pooled = [
        "| model | " + " | ".join(f"{labels[m]} | paper" for m in metrics) + " |",
        "|---|" + "---|---|" * len(metrics),
    ]
    for label, row in areas.iterrows():
        cells = []
        for m in metrics:
            ours = f"{row[m]:.1f}" if m == "top1000" else f"{row[m]:.3f}"
            theirs = paper.get((keys.get(label, label), m))
            cells += [ours, "" if theirs is None else f"{theirs:g}"]
        pooled.append(f"| {label} | " + " | ".join(cells) + " |")
    other = pd.read_csv(Path(reference) / "other_metrics.tsv", sep="\t")
    other = other[other["key"].isin(SCORING_METRICS)]
    label = dict(zip(other["key"], other["label"]))
    wide = other.pivot(index="model", columns="label", values="value")
    wide = wide.reindex(index=list(dict.fromkeys(other["model"])), columns=[label[k] for k in SCORING_METRICS])
    return {
        "published": "\n".join(lines),
        "pooled": "\n".join(pooled),
        "other_metrics": markdown_table(wide.rename_axis("model").reset_index()),
    }


def panel_tables(reference, memo: dict | None = None) -> dict:
    """The docs' tables of a panel, as Markdown, from its reference folder (``results/reference/<panel>``), named
    ``<panel>/<table>``: per metric of :data:`crocbench.report.SUMMARY_FIGURE_METRICS` (``<panel>/roc``, ...)
    every screen's value per model with its interval (with repeats, the mean over them and their range); over the metrics of
    :data:`crocbench.report.SUMMARY_TABLE_METRICS` the reference holds, ``<panel>/ranks`` (mean ranks, Friedman,
    Nemenyi) and ``<panel>/pairs`` (every pair's Wilcoxon test, Holm-adjusted), and where the panel has the ECFP
    rankers ``<panel>/top_training`` (the pairs of :data:`TRAINED_FOR_THE_TOP`, each trained for the top against
    its plain form), ``<panel>/maxsim`` (MAX-SIM against every other ranker but RANDOM) and ``<panel>/exploratory``
    (:func:`crocbench.report.findings.exploratory_markdown`: what those tests say, exploratory); where its
    manifest declares questions, ``<panel>/answers``, ``<panel>/family`` and ``<panel>/headline``
    (:mod:`crocbench.report.findings`: the declared family's tests, effects and verdicts; with repeats, tested on
    their means, and each repeat's own verdict counted); where the reference
    keeps Conover's tests, ``<panel>/conover_<metric>`` per metric of the ranks (the models in mean-rank order, each
    pair's Holm p); ``<panel>/pains``
    (where the run flagged PAINS compounds: :func:`crocbench.report.findings.pains_markdown`); ``<panel>/novel`` (where
    the reference keeps the novel actives' values: :func:`crocbench.report.findings.novel_markdown`);
    ``<panel>/shared`` (where it keeps the structures its screens share: :func:`crocbench.report.shared_markdown`);
    ``<panel>/claims``
    (the paper's claims across the screens); ``<panel>/vs_<other>`` for each panel reference of
    :func:`compared_panels` (:func:`comparison_markdown`; ``memo``, what one regeneration has read and computed
    already, as it takes it; none given: one for this panel's comparisons alone)."""
    from ..models import LABELS
    from ..report import (
        SUMMARY_FIGURE_METRICS,
        SUMMARY_TABLE_METRICS,
        claims_across_markdown,
        conover_markdown,
        pairs_markdown,
        ranks_overview_markdown,
        screens_markdown,
        shared_markdown,
    )
    from ..report.findings import (
        Questions,
        answers_markdown,
        describe,
        exploratory_markdown,
        family_markdown,
        family_table,
        headline_markdown,
        novel_markdown,
        pains_markdown,
        repeat_spread,
        repeats_agreeing,
        spread_markdown,
    )

    folder = Path(reference)
    read = {name: pd.read_csv(folder / name, sep="\t") for name in ("ranks.tsv", "wilcoxon.tsv")}
    if not {"low", "high"} <= set(read["wilcoxon.tsv"].columns):
        raise ValueError(
            f"{folder / 'wilcoxon.tsv'} has no interval of its differences (low, high): run crocbench reference "
            f"{folder} --recompute"
        )
    read["datasets.tsv"], per_repeat = read_panel_tables(folder)
    values = panel_values_from(read["datasets.tsv"], per_repeat, bounds=True)
    repeats = None if per_repeat is None else per_repeat["repeat"].nunique()
    tables = {m: screens_markdown(values, m, repeats) for m in SUMMARY_FIGURE_METRICS}
    held = set(read["ranks.tsv"]["metric"])
    metrics = [m for m in SUMMARY_TABLE_METRICS if m in held]
    tables["ranks"] = ranks_overview_markdown(read["ranks.tsv"], metrics)
    tables["pairs"] = pairs_markdown(read["wilcoxon.tsv"], metrics)
    models = list(dict.fromkeys(read["ranks.tsv"]["model"]))
    trained = [pair for pair in TRAINED_FOR_THE_TOP if set(pair) <= set(models)]
    if trained:
        tables["top_training"] = pairs_markdown(read["wilcoxon.tsv"], metrics, only=trained)
        others = [m for m in models if m not in (LABELS["random"], LABELS["maxsim"])]
        tables["maxsim"] = pairs_markdown(read["wilcoxon.tsv"], metrics, only=[(LABELS["maxsim"], m) for m in others])
        tables["exploratory"] = exploratory_markdown(
            read["ranks.tsv"],
            read["wilcoxon.tsv"],
            metrics,
            trained=trained,
            baseline=LABELS["maxsim"],
            left_out=[LABELS["random"]],
        )
    manifest = read_manifest(folder)
    questions = manifest.questions
    if questions is not None:  # the study's declared questions: its answers, written from the per-screen values
        declared = Questions.from_dict(questions)
        if per_repeat is not None:  # repeats: the family on their means, and in each alone
            family = repeats_agreeing(per_repeat, declared, family_table(values, declared))
            tables["spread"] = spread_markdown(repeat_spread(per_repeat, declared.metrics))
        else:
            family = family_table(read["datasets.tsv"], declared)
        tables["answers"] = answers_markdown(read["ranks.tsv"], family, declared)
        tables["family"] = family_markdown(family, declared)
        what = describe(manifest.split, manifest.labels)
        tables["headline"] = headline_markdown(read["ranks.tsv"], family, declared, what)
    if (folder / "pains.tsv").is_file():  # summary: pains: the flagged compounds, and the family without them
        tables["pains"] = pains_markdown(
            pd.read_csv(folder / "pains.tsv", sep="\t"),
            pd.read_csv(folder / "datasets_without_pains.tsv", sep="\t"),
            questions,
        )
    if (folder / "shared.tsv").is_file():  # the structures the screens share
        tables["shared"] = shared_markdown(
            pd.read_csv(folder / "shared.tsv", sep="\t"), pd.read_csv(folder / "shared_pairs.tsv", sep="\t")
        )
    if (folder / "novel.tsv").is_file():  # the novel actives' values across the screens
        tables["novel"] = novel_markdown(pd.read_csv(folder / "novel.tsv", sep="\t"), questions)
    if (folder / "conover.tsv").is_file():  # a reference of a summary that kept Conover's tests
        conover = pd.read_csv(folder / "conover.tsv", sep="\t")
        for m in metrics:
            part = read["ranks.tsv"][read["ranks.tsv"]["metric"] == m].sort_values("mean_rank", kind="stable")
            tables[f"conover_{m}"] = conover_markdown(conover[conover["metric"] == m], part["model"])
    if (folder / "claims.tsv").is_file():  # the paper's claims across the screens: a panel of the paper's five
        tables["claims"] = claims_across_markdown(pd.read_csv(folder / "claims.tsv", sep="\t"))
    memo = {} if memo is None else memo
    for other in compared_panels(folder):
        tables[f"vs_{other.name}"] = comparison_markdown(folder, other, memo)
    return {f"{folder.name}/{name}": table for name, table in tables.items()}


def critical_difference_figure(reference, out) -> list:
    """A panel reference's critical-difference diagrams (:func:`crocbench.report.critical_difference_subplots` of its
    ``ranks.tsv``, each ranker in the colour of its place among the reference's rankers), drawn to ``out`` alone; the
    docs' figure of a panel comes from its reference, as its tables do. Returns the paths written."""
    from ..plots import colour_map, plot_critical_difference
    from ..report import critical_difference_subplots

    folder = Path(reference)
    diagrams = critical_difference_subplots(pd.read_csv(folder / "ranks.tsv", sep="\t"))
    models = list(dict.fromkeys(pd.read_csv(folder / "datasets.tsv", sep="\t")["model"]))
    return plot_critical_difference(diagrams, out, colour_map(models), formats=(Path(out).suffix[1:],))


def reference_figure(reference, kind: str, out) -> list:
    """A reference's figure of ``kind`` (its manifest's ``figures``), drawn to ``out`` alone: ``critical_difference``
    (:func:`critical_difference_figure`), ``memorization`` (each ranker per stratum, the manifest's metrics),
    ``split_similarity`` (the splits' train-to-test similarities) or ``novelty_cost`` (the shares the novelty split
    keeps at each tau, from ``kept.tsv``). Returns the paths written."""
    if kind == "critical_difference":
        return critical_difference_figure(reference, out)
    from ..plots import plot_memorization, plot_novelty_cost, plot_split_similarity

    folder = Path(reference)
    strata = read_manifest(folder).strata
    formats = (Path(out).suffix[1:],)
    if kind == "novelty_cost":
        return plot_novelty_cost(pd.read_csv(folder / "kept.tsv", sep="\t"), out, formats=formats)
    if kind == "memorization":
        table = pd.read_csv(folder / "memorization.tsv", sep="\t")
        return plot_memorization(table, strata["metrics"], out, formats=formats)
    curves = pd.read_csv(folder / "split_similarity_curves.tsv", sep="\t")
    return plot_split_similarity(curves, out, strata["novel"], strata["analog"], formats=formats)


def study_tables(reference) -> dict:
    """The tables of a study of rankers, as Markdown, from its reference folder (``results/reference/<study>``),
    named ``<study>/<table>``: ``rankers`` (table 1: AUC[ROC], AUC[CROC(exp)] a=80 and BEDROC(20) with their 95%
    intervals, and EF 1%), ``orders`` (the rankers in each metric's order), ``versus_paper`` (the paper's six tests
    of every other ranker against the IRV and the SVM) and ``top_training`` (the pairs of :data:`TRAINED_FOR_THE_TOP`
    the study holds); where its manifest declares questions, ``answers``, ``family`` and ``headline``
    (:func:`crocbench.report.findings.study_family_table`)."""
    from ..models import LABELS
    from ..paper import PAPER_MODELS
    from ..report import STUDY_METRICS, orders_markdown, pair_tests, pair_tests_markdown, rankers_markdown
    from ..stats import TESTS

    folder = Path(reference)
    intervals, other, significance = (
        pd.read_csv(folder / name, sep="\t") for name in ("intervals.tsv", "other_metrics.tsv", "significance.tsv")
    )
    models = list(dict.fromkeys(intervals["model"]))
    anchors = [LABELS["irv"], LABELS["svm"]]
    others = [m for m in models if m not in {LABELS[p] for p in PAPER_MODELS}]
    labels = dict(zip(intervals["key"], intervals["label"]))
    trained = [pair for pair in TRAINED_FOR_THE_TOP if set(pair) <= set(models)]
    tables = {
        "rankers": rankers_markdown(intervals, other),
        "orders": orders_markdown(intervals, other),
        "versus_paper": pair_tests_markdown(
            pair_tests(significance, [(m, a) for m in others for a in anchors], STUDY_METRICS), labels, TESTS
        ),
        "top_training": pair_tests_markdown(pair_tests(significance, trained, STUDY_METRICS), labels, TESTS),
    }
    manifest = read_manifest(folder)
    if manifest.questions is not None:  # the study's declared questions: its answers, from its tests and intervals
        from ..report.findings import (
            Questions,
            describe,
            study_answers_markdown,
            study_family_markdown,
            study_family_table,
            study_headline_markdown,
        )

        declared = Questions.from_dict(manifest.questions)
        family = study_family_table(significance, intervals, declared)
        tables["answers"] = study_answers_markdown(intervals, family, declared)
        tables["family"] = study_family_markdown(family, declared)
        what = describe(manifest.split, manifest.labels)
        tables["headline"] = study_headline_markdown(intervals, family, declared, what)
    return {f"{folder.name}/{name}": table for name, table in tables.items()}


def kept_tables(reference) -> dict:
    """A ``tables`` reference's own tables (each ``*.tsv`` of the folder), as Markdown: ``<folder>/<stem>``."""
    from ..report import markdown_table

    folder = Path(reference)
    return {
        f"{folder.name}/{path.stem}": markdown_table(pd.read_csv(path, sep="\t", keep_default_na=False))
        for path in sorted(folder.glob("*.tsv"))
    }


def memorization_tables(reference) -> dict:
    """A ``memorization`` reference's tables, as Markdown, named ``<folder>/<table>``: ``findings`` (the library's
    answers), ``headline`` (one sentence), ``strata`` (every ranker on all test actives and on each stratum, for the manifest's metrics),
    ``tests`` (the six tests on the novel actives, with effects; every stratum's are in ``memorization_tests.tsv``) and, where the folder holds ``split_similarity.tsv``,
    ``split_similarity`` (the dataset's splits compared)."""
    from ..report import memorization_markdown, split_similarity_markdown, stratum_tests_markdown
    from ..report.findings import describe, memorization_findings_markdown, memorization_headline_markdown
    from ..stats import TESTS

    folder = Path(reference)
    manifest = read_manifest(folder)
    strata = manifest.strata
    table = pd.read_csv(folder / "memorization.tsv", sep="\t")
    tests = pd.read_csv(folder / "memorization_tests.tsv", sep="\t")
    keys, novel, analog = strata["metrics"], strata["novel"], strata["analog"]
    labels = dict(zip(table["key"], table["label"]))
    tables = {
        "findings": memorization_findings_markdown(table, tests, keys, novel, analog),
        "headline": memorization_headline_markdown(table, keys[0], describe(manifest.split, manifest.labels)),
        "strata": memorization_markdown(table, keys),
        "tests": stratum_tests_markdown(
            tests[tests["metric"].isin(keys) & (tests["stratum"] == "novel")], labels, TESTS
        ),
    }
    if (folder / "split_similarity.tsv").is_file():
        tables["split_similarity"] = split_similarity_markdown(pd.read_csv(folder / "split_similarity.tsv", sep="\t"))
    return {f"{folder.name}/{name}": text for name, text in tables.items()}


def document_tables(reference, memo: dict | None = None) -> dict:
    """The Markdown tables the docs show from a reference folder, by its manifest's kind: :func:`panel_tables` for a
    panel's, :func:`study_tables` for a study's, :func:`readme_tables` for the paper's, :func:`kept_tables` for
    ``tables``, :func:`memorization_tables` for ``memorization``; ``memo`` (what one regeneration has read and
    computed already) goes to :func:`panel_tables`."""
    kind = read_manifest(reference).kind
    if kind == "panel":
        return panel_tables(reference, memo)
    writers = {
        "study": study_tables,
        "paper": readme_tables,
        "tables": kept_tables,
        "memorization": memorization_tables,
    }
    return writers[kind](reference)

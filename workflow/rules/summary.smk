# Across datasets (with two or more under `dataset:`): which ranker wins, from every dataset's pooled scores (with
# `cv: repeats` above 1, the ranks and tests read each model's mean over the repeats). The screen_* rules write the
# summary's tables of one screen each, which also run on one dataset (the target `screen_tables`); the summary_*
# rules, the tables across the screens. The tables of one screen each go to results/summary/ in a run of the summary,
# and to results/screens/ (the target screen_tables), never beside tables across other screens.


wildcard_constraints:
    summary="summary|screens",


rule screen_datasets:
    """Each screen's values of every model (one row per screen and model; with repeats, one per repeat too): a table
    of one screen each, which `crocbench reference --add` merges screen by screen. It removes the tables an earlier
    run left beside it that this run does not write (stale_tables)."""
    input:
        scores=summary_scores,
        repeat_scores=summary_repeat_scores,
    output:
        datasets_tsv="results/{summary}/tables/datasets.tsv",
        repeats_tsv="results/{summary}/tables/datasets_repeats.tsv",
        datasets_md="results/{summary}/tables/datasets.md",
        datasets_html=report(
            "results/{summary}/tables/datasets.html",
            caption="../report/summary_datasets.rst",
            category="Across datasets",
        ),
    log:
        "logs/{summary}/screen_datasets.log",
    benchmark:
        "logs/{summary}/benchmark/screen_datasets.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        datasets=DATASETS,
        models=MODELS,
        labels=LABELS,
        resamples=config["intervals"]["resamples"],
        seed=config["cv"]["seed"],
        repeats=REPEATS,
        stale=stale_tables,
    script:
        "../scripts/screen_datasets.py"


rule summary_tables:
    """The ranks and tests across the screens, on each screen's values as its tables keep them (with repeats,
    each model's mean over them)."""
    input:
        datasets="results/summary/tables/datasets.tsv",
        repeats="results/summary/tables/datasets_repeats.tsv",
    output:
        ranks_tsv="results/summary/tables/ranks.tsv",
        pairs_tsv="results/summary/tables/wilcoxon.tsv",
        conover_tsv="results/summary/tables/conover.tsv",
        ranks_md="results/summary/tables/ranks.md",
        ranks_html=report(
            "results/summary/tables/ranks.html", caption="../report/summary_ranks.rst", category="Across datasets"
        ),
    log:
        "logs/summary/summary_tables.log",
    benchmark:
        "logs/summary/benchmark/summary_tables.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        datasets=DATASETS,
        ranked=[LABELS[m] for m in SUMMARY_MODELS],
        repeats=REPEATS,
    script:
        "../scripts/summary_tables.py"


rule summary_design:
    """What the panel's results rest on (crocbench.config.study_design): the split, the tuning, every compared
    run's parameters, each run's fingerprint and the sha256 of the features its fold jobs read on each screen
    (features), and the ranked runs; and the study's declared questions (summary: questions). `crocbench
    reference` keeps both in the manifest. A job of its own: a change here moves no table."""
    input:
        infos=design_infos,
    output:
        design="results/{summary}/tables/design.yaml",
        questions="results/{summary}/tables/questions.yaml",
    log:
        "logs/{summary}/summary_design.log",
    benchmark:
        "logs/{summary}/benchmark/summary_design.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    params:
        design=study_design(
            config,
            {m: RUNS[m] for m in MODELS},
            [LABELS[m] for m in SUMMARY_MODELS],
            VERDICT_ARMS,
        ),
        questions=config["summary"]["questions"],
        labels=LABELS,
    script:
        "../scripts/summary_design.py"


rule screen_pains:
    """Each screen's PAINS compounds and actives (summary: pains), and each model's values without them, repeat by
    repeat: tables of one screen each."""
    input:
        scores=summary_scores,
        repeat_scores=summary_repeat_scores,
        pains=lambda wildcards: [f"results/{dataset}/pains.parquet" for dataset in DATASETS],
    output:
        counts="results/{summary}/tables/pains.tsv",
        datasets="results/{summary}/tables/datasets_without_pains.tsv",
    log:
        "logs/{summary}/screen_pains.log",
    benchmark:
        "logs/{summary}/benchmark/screen_pains.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        datasets=DATASETS,
        models=MODELS,
        labels=LABELS,
        repeats=REPEATS,
    script:
        "../scripts/screen_pains.py"


rule summary_pains:
    """The summary again without each screen's PAINS compounds: the declared family's tests on the values without
    them."""
    input:
        counts="results/summary/tables/pains.tsv",
        datasets="results/summary/tables/datasets_without_pains.tsv",
    output:
        "results/summary/tables/pains.md",
    log:
        "logs/summary/summary_pains.log",
    benchmark:
        "logs/summary/benchmark/summary_pains.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        questions=config["summary"]["questions"],
    script:
        "../scripts/summary_pains.py"


rule screen_novel:
    """Each screen's values on its novel actives (its memorization strata): a table of one screen each."""
    input:
        tables=summary_dataset_tables("memorization"),
    output:
        "results/{summary}/tables/novel.tsv",
    log:
        "logs/{summary}/screen_novel.log",
    benchmark:
        "logs/{summary}/benchmark/screen_novel.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        datasets=DATASETS,
    script:
        "../scripts/screen_novel.py"


rule summary_novel:
    """Which ranker is best on each screen's novel actives, across the screens."""
    input:
        "results/summary/tables/novel.tsv",
    output:
        "results/summary/tables/novel.md",
    log:
        "logs/summary/summary_novel.log",
    benchmark:
        "logs/summary/benchmark/summary_novel.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        questions=config["summary"]["questions"],
    script:
        "../scripts/summary_novel.py"


rule summary_verdict:
    """A verdict study's tables (where the config declares `verdict:`): every test of its families' union, each
    with its leave-one-out count, its mixed model and whether it is robust, and each declared cross-fingerprint
    pair's decomposition; with the words (crocbench.report.findings.verdict_table and its kin)."""
    input:
        repeats="results/summary/tables/datasets_repeats.tsv",
        novel="results/summary/tables/novel.tsv",
    output:
        verdict="results/summary/tables/verdict.tsv",
        decomposition="results/summary/tables/decomposition.tsv",
        md="results/summary/tables/verdict.md",
        html=report(
            "results/summary/tables/verdict.html", caption="../report/summary_verdict.rst", category="Across datasets"
        ),
    log:
        "logs/summary/summary_verdict.log",
    benchmark:
        "logs/summary/benchmark/summary_verdict.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        verdict=config["verdict"],
        arms=VERDICT_ARMS,
    script:
        "../scripts/summary_verdict.py"


rule summary_shared:
    """The structures the screens share: tests across screens take them as independent, and they are not."""
    input:
        compounds=lambda wildcards: [f"results/{dataset}/compounds.parquet" for dataset in DATASETS],
    output:
        counts="results/summary/tables/shared.tsv",
        pairs="results/summary/tables/shared_pairs.tsv",
        md="results/summary/tables/shared.md",
    log:
        "logs/summary/summary_shared.log",
    benchmark:
        "logs/summary/benchmark/summary_shared.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        datasets=DATASETS,
    script:
        "../scripts/summary_shared.py"


rule screen_claims:
    """The paper's claims on each screen, as on the paper's one (its tables 1 and 2): a table of one screen each."""
    input:
        areas=summary_dataset_tables("areas"),
        significance=summary_dataset_tables("significance"),
    output:
        "results/{summary}/tables/claims_per_screen.tsv",
    log:
        "logs/{summary}/screen_claims.log",
    benchmark:
        "logs/{summary}/benchmark/screen_claims.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        datasets=DATASETS,
        labels=LABELS,
    script:
        "../scripts/screen_claims.py"


rule summary_claims:
    """The paper's claims across the screens (Friedman, Wilcoxon-Holm; the paired tests' share pools every
    screen's table 2)."""
    input:
        datasets="results/summary/tables/datasets.tsv",
        per_screen="results/summary/tables/claims_per_screen.tsv",
        significance=summary_dataset_tables("significance"),
    output:
        tsv="results/summary/tables/claims.tsv",
        md="results/summary/tables/claims.md",
        html=report(
            "results/summary/tables/claims.html", caption="../report/summary_claims.rst", category="Across datasets"
        ),
    log:
        "logs/summary/summary_claims.log",
    benchmark:
        "logs/summary/benchmark/summary_claims.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        datasets=DATASETS,
        labels=LABELS,
    script:
        "../scripts/summary_claims.py"


rule summary_figures:
    input:
        datasets="results/summary/tables/datasets.tsv",
        ranks="results/summary/tables/ranks.tsv",
    output:
        critical_difference=report(
            "results/summary/figures/critical_difference.png",
            caption="../report/critical_difference.rst",
            category="Across datasets",
        ),
        datasets=report(
            "results/summary/figures/datasets.png", caption="../report/datasets_figure.rst", category="Across datasets"
        ),
        pdf=["results/summary/figures/critical_difference.pdf", "results/summary/figures/datasets.pdf"],
    log:
        "logs/summary/summary_figures.log",
    benchmark:
        "logs/summary/benchmark/summary_figures.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "../scripts/summary_figures.py"


rule summary:
    """The optional target `snakemake --cores 2 summary`: only what the cross-dataset tables and figures need (each
    dataset's pooled scores, and its tables 1 and 2 for the paper's claims), not every dataset's other tables,
    power study and report figures."""
    input:
        summary_targets,


rule screen_tables:
    """The optional target `snakemake --cores 2 screen_tables`: the summary's tables of one screen each, on any
    number of datasets (one included), in results/screens/. A panel run some screens at a time starts its reference
    with the first run's (`crocbench reference results/screens --out DIR`) and adds each later run's with `--add`,
    which recomputes the tables across the screens."""
    input:
        screen_targets,

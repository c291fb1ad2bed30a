# The paper's tables and figures from the pooled scores, and the published-vs-reproduced comparison.


rule areas_table:
    input:
        scores=pooled_scores,
        per_fold=per_fold_tables,
    output:
        tsv="results/{dataset}/tables/areas.tsv",
        per_fold="results/{dataset}/tables/areas_per_fold.tsv",
        md="results/{dataset}/tables/areas.md",
        html=report("results/{dataset}/tables/areas.html", caption="../report/areas.rst", category="Tables"),
        other_tsv="results/{dataset}/tables/other_metrics.tsv",
        other_md="results/{dataset}/tables/other_metrics.md",
        other_html=report(
            "results/{dataset}/tables/other_metrics.html", caption="../report/other_metrics.rst", category="Tables"
        ),
    log:
        "logs/{dataset}/areas_table.log",
    benchmark:
        "logs/{dataset}/benchmark/areas_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        top=top_cutoff,
        models=MODELS,
        labels=LABELS,
        n_folds=config["cv"]["folds"],
    script:
        "../scripts/areas_table.py"


rule intervals_table:
    """Table 1 with a 95% interval on every number: a stratified bootstrap over compounds."""
    input:
        scores=pooled_scores,
    output:
        tsv="results/{dataset}/tables/intervals.tsv",
        md="results/{dataset}/tables/intervals.md",
        html=report("results/{dataset}/tables/intervals.html", caption="../report/intervals.rst", category="Tables"),
    log:
        "logs/{dataset}/intervals_table.log",
    benchmark:
        "logs/{dataset}/benchmark/intervals_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        top=top_cutoff,
        models=MODELS,
        labels=LABELS,
        seed=config["cv"]["seed"],
        resamples=config["intervals"]["resamples"],
    script:
        "../scripts/intervals_table.py"


rule significance_table:
    """Table 2, the paper's six tests for every pair of models and metric: of the run and of each repeat."""
    input:
        scores=pooled_scores,
    output:
        tsv="results/{dataset}{repeat}/tables/significance.tsv",
        md="results/{dataset}{repeat}/tables/significance.md",
        html=report(
            "results/{dataset}{repeat}/tables/significance.html",
            caption="../report/significance.rst",
            category="Tables",
        ),
    log:
        "logs/{dataset}{repeat}/significance_table.log",
    benchmark:
        "logs/{dataset}/benchmark{repeat}/significance_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=3000,
    params:
        top=top_cutoff,
        models=MODELS,
        labels=LABELS,
        seed=fold_seed,
        samples=config["significance"]["samples"],
    script:
        "../scripts/significance_table.py"


rule repeats_table:
    """Every metric's mean and SD over the repeats, and the corrected resampled t-test for every pair of models."""
    input:
        scores=repeat_files("scores/{model}.parquet"),
        per_fold=repeat_files("scores/{model}.per_fold.tsv"),
    output:
        tsv="results/{dataset}/tables/repeats.tsv",
        tests="results/{dataset}/tables/repeats_tests.tsv",
        md="results/{dataset}/tables/repeats.md",
        html=report("results/{dataset}/tables/repeats.html", caption="../report/repeats.rst", category="Tables"),
    log:
        "logs/{dataset}/repeats_table.log",
    benchmark:
        "logs/{dataset}/benchmark/repeats_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        top=top_cutoff,
        models=MODELS,
        labels=LABELS,
        repeats=REPEATS,
        n_folds=FOLDS,
    script:
        "../scripts/repeats_table.py"


FIGURES = ["magnification", "roc", "croc", "ac_cac", "proc"]


rule figures:
    input:
        scores=pooled_scores,
    output:
        **{
            name: report(
                f"results/{{dataset}}/figures/{name}.png",
                caption=f"../report/{name}.rst",
                category="Figures",
            )
            for name in FIGURES
        },
        pdf=[f"results/{{dataset}}/figures/{name}.pdf" for name in FIGURES],
    log:
        "logs/{dataset}/figures.log",
    benchmark:
        "logs/{dataset}/benchmark/figures.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        models=MODELS,
        labels=LABELS,
    script:
        "../scripts/figures.py"


rule published_table:
    input:
        areas="results/{dataset}/tables/areas.tsv",
        significance="results/{dataset}/tables/significance.tsv",
        training=irv_training_runs,
    output:
        tsv="results/{dataset}/tables/published.tsv",
        md="results/{dataset}/tables/published.md",
        html=report("results/{dataset}/tables/published.html", caption="../report/published.rst", category="Tables"),
        landing="results/{dataset}/tables/published_landing.rst",
    log:
        "logs/{dataset}/published_table.log",
    benchmark:
        "logs/{dataset}/benchmark/published_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        models=MODELS,
        labels=LABELS,
    script:
        "../scripts/published_table.py"


rule power_study:
    input:
        scores=power_scores,
    output:
        tsv="results/{dataset}/tables/power.tsv",
        md="results/{dataset}/tables/power.md",
        html=report("results/{dataset}/tables/power.html", caption="../report/power.rst", category="Power study"),
        metrics=report(
            "results/{dataset}/figures/power_metrics.png",
            caption="../report/power_metrics.rst",
            category="Power study",
        ),
        tests=report(
            "results/{dataset}/figures/power_tests.png", caption="../report/power_tests.rst", category="Power study"
        ),
        pdf=["results/{dataset}/figures/power_metrics.pdf", "results/{dataset}/figures/power_tests.pdf"],
    log:
        "logs/{dataset}/power_study.log",
    benchmark:
        "logs/{dataset}/benchmark/power_study.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2  # subset sizes in two processes: it ends the run, after the last model's folds
    resources:
        mem_mb=8000,  # measured peak (two processes): 2.7 GB at N = 41,906, 7.1 GB at N = 250,000 (MiB / 1,024, as benchmarks/accounting/run_cost.py prints RSS)
    params:
        top=top_cutoff,
        models=power_models(),
        labels=LABELS,
        pairs=POWER_PAIRS,
        power=config["power"],
        seed=config["cv"]["seed"],
    script:
        "../scripts/power_study.py"

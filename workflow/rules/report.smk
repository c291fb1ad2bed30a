# The paper's tables and figures from the pooled scores, and the published-vs-reproduced comparison.


rule areas_table:
    input:
        scores=pooled_scores,
        per_fold=per_fold_tables,
    output:
        tsv="results/{dataset}/tables/areas.tsv",
        per_fold="results/{dataset}/tables/areas_per_fold.tsv",
        md=report("results/{dataset}/tables/areas.md", caption="../report/areas.rst", category="Tables"),
        other_tsv="results/{dataset}/tables/other_metrics.tsv",
        other_md=report(
            "results/{dataset}/tables/other_metrics.md", caption="../report/other_metrics.rst", category="Tables"
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


rule significance_table:
    input:
        scores=pooled_scores,
    output:
        tsv="results/{dataset}/tables/significance.tsv",
        md=report("results/{dataset}/tables/significance.md", caption="../report/significance.rst", category="Tables"),
    log:
        "logs/{dataset}/significance_table.log",
    benchmark:
        "logs/{dataset}/benchmark/significance_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=3000,
    params:
        top=top_cutoff,
        models=MODELS,
        labels=LABELS,
        seed=config["cv"]["seed"],
        samples=config["significance"]["samples"],
    script:
        "../scripts/significance_table.py"


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
        md=report("results/{dataset}/tables/published.md", caption="../report/published.rst", category="Tables"),
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
        md=report("results/{dataset}/tables/power.md", caption="../report/power.rst", category="Power study"),
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
        mem_mb=8000,  # measured peak (two processes): 2.7 GB at N = 41,906, 7.1 GB at N = 250,000 (MiB / 1,024, as benchmarks/workflow.py prints RSS)
    params:
        top=top_cutoff,
        models=power_models(),
        labels=LABELS,
        pairs=POWER_PAIRS,
        power=config["power"],
        seed=config["cv"]["seed"],
    script:
        "../scripts/power_study.py"

# One shared stratified 10-fold split; every (model, fold) is one job; out-of-fold scores pooled.


rule folds:
    input:
        "results/{dataset}/compounds.parquet",
    output:
        "results/{dataset}/folds.tsv",
    params:
        n_folds=config["cv"]["folds"],
        seed=config["cv"]["seed"],
    log:
        "logs/{dataset}/folds.log",
    threads: 1
    conda:
        "../../envs/crocbench.yaml"
    script:
        "../scripts/folds.py"


rule score_fold:
    input:
        fingerprints="results/{dataset}/fingerprints.npz",
        neighbours=f"results/{{dataset}}/neighbours_k{K}.npz",
        folds="results/{dataset}/folds.tsv",
    output:
        scores="results/{dataset}/scores/{model}/fold_{fold}.parquet",
        info="results/{dataset}/scores/{model}/fold_{fold}.json",
    params:
        model=lambda wc: RUNS[wc.model][0],
        model_params=lambda wc: RUNS[wc.model][1],
        seed=config["cv"]["seed"],
        block=config["similarity"]["block"],
    log:
        "logs/{dataset}/scores/{model}/fold_{fold}.log",
    benchmark:
        "logs/{dataset}/benchmark/scores/{model}/fold_{fold}.tsv"
    threads: lambda wc: 2 if RUNS[wc.model][0] == "svm" else 1  # IRV: two 1-thread jobs beat one 2-thread job
    resources:
        # the SVM's float64 training kernel: 8 bytes x (0.9 N)^2, plus the feature matrix
        mem_mb=lambda wc, input: svm_mem_mb(input.fingerprints) if RUNS[wc.model][0] == "svm" else 4000,
    conda:
        "../../envs/crocbench.yaml"
    script:
        "../scripts/score_fold.py"


rule pool_scores:
    input:
        folds="results/{dataset}/folds.tsv",
        parts=lambda wc: expand(
            "results/{{dataset}}/scores/{{model}}/fold_{fold}.parquet", fold=range(config["cv"]["folds"])
        ),
    output:
        scores="results/{dataset}/scores/{model}.parquet",
        per_fold="results/{dataset}/scores/{model}.per_fold.tsv",
    params:
        top=top_cutoff,
    log:
        "logs/{dataset}/scores/{model}/pool.log",
    threads: 1
    conda:
        "../../envs/crocbench.yaml"
    script:
        "../scripts/pool_scores.py"


rule irv_training_table:
    """The IRV's reweighting schemes side by side (the paper's Appendix A)."""
    input:
        scores=lambda wc: [f"results/{wc.dataset}/scores/{irv_run(s)}.parquet" for s in IRV_SCHEMES],
        infos=lambda wc: [
            f"results/{wc.dataset}/scores/{irv_run(s)}/fold_{k}.json"
            for s in IRV_SCHEMES
            for k in range(config["cv"]["folds"])
        ],
        benchmarks=lambda wc: [
            f"logs/{wc.dataset}/benchmark/scores/{irv_run(s)}/fold_{k}.tsv"
            for s in IRV_SCHEMES
            for k in range(config["cv"]["folds"])
        ],
        others=lambda wc: [f"results/{wc.dataset}/scores/{m}.parquet" for m in ("svm", "knn") if m in MODELS],
    output:
        tsv="results/{dataset}/tables/irv_training.tsv",
        md=report("results/{dataset}/tables/irv_training.md", caption="../report/irv_training_table.rst", category="Tables"),
        figure=report(
            "results/{dataset}/figures/irv_training.png",
            caption="../report/irv_training.rst",
            category="Figures",
        ),
        pdf="results/{dataset}/figures/irv_training.pdf",
    params:
        top=top_cutoff,
        schemes=IRV_SCHEMES,
        n_folds=config["cv"]["folds"],
        reproduces=REPRODUCES,
    log:
        "logs/{dataset}/irv_training_table.log",
    threads: 1
    conda:
        "../../envs/crocbench.yaml"
    script:
        "../scripts/irv_training_table.py"

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
    script:
        "../scripts/folds.py"


rule score_fold:
    input:
        fingerprints="results/{dataset}/fingerprints.npz",
        neighbours=f"results/{{dataset}}/neighbours_k{K}.npz",
        folds="results/{dataset}/folds.tsv",
    output:
        "results/{dataset}/scores/{model}/fold_{fold}.parquet",
    params:
        model_params=lambda wc: config["models"][wc.model],
        seed=config["cv"]["seed"],
        block=config["similarity"]["block"],
    log:
        "logs/{dataset}/scores/{model}/fold_{fold}.log",
    benchmark:
        "logs/{dataset}/benchmark/scores/{model}/fold_{fold}.tsv"
    threads: lambda wc: 2 if wc.model in ("svm", "irv") else 1
    resources:
        # the SVM's float64 training kernel: 8 bytes x (0.9 N)^2, plus the feature matrix
        mem_mb=lambda wc, input: svm_mem_mb(input.fingerprints) if wc.model == "svm" else 4000,
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
    log:
        "logs/{dataset}/scores/{model}/pool.log",
    threads: 1
    script:
        "../scripts/pool_scores.py"

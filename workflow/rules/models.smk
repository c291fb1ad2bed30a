# One shared stratified k-fold split (random, or by scaffold), per repeat; a run's folds in a job each, in one job,
# or in n jobs (its class's fold_jobs); out-of-fold scores pooled, or imported from a file of scores computed
# elsewhere on the same folds.
# {repeat} is empty for the run itself, and a slash and repeats/r for repeat r of `cv: repeats` (common.smk).


rule scaffolds:
    """Every compound's Bemis-Murcko scaffold (murcko or generic), for a scaffold split."""
    input:
        "results/{dataset}/compounds.parquet",
    output:
        "results/{dataset}/scaffolds/{kind}.parquet",
    log:
        "logs/{dataset}/scaffolds_{kind}.log",
    benchmark:
        "logs/{dataset}/benchmark/scaffolds_{kind}.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    script:
        "../scripts/scaffolds.py"


rule clusters:
    """Every compound's leader cluster of ECFP4 bits at `cv: cluster_threshold`, for a cluster split."""
    input:
        compounds="results/{dataset}/compounds.parquet",
        ecfp="results/{dataset}/ecfp.npz",
    output:
        "results/{dataset}/clusters.parquet",
    log:
        "logs/{dataset}/clusters.log",
    benchmark:
        "logs/{dataset}/benchmark/clusters.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        threshold=config["cv"]["cluster_threshold"],
    script:
        "../scripts/clusters.py"


rule folds:
    """The fold table; under a novelty split also its certificate (`crocbench split verify` checks it)."""
    input:
        unpack(folds_inputs),
    output:
        **({"certificate": "results/{dataset}{repeat}/folds_certificate.json"} if SPLIT == "novelty" else {}),
        folds="results/{dataset}{repeat}/folds.tsv",
    log:
        "logs/{dataset}{repeat}/folds.log",
    benchmark:
        "logs/{dataset}/benchmark{repeat}/folds.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    params:
        n_folds=FOLDS,
        seed=fold_seed,
        split=SPLIT,
        novelty=config["cv"]["novelty"],
        ecfp=config["ecfp"],
    script:
        "../scripts/folds.py"


rule folds_table:
    """The split described: each repeat's folds (compounds, positives); for a scaffold split the scaffolds."""
    input:
        repeat_files("folds.tsv"),
    output:
        md="results/{dataset}/tables/folds.md",
        html=report("results/{dataset}/tables/folds.html", caption="../report/folds.rst", category="Tables"),
    log:
        "logs/{dataset}/folds_table.log",
    benchmark:
        "logs/{dataset}/benchmark/folds_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    params:
        split=SPLIT,
        scaffold=config["cv"]["scaffold"],
        cluster_threshold=config["cv"]["cluster_threshold"],
        novelty=config["cv"]["novelty"],
        seed=config["cv"]["seed"],
    script:
        "../scripts/folds_table.py"


rule score_fold:
    input:
        unpack(fold_inputs),
    output:
        scores="results/{dataset}{repeat}/scores/{model}/fold_{fold}.parquet",
        info="results/{dataset}{repeat}/scores/{model}/fold_{fold}.json",
    log:
        "logs/{dataset}{repeat}/scores/{model}/fold_{fold}.log",
    benchmark:
        "logs/{dataset}/benchmark{repeat}/scores/{model}/fold_{fold}.tsv"
    wildcard_constraints:
        model=_alternatives(PER_FOLD),
    conda:
        "../../envs/crocbench.yaml"
    threads: model_threads  # each model's class says (resources): the SVM 2, the IRV 1 (two 1-thread jobs beat one 2-thread job)
    resources:
        mem_mb=model_mem_mb,  # the SVM: its kernel (of its working set), 8 bytes x n^2, plus 3 GB
    params:
        run=run_params,
        search=PLUGIN_DIRS,
        seed=fold_seed,
        block=config["similarity"]["block"],
    script:
        "../scripts/score_fold.py"


rule score_folds:
    """Every fold of a run whose class says one job (fold_jobs: 1; its folds take about a second), in one job: the
    same per-fold files as score_fold's and the pooled ones of pool_scores, without a job's start (Python, torch,
    the compiled loops) per fold."""
    input:
        unpack(fold_inputs),
    output:
        scores=expand("results/{{dataset}}{{repeat}}/scores/{{model}}/fold_{fold}.parquet", fold=range(FOLDS)),
        info=expand("results/{{dataset}}{{repeat}}/scores/{{model}}/fold_{fold}.json", fold=range(FOLDS)),
        pooled="results/{dataset}{repeat}/scores/{model}.parquet",  # pooled here, not by a pool_scores job
        per_fold="results/{dataset}{repeat}/scores/{model}.per_fold.tsv",
    log:
        "logs/{dataset}{repeat}/scores/{model}/folds.log",
    benchmark:
        "logs/{dataset}/benchmark{repeat}/scores/{model}/folds.tsv"
    wildcard_constraints:
        model=_alternatives(ONE_JOB),
    conda:
        "../../envs/crocbench.yaml"
    threads: model_threads
    resources:
        mem_mb=model_mem_mb,
    params:
        top=top_cutoff,
        run=run_params,
        search=PLUGIN_DIRS,
        seed=fold_seed,
        block=config["similarity"]["block"],
    script:
        "../scripts/score_fold.py"


# A run whose class splits its folds among n > 1 jobs (fold_jobs: n; the SVM on working sets, a job per core): job j of n scores
# its consecutive folds (crocbench._workflow.fold_groups) one after the other, keeping its kernel memory; pooled by
# pool_scores. One rule per (n, j).
for _n, _runs in SPLIT_JOBS.items():
    for _j, _folds in enumerate(fold_groups(FOLDS, _n)):

        rule:
            name:
                f"score_folds_{_n}_{_j}"
            input:
                unpack(fold_inputs),
            output:
                scores=expand("results/{{dataset}}{{repeat}}/scores/{{model}}/fold_{fold}.parquet", fold=_folds),
                info=expand("results/{{dataset}}{{repeat}}/scores/{{model}}/fold_{fold}.json", fold=_folds),
            log:
                f"logs/{{dataset}}{{repeat}}/scores/{{model}}/folds_{_j}.log",
            benchmark:
                f"logs/{{dataset}}/benchmark{{repeat}}/scores/{{model}}/folds_{_j}.tsv"
            wildcard_constraints:
                model=_alternatives(_runs),
            conda:
                "../../envs/crocbench.yaml"
            threads: model_threads
            resources:
                mem_mb=model_mem_mb,
            params:
                run=run_params,
                search=PLUGIN_DIRS,
                seed=fold_seed,
                block=config["similarity"]["block"],
            script:
                "../scripts/score_fold.py"


rule pool_scores:
    input:
        folds="results/{dataset}{repeat}/folds.tsv",
        parts=fold_parts,
    output:
        scores="results/{dataset}{repeat}/scores/{model}.parquet",
        per_fold="results/{dataset}{repeat}/scores/{model}.per_fold.tsv",
    log:
        "logs/{dataset}{repeat}/scores/{model}/pool.log",
    benchmark:
        "logs/{dataset}/benchmark{repeat}/pool_scores/{model}.tsv"
    wildcard_constraints:
        model=_alternatives(POOLED),
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    params:
        top=top_cutoff,
    script:
        "../scripts/pool_scores.py"


rule import_scores:
    """Out-of-fold scores computed elsewhere (`models: name: {scores: file}`), checked against folds.tsv."""
    input:
        folds="results/{dataset}{repeat}/folds.tsv",
        scores=imported_scores,
    output:
        scores="results/{dataset}{repeat}/scores/{model}.parquet",
        per_fold="results/{dataset}{repeat}/scores/{model}.per_fold.tsv",
    log:
        "logs/{dataset}{repeat}/scores/{model}/import.log",
    benchmark:
        "logs/{dataset}/benchmark{repeat}/import_scores/{model}.tsv"
    wildcard_constraints:
        model=_alternatives(IMPORTED),
    priority: 10  # checked as soon as folds.tsv exists: a bad file stops the run before any model trains
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        run=run_params,
        top=top_cutoff,
    script:
        "../scripts/import_scores.py"


rule irv_training_table:
    """The IRV's reweighting schemes side by side (the paper's Appendix A)."""
    input:
        unpack(irv_training_inputs),
    output:
        tsv="results/{dataset}/tables/irv_training.tsv",
        md="results/{dataset}/tables/irv_training.md",
        html=report(
            "results/{dataset}/tables/irv_training.html", caption="../report/irv_training_table.rst", category="Tables"
        ),
        figure=report(
            "results/{dataset}/figures/irv_training.png",
            caption="../report/irv_training.rst",
            category="Figures",
        ),
        pdf="results/{dataset}/figures/irv_training.pdf",
    log:
        "logs/{dataset}/irv_training_table.log",
    benchmark:
        "logs/{dataset}/benchmark/irv_training_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    params:
        top=top_cutoff,
        runs={s: irv_run(s) for s in IRV_SCHEMES},
        n_folds=FOLDS,
        reproduces=reproduces,
    script:
        "../scripts/irv_training_table.py"

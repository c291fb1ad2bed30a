# SVM set-up sensitivity (optional target `svm_sensitivity`): which SVM set-up gives the paper's numbers.


rule fingerprint_variant:
    input:
        "results/{dataset}/compounds.parquet",
    output:
        "results/{dataset}/fingerprints_{variant}.npz",
    log:
        "logs/{dataset}/fingerprints_{variant}.log",
    benchmark:
        "logs/{dataset}/benchmark/fingerprints_{variant}.tsv"
    wildcard_constraints:
        variant="folded_1024|rdkit_morgan",
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=3000,
    params:
        depth=config["fingerprints"]["depth"],
    script:
        "../scripts/fingerprint_variant.py"


rule svm_sensitivity_grid:
    """Every (C, class weight) on every fold, one job per fingerprint variant so that the folds share one
    kernel allocation; each finished fold is kept (in `parts`) and reused if the job is interrupted."""
    input:
        fingerprints=sensitivity_fingerprints,
        folds="results/{dataset}/folds.tsv",
    output:
        "results/{dataset}/svm_sensitivity/{variant}.parquet",
    log:
        "logs/{dataset}/svm_sensitivity/{variant}.log",
    benchmark:
        "logs/{dataset}/benchmark/svm_sensitivity/{variant}.tsv"
    wildcard_constraints:
        variant="paper|folded_1024|rdkit_morgan",
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=sensitivity_mem_mb,
    params:
        C=SENSITIVITY["C"],
        class_weight=SENSITIVITY["class_weight"],
        parts=sensitivity_parts,
    script:
        "../scripts/svm_sensitivity.py"


rule svm_sensitivity_table:
    input:
        grids=sensitivity_grids,
        per_fold=sensitivity_per_fold,
        svm_info=svm_fold_infos,
    output:
        tsv="results/{dataset}/tables/svm_sensitivity.tsv",
        md="results/{dataset}/tables/svm_sensitivity.md",
        html=report(
            "results/{dataset}/tables/svm_sensitivity.html",
            caption="../report/svm_sensitivity.rst",
            category="SVM set-up",
        ),
        figure=report(
            "results/{dataset}/figures/svm_sensitivity.png",
            caption="../report/svm_sensitivity_figure.rst",
            category="SVM set-up",
        ),
        pdf="results/{dataset}/figures/svm_sensitivity.pdf",
    log:
        "logs/{dataset}/svm_sensitivity_table.log",
    benchmark:
        "logs/{dataset}/benchmark/svm_sensitivity_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=4000,
    params:
        top=top_cutoff,
        reproduces=reproduces,
        models=ranked_models(),
        labels=LABELS,
    script:
        "../scripts/svm_sensitivity_table.py"


rule svm_sensitivity:
    """The optional target: `snakemake --cores 2 svm_sensitivity`."""
    input:
        [f"results/{d}/tables/svm_sensitivity.md" for d in DATASETS],


# IRV training study (optional target `irv_sensitivity`): does rank-reweighting speed up training, and under which
# optimizer and stop rule do the paper's Appendix A epoch counts appear.


rule irv_sensitivity_fold:
    input:
        fingerprints="results/{dataset}/fingerprints.npz",
        neighbours=f"results/{{dataset}}/neighbours_k{K}.npz",
        folds="results/{dataset}/folds.tsv",
    output:
        scores="results/{dataset}/irv_sensitivity/fold_{fold}.parquet",
        info="results/{dataset}/irv_sensitivity/fold_{fold}.json",
    log:
        "logs/{dataset}/irv_sensitivity/fold_{fold}.log",
    benchmark:
        "logs/{dataset}/benchmark/irv_sensitivity/fold_{fold}.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        study=config["irv_sensitivity"],
        irv=config["models"].get("irv") or {},
        reweighting={k: v for k, v in config["irv_training"].items() if k != "schemes"},
    script:
        "../scripts/irv_sensitivity_fold.py"


rule irv_sensitivity_table:
    input:
        scores=expand("results/{{dataset}}/irv_sensitivity/fold_{fold}.parquet", fold=range(FOLDS)),
        infos=expand("results/{{dataset}}/irv_sensitivity/fold_{fold}.json", fold=range(FOLDS)),
    output:
        tsv="results/{dataset}/tables/irv_sensitivity.tsv",
        md="results/{dataset}/tables/irv_sensitivity.md",
        html=report(
            "results/{dataset}/tables/irv_sensitivity.html",
            caption="../report/irv_sensitivity.rst",
            category="IRV training",
        ),
        figure=report(
            "results/{dataset}/figures/irv_sensitivity.png",
            caption="../report/irv_sensitivity_figure.rst",
            category="IRV training",
        ),
        pdf="results/{dataset}/figures/irv_sensitivity.pdf",
    log:
        "logs/{dataset}/irv_sensitivity_table.log",
    benchmark:
        "logs/{dataset}/benchmark/irv_sensitivity_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=3000,
    params:
        top=top_cutoff,
    script:
        "../scripts/irv_sensitivity_table.py"


rule irv_sensitivity:
    """The optional target: `snakemake --cores 2 irv_sensitivity`."""
    input:
        [f"results/{d}/tables/irv_sensitivity.md" for d in DATASETS],

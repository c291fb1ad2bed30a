# What a split lets a ranker remember: each compound's similarity to its training folds, the splits compared, and
# every metric on the test actives of each stratum (analog, middle, novel).


rule train_test_similarity:
    """Each compound's highest similarity to the training compounds and to the training actives of the fold where
    it is tested (the run's split), exact; under a novelty split on its fingerprint (ECFP4 bits)."""
    input:
        **({"ecfp": "results/{dataset}/ecfp.npz"} if SPLIT == "novelty" else {}),
        folds="results/{dataset}/folds.tsv",
        fingerprints="results/{dataset}/fingerprints.npz",
        neighbours=f"results/{{dataset}}/neighbours_k{K}.npz",
    output:
        "results/{dataset}/train_test_similarity.parquet",
    log:
        "logs/{dataset}/train_test_similarity.log",
    benchmark:
        "logs/{dataset}/benchmark/train_test_similarity.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        block=config["similarity"]["block"],
        ecfp=config["ecfp"],
    script:
        "../scripts/train_test_similarity.py"


rule split_similarity:
    """The train-to-test similarities of each split of `memorization: splits`, side by side (the run's seed)."""
    input:
        unpack(split_similarity_inputs),
    output:
        tsv="results/{dataset}/tables/split_similarity.tsv",
        curves="results/{dataset}/tables/split_similarity_curves.tsv",
        md="results/{dataset}/tables/split_similarity.md",
        html=report(
            "results/{dataset}/tables/split_similarity.html",
            caption="../report/split_similarity.rst",
            category="Tables",
        ),
        figure=report(
            "results/{dataset}/figures/split_similarity.png",
            caption="../report/split_similarity_figure.rst",
            category="Figures",
        ),
        pdf="results/{dataset}/figures/split_similarity.pdf",
    log:
        "logs/{dataset}/split_similarity.log",
    benchmark:
        "logs/{dataset}/benchmark/split_similarity.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        splits=MEMORIZATION["splits"],
        n_folds=FOLDS,
        seed=config["cv"]["seed"],
        block=config["similarity"]["block"],
        novel=MEMORIZATION["novel"],
        analog=MEMORIZATION["analog"],
        novelty=config["cv"]["novelty"],
        ecfp=config["ecfp"],
    script:
        "../scripts/split_similarity.py"


rule memorization_table:
    """Every metric on all test actives and on each stratum, per model, with the six tests per stratum."""
    input:
        scores=pooled_scores,
        overlap="results/{dataset}/train_test_similarity.parquet",
    output:
        tsv="results/{dataset}/tables/memorization.tsv",
        tests="results/{dataset}/tables/memorization_tests.tsv",
        declared="results/{dataset}/tables/memorization.yaml",
        md="results/{dataset}/tables/memorization.md",
        html=report(
            "results/{dataset}/tables/memorization.html", caption="../report/memorization.rst", category="Tables"
        ),
        figure=report(
            "results/{dataset}/figures/memorization.png",
            caption="../report/memorization_figure.rst",
            category="Figures",
        ),
        pdf="results/{dataset}/figures/memorization.pdf",
    log:
        "logs/{dataset}/memorization_table.log",
    benchmark:
        "logs/{dataset}/benchmark/memorization_table.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        top=top_cutoff,
        models=MODELS,
        labels=LABELS,
        novel=MEMORIZATION["novel"],
        analog=MEMORIZATION["analog"],
        metrics=MEMORIZATION["metrics"],
        samples=config["significance"]["samples"],
        seed=config["cv"]["seed"],
        split=SPLIT,
        novelty=config["cv"]["novelty"],
    script:
        "../scripts/memorization_table.py"

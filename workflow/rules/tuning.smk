# The development design of tuning (tuning: design: development): every candidate's values on the validation folds
# of each screen of the development panel, which `crocbench tuning choose` reads.


rule tuning_values:
    """Each compared run's summary metrics on each screen, from its scores on the validation folds (tuning: folds;
    their test compounds pooled), and a validation fold's job seconds (from the fold jobs' benchmark files): the
    candidates' values and costs that `crocbench tuning choose` compares."""
    input:
        folds=expand("results/{dataset}/folds.tsv", dataset=DATASETS),
        scores=expand(  # a trained run's validation folds
            "results/{dataset}/scores/{model}/fold_{fold}.parquet",
            dataset=DATASETS,
            model=[m for m in MODELS if m in TRAINED],
            fold=VALIDATION_FOLDS,
        ),
        imported=expand(  # an imported run's pooled scores, of which the validation folds are read
            "results/{dataset}/scores/{model}.parquet", dataset=DATASETS, model=[m for m in MODELS if m in IMPORTED]
        ),
        benchmarks=[  # the fold jobs that scored them: their seconds
            f"logs/{dataset}/benchmark/scores/{m}/{name}.tsv"
            for dataset in DATASETS
            for m in MODELS
            if m in TRAINED
            for name, _ in validation_jobs(m)
        ],
    output:
        "results/tuning/values.tsv",
    log:
        "logs/summary/tuning_values.log",
    benchmark:
        "logs/summary/benchmark/tuning_values.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        datasets=DATASETS,
        models=MODELS,
        imported=IMPORTED,
        labels=LABELS,
        jobs={m: [group for _, group in validation_jobs(m)] for m in MODELS if m in TRAINED},
        folds=VALIDATION_FOLDS,
    script:
        "../scripts/tuning_values.py"

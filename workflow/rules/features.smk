# The paper's depth-2 circular fingerprints and exact Tanimoto similarities.


rule fingerprints:
    input:
        "results/{dataset}/compounds.parquet",
    output:
        "results/{dataset}/fingerprints.npz",
    params:
        depth=config["fingerprints"]["depth"],
        fold=config["fingerprints"]["fold"],
    log:
        "logs/{dataset}/fingerprints.log",
    benchmark:
        "logs/{dataset}/benchmark/fingerprints.tsv"
    threads: 2
    resources:
        mem_mb=3000,
    conda:
        "../../envs/crocbench.yaml"
    script:
        "../scripts/fingerprints.py"


rule neighbours:
    input:
        "results/{dataset}/fingerprints.npz",
    output:
        "results/{dataset}/neighbours_k{k}.npz",
    params:
        block=config["similarity"]["block"],
    log:
        "logs/{dataset}/neighbours_k{k}.log",
    benchmark:
        "logs/{dataset}/benchmark/neighbours_k{k}.tsv"
    threads: 2
    resources:
        mem_mb=3000,
    conda:
        "../../envs/crocbench.yaml"
    script:
        "../scripts/neighbours.py"


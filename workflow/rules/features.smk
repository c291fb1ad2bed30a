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



rule similarity_matrix:
    """The N x N Tanimoto matrix (float32), computed once for the models whose class says `uses_matrix`
    (the SVM: its fold jobs read their kernels from it); deleted once they are done."""
    input:
        "results/{dataset}/fingerprints.npz",
    output:
        temp("results/{dataset}/similarity_matrix.npy"),
    params:
        block=config["similarity"]["block"],
    log:
        "logs/{dataset}/similarity_matrix.log",
    benchmark:
        "logs/{dataset}/benchmark/similarity_matrix.tsv"
    threads: 2
    resources:
        mem_mb=matrix_mem_mb,  # the file's pages, written through a memory map
    conda:
        "../../envs/crocbench.yaml"
    script:
        "../scripts/similarity_matrix.py"

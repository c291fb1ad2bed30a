# The paper's depth-2 circular fingerprints and exact Tanimoto similarities; ECFP for the ECFP rankers, and its bits
# as fingerprints for a similarity ranker's `features: ecfp4` arm.


checkpoint fingerprints:  # the neighbour search's chunk count follows from the number of compounds
    input:
        "results/{dataset}/compounds.parquet",
    output:
        "results/{dataset}/fingerprints.npz",
    log:
        "logs/{dataset}/fingerprints.log",
    benchmark:
        "logs/{dataset}/benchmark/fingerprints.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=3000,
    params:
        depth=config["fingerprints"]["depth"],
        fold=config["fingerprints"]["fold"],
    script:
        "../scripts/fingerprints.py"


rule ecfp:
    """ECFP for the models whose class says `uses_ecfp`: RDKit's Morgan counts folded to `ecfp.n_bits`, sparse."""
    input:
        "results/{dataset}/compounds.parquet",
    output:
        "results/{dataset}/ecfp.npz",
    log:
        "logs/{dataset}/ecfp.log",
    benchmark:
        "logs/{dataset}/benchmark/ecfp.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=3000,
    params:
        radius=config["ecfp"]["radius"],
        n_bits=config["ecfp"]["n_bits"],
    script:
        "../scripts/ecfp.py"


rule bit_fingerprints:
    """The ECFP4 bits as fingerprints (crocbench.chem.graph.ecfp4_fingerprints of `ecfp.npz`: the cluster and
    novelty splits' fingerprint), for the similarity rankers of an arm with `features: ecfp4`: their Tanimoto,
    neighbour lists and matrix are on these bits. An `ecfp:` other than radius 2 on 2,048 bits stops it."""
    input:
        "results/{dataset}/ecfp.npz",
    output:
        "results/{dataset}/fingerprints_ecfp4.npz",
    log:
        "logs/{dataset}/bit_fingerprints.log",
    benchmark:
        "logs/{dataset}/benchmark/bit_fingerprints.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=3000,
    params:
        ecfp=config["ecfp"],
    script:
        "../scripts/bit_fingerprints.py"


# {fp}: the fingerprint's suffix (crocbench._workflow._files.FEATURE_SUFFIX): none for the paper's, _ecfp4 for
# the ECFP4 bits; the chunk count follows from the number of compounds, the same for both.
rule neighbours_chunk:
    """One chunk of the all-pairs top-k: the best k candidates of every compound its tiles touch."""
    input:
        "results/{dataset}/fingerprints{fp}.npz",
    output:
        temp("results/{dataset}/neighbours{fp}_k{k}.chunks/{chunk}.npz"),
    log:
        "logs/{dataset}/neighbours{fp}_k{k}/chunk_{chunk}.log",
    benchmark:
        "logs/{dataset}/benchmark/neighbours{fp}_k{k}/chunk_{chunk}.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=neighbours_mem_mb,
    params:
        chunks=neighbour_chunks,
        tile=config["similarity"]["tile"],
    script:
        "../scripts/neighbours_chunk.py"


rule neighbours:
    """Every compound's top-k among all others, merged from the chunks (the same file for any chunk count)."""
    input:
        neighbour_chunk_files,
    output:
        "results/{dataset}/neighbours{fp}_k{k}.npz",
    log:
        "logs/{dataset}/neighbours{fp}_k{k}.log",
    benchmark:
        "logs/{dataset}/benchmark/neighbours{fp}_k{k}.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 1
    resources:
        mem_mb=neighbours_mem_mb,
    script:
        "../scripts/neighbours.py"


rule similarity_matrix:
    """The N x N Tanimoto matrix (float32), computed once for the models whose class says `uses_matrix`
    (the SVM: its fold jobs read their kernels from it); deleted once they are done."""
    input:
        "results/{dataset}/fingerprints{fp}.npz",
    output:
        temp("results/{dataset}/similarity_matrix{fp}.npy"),
    log:
        "logs/{dataset}/similarity_matrix{fp}.log",
    benchmark:
        "logs/{dataset}/benchmark/similarity_matrix{fp}.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=matrix_mem_mb,  # the file's pages, written through a memory map
    params:
        block=config["similarity"]["block"],
    script:
        "../scripts/similarity_matrix.py"


rule pains:
    """Each compound's PAINS alerts (RDKit's FilterCatalog), for the summary without them (summary: pains)."""
    input:
        "results/{dataset}/compounds.parquet",
    output:
        "results/{dataset}/pains.parquet",
    log:
        "logs/{dataset}/pains.log",
    benchmark:
        "logs/{dataset}/benchmark/pains.tsv"
    conda:
        "../../envs/crocbench.yaml"
    threads: 2
    resources:
        mem_mb=2000,
    script:
        "../scripts/pains.py"

from crocbench._workflow import step
from crocbench.fingerprints import load_fingerprints
from crocbench.similarity import save_neighbours, top_k

with step(snakemake) as log:
    fp = load_fingerprints(snakemake.input[0])
    nb = top_k(fp, int(snakemake.wildcards.k), block=snakemake.params.block, progress=log)
    save_neighbours(snakemake.output[0], nb)

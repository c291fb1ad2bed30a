from crocbench._workflow import step
from crocbench.fingerprints import load_fingerprints
from crocbench.similarity import tanimoto_matrix

with step(snakemake) as log:
    tanimoto_matrix(load_fingerprints(snakemake.input[0]), out=snakemake.output[0],
                    block=snakemake.params.block, progress=log)

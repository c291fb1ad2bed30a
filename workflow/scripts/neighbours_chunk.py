from crocbench._io import save_arrays
from crocbench._workflow import step
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.similarity import top_k_chunk

with step(snakemake) as log:
    fp = load_fingerprints(snakemake.input[0])
    part = top_k_chunk(
        fp,
        int(snakemake.wildcards.k),
        int(snakemake.wildcards.chunk),
        snakemake.params.chunks,
        tile=snakemake.params.tile,
        progress=log,
    )
    save_arrays(snakemake.output[0], **part)

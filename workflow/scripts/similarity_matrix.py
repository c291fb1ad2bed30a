import numpy as np

from crocbench._io import atomic_write
from crocbench._workflow import step
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.similarity import tanimoto_matrix

with step(snakemake) as log:
    # built in memory, then written in one sequential pass (faster here than through a memory map); complete or
    # absent (atomic_write)
    matrix = tanimoto_matrix(load_fingerprints(snakemake.input[0]), block=snakemake.params.block, progress=log)
    with atomic_write(snakemake.output[0], size=matrix.nbytes + 128) as tmp:
        np.save(tmp, matrix)

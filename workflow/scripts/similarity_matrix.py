import os

import numpy as np

from crocbench._workflow import step
from crocbench.fingerprints import load_fingerprints
from crocbench.similarity import tanimoto_matrix

with step(snakemake) as log:
    out = snakemake.output[0]
    part = out + ".part.npy"  # complete or absent: renamed once written
    try:  # built in memory, then written in one sequential pass (faster here than through a memory map)
        np.save(
            part, tanimoto_matrix(load_fingerprints(snakemake.input[0]), block=snakemake.params.block, progress=log)
        )
        os.replace(part, out)
    finally:
        if os.path.exists(part):
            os.remove(part)

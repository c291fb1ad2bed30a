import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.chem.ecfp import load_ecfp
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.chem.graph import ecfp4_fingerprints
from crocbench.cv import train_test_similarity
from crocbench.similarity import SimilarityIndex, load_neighbours

with step(snakemake) as log:
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str}, usecols=["id", "label", "fold"])
    if "ecfp" in snakemake.input.keys():  # a novelty split: measured on its fingerprint, the strata agree with it
        fp = ecfp4_fingerprints(load_ecfp(snakemake.input.ecfp), **snakemake.params.ecfp)
        data = SimilarityIndex(fp, block=snakemake.params.block)
    else:
        data = SimilarityIndex(
            load_fingerprints(snakemake.input.fingerprints),
            neighbours=load_neighbours(snakemake.input.neighbours),
            block=snakemake.params.block,
        )
    table = train_test_similarity(data, folds, progress=log)
    write_table(table, snakemake.output[0], index=False)
    print(f"{data.recomputed:,} rows computed beyond the top-k lists", file=log)

import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.cv import train_test_similarity
from crocbench.similarity import SimilarityIndex, load_neighbours

with step(snakemake) as log:
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str}, usecols=["id", "label", "fold"])
    data = SimilarityIndex(
        load_fingerprints(snakemake.input.fingerprints),
        neighbours=load_neighbours(snakemake.input.neighbours),
        block=snakemake.params.block,
    )
    table = train_test_similarity(data, folds, progress=log)
    write_table(table, snakemake.output[0], index=False)
    print(f"{data.recomputed:,} rows computed beyond the top-k lists", file=log)

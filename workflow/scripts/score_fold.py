import json

import pandas as pd

from crocbench._workflow import step
from crocbench.cv import score_fold
from crocbench.fingerprints import load_fingerprints
from crocbench.models import make_model
from crocbench.similarity import SimilarityIndex, load_neighbours

with step(snakemake) as log:
    fold, name = int(snakemake.wildcards.fold), snakemake.params.model
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    sim = SimilarityIndex(load_fingerprints(snakemake.input.fingerprints), load_neighbours(snakemake.input.neighbours),
                          block=snakemake.params.block)
    model = make_model(name, snakemake.params.model_params, seed=(snakemake.params.seed, fold), progress=log,
                       n_jobs=snakemake.threads)
    scores = score_fold(model, sim, folds, fold)
    scores.to_parquet(snakemake.output.scores, index=False)
    with open(snakemake.output.info, "w") as fh:
        json.dump({"run": snakemake.wildcards.model, "model": name, "fold": fold, **model.info()}, fh)
        fh.write("\n")
    print(f"{snakemake.wildcards.model} fold {fold}: {len(scores)} compounds scored; neighbour lists recomputed: {sim.recomputed}",
          file=log)

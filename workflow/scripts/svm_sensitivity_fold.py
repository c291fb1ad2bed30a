import pandas as pd

from crocbench._workflow import step
from crocbench.cv import split
from crocbench.fingerprints import load_fingerprints
from crocbench.models import SVM
from crocbench.similarity import SimilarityIndex

with step(snakemake) as log:
    fold, variant = int(snakemake.wildcards.fold), snakemake.wildcards.variant
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    sim = SimilarityIndex(load_fingerprints(snakemake.input.fingerprints))
    train, test = split(folds["fold"].to_numpy(), fold)
    y = folds["label"].to_numpy()
    grid = SVM.grid(sim, train, y[train], test, snakemake.params.C, snakemake.params.class_weight, progress=log)
    base = folds.iloc[test][["id", "fold", "label"]].reset_index(drop=True)
    parts = []
    for (C, class_weight), (decision, probability) in grid.items():
        for kind, values in (("decision", decision), ("platt", probability)):
            parts.append(base.assign(fingerprint=variant, C=C, class_weight=class_weight or "none", score=kind,
                                     value=values))
    pd.concat(parts, ignore_index=True).to_parquet(snakemake.output[0], index=False)

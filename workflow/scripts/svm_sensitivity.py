import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import remove_parts, resumable, signature, step
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.cv import DROPPED
from crocbench.models import grid_fold
from crocbench.similarity import KernelBuffer, SimilarityIndex

with step(snakemake) as log:
    C, class_weight = snakemake.params.C, snakemake.params.class_weight
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    sim = SimilarityIndex(load_fingerprints(snakemake.input.fingerprints))
    buffer = KernelBuffer()  # one kernel allocation for every fold
    key = signature(snakemake.input.fingerprints, snakemake.input.folds, C=C, class_weight=class_weight)

    def fold_scores(fold):
        print(f"fold {fold}", file=log, flush=True)
        return grid_fold(
            sim,
            folds,
            fold,
            C,
            class_weight,
            n_jobs=snakemake.threads,
            buffer=buffer,
            progress=log,
            fingerprint=snakemake.wildcards.variant,
        )

    parts = resumable(snakemake.params.parts, key, sorted(set(folds["fold"].tolist()) - {DROPPED}), fold_scores, log)
    write_table(pd.concat(parts, ignore_index=True), snakemake.output[0], index=False)
    remove_parts(snakemake.params.parts)

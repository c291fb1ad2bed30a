import contextlib
import json
import re

import pandas as pd

from crocbench._io import atomic_write, write_table
from crocbench._memory import keep_kernel_memory
from crocbench._workflow import features_read, step
from crocbench.chem.ecfp import load_ecfp
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.cv import cross_validate
from crocbench.models import make_model
from crocbench.similarity import MatrixFile, SimilarityIndex, load_neighbours

with step(snakemake) as log:
    run = snakemake.wildcards.model
    outputs = list(zip(*(([p] if isinstance(p, str) else p) for p in (snakemake.output.scores, snakemake.output.info))))
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    compounds = pd.read_parquet(snakemake.input.compounds, columns=["id", "smiles"])
    matrix = snakemake.input.get("matrix")  # the all-pairs matrix, for a model whose class says uses_matrix
    ecfp = snakemake.input.get("ecfp")  # ECFP, for a model whose class says uses_ecfp
    neighbours = snakemake.input.get("neighbours")  # not for a model whose class says uses_neighbours = False
    fingerprints, counts = load_fingerprints(snakemake.input.fingerprints), load_ecfp(ecfp) if ecfp else None
    sim = SimilarityIndex(
        fingerprints,
        neighbours and load_neighbours(neighbours),
        block=snakemake.params.block,
        ids=compounds["id"],
        smiles=compounds["smiles"],
        matrix=matrix and MatrixFile(matrix, threads=snakemake.threads),
        ecfp=counts,
    )
    # one fold (score_fold); all of a run's folds, then pooled (score_folds); or a share of them (score_folds_<n>_<j>)
    parts, read = [], None  # what the run's model read: its features and their sha256 (the same in every fold)
    fold_list = [int(re.search(r"fold_(\d+)\.parquet$", p).group(1)) for p, _ in outputs]  # the job's folds
    kept = keep_kernel_memory() if len(fold_list) > 1 else contextlib.nullcontext()
    with kept:  # one kernel allocation for all the job's folds: only the first writes fresh memory
        for fold, (scores_path, info_path) in zip(fold_list, outputs):
            before = sim.recomputed
            done = cross_validate(
                lambda k: make_model(
                    run,
                    snakemake.params.run,
                    seed=(snakemake.params.seed, k),
                    progress=log,
                    n_jobs=snakemake.threads,
                    search=snakemake.params.search,
                ),
                sim,
                folds,
                only=[fold],
            )
            scores, model = done.scores[fold], done.models[fold]
            write_table(scores, scores_path, index=False)
            parts.append(scores_path)
            info = model.info() if callable(getattr(model, "info", None)) else {}
            read = read or features_read(model, fingerprints, counts)
            with atomic_write(info_path) as tmp, open(tmp, "w") as fh:
                json.dump({"run": run, "model": snakemake.params.run["class"], "fold": fold, **read, **info}, fh)
                fh.write("\n")
            print(
                f"{run} fold {fold}: {len(scores)} compounds scored; neighbour lists recomputed: {sim.recomputed - before}",
                file=log,
                flush=True,
            )
            del done, model  # the next fold's fit starts without this one's model
    if "pooled" in snakemake.output.keys():  # score_folds: the pooled scores, as pool_scores writes them
        from crocbench.cv import pool_scores
        from crocbench.report import write_pooled

        pooled = pool_scores((pd.read_parquet(p) for p in parts), folds)  # as pool_scores.py reads them
        write_pooled(pooled, snakemake.params.top, snakemake.output.pooled, snakemake.output.per_fold, log)

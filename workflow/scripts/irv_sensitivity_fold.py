import json

import pandas as pd

from crocbench._io import atomic_write, write_table
from crocbench._workflow import step
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.paper._irv_study import optimizer_settings, run_study_fold
from crocbench.similarity import SimilarityIndex, load_neighbours

with step(snakemake) as log:
    fold, p = int(snakemake.wildcards.fold), snakemake.params
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    sim = SimilarityIndex(load_fingerprints(snakemake.input.fingerprints), load_neighbours(snakemake.input.neighbours))
    print(
        f"fold {fold}: {len(optimizer_settings(p.study['optimizers']))} optimizer settings x "
        f"{len(p.study['schemes'])} schemes, up to {p.study['max_epochs']} epochs each",
        file=log,
        flush=True,
    )
    runs, curve, rows = run_study_fold(
        sim,
        folds,
        fold,
        p.study,
        p.irv,
        p.reweighting,
        progress=lambda line: print(f"fold {fold}: {line}", file=log, flush=True),
    )
    parts = [rows.assign(setting=r["setting"], scheme=r["scheme"], stop=r["stop"], score=r["scores"]) for r in runs]
    write_table(pd.concat(parts, ignore_index=True), snakemake.output.scores, index=False)
    with atomic_write(snakemake.output.info) as tmp, open(tmp, "w") as fh:
        json.dump(
            {"fold": fold, "runs": [{k: v for k, v in r.items() if k != "scores"} for r in runs], "curve": curve}, fh
        )
        fh.write("\n")
    for r in runs:
        print(
            f"{r['setting']:>22} {r['scheme']:>14} {r['stop']:>16}: {r['epochs']} epochs"
            f"{'' if r['converged'] else ' (not converged)'}",
            file=log,
        )

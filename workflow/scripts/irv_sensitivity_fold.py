import json

import numpy as np
import pandas as pd

from crocbench._workflow import step
from crocbench.cv import fold_rows
from crocbench.fingerprints import load_fingerprints
from crocbench.models import IRV
from crocbench.models._irv_study import optimizer_settings, study_fold
from crocbench.similarity import SimilarityIndex, load_neighbours

with step(snakemake) as log:
    fold, p = int(snakemake.wildcards.fold), snakemake.params
    folds = pd.read_csv(snakemake.input.folds, sep="\t", dtype={"id": str})
    sim = SimilarityIndex(load_fingerprints(snakemake.input.fingerprints), load_neighbours(snakemake.input.neighbours))
    y, train, test, rows = fold_rows(sim, folds, fold)
    irv = IRV(k=p.irv.get("k", 20), dtype=p.irv.get("dtype", "float64"))
    irv.train_, irv.y_ = train, y[train].astype(np.int8)
    _, s, c = irv._inputs(sim, train)
    _, s_test, c_test = irv._inputs(sim, test)
    settings = optimizer_settings(p.study["optimizers"])
    print(f"fold {fold}: {len(settings)} optimizer settings x {len(p.study['schemes'])} schemes, up to "
          f"{p.study['max_epochs']} epochs each", file=log, flush=True)
    runs, curve = study_fold((s, c), irv.y_, (s_test, c_test), settings, p.study["schemes"],
                             max_epochs=p.study["max_epochs"], window=p.irv.get("window", 10),
                             tol=p.irv.get("tol", 1e-4), croc_tol=p.irv.get("croc_tol", 1e-3),
                             progress=lambda line: print(f"fold {fold}: {line}", file=log, flush=True), **p.reweighting)
    parts = [rows.assign(setting=r["setting"], scheme=r["scheme"], stop=r["stop"], score=r["scores"]) for r in runs]
    pd.concat(parts, ignore_index=True).to_parquet(snakemake.output.scores, index=False)
    with open(snakemake.output.info, "w") as fh:
        json.dump({"fold": fold, "runs": [{k: v for k, v in r.items() if k != "scores"} for r in runs],
                   "curve": curve}, fh)
        fh.write("\n")
    for r in runs:
        print(f"{r['setting']:>22} {r['scheme']:>14} {r['stop']:>16}: {r['epochs']} epochs"
              f"{'' if r['converged'] else ' (not converged)'}", file=log)

import pandas as pd

from crocbench._workflow import step
from crocbench.chem.fingerprints import fingerprints_from_smiles, require_parsed, save_fingerprints

with step(snakemake) as log:
    smiles = pd.read_parquet(snakemake.input[0], columns=["smiles"])["smiles"]
    reasons, fp = fingerprints_from_smiles(
        smiles, snakemake.params.depth, snakemake.params.fold, n_jobs=snakemake.threads, progress=log
    )
    require_parsed(reasons)
    save_fingerprints(snakemake.output[0], fp)
    print(f"{fp.n} compounds, {fp.ids.size} features set, {len(set(fp.ids.tolist()))} distinct", file=log)

import pandas as pd

from crocbench._workflow import step
from crocbench.chem.fingerprints import require_parsed, save_fingerprints, variant_fingerprints

with step(snakemake) as log:
    smiles = pd.read_parquet(snakemake.input[0], columns=["smiles"])["smiles"]
    reasons, fp = variant_fingerprints(
        snakemake.wildcards.variant, smiles, snakemake.params.depth, n_jobs=snakemake.threads, progress=log
    )
    require_parsed(reasons)
    save_fingerprints(snakemake.output[0], fp)
    print(f"{snakemake.wildcards.variant}: {fp.n} compounds, {len(set(fp.ids.tolist()))} distinct features", file=log)

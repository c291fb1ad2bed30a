import pandas as pd

from crocbench._workflow import step
from crocbench.fingerprints import save_fingerprints, variant_fingerprints

with step(snakemake) as log:
    smiles = pd.read_parquet(snakemake.input[0], columns=["smiles"])["smiles"]
    reasons, fp = variant_fingerprints(snakemake.wildcards.variant, smiles, snakemake.params.depth,
                                       n_jobs=snakemake.threads, progress=log)
    failed = [(i, r) for i, r in enumerate(reasons) if r is not None]
    if failed:
        raise ValueError(f"{len(failed)} standardized SMILES no longer parse, first row {failed[0][0]}: {failed[0][1]}")
    save_fingerprints(snakemake.output[0], fp)
    print(f"{snakemake.wildcards.variant}: {fp.n} compounds, {len(set(fp.ids.tolist()))} distinct features", file=log)

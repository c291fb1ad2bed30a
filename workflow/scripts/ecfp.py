import pandas as pd

from crocbench._workflow import step
from crocbench.chem.ecfp import ecfp_counts, save_ecfp
from crocbench.chem.fingerprints import require_parsed

with step(snakemake) as log:
    smiles = pd.read_parquet(snakemake.input[0], columns=["smiles"])["smiles"]
    radius, n_bits = snakemake.params.radius, snakemake.params.n_bits
    reasons, counts = ecfp_counts(smiles, radius, n_bits, n_jobs=snakemake.threads, progress=log)
    require_parsed(reasons)
    save_ecfp(snakemake.output[0], counts, radius)
    print(f"{counts.shape[0]} compounds, ECFP radius {radius} on {n_bits} bits: {counts.nnz} set", file=log)

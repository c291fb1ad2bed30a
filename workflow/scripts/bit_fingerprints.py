from crocbench._workflow import step
from crocbench.chem.ecfp import load_ecfp
from crocbench.chem.fingerprints import save_fingerprints
from crocbench.chem.graph import ecfp4_fingerprints

with step(snakemake) as log:
    fp = ecfp4_fingerprints(load_ecfp(snakemake.input[0]), **snakemake.params.ecfp)
    save_fingerprints(snakemake.output[0], fp)
    print(f"{fp.n} compounds, ECFP4 bits as fingerprints: {fp.ids.size} set", file=log)

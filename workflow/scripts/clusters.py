import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.chem.clusters import bit_fingerprints, cluster_summary, leader_clusters
from crocbench.chem.ecfp import load_ecfp

with step(snakemake) as log:
    ids = pd.read_parquet(snakemake.input.compounds, columns=["id"])["id"]
    clusters = leader_clusters(
        bit_fingerprints(load_ecfp(snakemake.input.ecfp)), snakemake.params.threshold, progress=log
    )
    write_table(pd.DataFrame({"id": ids, "cluster": clusters}), snakemake.output[0], index=False)
    print(cluster_summary(clusters), file=log)

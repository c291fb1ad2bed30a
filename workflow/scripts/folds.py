import json

import pandas as pd

from crocbench._io import write_bytes, write_table
from crocbench._workflow import step
from crocbench.cv import fold_table, read_split_groups

with step(snakemake) as log:
    compounds = pd.read_parquet(snakemake.input.compounds, columns=["id", "label"])
    if snakemake.params.split == "novelty":
        from crocbench.chem.ecfp import load_ecfp
        from crocbench.chem.graph import ecfp4_fingerprints, tau_graph
        from crocbench.cv import certificate, certificate_bytes, novelty_table

        settings = snakemake.params.novelty
        fp = ecfp4_fingerprints(load_ecfp(snakemake.input.ecfp), **snakemake.params.ecfp)
        graph = tau_graph(fp, settings["tau"])
        table = novelty_table(
            compounds["id"],
            compounds["label"],
            graph,
            settings["tau"],
            snakemake.params.n_folds,
            snakemake.params.seed,
            settings["max_dropped"],
        )
        cert = certificate(table, fp, settings["tau"], settings["fingerprint"])
        print(f"tau-graph: {graph.nnz // 2:,} pairs at or above {settings['tau']:g}", file=log)
        print(json.dumps(cert["dropped"] | {"ids": len(cert["dropped"]["ids"])}), file=log)
    else:
        groups = read_split_groups(
            compounds["id"], **{k: snakemake.input[k] for k in ("scaffolds", "clusters") if k in snakemake.input.keys()}
        )
        table = fold_table(
            compounds["id"], compounds["label"], snakemake.params.n_folds, snakemake.params.seed, **groups
        )
    write_table(table, snakemake.output.folds, sep="\t", index=False)
    if snakemake.params.split == "novelty":
        write_bytes(snakemake.output.certificate, certificate_bytes(cert))
    print(table.groupby("fold")["label"].agg(["size", "sum"]).to_string(), file=log)

import json

from crocbench._workflow import step
from crocbench.data import Dataset, standardize

with step(snakemake) as log:
    dataset = snakemake.wildcards.dataset
    spec = snakemake.config["datasets"][dataset]
    compounds, rejected, summary = standardize(Dataset.from_config(dataset, spec), snakemake.params.folder,
                                               n_jobs=snakemake.threads, progress=log)
    compounds.to_parquet(snakemake.output.compounds, index=False)
    rejected.to_csv(snakemake.output.rejected, sep="\t", index=False)
    with open(snakemake.output.summary, "w") as fh:
        json.dump(summary, fh, indent=2)
        fh.write("\n")
    print(json.dumps(summary, indent=2), file=log)

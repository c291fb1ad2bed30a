import json
import sys

from crocbench._workflow import step
from crocbench.data import Dataset, record_checksums, standardize, verify_checksums

with step(snakemake) as log:
    dataset = snakemake.wildcards.dataset
    spec = Dataset.from_config(dataset, snakemake.config["datasets"][dataset])
    verify_checksums(spec.files, snakemake.params.folder, snakemake.params.lock, dataset)  # no copy read unverified
    compounds, rejected, summary = standardize(
        spec, snakemake.params.folder, n_jobs=snakemake.threads, progress=log, n_folds=snakemake.params.n_folds
    )
    # every file was read to its end: only now is a file without a published sha256 trusted (lock file)
    record_checksums(spec.files, snakemake.params.folder, snakemake.params.lock, dataset)
    compounds.to_parquet(snakemake.output.compounds, index=False)
    rejected.to_csv(snakemake.output.rejected, sep="\t", index=False)
    with open(snakemake.output.summary, "w") as fh:
        json.dump(summary, fh, indent=2)
        fh.write("\n")
    print(json.dumps(summary, indent=2), file=log)
    if summary["rejected"]:  # on the console, not only in the log
        reasons = ", ".join(f"{n} {why}" for why, n in summary["rejected_by_reason"].items())
        print(
            f"{dataset}: {summary['rejected']} of {summary['rows_in']} records rejected ({reasons}); "
            f"each is listed with its reason in {snakemake.output.rejected}",
            file=sys.__stderr__,
            flush=True,
        )

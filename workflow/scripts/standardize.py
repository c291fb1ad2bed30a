import json
import sys

from crocbench._io import atomic_write, write_table
from crocbench._workflow import step
from crocbench.data import Dataset, standardize_files

with step(snakemake) as log:
    dataset = snakemake.wildcards.dataset
    spec = Dataset.from_config(dataset, snakemake.config["datasets"][dataset])
    # each raw copy verified before it is read, trusted (lock file) once read to its end, removed if not trusted
    # yet and reading fails (so that a file fixed in the mirror is fetched again)
    compounds, rejected, summary = standardize_files(
        spec, snakemake.params.folder, snakemake.params.lock, snakemake.threads, log, snakemake.params.n_folds
    )
    write_table(compounds, snakemake.output.compounds, index=False)
    write_table(rejected, snakemake.output.rejected, sep="\t", index=False)
    with atomic_write(snakemake.output.summary) as tmp, open(tmp, "w") as fh:
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

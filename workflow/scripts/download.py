from pathlib import Path

from crocbench._workflow import step
from crocbench.data import Fetching, Ledger, obtain, resolve_mirror

with step(snakemake) as log:
    entry, settings = snakemake.params.entry, snakemake.config["download"]
    how = Fetching(
        mirror=resolve_mirror(snakemake.config.get("mirror"), Path.cwd()),
        retries=settings["retries"],
        timeout=settings["timeout_s"],
        progress=log,
    )
    # the sha256 of a file that declares none is recorded only once standardize has read it whole
    key = Ledger.key(snakemake.wildcards.dataset, entry)
    obtain(entry, snakemake.output[0], ledger=Ledger(snakemake.params.lock), key=key, record=False, how=how)

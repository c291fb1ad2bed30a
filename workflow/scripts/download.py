from pathlib import Path

from crocbench._workflow import step
from crocbench.data import fetch, resolve_mirror

with step(snakemake) as log:
    entry, p = snakemake.params.entry, snakemake.params
    fetch(entry["url"], snakemake.output[0], entry.get("sha256"), mirror=resolve_mirror(p.mirror, Path.cwd()),
          name=entry["name"], lock=p.lock, lock_key=f"{snakemake.wildcards.dataset}/{entry['name']}", record=False,
          retries=p.retries, timeout=p.timeout, progress=log)

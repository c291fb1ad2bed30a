from pathlib import Path

from crocbench._workflow import step
from crocbench.data import fetch, make_file, resolve_mirror

with step(snakemake) as log:
    entry, p = snakemake.params.entry, snakemake.params
    where = dict(
        mirror=resolve_mirror(p.mirror, Path.cwd()),
        name=entry["name"],
        lock=p.lock,
        lock_key=f"{snakemake.wildcards.dataset}/{entry['name']}",
        record=False,
        progress=log,
    )
    if "command" in entry:  # a file the dataset builds (e.g. `crocbench synthesize`), checked like a download
        make_file(entry["command"], snakemake.output[0], entry.get("sha256"), **where)
    else:
        fetch(entry["url"], snakemake.output[0], entry.get("sha256"), retries=p.retries, timeout=p.timeout, **where)

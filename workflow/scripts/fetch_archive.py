from pathlib import Path

from crocbench._workflow import step
from crocbench.data import fetch, fetch_package, resolve_mirror

with step(snakemake) as log:
    entry, p = snakemake.params.entry, snakemake.params
    mirror = resolve_mirror(p.mirror, Path.cwd())
    if "package" in entry:  # a release published only through a package index: pip's own client
        fetch_package(
            entry["package"],
            snakemake.output[0],
            entry["sha256"],
            mirror=mirror,
            name=entry["name"],
            python_version=entry.get("python_version"),
            progress=log,
        )
    else:
        fetch(
            entry["url"],
            snakemake.output[0],
            entry["sha256"],
            mirror=mirror,
            name=entry["name"],
            retries=p.retries,
            timeout=p.timeout,
            progress=log,
        )

from pathlib import Path

from crocbench._workflow import step
from crocbench.data import extract_member, fetch, make_file, resolve_mirror

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
    if "member" in entry:  # one member of an archive (fetched by fetch_archive), read without unpacking the rest
        extract_member(
            snakemake.input[0],
            entry["member"],
            snakemake.output[0],
            entry.get("sha256"),
            lock=p.lock,
            lock_key=where["lock_key"],
            record=False,
            progress=log,
        )
    elif "command" in entry:  # a file the dataset builds (e.g. `crocbench synthesize`), checked like a download
        make_file(entry["command"], snakemake.output[0], entry.get("sha256"), **where)
    else:
        fetch(entry["url"], snakemake.output[0], entry.get("sha256"), retries=p.retries, timeout=p.timeout, **where)

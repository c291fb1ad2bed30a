from pathlib import Path

from crocbench._workflow import step
from crocbench.data import extract_member, fetch, fetch_archive, make_file, resolve_mirror

with step(snakemake) as log:
    entry, p, settings = snakemake.params.entry, snakemake.params, snakemake.config["download"]
    mirror = resolve_mirror(snakemake.config.get("mirror"), Path.cwd())
    transport = dict(retries=settings["retries"], timeout=settings["timeout_s"])
    checked = dict(  # how a file is checked and recorded, wherever it comes from
        lock=p.lock,
        lock_key=f"{snakemake.wildcards.dataset}/{entry['name']}",
        record=False,
        progress=log,
    )
    where = dict(mirror=mirror, name=entry["name"], **checked)
    if "member" in entry:  # one member of an archive (fetched once to data/archives/), read without unpacking the rest
        archive = fetch_archive(entry["archive"], "data/archives", mirror=mirror, progress=log, **transport)
        extract_member(archive, entry["member"], snakemake.output[0], entry.get("sha256"), **checked)
    elif "command" in entry:  # a file the dataset builds (e.g. `crocbench synthesize`), checked like a download
        make_file(entry["command"], snakemake.output[0], entry.get("sha256"), **where)
    else:
        fetch(entry["url"], snakemake.output[0], entry.get("sha256"), **transport, **where)

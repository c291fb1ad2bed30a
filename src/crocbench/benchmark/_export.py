"""A benchmark's screens exported: each screen's compounds, labels and folds, from the mirror or a download,
without training anything; and the spec frozen from them.

A screen's table is what a workflow run of the spec's config makes: the dataset standardized as it declares
(duplicates resolved by its ``duplicates:`` policy), then its folds (:func:`crocbench.cv.fold_table`, the same
seed per repeat, the scaffold or cluster groups of a grouped split; :func:`crocbench.cv.novelty_table` under a
novelty split, its dropped compounds in fold -1). The file holds ``id, smiles, label`` and
one fold column per repeat, as CSV, whose sha256 the spec lists; a Parquet export holds the same table, and its
sha256 is taken of the table written as that CSV.

Under a novelty split each fold column has its certificate (:mod:`crocbench.benchmark._splits`).

An export of a committed spec reads its recipe (:mod:`crocbench.benchmark._recipe`: its config and reference,
frozen beside it in package data), so it runs from a bare install; of another spec, a crocbench checkout (the
spec's config files, ``config.yaml``, its reference: :func:`checkout`). It keeps the standardized tables and the
screen files it makes and the archives it downloads in the user's cache (:mod:`crocbench.benchmark._cache`,
:func:`crocbench.data.user_cache`), and its raw files in a scratch folder ``.export-*`` in the export folder while
it runs; the scratch folder of an export that was killed is removed by the next export into that folder.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from ..cv import NOVELTY
from ._cache import cache_key, cached_export, keep_export, read_cached, write_cached
from ._read import SCREEN_COLUMNS, read_screen, table_bytes
from ._recipe import checkout, export_inputs, make_recipe, recipe_path, reference_values, spec_config
from ._scratch import scratch
from ._spec import REFERENCE_FILE, SPEC_FILE, Spec, parse_spec, screen_file, sha256_bytes, spec_bytes, write_spec
from ._splits import certificates as certificates_of
from ._splits import holds, novelty_folds, split_groups


def screen_table(spec: Spec, config: dict, screen: str, work, root=".", n_jobs=None, progress=None, cached=True):
    """One screen's export table: ``id, smiles, label`` and its fold columns (:meth:`crocbench.benchmark.Spec.fold_columns`).

    The standardized compounds come from the user's cache when it holds them (:mod:`crocbench.benchmark._cache`:
    keyed by the raw files' sha256, the standardization's version and the dataset's declaration); else the raw
    files are fetched and standardized, and the table is cached.

    Parameters
    ----------
    spec : Spec
        The benchmark.
    config : dict
        Its config, as :func:`crocbench.benchmark._recipe.spec_config` gives it (checked against the spec's split).
    screen : str
        One of ``spec.screens``.
    work : path
        A scratch folder for the raw files.
    root : path, default="."
        The project folder (its mirror setting). Archives go to ``<user cache>/archives``
        (:func:`crocbench.data.user_cache`).
    n_jobs : int, optional
        Processes parsing the structures (default: every core this process may run on,
        ``crocbench._parallel.available_cores``).
    progress : file-like or None
        Where progress lines go.
    cached : bool, default=True
        Take the standardized compounds from the cache when it holds them (False: standardize afresh, and cache).

    Returns
    -------
    DataFrame
    """
    return _screen_table(spec, config, screen, work, root, n_jobs, progress, cached)[0]


def _screen_table(spec: Spec, config: dict, screen: str, work, root, n_jobs, progress, cached: bool):
    """:func:`screen_table`'s table, and under a novelty split the compounds' fingerprints (else None)."""
    from .._parallel import available_cores
    from ..cv import fold_table, repeat_seed
    from ..data import Dataset, Fetching, Ledger, obtain, resolve_mirror, sha256_of, standardize_files, user_cache

    if screen not in config["datasets"]:
        raise ValueError(f"benchmark {spec.name}: screen {screen!r} is not declared by its config")
    n_jobs = available_cores() if n_jobs is None else n_jobs
    dataset = Dataset.from_config(screen, config["datasets"][screen])
    folder = Path(work) / "data" / screen
    folder.mkdir(parents=True, exist_ok=True)
    lock = Path(work) / "checksums.lock.json"
    how = Fetching(
        mirror=resolve_mirror(config.get("mirror"), Path(root)),
        retries=config["download"]["retries"],
        timeout=config["download"]["timeout_s"],
        progress=progress,
        archives=user_cache() / "archives",
    )
    ledger = Ledger(lock)

    def fetch() -> None:
        for entry in dataset.files:
            dest = folder / entry["name"]
            if not dest.is_file():
                obtain(entry, dest, ledger=ledger, key=Ledger.key(screen, entry), record=False, how=how)

    digests = [entry.get("sha256") for entry in dataset.files]
    if not all(digests):  # a file that declares no sha256 is hashed from its copy
        fetch()
        digests = [d or sha256_of(folder / e["name"]) for d, e in zip(digests, dataset.files)]
    key = cache_key(config["datasets"][screen], digests)
    table = read_cached(key) if cached else None
    if table is None:
        fetch()
        _say(progress, f"{screen}: standardizing on {n_jobs} processes")
        compounds, _, _ = standardize_files(dataset, folder, lock, n_jobs, progress, spec.split["folds"])
        table = compounds[list(SCREEN_COLUMNS)].copy()
        table["id"] = table["id"].astype(str)
        table["label"] = table["label"].astype("int8")
        write_cached(key, table)
    else:
        _say(progress, f"{screen}: standardized table from the cache")
    if spec.split["kind"] == NOVELTY:
        return table, novelty_folds(spec, table, n_jobs)
    groups = split_groups(spec, config, table, n_jobs, progress)
    for r, column in enumerate(spec.fold_columns()):
        seed = repeat_seed(spec.split["seed"], r)
        table[column] = fold_table(table["id"], table["label"], spec.split["folds"], seed, **groups)["fold"].to_numpy()
    return table, None


def _write_table(table: pd.DataFrame, data: bytes, path: Path, fmt: str) -> None:
    """Write a screen's table: its CSV bytes ``data`` (:func:`table_bytes`), or the table as Parquet."""
    from .._io import write_bytes, write_table

    if fmt == "csv":
        write_bytes(path, data)
    else:
        write_table(table, path, index=False)


def _copy(source: Path, path: Path) -> None:
    """Copy the file ``source`` to ``path``, whole or not at all."""
    import shutil

    from .._io import atomic_write

    with atomic_write(path) as tmp:
        shutil.copyfile(source, tmp)


def _say(progress, line: str) -> None:
    if progress is not None:
        print(line, file=progress, flush=True)


def export(
    spec: Spec,
    out,
    root=None,
    screens=None,
    fmt: str = "csv",
    n_jobs: int | None = None,
    progress=sys.stderr,
) -> dict:
    """Export a benchmark's screens into ``out``: ``<screen>.csv`` (or ``.parquet``) per screen,
    :data:`REFERENCE_FILE` and the spec (:data:`SPEC_FILE`, byte for byte the committed one).

    Every file is written whole or not at all; a screen already in ``out`` with the spec's sha256 is kept, so an
    interrupted export resumes. The spec is written last: a folder holding it is a finished export.

    Parameters
    ----------
    spec : Spec
        The benchmark (:func:`crocbench.benchmark.find_spec`).
    out : path
        The export folder.
    root : path, optional
        The crocbench checkout (config files, the reference, the mirror setting); default :func:`checkout`'s.
    screens : sequence of str, optional
        A subset of the spec's screens (default: all).
    fmt : {"csv", "parquet"}, default="csv"
    n_jobs : int, optional
        Processes parsing the structures (default: every core, ``crocbench._parallel.available_cores``).
    progress : file-like or None, default=sys.stderr
        A line per screen, and the standardization's progress.

    Returns
    -------
    dict
        ``{file name: {"sha256", "compounds", "actives"}}`` of the files exported.

    Raises
    ------
    ValueError
        An unknown screen, a spec not yet frozen, a config that disagrees with the spec's split, or a table that
        is not the spec's (its sha256): the data or the code moved, and nothing of that screen is written.
    """
    from .._io import write_bytes

    if fmt not in ("csv", "parquet"):
        raise ValueError(f"format must be csv or parquet; got {fmt!r}")
    chosen = spec.chosen(screens)
    spec.check_frozen()
    root = checkout(root)
    config, reference = export_inputs(spec, root)
    out = Path(out)
    done = _export_screens(spec, config, out, root, chosen, fmt, n_jobs, progress, verify=True)
    done[REFERENCE_FILE] = {"sha256": sha256_bytes(reference)}
    if done[REFERENCE_FILE]["sha256"] != spec.files[REFERENCE_FILE]["sha256"]:
        raise ValueError(
            f"benchmark {spec.title}: the reference {spec.reference} no longer gives the values it was frozen with"
        )
    write_bytes(out / REFERENCE_FILE, reference)
    write_bytes(out / SPEC_FILE, spec_bytes(spec.as_dict()))
    return done


def _export_screens(spec, config, out: Path, root, chosen, fmt, n_jobs, progress, verify: bool, done=None) -> dict:
    """Write each chosen screen's table (and certificates) into ``out`` and return their file entries; ``verify``
    checks each against the spec's sha256 (and keeps one already exported with it). ``done(name, entry)`` is
    called as each lands, a screen's certificates before its table."""
    from .._io import write_bytes

    out.mkdir(parents=True, exist_ok=True)
    files = {}
    with scratch(out) as work:
        for i, screen in enumerate(chosen, 1):
            name = screen_file(screen)
            path = out / (name if fmt == "csv" else f"{screen}.parquet")
            expected = spec.files.get(name, {}).get("sha256")
            if verify and path.is_file():
                try:
                    table = read_screen(path, spec, expected)
                except ValueError:
                    table = None
                certified = [n for n in spec.certificate_files(screen).values()]
                if table is not None and all(holds(out / n, spec.files[n]["sha256"]) for n in certified):
                    files.update({n: spec.files[n] for n in certified})
                    files[name] = spec.files[name]
                    _say(progress, f"[{i}/{len(chosen)}] {screen}: already exported")
                    continue
            start = time.perf_counter()
            # this very file, exported before: its bytes hashed again (a novelty split's certificates are remade)
            kept = cached_export(expected) if verify and fmt == "csv" and spec.split["kind"] != NOVELTY else None
            if kept is not None:
                _copy(kept, path)
                files[name] = spec.files[name]
                _say(progress, f"[{i}/{len(chosen)}] {screen}: {files[name]['compounds']:,} compounds, from the cache")
                continue
            table, fp = _screen_table(spec, config, screen, work, root, n_jobs, progress, cached=verify)
            data = table_bytes(table)
            digest = sha256_bytes(data)
            if verify and digest != expected:
                raise ValueError(
                    f"benchmark {spec.title}: screen {screen}'s table has sha256 {digest[:12]}, the spec lists "
                    f"{str(expected)[:12]}: the data or the code moved since it was frozen (nothing of it written)"
                )
            for cert_name, cert in certificates_of(spec, screen, table, fp, verify).items():
                write_bytes(out / cert_name, cert)
                files[cert_name] = {"sha256": sha256_bytes(cert)}
                if done is not None:
                    done(cert_name, files[cert_name])
            _write_table(table, data, path, fmt)
            keep_export(data, digest)
            files[name] = {"sha256": digest, "compounds": len(table), "actives": int(table["label"].sum())}
            if done is not None:
                done(name, files[name])
            _say(
                progress,
                f"[{i}/{len(chosen)}] {screen}: {len(table):,} compounds, {files[name]['actives']:,} actives "
                f"({time.perf_counter() - start:.0f} s)",
            )
    return files


def freeze(path, root=None, screens=None, missing: bool = False, progress=sys.stderr) -> Spec:
    """Hash a spec's screens from a fresh export, then its reference, and write the spec in place.

    A spec moves only on purpose: freezing it is how, and its new sha256 is a new benchmark (raise its
    ``version`` when what it scores changed). The spec's config and split are checked first, and nothing moves
    when they fail. Then the chosen screens' and the reference's hashes are dropped, and each screen's hash is
    written into the spec as it is taken: an interrupted freeze keeps what it did, ``missing`` resumes it, and a
    panel whose screens land one at a time is frozen as they land. The reference is hashed last, once every screen
    holds a hash; until then the spec holds none, and export refuses it. Hashes of files the spec no longer names
    are dropped.

    Parameters
    ----------
    path : path
        The spec file (a committed one is ``src/crocbench/benchmark/specs/<name>.json``).
    root : path, optional
        The crocbench checkout (default :func:`checkout`'s).
    screens : sequence of str, optional
        The screens to hash (default: all); the others keep the hashes the spec holds.
    missing : bool, default=False
        Hash only the screens the spec holds no hash for (resume a freeze).
    progress : file-like or None

    Returns
    -------
    Spec
        The spec written.

    Raises
    ------
    ValueError
        An unknown screen, a config that disagrees with the spec's split, or a reference that does not yet hold
        every screen's and ranker's values (the screens' hashes are written, the reference's is not).
    """
    from ._spec import read_spec

    spec = read_spec(path)
    chosen = spec.chosen(screens)
    if missing:
        chosen = [s for s in chosen if s in spec.unhashed()]
    root = checkout(root)
    config = spec_config(spec, root)
    kept = {screen_file(s) for s in spec.screens if s not in chosen}
    files = {name: entry for name, entry in spec.files.items() if name in kept}

    def written(files):
        return write_spec({**spec.as_dict(), "files": files}, path)

    def landed(name, entry):
        files[name] = entry
        written(files)

    if chosen:
        written(files)  # the chosen screens' and the reference's hashes go before the first new one
        with tempfile.TemporaryDirectory(prefix=".freeze-") as out:
            _export_screens(spec, config, Path(out), root, chosen, "csv", None, progress, verify=False, done=landed)
    spec = parse_spec(spec_bytes({**spec.as_dict(), "files": files}))  # on disk where a screen was hashed
    if spec.unhashed():
        _say(progress, f"{spec.name}: {len(spec.unhashed())} screens still unhashed; no reference hash")
        return spec
    try:
        reference = reference_values(spec, root)
    except ValueError as error:
        raise ValueError(f"{error}: every screen is hashed and the reference is not; freeze again once it is") from None
    spec = written({**files, REFERENCE_FILE: {"sha256": sha256_bytes(table_bytes(reference))}})
    freeze_recipe(path, root)
    return spec


def freeze_recipe(path, root=None) -> Path:
    """Write the recipe of the frozen spec file ``path`` beside it, from the checkout ``root`` (default
    :func:`checkout`'s): ``<its folder>/recipes/<name>.json``, what an export of the spec reads in place of a
    checkout (the config's ``cv``, ``download`` and ``ecfp`` sections, its screens' declarations, the reference's
    values) with the spec's sha256.

    Parameters
    ----------
    path : path
        The frozen spec file (a committed one is ``src/crocbench/benchmark/specs/<name>.json``).
    root : path, optional
        The crocbench checkout.

    Returns
    -------
    Path
        The recipe written.

    Raises
    ------
    ValueError
        The spec is not frozen, or the checkout's reference no longer gives the values it was frozen with.
    """
    from .._io import write_bytes
    from ._spec import read_spec

    spec = read_spec(path)
    spec.check_frozen()
    target = recipe_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_bytes(target, make_recipe(spec, checkout(root)))
    return target

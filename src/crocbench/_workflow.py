"""What every workflow script does around its one library call: log to the rule's log file, use its threads."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import time
import traceback
from pathlib import Path


@contextlib.contextmanager
def step(smk):
    """Run a workflow step: stdout/stderr go to ``smk.log[0]``; torch uses ``smk.threads``.

    An error is written to the log (message first, then the traceback) and re-raised,
    so Snakemake stops and names the log.
    """
    threads = max(1, int(getattr(smk, "threads", 1)))
    os.environ["OMP_NUM_THREADS"] = str(threads)
    log = open(smk.log[0], "w", buffering=1) if smk.log else sys.stderr
    start = time.perf_counter()
    with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        try:
            if "torch" in sys.modules:  # else OMP_NUM_THREADS applies when it is imported
                sys.modules["torch"].set_num_threads(threads)
            yield log
        except BaseException as exc:
            print(f"ERROR: {exc}", file=log)
            traceback.print_exc(file=log)
            raise
        finally:
            print(f"done in {time.perf_counter() - start:.1f} s", file=log)
            if log is not sys.stderr:
                log.close()


def signature(*files, **params) -> str:
    """A short hash of input files' bytes and JSON-able parameters: what a resumable step's parts depend on."""
    h = hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode())
    for f in files:
        with open(f, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()[:16]


def resumable(directory, key: str, names, compute, log=None) -> list:
    """``[compute(name) for name in names]`` (pandas tables), each kept in ``directory`` as soon as it is done.

    An interrupted step, run again with the same ``key`` (:func:`signature` of
    its inputs and parameters), reuses the parts already there instead of
    recomputing them; parts of another key are ignored.  Each part is written
    under a temporary name and renamed, so a part on disk is always complete.
    The caller removes ``directory`` (:func:`remove_parts`) once its output is written.
    """
    import pandas as pd

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name in names:
        part = directory / f"{name}.{key}.parquet"
        if part.exists():
            out.append(pd.read_parquet(part))
            if log is not None:
                print(f"{name}: reused from an interrupted run ({part})", file=log, flush=True)
            continue
        table = compute(name)
        tmp = part.with_name(part.name + ".tmp")
        table.to_parquet(tmp, index=False)
        os.replace(tmp, part)
        out.append(table)
    return out


def remove_parts(directory) -> None:
    """Remove a :func:`resumable` step's parts once its output is complete."""
    shutil.rmtree(directory, ignore_errors=True)

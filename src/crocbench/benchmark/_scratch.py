"""An export's scratch folder: where its raw files are while it runs, inside the export folder, and what a killed
export left there removed by the next.

A live export holds a lock (``flock``) on its scratch folder, which the kernel releases when the process ends in
any way; a scratch folder whose lock can be taken belongs to no live export and is removed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

#: The prefix of an export's scratch folder inside the export folder.
SCRATCH_PREFIX = ".export-"


@contextlib.contextmanager
def scratch(out: Path):
    """A scratch folder ``.export-*`` in ``out``, removed when done, and held by a lock while this process lives:
    first the scratch folders of exports that died (killed: no process holds their lock) are removed."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): nothing is known of other exports' folders
        fcntl = None
    if fcntl is not None:
        for old in sorted(out.glob(f"{SCRATCH_PREFIX}*")):
            _remove_if_dead(old, fcntl)
    with tempfile.TemporaryDirectory(prefix=SCRATCH_PREFIX, dir=out) as work:
        if fcntl is None:
            yield Path(work)
            return
        fd = os.open(work, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released by the kernel when this process dies
            yield Path(work)
        finally:
            os.close(fd)


def _remove_if_dead(folder: Path, fcntl) -> None:
    """Remove an export's scratch folder unless a live process holds its lock."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # gone meanwhile, or not a folder
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # a live export's
        return
    else:
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        os.close(fd)

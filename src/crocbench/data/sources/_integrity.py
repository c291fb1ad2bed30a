"""Integrity, written once for every kind of source: sha256, the ledger of recorded ones, and the checked rename.

A file is written under a temporary name beside its destination (:func:`crocbench._io.atomic_write`, the one
atomic write of the project) and renamed into place only
once its sha256 is the declared one or, for a file that declares none, the one recorded in the ledger (trust on
first use). So the destination is never a partial or a wrong file, whatever stops the write.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from ..._io import atomic_write, write_text
from ._base import DownloadError

_CHUNK = 1 << 20


def sha256_of(path) -> str:
    """The sha256 of a file, read in chunks.

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    str
        The hexadecimal digest, lower case.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_bytes(b"abc")
    >>> sha256_of(p)[:16]
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def locked(path):
    """Hold an exclusive lock (``flock``) on ``path``'s companion ``PATH.flock`` while the block runs.

    Parameters
    ----------
    path : str or Path
        The file the lock protects; its folder is created if missing.

    Yields
    ------
    None
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".flock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_space(path, size: int | None) -> None:
    """Refuse before writing ``size`` bytes to ``path`` when its file system has less free space.

    Parameters
    ----------
    path : str or Path
        The file about to be written (its folder must exist).
    size : int or None
        The bytes to write; None when unknown (nothing is checked).

    Returns
    -------
    None

    Raises
    ------
    OSError
        ``ENOSPC``, with the bytes needed as ``needed``: the atomic write around it
        (:func:`crocbench._io.atomic_write`) turns it into its one line.
    """
    if size is None:
        return
    free = shutil.disk_usage(Path(path).parent).free
    if free < size:
        error = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        error.needed = size
        raise error


class Ledger:
    """The JSON file of the sha256s recorded for files that declare none (trust on first use).

    Keys are ``DATASET/FILE`` (:meth:`key`). A file's sha256 is recorded once the file has been read completely
    (:meth:`record`), so a truncated download is never trusted; from then on every copy must match it.

    Parameters
    ----------
    path : str or Path
        The JSON file (``lock_file`` of the config; created on the first record).
    """

    def __init__(self, path):
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"Ledger({str(self.path)!r})"

    @staticmethod
    def key(dataset: str, entry: dict) -> str:
        """The ledger key of a dataset's file.

        Parameters
        ----------
        dataset : str
            The dataset's name.
        entry : dict
            The file's declaration (its ``name``).

        Returns
        -------
        str
            ``DATASET/NAME``.

        Examples
        --------
        >>> Ledger.key("dtp_aids", {"name": "a.csv"})
        'dtp_aids/a.csv'
        """
        return f"{dataset}/{entry['name']}"

    def read(self) -> dict:
        """Every recorded sha256.

        Returns
        -------
        dict
            ``{key: sha256}``; empty when the file does not exist yet.
        """
        return json.loads(self.path.read_text()) if self.path.is_file() and self.path.stat().st_size else {}

    def check(self, key: str, actual: str, record: bool = True) -> None:
        """Check ``actual`` against the sha256 recorded for ``key``; without one, record it if ``record``.

        Parameters
        ----------
        key : str
            The file's key (:meth:`key`).
        actual : str
            The sha256 of the copy at hand.
        record : bool, default=True
            Record ``actual`` when nothing is recorded for ``key`` yet.

        Returns
        -------
        None

        Raises
        ------
        DownloadError
            A sha256 is recorded for ``key`` and ``actual`` differs: one line naming both and what to do.
        """
        with locked(self.path):
            recorded = self.read()
            if key in recorded and recorded[key] != actual:
                raise DownloadError(
                    f"{key}: sha256 {actual} differs from {recorded[key]} recorded in {self.path} by an earlier run; "
                    f"the source changed: check it, then delete its entry from {self.path} to accept the new file"
                )
            if key not in recorded and record:
                recorded[key] = actual
                write_text(self.path, json.dumps(recorded, indent=2, sort_keys=True) + "\n")

    def verify(self, dataset: str, files, folder) -> None:
        """Check every raw copy of a dataset before it is read: against its declared sha256, else the recorded one.

        Parameters
        ----------
        dataset : str
            The dataset's name (the keys' prefix).
        files : list of dict
            The dataset's file declarations.
        folder : str or Path
            Where the copies are (``data/DATASET``).

        Returns
        -------
        None

        Raises
        ------
        DownloadError
            A copy changed after it was fetched: one line naming it, both checksums and what to do.
        """
        recorded = self.read()
        for entry in files:
            path = Path(folder) / entry["name"]
            want, where = entry.get("sha256"), "declared"
            if want is None:
                want, where = recorded.get(self.key(dataset, entry)), f"recorded in {self.path}"
            actual = sha256_of(path)
            if want is not None and actual != want.lower():
                raise DownloadError(
                    f"{path}: sha256 {actual} differs from the one {where} ({want}): the copy changed "
                    f"after it was fetched; delete it and run again to fetch it anew"
                )

    def discard_untrusted(self, dataset: str, files, folder) -> list:
        """Remove the raw copies not trusted yet: no declared sha256 and none recorded.

        Called when reading them failed: such a copy may be the broken file, and it must not be reused once its
        source is fixed; the next run fetches it again.

        Parameters
        ----------
        dataset : str
            The dataset's name.
        files : list of dict
            The dataset's file declarations.
        folder : str or Path
            Where the copies are.

        Returns
        -------
        list of str
            The paths removed.
        """
        recorded = self.read()
        removed = []
        for entry in files:
            path = Path(folder) / entry["name"]
            if entry.get("sha256") is None and self.key(dataset, entry) not in recorded and path.is_file():
                path.unlink()
                removed.append(str(path))
        return removed

    def record(self, dataset: str, files, folder) -> list:
        """Record the sha256 of each file that declares none, once all were read completely.

        Parameters
        ----------
        dataset : str
            The dataset's name.
        files : list of dict
            The dataset's file declarations.
        folder : str or Path
            Where the copies are.

        Returns
        -------
        list of str
            The names recorded or checked (a recorded one must match).
        """
        done = []
        for entry in files:
            if entry.get("sha256") is None:
                self.check(self.key(dataset, entry), sha256_of(Path(folder) / entry["name"]))
                done.append(entry["name"])
        return done


def install(
    dest,
    write: Callable[[Path], tuple[str, str]],
    *,
    name: str,
    sha256: str | None = None,
    ledger: Ledger | None = None,
    key: str | None = None,
    record: bool = True,
) -> str:
    """Write a file under its temporary name, check it, and rename it to ``dest``: the one path every source takes.

    Parameters
    ----------
    dest : str or Path
        The destination; its folder is created if missing.
    write : callable
        ``write(out) -> (origin, advice)`` writes the bytes to ``out`` (see :meth:`Source.write`).
    name : str
        The file's name in messages.
    sha256 : str or None, default=None
        The declared sha256 (any case); None to check against the ledger instead.
    ledger : Ledger or None, default=None
        Where a file that declares no sha256 has its sha256 recorded; required when ``sha256`` is None.
    key : str or None, default=None
        The file's ledger key (default ``name``).
    record : bool, default=True
        Record a first sha256 in the ledger now (the workflow records only once the file was read whole).

    Returns
    -------
    str
        The sha256 of the file now at ``dest``.

    Raises
    ------
    ValueError
        Neither a sha256 nor a ledger to check against.
    DownloadError
        The content is not the expected one, or ``write`` failed: one line, and nothing is kept at ``dest`` or
        under the temporary name.
    crocbench._io.DiskFullError
        The disk filled up: one line naming ``dest``, the space needed and the space free; nothing is kept.
    """
    dest = Path(dest)
    if sha256 is None and ledger is None:
        raise ValueError(f"{name}: give its sha256, or a lock file to record it in")
    dest.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(dest) as tmp:  # renamed to dest only if the block ends without an error
        origin, advice = write(tmp)
        actual = sha256_of(tmp)
        if sha256 is not None and actual != sha256.lower():
            raise DownloadError(f"{name}: sha256 mismatch for {origin}: expected {sha256}, got {actual}; {advice}")
        if sha256 is None:
            ledger.check(key or name, actual, record=record)
    return actual

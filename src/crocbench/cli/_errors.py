"""The errors a user can hit, each in one line: which classes :func:`crocbench.cli.main` reports and in what words.

An expected error is one the user can act on: bad input (``ValueError``, a missing extra), the file system
(``OSError``: a missing file, a folder that is a file, a file where a folder is wanted, no permission, a full disk),
a file that cannot be fetched (``DownloadError``). Each becomes ``crocbench: error: ...`` and exit status 2. Anything
else (a bare ``KeyError``, a ``TypeError``...) is a bug and keeps its traceback; so does every error under
``crocbench --debug``.
"""

from __future__ import annotations

import errno
import os
import sys

from .._extras import MissingExtra
from .._io import DiskFullError
from ._output import _for_users

#: What to do about an ``OSError``, by its ``errno``; a code not listed gets the system's own words alone.
_ADVICE = {
    errno.ENOENT: "no such file or folder: check the path (a file's folder must exist)",
    errno.EEXIST: "already exists: remove it or name another path",
    errno.ENOTDIR: "a part of the path is a file, not a folder: name a path under a folder",
    errno.EISDIR: "is a folder: name a file",
    errno.EACCES: "permission denied: name a path you may write (or read)",
    errno.EPERM: "operation not permitted: name a path you may write (or read)",
    errno.EROFS: "read-only file system: name a path on a writable one",
    errno.ENOSPC: "no space left on the device: free some space, or write elsewhere",
    errno.ENOTEMPTY: "the folder is not empty: remove it or name another",
}


def _download_error() -> type | None:
    """The data sources' ``DownloadError`` where they were imported (an error can only be one if they were): the
    core install (``score``, ``compare``) never imports them."""
    module = sys.modules.get("crocbench.data.sources._base")
    return getattr(module, "DownloadError", None)


def _mirror_note() -> str:
    """Where ``$CROCBENCH_MIRROR`` names a folder that is not there: a note saying so."""
    from ..data.sources.mirror import MIRROR_ENV

    value = os.environ.get(MIRROR_ENV)
    return f" (${MIRROR_ENV} is {value}: no such folder)" if value and not os.path.isdir(value) else ""


def _os_line(exc: OSError) -> str:
    """An ``OSError`` in one line: the file (both, for a rename), what went wrong and what to do."""
    words = _ADVICE.get(exc.errno, exc.strerror or str(exc))
    files = [str(f) for f in (exc.filename, exc.filename2) if f is not None]
    if not files:
        return f"{words} ({exc})" if exc.errno in _ADVICE else str(exc)
    return f"{' -> '.join(files)}: {words}"


def error_line(exc: BaseException) -> str | None:
    """The one line (without ``crocbench: error:``) that reports an expected error, or None for a bug.

    Parameters
    ----------
    exc : BaseException
        What a command raised.

    Returns
    -------
    str or None
        The message, or None where the error is not one a user can hit (a bug: it keeps its traceback).

    Examples
    --------
    >>> error_line(FileExistsError(17, "File exists", "out/result.json"))
    'out/result.json: already exists: remove it or name another path'
    >>> error_line(NotADirectoryError(20, "Not a directory", "notes.txt/x.yaml"))
    'notes.txt/x.yaml: a part of the path is a file, not a folder: name a path under a folder'
    >>> error_line(KeyError("analog")) is None  # a bare KeyError is a bug: readers of a user's file say which key
    True
    """
    download = _download_error()
    if download is not None and isinstance(exc, download):
        line = f"{exc}; or check the network{_mirror_note()}"
    elif isinstance(exc, DiskFullError):  # its own line: the file, the space it needs and the space free
        line = str(exc)
    elif isinstance(exc, OSError):
        line = _os_line(exc)
    elif isinstance(exc, UnicodeDecodeError):  # a reader that did not name its file
        line = f"a file is not UTF-8 text: {exc}"
    elif isinstance(exc, (ValueError, MissingExtra)):
        line = _for_users(str(exc))
    else:
        return None
    return " ".join(line.split()) if "\n" in line else line

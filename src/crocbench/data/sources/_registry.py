"""The registry of kinds of source and the one path every file takes (:func:`obtain`): the package's modules found
and registered, and a file entry's source chosen."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from ._base import Fetching, Source
from ._integrity import Ledger, install
from .mirror import Mirror, mirrored

#: Every kind of source, by the file entry's key that selects it (the mirror has no key of its own).
SOURCES: dict[str, Source] = {}


def register(cls: type[Source]) -> type[Source]:
    """Register a kind of source under its ``Source.key`` (usable as a class decorator).

    Parameters
    ----------
    cls : type
        A :class:`Source` subclass with a ``key`` no other kind has.

    Returns
    -------
    type
        ``cls``, unchanged.

    Raises
    ------
    ValueError
        The key is empty or taken by another class.
    """
    if not cls.key or (cls.key in SOURCES and type(SOURCES[cls.key]) is not cls):
        raise ValueError(f"source {cls.__name__}: key {cls.key!r} is empty or taken")
    SOURCES[cls.key] = cls()
    return cls


def _discover() -> None:
    """Import every public module of this package and register the :class:`Source` subclasses it defines."""
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Source) and value.__module__ == module.__name__:
                if value is not Mirror:
                    register(value)


_discover()
_MIRROR = Mirror()


def source_for(entry: dict, how: Fetching | None = None) -> Source:
    """The source a file entry is fetched from: the mirror's copy if it has one and the kind allows it, else
    the kind the entry's key names.

    Parameters
    ----------
    entry : dict
        The file's declaration: ``name`` and exactly one kind's key.
    how : Fetching or None, default=None
        Where the mirror is (None: no mirror).

    Returns
    -------
    Source

    Raises
    ------
    ValueError
        The entry names no kind, or more than one.

    Examples
    --------
    >>> type(source_for({"name": "a.csv", "url": "https://example.org/a.csv"})).__name__
    'Url'
    >>> source_for({"name": "a.csv"})
    Traceback (most recent call last):
    ...
    ValueError: a.csv: declare exactly one of command, member, package, url (found none)
    """
    kinds = [key for key in SOURCES if key in entry]
    if len(kinds) != 1:
        raise ValueError(
            f"{entry.get('name', '?')}: declare exactly one of {', '.join(sorted(SOURCES))} "
            f"(found {', '.join(kinds) or 'none'})"
        )
    source = SOURCES[kinds[0]]
    if source.mirrorable and how is not None and mirrored(entry, how) is not None:
        return _MIRROR
    return source


def obtain(entry: dict, dest, *, ledger: Ledger | None = None, key=None, record=True, how=None) -> str:
    """Put the file ``entry`` declares at ``dest``: from its source, checked, renamed into place.

    Parameters
    ----------
    entry : dict
        ``name``, optional ``sha256`` (None: checked against ``ledger``), and one kind's key
        (``url``, ``command``, ``member`` with ``archive``, ``package``).
    dest : str or Path
        The destination; never a partial or wrong file.
    ledger : Ledger or None, default=None
        The ledger that records the sha256 of a file declaring none; required then.
    key : str or None, default=None
        The file's ledger key (default: its name; the workflow uses ``DATASET/NAME``).
    record : bool, default=True
        Record a first sha256 now; the workflow records only once the file was read whole.
    how : Fetching or None, default=None
        The mirror, network settings and progress stream (default :class:`Fetching`'s defaults).

    Returns
    -------
    str
        The sha256 of the file now at ``dest``.

    Raises
    ------
    DownloadError
        One line: the source failed, the disk is full, or the content is not the expected one.
    ValueError
        The entry names no kind or several, or neither a sha256 nor a ledger.

    Examples
    --------
    >>> import hashlib, tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> entry = {"name": "x.txt", "command": "printf hi > {out}", "sha256": hashlib.sha256(b"hi").hexdigest()}
    >>> obtain(entry, folder / "x.txt", how=Fetching(progress=None))[:12]
    '8f434346648f'
    >>> (folder / "x.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('hi', ['x.txt'])
    """
    how = how if how is not None else Fetching()
    source = source_for(entry, how)
    return install(
        dest,
        lambda out: source.write(entry, out, how),
        name=source.name_of(entry),
        sha256=entry.get("sha256"),
        ledger=ledger,
        key=key,
        record=record,
    )

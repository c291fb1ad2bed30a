"""The interface every kind of data source implements, and what fetching needs to know."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, TextIO

#: The environment variable naming crocbench's cache folder (:func:`user_cache`).
CACHE_ENV = "CROCBENCH_CACHE"


def user_cache() -> Path:
    """The folder where crocbench keeps what it downloads outside a workflow run (a benchmark export's archives).

    ``CROCBENCH_CACHE`` when it is set; else ``$XDG_CACHE_HOME/crocbench``, where ``XDG_CACHE_HOME`` defaults to
    ``~/.cache`` (the XDG base directories, which Linux follows).

    Returns
    -------
    Path
        The folder (not created here).

    Examples
    --------
    >>> import os
    >>> saved = dict(os.environ)
    >>> os.environ["CROCBENCH_CACHE"] = "/tmp/somewhere"
    >>> str(user_cache())
    '/tmp/somewhere'
    >>> del os.environ["CROCBENCH_CACHE"]
    >>> os.environ["XDG_CACHE_HOME"] = "/tmp/xdg"
    >>> str(user_cache())
    '/tmp/xdg/crocbench'
    >>> os.environ.clear()
    >>> os.environ.update(saved)
    """
    named = os.environ.get(CACHE_ENV)
    if named:
        return Path(named)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crocbench"


class DownloadError(RuntimeError):
    """A file could not be fetched, or its content is not the expected one."""


@dataclass(frozen=True)
class Fetching:
    """How files are fetched: where the mirror is, the network's patience, where progress goes.

    Parameters
    ----------
    mirror : Path or None, default=None
        A folder of local copies, looked up by file name before any download (see :func:`crocbench.data.resolve_mirror`).
    retries : int, default=3
        Attempts of a download before it fails.
    timeout : float, default=60.0
        Seconds one attempt may wait for the server.
    backoff : float, default=2.0
        Seconds before the second attempt, doubled before each later one.
    progress : file-like or None, default=sys.stderr
        Where progress lines go; None for silence.
    archives : Path, default=Path("data/archives")
        Where archives that datasets read members of are kept, fetched once for all of them.
    """

    mirror: Path | None = None
    retries: int = 3
    timeout: float = 60.0
    backoff: float = 2.0
    progress: TextIO | None = field(default=sys.stderr, repr=False)
    archives: Path = Path("data/archives")

    def say(self, line: str) -> None:
        """Print one progress line, if progress is wanted.

        Parameters
        ----------
        line : str
            The line, without its newline.

        Returns
        -------
        None
        """
        if self.progress is not None:
            print(line, file=self.progress, flush=True)


class Source:
    """One kind of data source: how to write a declared file's bytes to a given path.

    A kind is one module of :mod:`crocbench.data.sources` holding one subclass, registered under the file
    entry's key that names it (``url``, ``command``, ``member``, ``package``). It only writes bytes: the
    temporary name, the sha256 check (declared, else the ledger's) and the rename are :func:`crocbench.data.obtain`'s, the
    same for every kind.

    Attributes
    ----------
    key : str
        The key of a file entry that selects this kind (``{"name": ..., "url": ...}`` selects ``url``).
    mirrorable : bool
        Whether a copy in the mirror, found by the file's name, stands in for this source.
    """

    key: ClassVar[str] = ""
    mirrorable: ClassVar[bool] = False

    def write(self, entry: dict, out: Path, how: Fetching) -> tuple[str, str]:
        """Write the file ``entry`` declares to ``out`` (a temporary name).

        Parameters
        ----------
        entry : dict
            The file's declaration: ``name``, optional ``sha256``, and this kind's key.
        out : Path
            Where to write the bytes; :func:`crocbench.data.obtain` renames it once checked.
        how : Fetching
            The mirror, the network settings and the progress stream.

        Returns
        -------
        origin : str
            Where the bytes came from, for messages ("mirror file ...", a URL).
        advice : str
            What to do when the bytes are not the expected ones.
        """
        raise NotImplementedError

    def name_of(self, entry: dict) -> str:
        """The file's name in messages (its ``name``; a member names its archive too).

        Parameters
        ----------
        entry : dict
            The file's declaration.

        Returns
        -------
        str
        """
        return entry["name"]

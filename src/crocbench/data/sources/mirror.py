"""The mirror: a folder of local copies, looked up by file name before any download."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ._base import Fetching, Source
from ._integrity import ensure_space

#: The environment variable that names the mirror folder (it wins over the config's ``mirror`` key).
MIRROR_ENV = "CROCBENCH_MIRROR"


def resolve_mirror(configured=None, base=None) -> Path | None:
    """The mirror folder: ``$CROCBENCH_MIRROR`` if set, else the configured path (relative to ``base``).

    Parameters
    ----------
    configured : str or Path or None, default=None
        The config's ``mirror`` key.
    base : str or Path or None, default=None
        The folder a relative path is relative to (the project's).

    Returns
    -------
    Path or None
        The folder (which may not exist), or None when neither names one.

    Examples
    --------
    >>> import os
    >>> os.environ.pop(MIRROR_ENV, None) and None
    >>> resolve_mirror("../shared/mirror", "/project").as_posix()
    '/project/../shared/mirror'
    >>> resolve_mirror() is None
    True
    """
    value = os.environ.get(MIRROR_ENV) or configured
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_absolute() and base is not None:
        path = Path(base) / path
    return path


def hint(name: str) -> str:
    """What to do when a file cannot be had from its source: put it in a mirror.

    Parameters
    ----------
    name : str
        The file's name.

    Returns
    -------
    str
    """
    return (
        f"to use a local copy instead, put {name} in a folder and point the 'mirror' key of "
        f"config.yaml, or the {MIRROR_ENV} environment variable, at that folder"
    )


def mirrored(entry: dict, how: Fetching) -> Path | None:
    """The mirror's copy of the file ``entry`` declares, if the mirror has one.

    Parameters
    ----------
    entry : dict
        The file's declaration (its ``name``).
    how : Fetching
        Where the mirror is.

    Returns
    -------
    Path or None
    """
    local = how.mirror / entry["name"] if how.mirror is not None else None
    return local if local is not None and local.is_file() else None


class Mirror(Source):
    """A copy of the file in the mirror folder, by name: stands in for any source that is ``Source.mirrorable``."""

    key = "mirror"

    def write(self, entry: dict, out: Path, how: Fetching) -> tuple[str, str]:
        """Copy the mirror's file of the entry's name (there must be one: :func:`mirrored`).

        Parameters
        ----------
        entry : dict
            The file's declaration: ``name`` (the name looked up in the mirror) and the kind's key.
        out : Path
            Where to write the bytes (a temporary name; :func:`crocbench.data.obtain` renames it once checked).
        how : Fetching
            The mirror folder and the progress stream.

        Returns
        -------
        origin : str
            ``"mirror file <path>"``.
        advice : str
            What to do when the bytes are not the expected ones: replace the mirror's copy with the published file.

        Raises
        ------
        DownloadError
            The disk has no room for the copy.
        """
        local = mirrored(entry, how)
        how.say(f"{entry['name']}: copying from the mirror {local}")
        ensure_space(out, local.stat().st_size)
        shutil.copyfile(local, out)
        return (
            f"mirror file {local}",
            f"the file is corrupt or not the published one; replace {local} with the published file",
        )

"""A file a shell command writes (e.g. ``crocbench synthesize``), checked like a download."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from ._base import DownloadError, Fetching, Source
from .mirror import MIRROR_ENV


class Command(Source):
    """A file the shell command ``command`` writes to ``{out}``.

    The command runs from the current directory with ``{out}`` (the temporary name), ``{mirror}`` (the mirror
    folder) and ``{python}`` (this Python) filled in; its output goes to the progress stream. A command's file
    is never looked up in the mirror (the mirror is an input it may read).
    """

    key = "command"

    def write(self, entry: dict, out: Path, how: Fetching) -> tuple[str, str]:
        """Run the entry's shell command, ``{out}``, ``{mirror}`` and ``{python}`` filled in (shell-quoted).

        Parameters
        ----------
        entry : dict
            The file's declaration: ``name`` and ``command``.
        out : Path
            Where to write the bytes (a temporary name; :func:`crocbench.data.obtain` renames it once checked).
        how : Fetching
            The mirror folder (``{mirror}``) and the progress stream, which gets the command's output.

        Returns
        -------
        origin : str
            ``"the output of <command line>"``.
        advice : str
            What to do when the bytes are not the expected ones: the command is not deterministic, or not the one the
            sha256 was taken from.

        Raises
        ------
        DownloadError
            The command needs ``{mirror}`` and none is configured, exits with a non-zero status, or
            writes no file.
        """
        name, command = entry["name"], entry["command"]
        if "{mirror}" in command and how.mirror is None:
            raise DownloadError(
                f"{name}: the command needs {{mirror}}, and no mirror folder is configured "
                f"(config 'mirror' or ${MIRROR_ENV})"
            )
        line = command.format(
            out=shlex.quote(str(out)), mirror=shlex.quote(str(how.mirror)), python=shlex.quote(sys.executable)
        )
        how.say(f"{name}: running {line}")
        stream = how.progress if how.progress is not None else subprocess.DEVNULL
        done = subprocess.run(line, shell=True, stdout=stream, stderr=subprocess.STDOUT)
        if done.returncode != 0 or not out.is_file():
            raise DownloadError(
                f"{name}: the command exited with status {done.returncode}"
                + ("" if out.is_file() else " without writing {out}")
                + f": {line}"
            )
        return f"the output of {line}", "the command is not deterministic, or not the one the sha256 was taken from"

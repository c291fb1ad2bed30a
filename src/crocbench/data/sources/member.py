"""One member of a zip archive (a wheel is one), read without unpacking the rest; the archive is fetched once."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

from ._base import DownloadError, Fetching, Source
from ._integrity import _CHUNK, ensure_space, locked, sha256_of


def fetch_archive(entry: dict, how: Fetching) -> Path:
    """The archive ``entry`` declares (``name``, ``sha256``, and ``url`` or ``package``), kept in ``how.archives``.

    Fetched once for every file that is a member of it: a file already there with the declared sha256 is used as
    it is; otherwise it is obtained (mirror first, else its ``url`` or ``package`` source) under a lock, so that
    jobs reading members of the same archive at once fetch it once. The archive is not a workflow output of its
    own: a rule whose input is a file every later run may re-fetch would rebuild every screen it holds, or,
    marked ``ancient``, let Snakemake skip the jobs that need it (snakemake/snakemake#4166).

    Parameters
    ----------
    entry : dict
        The archive's declaration: ``name``, ``sha256`` (required), and ``url`` or ``package``.
    how : Fetching
        The mirror, network settings, progress stream and the archives' folder.

    Returns
    -------
    Path
        ``how.archives / name``, with the declared sha256.

    Raises
    ------
    DownloadError
        Unreachable, or not the declared file.

    Examples
    --------
    >>> import hashlib, tempfile
    >>> mirror, folder = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    >>> _ = (mirror / "a.zip").write_bytes(b"PK")
    >>> entry = {"name": "a.zip", "sha256": hashlib.sha256(b"PK").hexdigest(), "url": "http://127.0.0.1:9/a.zip"}
    >>> fetch_archive(entry, Fetching(mirror=mirror, archives=folder, progress=None)).read_bytes()
    b'PK'
    >>> (mirror / "a.zip").unlink()  # now in the folder: the mirror is not needed again
    >>> fetch_archive(entry, Fetching(mirror=mirror, archives=folder, progress=None)) == folder / "a.zip"
    True
    """
    from ._registry import obtain  # here, not at the top: the registry imports every source module, this one too

    dest, sha256 = Path(how.archives) / entry["name"], entry["sha256"].lower()

    def kept() -> bool:  # the archive only ever appears whole (renamed into place once checked)
        if dest.is_file() and sha256_of(dest) == sha256:
            how.say(f"{entry['name']}: already in {dest.parent}")
            return True
        return False

    if kept():  # no lock needed to read it (a read-only folder of archives works)
        return dest
    with locked(dest):
        if kept():  # fetched by another job while this one waited
            return dest
        dest.unlink(missing_ok=True)  # not the declared archive (an older release, a truncated copy): never kept
        obtain(entry, dest, how=how)
    return dest


def read_member(archive, member: str, out, how: Fetching) -> None:
    """Write one member of the zip ``archive`` to ``out``, reading only that member.

    Parameters
    ----------
    archive : str or Path
        The zip file.
    member : str
        The member's path inside it.
    out : str or Path
        Where to write the member's bytes.
    how : Fetching
        The progress stream.

    Returns
    -------
    None

    Raises
    ------
    DownloadError
        One line naming the archive and the member: the archive is not a readable zip, it has no such member
        (with the members of that folder), or the member is corrupt.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with zipfile.ZipFile(folder / "a.zip", "w") as z:
    ...     z.writestr("pkg/data/x.csv", "smiles,y\\nC,1\\n")
    >>> read_member(folder / "a.zip", "pkg/data/x.csv", folder / "x.csv", Fetching(progress=None))
    >>> (folder / "x.csv").read_text()
    'smiles,y\\nC,1\\n'
    >>> read_member(folder / "a.zip", "pkg/data/z.csv", folder / "z.csv", Fetching(progress=None))
    Traceback (most recent call last):
    ...
    crocbench.data.sources._base.DownloadError: a.zip: no member 'pkg/data/z.csv' (pkg/data/ holds: x.csv)
    """
    archive = Path(archive)
    where = f"{archive.name}:{member}"
    try:
        z = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise DownloadError(
            f"{where}: the archive is not a readable zip ({type(exc).__name__}: {exc}); fetch {archive.name} again"
        ) from None
    with z:
        try:
            info = z.getinfo(member)
        except KeyError:
            folder = member.rsplit("/", 1)[0] + "/" if "/" in member else ""
            near = sorted(
                n[len(folder) :]
                for n in z.namelist()
                if n.startswith(folder) and n != folder and "/" not in n[len(folder) :].rstrip("/")
            )
            listed = ", ".join(near[:8]) + (f" and {len(near) - 8} more" if len(near) > 8 else "")
            raise DownloadError(
                f"{archive.name}: no member {member!r} ({folder or 'the top level'} holds: {listed or 'nothing'})"
            ) from None
        how.say(f"{where}: extracting {info.file_size / 1e6:.1f} MB")
        ensure_space(out, info.file_size)
        with open(out, "wb") as sink:  # a write error (a full disk) is an OSError of its own, not the archive's
            try:
                with z.open(info) as src:
                    while chunk := src.read(_CHUNK):
                        sink.write(chunk)
            except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
                raise DownloadError(
                    f"{where}: the member is corrupt ({type(exc).__name__}: {exc}); fetch {archive.name} again"
                ) from None


class Member(Source):
    """The member ``member`` of the zip archive ``archive`` (its own declaration: ``name``, ``sha256``, ``url``
    or ``package``), fetched once to the archives' folder for every dataset that names it. The entry's
    ``sha256`` is the member's own."""

    key = "member"

    def write(self, entry: dict, out: Path, how: Fetching) -> tuple[str, str]:
        """Write one member of the archive, the archive fetched first if it is not kept yet (:func:`fetch_archive`).

        Parameters
        ----------
        entry : dict
            The file's declaration: ``name``, ``member`` (its path in the archive) and ``archive`` (the archive's own
            declaration).
        out : Path
            Where to write the bytes (a temporary name; :func:`crocbench.data.obtain` renames it once checked).
        how : Fetching
            The mirror, the network settings, where archives are kept, and the progress stream.

        Returns
        -------
        origin : str
            ``"member <member> of <archive path>"``.
        advice : str
            What to do when the bytes are not the expected ones: the archive is not the declared release.

        Raises
        ------
        DownloadError
            The archive cannot be fetched or read, or has no such member.
        """
        archive = fetch_archive(entry["archive"], how)
        read_member(archive, entry["member"], out, how)
        return f"member {entry['member']} of {archive}", "the archive is not the declared release"

    def name_of(self, entry: dict) -> str:
        """``ARCHIVE:MEMBER``: the member's place, in messages.

        Parameters
        ----------
        entry : dict
            The member's declaration.

        Returns
        -------
        str
        """
        return f"{entry['archive']['name']}:{entry['member']}"

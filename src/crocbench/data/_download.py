"""Fetching raw files: a local mirror first, else the canonical URL; sha256-checked, atomic."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import http.client
import json
import os
import shlex
import shutil
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

MIRROR_ENV = "CROCBENCH_MIRROR"
_CHUNK = 1 << 20


class DownloadError(RuntimeError):
    """A file could not be fetched, or its content is not the expected one."""


def resolve_mirror(configured=None, base=None) -> Path | None:
    """The mirror folder: ``$CROCBENCH_MIRROR`` if set, else the configured path (relative to ``base``)."""
    value = os.environ.get(MIRROR_ENV) or configured
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_absolute() and base is not None:
        path = Path(base) / path
    return path


def sha256_of(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _hint(name: str) -> str:
    return (
        f"to use a local copy instead, put {name} in a folder and point the 'mirror' key of "
        f"config.yaml, or the {MIRROR_ENV} environment variable, at that folder"
    )


class _Meter:
    """Progress lines for one transfer: at most one every ``every`` seconds, and a last one."""

    def __init__(self, name: str, total: int | None, stream, every: float = 2.0):
        self.name, self.total, self.stream, self.every = name, total, stream, every
        self.start = self.last = time.monotonic()

    def __call__(self, done: int, final: bool = False) -> None:
        now = time.monotonic()
        if self.stream is None or not (final or now - self.last >= self.every):
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9) / 1e6
        of = f" of {self.total / 1e6:.1f} MB ({100 * done / self.total:.0f}%)" if self.total else " MB"
        print(f"{self.name}: {done / 1e6:.1f}{of}, {rate:.1f} MB/s", file=self.stream, flush=True)


def _transfer(url: str, tmp: Path, name: str, timeout: float, stream) -> None:
    """One attempt: stream ``url`` into ``tmp``; raise on any short or failed transfer."""
    request = urllib.request.Request(url, headers={"User-Agent": "crocbench"})
    with urllib.request.urlopen(request, timeout=timeout) as response, open(tmp, "wb") as out:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        meter, done = _Meter(name, total, stream), 0
        while chunk := response.read(_CHUNK):
            out.write(chunk)
            done += len(chunk)
            meter(done)
        meter(done, final=True)
    if total is not None and done != total:
        raise http.client.IncompleteRead(b"", total - done)


def _download(url: str, tmp: Path, name: str, retries: int, timeout: float, backoff: float, stream) -> None:
    error = None
    for attempt in range(1, retries + 1):
        try:
            _transfer(url, tmp, name, timeout, stream)
            return
        except urllib.error.HTTPError as exc:
            error = f"HTTP {exc.code} {exc.reason}"
            if exc.code < 500 and exc.code != 429:  # the server's answer will not change
                break
        except (TimeoutError, urllib.error.URLError, http.client.HTTPException, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", None) or exc
            error = f"{type(exc).__name__}: {reason}"
        if stream is not None:
            print(f"{name}: attempt {attempt}/{retries} failed ({error})", file=stream, flush=True)
        if attempt < retries:
            time.sleep(backoff * 2 ** (attempt - 1))
    raise DownloadError(f"{name}: cannot download {url}: {error}; {_hint(name)}")


@contextlib.contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".flock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def check_lock(lock, key: str, actual: str, record: bool = True) -> None:
    """Trust on first use: check ``actual`` against the sha256 recorded for ``key`` in the JSON lock file, or,
    when there is none and ``record``, record it."""
    lock = Path(lock)
    with _locked(lock):
        recorded = json.loads(lock.read_text()) if lock.is_file() and lock.stat().st_size else {}
        if key not in recorded and not record:
            return
        if key in recorded and recorded[key] != actual:
            raise DownloadError(
                f"{key}: sha256 {actual} differs from {recorded[key]} recorded in {lock} by an earlier run; "
                f"the source changed: check it, then delete its entry from {lock} to accept the new file"
            )
        if key not in recorded:
            recorded[key] = actual
            tmp = lock.with_name(lock.name + ".tmp")
            tmp.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
            tmp.replace(lock)


def fetch(
    url: str,
    dest,
    sha256: str | None = None,
    *,
    mirror=None,
    name: str | None = None,
    lock=None,
    lock_key: str | None = None,
    record: bool = True,
    retries: int = 3,
    timeout: float = 60.0,
    backoff: float = 2.0,
    progress=sys.stderr,
) -> str:
    """Put the file ``name`` at ``dest``, from ``mirror/name`` if present, else from ``url``.

    The content goes to a temporary name beside ``dest`` and is renamed only
    once its sha256 is the expected one, so ``dest`` is never a partial or
    wrong file.  When the expected sha256 is unknown (None), the sha256 of the
    first file fetched is recorded in ``lock`` (a JSON file, key ``lock_key``)
    and later fetches must match it.  With ``record=False`` a recorded sha256
    is still checked but a new one is not recorded: the workflow records it
    only once the file has been read completely (:func:`record_checksums`),
    so a truncated download is never locked in.

    Returns
    -------
    str
        The sha256 of the file now at ``dest``.

    Raises
    ------
    DownloadError
        The source is unreachable (after ``retries`` attempts, each with a
        ``timeout`` in seconds), or the content's sha256 is wrong; the message
        names the file, the checksums or the error, and how to use a mirror.
    """
    dest = Path(dest)
    name = name or dest.name
    if sha256 is None and lock is None:
        raise ValueError(f"{name}: give its sha256, or a lock file to record it in")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.part")
    local = Path(mirror) / name if mirror is not None else None
    try:
        if local is not None and local.is_file():
            source = f"mirror file {local}"
            if progress is not None:
                print(f"{name}: copying from the mirror {local}", file=progress, flush=True)
            shutil.copyfile(local, tmp)
        else:
            source = url
            if progress is not None:
                where = f"not in the mirror {mirror}; " if mirror is not None else ""
                print(f"{name}: {where}downloading {url}", file=progress, flush=True)
            _download(url, tmp, name, retries, timeout, backoff, progress)
        advice = f"replace {local} with the published file" if source.startswith("mirror") else _hint(name)
        return _accept(
            tmp,
            dest,
            name,
            source,
            sha256,
            lock,
            lock_key,
            record,
            f"the file is corrupt or not the published one; {advice}",
        )
    finally:
        tmp.unlink(missing_ok=True)


def _accept(tmp: Path, dest: Path, name: str, source: str, sha256, lock, lock_key, record: bool, advice: str) -> str:
    """Rename ``tmp`` to ``dest`` once its sha256 is the declared one (or the one recorded in ``lock``)."""
    actual = sha256_of(tmp)
    if sha256 is not None and actual != sha256.lower():
        raise DownloadError(f"{name}: sha256 mismatch for {source}: expected {sha256}, got {actual}; {advice}")
    if sha256 is None:
        check_lock(lock, lock_key or name, actual, record=record)
    tmp.replace(dest)
    return actual


def make_file(
    command: str,
    dest,
    sha256: str | None = None,
    *,
    mirror=None,
    name: str | None = None,
    lock=None,
    lock_key: str | None = None,
    record: bool = True,
    progress=sys.stderr,
) -> str:
    """Put at ``dest`` the file a shell command writes: a dataset file declared with ``command`` instead of ``url``.

    The command is run from the current directory with ``{out}`` (a temporary
    name beside ``dest``, renamed once checked), ``{mirror}`` (the mirror folder)
    and ``{python}`` (this Python) filled in; its output goes to ``progress``.
    The sha256 is checked as for :func:`fetch` (declared, or recorded on first use).
    Returns the sha256 of the file now at ``dest``.
    """
    import subprocess

    dest = Path(dest)
    name = name or dest.name
    if sha256 is None and lock is None:
        raise ValueError(f"{name}: give its sha256, or a lock file to record it in")
    if "{mirror}" in command and mirror is None:
        raise DownloadError(
            f"{name}: the command needs {{mirror}}, and no mirror folder is configured "
            f"(config 'mirror' or ${MIRROR_ENV})"
        )
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.part")
    line = command.format(
        out=shlex.quote(str(tmp)), mirror=shlex.quote(str(mirror)), python=shlex.quote(sys.executable)
    )
    try:
        if progress is not None:
            print(f"{name}: running {line}", file=progress, flush=True)
        done = subprocess.run(line, shell=True, stdout=progress, stderr=subprocess.STDOUT)
        if done.returncode != 0 or not tmp.is_file():
            raise DownloadError(
                f"{name}: the command exited with status {done.returncode}"
                + ("" if tmp.is_file() else " without writing {out}")
                + f": {line}"
            )
        return _accept(
            tmp,
            dest,
            name,
            f"the output of {line}",
            sha256,
            lock,
            lock_key,
            record,
            "the command is not deterministic, or not the one the sha256 was taken from",
        )
    finally:
        tmp.unlink(missing_ok=True)


def fetch_package(
    package: str, dest, sha256: str, *, mirror=None, name: str | None = None, python_version=None, progress=sys.stderr
) -> str:
    """Put at ``dest`` a file of a release published only through a package index, fetched with pip's own client.

    ``package`` is a requirement (``DataValuationPlatform==1.3``); ``name`` (default: ``dest``'s name) is the
    file of the release to keep (a wheel: ``DataValuationPlatform-1.3-py3-none-any.whl``). The mirror is looked
    up by name first, as for :func:`fetch`; else ``pip download --no-deps --only-binary=:all:`` (with
    ``--python-version`` for a release whose wheels name another Python) into a temporary folder. The file is
    renamed to ``dest`` only once its sha256 is the declared one.

    Returns
    -------
    str
        The sha256 of the file now at ``dest``.
    """
    import subprocess
    import tempfile

    dest = Path(dest)
    name = name or dest.name
    local = Path(mirror) / name if mirror is not None else None
    if local is not None and local.is_file():
        return fetch(f"pip:{package}", dest, sha256, mirror=mirror, name=name, progress=progress)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent, prefix=f".{name}.") as folder:
        line = [sys.executable, "-m", "pip", "download", package, "--no-deps", "--only-binary=:all:", "-d", folder]
        line += ["--python-version", str(python_version)] if python_version else []
        if progress is not None:
            print(f"{name}: not in the mirror; {' '.join(line[2:])}", file=progress, flush=True)
        done = subprocess.run(line, stdout=progress, stderr=subprocess.STDOUT)
        got = Path(folder) / name
        if done.returncode != 0 or not got.is_file():
            found = ", ".join(p.name for p in Path(folder).iterdir()) or "nothing"
            raise DownloadError(
                f"{name}: pip download {package} exited with status {done.returncode} and wrote {found}; {_hint(name)}"
            )
        return _accept(
            got,
            dest,
            name,
            f"pip download {package}",
            sha256,
            None,
            None,
            False,
            "the index serves another file under this name; check the declared sha256",
        )


def fetch_archive(
    entry: dict, folder, *, mirror=None, retries: int = 3, timeout: float = 60.0, progress=sys.stderr
) -> Path:
    """The archive ``entry`` declares (``name``, ``sha256``, and ``url`` or ``package``), kept at ``folder/name``.

    Fetched once for every file that is a member of it: a file already there with the declared sha256 is used as
    it is; otherwise it is fetched (:func:`fetch`, or :func:`fetch_package` for a release published only through a
    package index) under a lock, so that jobs reading members of the same archive at once fetch it once. The
    archive is not a workflow output of its own: a rule whose input is a file every later run may re-fetch would
    rebuild every screen it holds, or, marked ``ancient``, let Snakemake skip the jobs that need it
    (snakemake/snakemake#4166).

    Returns
    -------
    Path
        ``folder/name``, with the declared sha256.

    Raises
    ------
    DownloadError
        As :func:`fetch` and :func:`fetch_package`: unreachable, or not the declared file.

    Examples
    --------
    >>> import hashlib, tempfile
    >>> mirror, folder = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    >>> _ = (mirror / "a.zip").write_bytes(b"PK")
    >>> entry = {"name": "a.zip", "sha256": hashlib.sha256(b"PK").hexdigest(), "url": "http://127.0.0.1:9/a.zip"}
    >>> fetch_archive(entry, folder, mirror=mirror, progress=None).read_bytes()
    b'PK'
    >>> (mirror / "a.zip").unlink()  # now in the folder: the mirror is not needed again
    >>> fetch_archive(entry, folder, mirror=mirror, progress=None) == folder / "a.zip"
    True
    """
    dest, sha256 = Path(folder) / entry["name"], entry["sha256"].lower()

    def kept() -> bool:  # the archive only ever appears whole (renamed into place once checked)
        if dest.is_file() and sha256_of(dest) == sha256:
            if progress is not None:
                print(f"{entry['name']}: already in {dest.parent}", file=progress, flush=True)
            return True
        return False

    if kept():  # no lock needed to read it (a read-only folder of archives works)
        return dest
    with _locked(dest):
        if kept():  # fetched by another job while this one waited
            return dest
        dest.unlink(missing_ok=True)  # not the declared archive (an older release, a truncated copy): never kept
        if "package" in entry:
            fetch_package(
                entry["package"],
                dest,
                sha256,
                mirror=mirror,
                name=entry["name"],
                python_version=entry.get("python_version"),
                progress=progress,
            )
        else:
            fetch(
                entry["url"],
                dest,
                sha256,
                mirror=mirror,
                name=entry["name"],
                retries=retries,
                timeout=timeout,
                progress=progress,
            )
    return dest


def extract_member(
    archive,
    member: str,
    dest,
    sha256: str | None = None,
    *,
    lock=None,
    lock_key=None,
    record: bool = True,
    progress=sys.stderr,
) -> str:
    """Put at ``dest`` one member of a zip archive (a wheel is one), read from it without unpacking the rest.

    The member goes to a temporary name beside ``dest`` and is renamed only once its sha256 is the expected
    one (declared, else recorded in ``lock`` as for :func:`fetch`), so ``dest`` is never a partial or wrong
    file. Returns the member's sha256.

    Raises
    ------
    DownloadError
        One line naming the archive and the member: the archive is not a readable zip, it has no such member
        (with the members of that folder), the member is corrupt, or its sha256 is not the expected one.

    Examples
    --------
    >>> import tempfile, zipfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with zipfile.ZipFile(folder / "a.zip", "w") as z:
    ...     z.writestr("pkg/data/x.csv", "smiles,y\\nC,1\\n")
    >>> extract_member(folder / "a.zip", "pkg/data/x.csv", folder / "x.csv", lock=folder / "lock.json", progress=None)[:12]
    'bdde01df29e8'
    >>> extract_member(folder / "a.zip", "pkg/data/z.csv", folder / "z.csv", lock=folder / "lock.json", progress=None)
    Traceback (most recent call last):
    ...
    crocbench.data._download.DownloadError: a.zip: no member 'pkg/data/z.csv' (pkg/data/ holds: x.csv)
    """
    import zipfile
    import zlib

    archive, dest = Path(archive), Path(dest)
    if sha256 is None and lock is None:
        raise ValueError(f"{archive.name}:{member}: give its sha256, or a lock file to record it in")
    where = f"{archive.name}:{member}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.part")
    try:
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
            if progress is not None:
                print(f"{where}: extracting {info.file_size / 1e6:.1f} MB", file=progress, flush=True)
            with open(tmp, "wb") as out:  # a write error (a full disk) is an OSError of its own, not the archive's
                try:
                    with z.open(info) as src:
                        while chunk := src.read(_CHUNK):
                            out.write(chunk)
                except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
                    raise DownloadError(
                        f"{where}: the member is corrupt ({type(exc).__name__}: {exc}); fetch {archive.name} again"
                    ) from None
        return _accept(
            tmp,
            dest,
            where,
            f"member {member} of {archive}",
            sha256,
            lock,
            lock_key,
            record,
            "the archive is not the declared release",
        )
    finally:
        tmp.unlink(missing_ok=True)


def verify_checksums(files, folder, lock, key_prefix: str) -> None:
    """Check every raw copy in ``folder`` before it is read: against its declared sha256, else the one recorded
    in ``lock`` (if any), so that a copy changed since it was fetched is never used.

    Raises
    ------
    DownloadError
        One line naming the copy, both checksums and what to do.
    """
    lock = Path(lock)
    recorded = json.loads(lock.read_text()) if lock.is_file() and lock.stat().st_size else {}
    for entry in files:
        path = Path(folder) / entry["name"]
        want, where = entry.get("sha256"), "declared"
        if want is None:
            want, where = recorded.get(f"{key_prefix}/{entry['name']}"), f"recorded in {lock}"
        actual = sha256_of(path)
        if want is not None and actual != want.lower():
            raise DownloadError(
                f"{path}: sha256 {actual} differs from the one {where} ({want}): the copy changed "
                f"after it was fetched; delete it and run again to fetch it anew"
            )


def discard_untrusted(files, folder, lock, key_prefix: str) -> list:
    """Remove the raw copies not trusted yet: no declared sha256 and none recorded in ``lock``.

    Called when reading them failed: such a copy may be the broken file (a label column missing, a truncated
    download), and it must not be reused once its source is fixed; the next run fetches it again. Returns the
    paths removed.
    """
    lock = Path(lock)
    recorded = json.loads(lock.read_text()) if lock.is_file() and lock.stat().st_size else {}
    removed = []
    for entry in files:
        path = Path(folder) / entry["name"]
        if entry.get("sha256") is None and f"{key_prefix}/{entry['name']}" not in recorded and path.is_file():
            path.unlink()
            removed.append(str(path))
    return removed


def record_checksums(files, folder, lock, key_prefix: str) -> list:
    """Record in ``lock`` the sha256 of each file (``files``: the dataset's entries) that publishes none.

    Called once the files have been read completely (a gzip stream to its end,
    every table parsed), so only a good file is trusted on first use; a file
    whose sha256 is already recorded must match it.  Returns the names recorded
    or checked.
    """
    done = []
    for entry in files:
        if entry.get("sha256") is None:
            check_lock(lock, f"{key_prefix}/{entry['name']}", sha256_of(Path(folder) / entry["name"]))
            done.append(entry["name"])
    return done

"""A file at a URL: HTTP(S) with retries and progress lines."""

from __future__ import annotations

import errno
import http.client
import time
import urllib.error
import urllib.request
from pathlib import Path

from ._base import DownloadError, Fetching, Source
from ._integrity import _CHUNK, ensure_space
from .mirror import hint


class _Meter:
    """Progress lines for one transfer: at most one every ``every`` seconds, and a last one."""

    def __init__(self, name: str, total: int | None, how: Fetching, every: float = 2.0):
        self.name, self.total, self.how, self.every = name, total, how, every
        self.start = self.last = time.monotonic()

    def __call__(self, done: int, final: bool = False) -> None:
        now = time.monotonic()
        if not (final or now - self.last >= self.every):
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9) / 1e6
        of = f" of {self.total / 1e6:.1f} MB ({100 * done / self.total:.0f}%)" if self.total else " MB"
        self.how.say(f"{self.name}: {done / 1e6:.1f}{of}, {rate:.1f} MB/s")


def _transfer(url: str, out: Path, name: str, how: Fetching) -> None:
    """One attempt: stream ``url`` into ``out``; raise on any short or failed transfer."""
    request = urllib.request.Request(url, headers={"User-Agent": "crocbench"})
    with urllib.request.urlopen(request, timeout=how.timeout) as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        ensure_space(out, total)
        with open(out, "wb") as sink:
            meter, done = _Meter(name, total, how), 0
            while chunk := response.read(_CHUNK):
                sink.write(chunk)
                done += len(chunk)
                meter(done)
            meter(done, final=True)
    if total is not None and done != total:
        raise http.client.IncompleteRead(b"", total - done)


def download(url: str, out, name: str, how: Fetching) -> None:
    """Stream ``url`` into ``out``, retrying a failed or short transfer with a doubling back-off.

    Parameters
    ----------
    url : str
        What to fetch.
    out : str or Path
        Where to write it (a temporary name: a failed attempt leaves a partial file there).
    name : str
        The file's name in messages.
    how : Fetching
        Retries, timeout, back-off and the progress stream.

    Returns
    -------
    None

    Raises
    ------
    DownloadError
        Every attempt failed (or the server's answer will not change: a 4xx other than 429), with the last
        error and how to use a mirror instead.
    """
    error = None
    for attempt in range(1, how.retries + 1):
        try:
            _transfer(url, Path(out), name, how)
            return
        except urllib.error.HTTPError as exc:
            error = f"HTTP {exc.code} {exc.reason}"
            if exc.code < 500 and exc.code != 429:  # the server's answer will not change
                break
        except (TimeoutError, urllib.error.URLError, http.client.HTTPException, OSError) as exc:
            if getattr(exc, "errno", None) == errno.ENOSPC:  # the disk, not the network: obtain says so
                raise
            reason = getattr(exc, "reason", None) or exc
            error = f"{type(exc).__name__}: {reason}"
        how.say(f"{name}: attempt {attempt}/{how.retries} failed ({error})")
        if attempt < how.retries:
            time.sleep(how.backoff * 2 ** (attempt - 1))
    raise DownloadError(f"{name}: cannot download {url}: {error}; {hint(name)}")


class Url(Source):
    """A file downloaded from ``url`` (``http``, ``https``, ``file``) when the mirror has no copy."""

    key = "url"
    mirrorable = True

    def write(self, entry: dict, out: Path, how: Fetching) -> tuple[str, str]:
        """Download the file from its ``url``, retrying a failed or short transfer (:func:`download`).

        Parameters
        ----------
        entry : dict
            The file's declaration: ``name`` and ``url``.
        out : Path
            Where to write the bytes (a temporary name; :func:`crocbench.data.obtain` renames it once checked).
        how : Fetching
            The retries, time-out, back-off and progress stream.

        Returns
        -------
        origin : str
            The URL.
        advice : str
            What to do when the bytes are not the expected ones: the file is corrupt or not the published one, and how
            to put it in a mirror.

        Raises
        ------
        DownloadError
            Every attempt failed (one line: the last error and what to do).
        """
        where = f"not in the mirror {how.mirror}; " if how.mirror is not None else ""
        how.say(f"{entry['name']}: {where}downloading {entry['url']}")
        download(entry["url"], out, entry["name"], how)
        return entry["url"], f"the file is corrupt or not the published one; {hint(entry['name'])}"

"""Atomic result files (complete or absent, one line on a full disk); deterministic array files."""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import shutil
import zipfile
from pathlib import Path

import numpy as np

_EPOCH = (1980, 1, 1, 0, 0, 0)


class DiskFullError(OSError):
    """No space left for a file: its path, the space it needs and the space free, in one line."""

    def __init__(self, path, needed: int, free: int, exact: bool):
        super().__init__(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        self.needed, self.free = needed, free
        self.message = (
            f"no space left on device writing {path} (needs {'~' if exact else 'more than '}{_size(needed)}, "
            f"{_size(free)} free)"
        )

    def __str__(self) -> str:
        return self.message


def _size(n: int) -> str:
    """Bytes in MB (one decimal), in kB below 0.1 MB.

    >>> _size(3_500_000), _size(20_000), _size(0)
    ('3.5 MB', '20 kB', '0 kB')
    """
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n / 1e3:.0f} kB"


@contextlib.contextmanager
def atomic_write(path, size: int | None = None):
    """Write ``path`` through a temporary path beside it, renamed to ``path`` once the block succeeds.

    ``with atomic_write(out) as tmp: table.to_parquet(tmp)``: a reader never sees a partial ``out``.  A write
    that fails leaves neither ``out`` (nor changes an existing one) nor the temporary file; one killed
    (SIGKILL) leaves at most the temporary file, under a fixed name (``.NAME.part.SUFFIX``: the same suffix,
    so writers that read the format from it still do), replaced by the next write of ``out``.  A full disk
    raises :class:`DiskFullError`, naming ``out``, the space needed (``size`` when the caller knows it,
    else more than was written) and the space free once the partial file is removed.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.stem}.part{path.suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        if exc.errno != errno.ENOSPC or isinstance(exc, DiskFullError):
            raise
        written = tmp.stat().st_size if tmp.exists() else 0
        tmp.unlink(missing_ok=True)
        free = shutil.disk_usage(path.parent).free
        needed = size if size is not None else getattr(exc, "needed", None)  # a check that refused up front
        raise DiskFullError(path, needed if needed is not None else written, free, exact=needed is not None) from exc
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def no_empty_folders(*paths):
    """A block that fails leaves none of the folders it made for ``paths`` (those missing when it starts: each path
    and its parents) behind while they are empty; what a failed block did write in them is kept."""
    made = {p for path in paths for p in (Path(path), *Path(path).parents) if not p.exists()}
    try:
        yield
    except BaseException:
        for folder in sorted(made, key=lambda p: len(p.parts), reverse=True):  # the deepest first
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise


def write_bytes(path, data: bytes) -> None:
    """``Path(path).write_bytes(data)``, atomically (:func:`atomic_write`)."""
    with atomic_write(path, size=len(data)) as tmp:
        tmp.write_bytes(data)


def write_text(path, text: str) -> None:
    """``Path(path).write_text(text)``, atomically (:func:`atomic_write`), as UTF-8."""
    write_bytes(path, text.encode())


def write_table(table, path, **options) -> None:
    """A pandas table to ``path`` atomically (:func:`atomic_write`): ``to_parquet`` for a ``.parquet`` file, else
    ``to_csv``; ``options`` are that writer's."""
    with atomic_write(path) as tmp:
        if Path(path).suffix == ".parquet":
            table.to_parquet(tmp, **options)
        else:
            table.to_csv(tmp, **options)


def save_arrays(path, **arrays) -> None:
    """Write arrays as an ``.npz`` readable by ``np.load``, byte-identical for equal arrays.

    (``np.savez`` stamps the current time into the zip.)  The file is written
    atomically (:func:`atomic_write`): an interrupted write leaves no partial
    file, a full disk one line with the size needed.
    """
    size = sum(np.asarray(v).nbytes + 256 for v in arrays.values())  # the arrays and their headers
    with atomic_write(path, size=size) as tmp:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as zf:
            for name, value in arrays.items():
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, np.ascontiguousarray(value), allow_pickle=False)
                zf.writestr(zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH), buffer.getvalue())


def load_arrays(path, *names: str) -> tuple:
    """The named arrays of an ``.npz`` file; a missing name raises ValueError listing those present, and a file
    that is no readable ``.npz`` (truncated, another format, pickled objects) one line naming it."""
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as data:
            if not hasattr(data, "files"):  # a plain .npy array, not an archive of named arrays
                raise ValueError(f"{path}: a single .npy array, not an .npz archive of named arrays")
            missing = [n for n in names if n not in data.files]
            if missing:
                raise ValueError(f"{path}: array(s) {', '.join(missing)} not found; it holds {', '.join(data.files)}")
            return tuple(data[n] for n in names)
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise ValueError(f"{path}: not a readable .npz archive ({exc}); write it again (rerun the step)") from None
    except ValueError as exc:
        if str(exc).startswith(str(path)):
            raise
        raise ValueError(
            f"{path}: not an .npz archive of arrays crocbench wrote (another format, or pickled objects, which are "
            "never loaded); write it again (rerun the step)"
        ) from None


def first_bad_byte(chunks, final: bool = True) -> tuple[int, int, int] | None:
    """(offset, byte, line) of the first byte of ``chunks`` that is not UTF-8, or None; lines count from 1.
    ``final=False``: the text goes on after the chunks, so a character cut at their end is not an error."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset, newlines = 0, 0
    try:
        for chunk in chunks:
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:  # exc.object: the bytes held back from the last chunk, then chunk
                held = len(exc.object) - len(chunk)
                before = exc.object[: exc.start]
                return offset - held + exc.start, exc.object[exc.start], newlines + before.count(b"\n") + 1
            offset += len(chunk)
            newlines += chunk.count(b"\n")
        if final:
            decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:  # a character cut short at the end of the file
        held = len(exc.object)
        return offset - held + exc.start, exc.object[exc.start], newlines + 1
    return None


def not_utf8_message(shown: str, found: tuple[int, int, int], kind: str = "CSV/TSV") -> str:
    """One line naming the file's first byte that is not UTF-8 (:func:`first_bad_byte`'s ``found``); ``kind``: what
    to save it as."""
    offset, byte, line = found
    return (
        f"{shown}: not UTF-8 text: byte 0x{byte:02x} at offset {offset} (line {line}); save it as UTF-8 {kind} "
        "(it may be in Windows-1252/Latin-1)"
    )


def _not_utf8(path, kind: str) -> ValueError:
    with open(path, "rb") as fh:
        found = first_bad_byte(iter(lambda: fh.read(1 << 20), b""))
    return ValueError(not_utf8_message(str(path), found or (0, 0, 1), kind))


def read_text(path, kind: str = "text") -> str:
    """``Path(path).read_text()`` as UTF-8; a file that is not UTF-8 raises one line naming its first bad byte.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "a.md").write_bytes(b"caf\\xe9")
    ...     read_text(Path(d) / "a.md", "Markdown")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: .../a.md: not UTF-8 text: byte 0xe9 at offset 3 (line 1); save it as UTF-8 Markdown (it may be ...
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _not_utf8(path, kind) from None


def read_table(path, **options):
    """``pandas.read_csv(path, sep="\\t", **options)``; a file pandas cannot read (not UTF-8, empty, ragged or cut
    short inside a quoted field) raises one line naming it, with pandas' reason.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "t.tsv").write_text("a\\tb\\n1\\t2\\n3\\t4\\t5\\n")
    ...     read_table(Path(d) / "t.tsv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: .../t.tsv: not a table: Error tokenizing data. C error: Expected 2 fields in line 3, saw 3...
    """
    import pandas as pd

    try:
        return pd.read_csv(path, **{"sep": "\t", **options})
    except UnicodeDecodeError:
        raise _not_utf8(path, "TSV") from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: empty (not even a header row); write it again") from None
    except pd.errors.ParserError as exc:
        raise ValueError(
            f"{path}: not a table: {' '.join(str(exc).split())}; is it cut short? write it again"
        ) from None

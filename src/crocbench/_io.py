"""Atomic result files (complete or absent, one line on a full disk); deterministic array files."""

from __future__ import annotations

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


def write_text(path, text: str) -> None:
    """``Path(path).write_text(text)``, atomically (:func:`atomic_write`)."""
    with atomic_write(path, size=len(text.encode())) as tmp:
        tmp.write_text(text)


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
    """The named arrays of an ``.npz`` file; a missing name raises ValueError listing those present."""
    with np.load(path, allow_pickle=False) as data:
        missing = [n for n in names if n not in data.files]
        if missing:
            raise ValueError(f"{path}: array(s) {', '.join(missing)} not found; it holds {', '.join(data.files)}")
        return tuple(data[n] for n in names)

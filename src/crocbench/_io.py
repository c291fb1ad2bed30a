"""Deterministic, atomic array files: the same arrays always give the same bytes."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

_EPOCH = (1980, 1, 1, 0, 0, 0)


def save_arrays(path, **arrays) -> None:
    """Write arrays as an ``.npz`` readable by ``np.load``, byte-identical for equal arrays.

    (``np.savez`` stamps the current time into the zip.)  The file is written
    under a temporary name and renamed, so an interrupted write leaves no
    partial file.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.part")
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as zf:
            for name, value in arrays.items():
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, np.ascontiguousarray(value), allow_pickle=False)
                zf.writestr(zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH), buffer.getvalue())
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def load_arrays(path, *names: str) -> tuple:
    """The named arrays of an ``.npz`` file; a missing name raises ValueError listing those present."""
    with np.load(path, allow_pickle=False) as data:
        missing = [n for n in names if n not in data.files]
        if missing:
            raise ValueError(f"{path}: array(s) {', '.join(missing)} not found; it holds {', '.join(data.files)}")
        return tuple(data[n] for n in names)

"""What exports keep between them in the user's cache (:func:`crocbench.data.user_cache`): standardized screen
tables, and exported screen files.

An entry is one screen's standardized compounds (``id, smiles, label``, as :func:`crocbench.data.standardize_files`
makes them, before any fold) under ``<user cache>/standardized/<key>.table``. Its key (:func:`cache_key`) is the
sha256 of the raw files' sha256, the standardization's version
(:data:`crocbench.data.STANDARDIZATION_VERSION`) and the dataset's declaration (which records it keeps, how it
labels them, what it does with duplicates; not its description): the same raw files standardized by the same code
under the same declaration give the same table. An entry is written whole (a temporary file renamed) and holds the
sha256 of its payload: one that does not match it (truncated, overwritten) is ignored, and the table made again
replaces it.

An exported screen file (CSV) is also kept, under ``<user cache>/exports/<its sha256>.csv``: an export of a spec
that lists that sha256 copies it, once its bytes are hashed again and match; its folds are not made again.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pandas as pd

from ._read import SCREEN_COLUMNS

#: The cache's subfolder holding the standardized tables.
CACHE_FOLDER = "standardized"

#: The cache's subfolder holding exported screen files, by their sha256.
EXPORTS_FOLDER = "exports"


def cache_key(declaration: dict, digests, version: int | None = None) -> str:
    """The key of a standardized table: the sha256 of its raw files' sha256, the standardization's version and the
    dataset's declaration.

    Parameters
    ----------
    declaration : dict
        The dataset's config entry (``config["datasets"][name]``); its ``description`` is left out.
    digests : sequence of str
        The sha256 of each raw file, in the declaration's order.
    version : int, optional
        The standardization's version (default :data:`crocbench.data.STANDARDIZATION_VERSION`).

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    from ..data import _standardize

    kept = {k: v for k, v in declaration.items() if k != "description"}
    payload = {
        "standardization": _standardize.STANDARDIZATION_VERSION if version is None else version,
        "raw": list(digests),
        "declaration": kept,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def entry_path(key: str, cache=None) -> Path:
    """The file of the entry ``key`` in ``cache`` (default :func:`crocbench.data.user_cache`)."""
    from ..data import user_cache

    return Path(user_cache() if cache is None else cache) / CACHE_FOLDER / f"{key}.table"


def read_cached(key: str, cache=None) -> pd.DataFrame | None:
    """The cached table of ``key``; None when there is none, or when the entry is not whole (its payload's sha256
    is not the one it holds, or it does not read as the table's columns)."""
    path = entry_path(key, cache)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    digest, _, payload = data.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    try:
        table = pd.read_parquet(io.BytesIO(payload))
    except Exception:  # a payload whose hash matches yet does not read: not trusted either
        return None
    return table if tuple(table.columns) == SCREEN_COLUMNS else None


def write_cached(key: str, table: pd.DataFrame, cache=None) -> Path:
    """Write ``table``'s ``id, smiles, label`` as the entry ``key``, whole or not at all; returns its path."""
    from .._io import write_bytes

    buffer = io.BytesIO()
    table[list(SCREEN_COLUMNS)].to_parquet(buffer, index=False)
    payload = buffer.getvalue()
    path = entry_path(key, cache)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes(path, hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    return path


def cached_export(digest: str | None, cache=None) -> Path | None:
    """The exported screen file (CSV) whose sha256 is ``digest``, when the cache (default
    :func:`crocbench.data.user_cache`) holds it and its bytes hash to it; else None."""
    from ..data import sha256_of, user_cache

    if not digest:
        return None
    path = Path(user_cache() if cache is None else cache) / EXPORTS_FOLDER / f"{digest}.csv"
    return path if path.is_file() and sha256_of(path) == digest else None


def keep_export(data: bytes, digest: str, cache=None) -> Path:
    """Keep an exported screen file's bytes ``data`` (whose sha256 is ``digest``) in the cache, whole or not at
    all; returns its path."""
    from .._io import write_bytes
    from ..data import user_cache

    path = Path(user_cache() if cache is None else cache) / EXPORTS_FOLDER / f"{digest}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes(path, data)
    return path

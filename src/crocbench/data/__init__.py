"""Data: the raw files' sources (:mod:`crocbench.data.sources`), reading tables and SD files, datasets and their
standardization."""

from ._declaration import COMPOUND_COLUMNS, Dataset, Source
from ._records import load_records
from ._sdf import read_bytes, read_sdf
from ._standardize import (
    DUPLICATE_POLICIES,
    STANDARDIZATION_VERSION,
    binary_classes,
    resolve_duplicates,
    standardize,
    standardize_files,
)
from ._tables import binary_labels, label_summary, numeric_column, read_table
from .sources import (
    CACHE_ENV,
    MIRROR_ENV,
    SOURCES,
    DownloadError,
    Fetching,
    Ledger,
    fetch_archive,
    obtain,
    read_member,
    register,
    resolve_mirror,
    sha256_of,
    source_for,
    user_cache,
)

__all__ = [
    "CACHE_ENV",
    "DUPLICATE_POLICIES",
    "resolve_duplicates",
    "COMPOUND_COLUMNS",
    "MIRROR_ENV",
    "SOURCES",
    "STANDARDIZATION_VERSION",
    "Dataset",
    "DownloadError",
    "Fetching",
    "Ledger",
    "Source",
    "binary_classes",
    "binary_labels",
    "fetch_archive",
    "label_summary",
    "load_records",
    "numeric_column",
    "obtain",
    "read_bytes",
    "read_member",
    "read_sdf",
    "read_table",
    "register",
    "resolve_mirror",
    "sha256_of",
    "source_for",
    "standardize",
    "standardize_files",
    "user_cache",
]

"""Data: fetching raw files, reading tables and SD files, datasets and their standardization."""

from ._datasets import COMPOUND_COLUMNS, Dataset, Source, binary_classes, load_records, standardize, standardize_files
from ._download import (
    DownloadError,
    check_lock,
    discard_untrusted,
    extract_member,
    fetch,
    fetch_archive,
    fetch_package,
    make_file,
    record_checksums,
    resolve_mirror,
    sha256_of,
    verify_checksums,
)
from ._sdf import read_bytes, read_sdf
from ._tables import binary_labels, label_summary, numeric_column, read_table

__all__ = [
    "COMPOUND_COLUMNS",
    "Dataset",
    "DownloadError",
    "Source",
    "binary_classes",
    "binary_labels",
    "check_lock",
    "extract_member",
    "fetch",
    "fetch_archive",
    "fetch_package",
    "label_summary",
    "load_records",
    "make_file",
    "numeric_column",
    "read_bytes",
    "read_sdf",
    "read_table",
    "record_checksums",
    "resolve_mirror",
    "sha256_of",
    "standardize",
    "standardize_files",
    "discard_untrusted",
    "verify_checksums",
]

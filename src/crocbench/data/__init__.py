"""Data: fetching raw files, reading tables and SD files, datasets and their standardization."""

from ._datasets import COMPOUND_COLUMNS, Dataset, Source, binary_classes, load_records, standardize
from ._download import (DownloadError, check_lock, extract_member, fetch, fetch_package, file_sha256, make_file,
                        record_checksums, resolve_mirror, sha256_of, verify_checksums)
from ._sdf import read_bytes, read_sdf
from ._tables import binary_labels, label_summary, numeric_column, read_table

__all__ = [
    "COMPOUND_COLUMNS", "Dataset", "DownloadError", "Source", "binary_classes", "binary_labels", "check_lock",
    "extract_member", "fetch", "fetch_package", "file_sha256", "label_summary", "load_records", "make_file", "numeric_column", "read_bytes", "read_sdf", "read_table",
    "record_checksums", "resolve_mirror",
    "sha256_of", "standardize", "verify_checksums",
]

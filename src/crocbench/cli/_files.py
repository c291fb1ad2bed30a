"""What a file argument holds, looked at before pandas reads it: a workbook, the text's encoding, the header.

- :func:`_as_text` refuses a spreadsheet workbook (xlsx, ods, xls), NUL bytes and bytes that are not UTF-8 in
  the first lines, and turns UTF-16 or UTF-32 text that starts with its byte-order mark into a UTF-8 copy;
- :func:`_check_header` reads the header line as pandas will and refuses a column name given twice (pandas
  would rename the second ``score.1`` and score the first), or a first line of numbers where names were expected;
- :func:`_not_utf8` locates the first byte that is not UTF-8 anywhere in the file.

Each raises (or returns) the one-line message the command prints, naming the file as the user gave it.  A file
pandas opens as an archive (``.zip``, ``.zst``, ``.tar...``) is left to pandas; a compressed one
(:data:`crocbench.data._tables.COMPRESSIONS`: ``.gz``, ``.bz2``, ``.xz``) is looked at decompressed.
"""

from __future__ import annotations

import codecs
import csv
import io
import lzma
import math
import zipfile
from collections import Counter
from pathlib import Path

from .._io import first_bad_byte, not_utf8_message
from ..data._tables import COMPRESSIONS, _separator

_HEAD = 65536  # bytes looked at before pandas reads the file: its first lines
_ARCHIVES = (".zip", ".zst", ".tar", ".tar.gz", ".tar.bz2", ".tar.xz")  # pandas' own, not looked into
_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_ZIP = (b"PK\x03\x04", b"PK\x05\x06")  # xlsx and ods are ZIP archives
_OLE2 = bytes.fromhex("d0cf11e0a1b11ae1")  # Excel 97-2003 (.xls)
_SHOWN_LINE = 60  # characters of a line quoted in a message


def _opener(path: Path):
    """How to read the file's text bytes: ``open``, or the decompressor its extension names; None for an
    archive pandas opens itself."""
    name = path.name.lower()
    if name.endswith(_ARCHIVES):
        return None
    return COMPRESSIONS.get(path.suffix.lower(), open)


def _head(path: Path) -> bytes | None:
    """The first :data:`_HEAD` bytes of the text (decompressed); None when they cannot be had here."""
    opener = _opener(path)
    if opener is None:
        return None
    try:
        with opener(path, "rb") as fh:
            return fh.read(_HEAD)
    except (OSError, EOFError, lzma.LZMAError):  # e.g. a .gz that is not gzip: pandas says so
        return None


def _workbook_kind(path: Path) -> str | None:
    """``"xlsx"`` or ``"ods"`` for a ZIP archive holding a spreadsheet, else None."""
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if "mimetype" in names and b"spreadsheet" in z.read("mimetype"):
                return "ods"
    except (zipfile.BadZipFile, OSError, KeyError):
        return None
    return "xlsx" if "[Content_Types].xml" in names or any(n.startswith("xl/") for n in names) else None


def _workbook(shown: str, kind: str) -> ValueError:
    return ValueError(f"{shown}: looks like a spreadsheet workbook ({kind}); export it as CSV or TSV")


def _not_utf8(path: Path, shown: str) -> str | None:
    """The message naming the first byte of the file that is not UTF-8, or None when it is all UTF-8 (or an
    archive pandas opens itself)."""
    opener = _opener(path)
    if opener is None:
        return None
    with opener(path, "rb") as fh:
        found = first_bad_byte(iter(lambda: fh.read(1 << 20), b""))
    return None if found is None else not_utf8_message(shown, found)


def _as_text(path: Path, shown: str, folder) -> Path:
    """``path`` when its first lines are UTF-8 text; a UTF-8 copy in ``folder`` of UTF-16 or UTF-32 text that
    starts with its byte-order mark; else :class:`ValueError`: a workbook, NUL bytes, a byte that is not UTF-8."""
    with open(path, "rb") as fh:
        magic = fh.read(8)
    if magic[:4] in _ZIP and not path.name.lower().endswith(".zip"):
        kind = _workbook_kind(path)
        if kind:
            raise _workbook(shown, kind)
        raise ValueError(f"{shown}: is a ZIP archive, not CSV/TSV text; unpack it (or name it .zip if it holds one)")
    if magic == _OLE2:
        raise _workbook(shown, "xls")
    if magic[:2] == b"\x1f\x8b" and _opener(path) is open:  # gzip bytes under a name that does not say so
        command = "zcat FILE | crocbench score - ..." if shown == "<stdin>" else f"zcat {shown} | crocbench score - ..."
        raise ValueError(f"{shown}: is gzip-compressed, not CSV/TSV text; decompress it first ({command})")
    head = _head(path)
    if head is None:
        return path
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return _transcode(path, shown, folder, codec)
    if b"\x00" in head:
        raise ValueError(
            f"{shown}: not UTF-8 text: it holds NUL bytes (UTF-16 without a byte-order mark?); save it as UTF-8 CSV/TSV"
        )
    found = first_bad_byte([head], final=len(head) < _HEAD)
    if found is not None:
        raise ValueError(not_utf8_message(shown, found))
    return path


def _transcode(path: Path, shown: str, folder, codec: str) -> Path:
    """A UTF-8 copy of UTF-16/UTF-32 text (its byte-order mark gives the byte order), named as the file is
    without its compression suffix, so that the separator is sniffed, or taken from the extension, alike."""
    with _opener(path)(path, "rb") as fh:
        data = fh.read()
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{shown}: starts with a {codec.upper()} byte-order mark but is not {codec.upper()} text "
            f"(byte offset {exc.start}); save it as UTF-8 CSV/TSV"
        ) from None
    name = path.name[: -len(path.suffix)] if path.suffix.lower() in COMPRESSIONS else path.name
    copy = Path(folder) / "utf-8" / name
    copy.parent.mkdir(exist_ok=True)
    with open(copy, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    return copy


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _check_header(path: Path, shown: str, sep: str | None, columns: list[tuple[str, str]]) -> None:
    """The header, read as pandas reads it (first non-blank line, the same separator, names stripped): no name
    twice, and, when a column of ``columns`` ((option, name) pairs) is missing, not a line of numbers only."""
    head = _head(path)
    if head is None:
        return
    text = head.decode("utf-8", errors="replace").removeprefix("\ufeff")
    if len(head) == _HEAD and "\n" not in text and "\r" not in text:
        return  # a header longer than the bytes looked at: pandas will tell
    delimiter = _separator(path, sep)
    try:
        header = next(
            (
                row
                for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, skipinitialspace=True)
                if row
            ),
            None,
        )
    except csv.Error:
        return
    if header is None:
        return
    names = [n.strip() for n in header]
    headerless = any(name not in names for _, name in columns) and all(map(_is_number, names))
    twice = [] if headerless else [(n, k) for n, k in Counter(n for n in names if n).items() if k > 1]
    if len(twice) == 1:
        (n, k), *_ = twice
        raise ValueError(f"{shown}: column name {n!r} appears {k} times in the header; rename one")
    if twice:
        listed = (
            ", ".join(f"{n!r} ({k} times)" for n, k in twice[:-1]) + f" and {twice[-1][0]!r} ({twice[-1][1]} times)"
        )
        raise ValueError(f"{shown}: column names {listed} appear more than once in the header; rename them")
    if headerless:  # a first line of numbers is data, even where two of them are equal
        first = next(line for line in io.StringIO(text, newline="") if line.strip()).rstrip("\r\n")
        if len(first) > _SHOWN_LINE:
            first = first[: _SHOWN_LINE - 3] + "..."
        wanted = [name for option, name in columns if option == "--id-col"]
        wanted += [name for option, name in columns if option != "--id-col"]
        if len(names) > len(wanted) and "id" not in wanted:
            wanted.insert(0, "id")
        options = "/".join(option for option, _ in columns)
        raise ValueError(
            f"{shown}: has no header row (its first line {first!r} is all numbers); add a header line such as "
            f"{delimiter.join(wanted)!r}, or, if that line is the header, name its columns with {options}"
        )

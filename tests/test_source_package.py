"""crocbench.data.sources.package: a release's file fetched with pip's own client (a local find-links folder)."""

import hashlib
import zipfile
from pathlib import Path

import pytest

from crocbench.data import DownloadError, Fetching, obtain

QUIET = Fetching(progress=None)


def tiny_wheel(folder: Path) -> Path:
    """A minimal, valid wheel of a package 'tinypkg' 1.0 holding one data member."""
    path = folder / "tinypkg-1.0-py3-none-any.whl"
    info = "tinypkg-1.0.dist-info"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("tinypkg/data/screen.csv", "smiles,y\nCCO,1\nCCC,0\n")
        z.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: tinypkg\nVersion: 1.0\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{info}/RECORD", "")
    return path


def test_a_package_file_comes_from_pip_and_lands_whole_or_not_at_all(tmp_path, monkeypatch):
    index = tmp_path / "index"
    index.mkdir()
    wheel = tiny_wheel(index)
    sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    entry = {"name": wheel.name, "package": "tinypkg==1.0", "sha256": sha}
    dest = tmp_path / "archives" / wheel.name
    assert obtain(entry, dest, how=QUIET) == sha
    assert dest.read_bytes() == wheel.read_bytes()
    other = tmp_path / "other" / wheel.name
    with pytest.raises(DownloadError, match="sha256 mismatch for pip download tinypkg==1.0"):
        obtain({**entry, "sha256": "0" * 64}, other, how=QUIET)
    with pytest.raises(DownloadError, match="pip download tinypkg==2.0 exited with status 1"):
        obtain({**entry, "package": "tinypkg==2.0"}, other, how=QUIET)
    assert not other.exists() and not list(other.parent.iterdir())  # nothing half-written

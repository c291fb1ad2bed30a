"""crocbench.data.sources._integrity: sha256, the ledger, and the checked rename every source goes through."""

import hashlib
import json

import pytest

from crocbench._io import DiskFullError
from crocbench.data import DownloadError, Ledger, sha256_of
from crocbench.data.sources._integrity import install


def _writer(data: bytes, origin="test"):
    def write(out):
        out.write_bytes(data)
        return origin, "advice"

    return write


def test_sha256_of_agrees_with_hashlib(tmp_path):
    (tmp_path / "x").write_bytes(b"abc" * 1_000_000)
    assert sha256_of(tmp_path / "x") == hashlib.sha256(b"abc" * 1_000_000).hexdigest()


def test_install_renames_only_a_checked_file(tmp_path):
    dest = tmp_path / "d" / "a.csv"
    good = hashlib.sha256(b"ok").hexdigest()
    assert install(dest, _writer(b"ok"), name="a.csv", sha256=good.upper()) == good  # a checksum as published
    assert dest.read_bytes() == b"ok" and [p.name for p in dest.parent.iterdir()] == ["a.csv"]
    with pytest.raises(DownloadError, match=f"a.csv: sha256 mismatch for test: expected {good}, got"):
        install(tmp_path / "b.csv", _writer(b"ko"), name="a.csv", sha256=good)
    assert list(tmp_path.iterdir()) == [tmp_path / "d"]  # neither b.csv nor its temporary


def test_a_failed_write_leaves_nothing(tmp_path):
    def write(out):
        out.write_bytes(b"half")
        raise DownloadError("x: cut")

    with pytest.raises(DownloadError, match="cut"):
        install(tmp_path / "a", write, name="a", sha256="0" * 64)
    assert list(tmp_path.iterdir()) == []


def test_the_ledger_records_a_first_sha256_then_enforces_it(tmp_path):
    ledger = Ledger(tmp_path / "lock.json")
    sha = hashlib.sha256(b"ok").hexdigest()
    assert install(tmp_path / "a", _writer(b"ok"), name="a", ledger=ledger, key="ds/a", record=False) == sha
    assert ledger.read() == {}  # record=False: checked only, nothing recorded (the workflow's download)
    install(tmp_path / "a", _writer(b"ok"), name="a", ledger=ledger, key="ds/a")
    assert json.loads((tmp_path / "lock.json").read_text()) == {"ds/a": sha}
    with pytest.raises(DownloadError, match=f"ds/a: sha256 .* differs from {sha} recorded in"):
        install(tmp_path / "b", _writer(b"ko"), name="a", ledger=ledger, key="ds/a", record=False)
    assert not (tmp_path / "b").exists()


def test_the_ledger_verifies_records_and_discards_by_dataset_and_name(tmp_path):
    """Each of the three looks a file up under DATASET/NAME: a record under another key is no record."""
    ledger = Ledger(tmp_path / "lock.json")
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "a.csv").write_bytes(b"aaa")
    (folder / "b.csv").write_bytes(b"bbb")
    files = [{"name": "a.csv", "sha256": None}, {"name": "b.csv", "sha256": hashlib.sha256(b"bbb").hexdigest()}]
    assert ledger.record("ds", files, folder) == ["a.csv"]
    assert ledger.read() == {"ds/a.csv": hashlib.sha256(b"aaa").hexdigest()}
    ledger.verify("ds", files, folder)  # both good
    (folder / "a.csv").write_bytes(b"changed")  # a copy changed after it was recorded
    with pytest.raises(DownloadError, match=r"a\.csv: sha256 .* differs from the one recorded in"):
        ledger.verify("ds", files, folder)
    ledger.verify("other", files, folder)  # nothing recorded for dataset "other": not checked
    (folder / "b.csv").write_bytes(b"changed")
    with pytest.raises(DownloadError, match=r"b\.csv: sha256 .* differs from the one declared"):
        ledger.verify("other", files, folder)
    # a copy with no record is untrusted, one with a record is kept
    assert ledger.discard_untrusted("ds", files, folder) == []
    assert ledger.discard_untrusted("other", files, folder) == [str(folder / "a.csv")]
    assert not (folder / "a.csv").exists() and (folder / "b.csv").exists()


def test_a_disk_that_fills_while_writing_is_one_line_and_leaves_nothing(small_disk):
    """A write whose size is not known up front (a command's output) fills a 1 MiB tmpfs: the error names the
    path and the space, and neither the file nor its temporary is kept."""
    dest = small_disk / "big.csv"
    with pytest.raises(DiskFullError) as err:
        install(dest, _writer(b"x" * 3_000_000), name="big.csv", sha256="0" * 64)
    line = str(err.value)
    assert "\n" not in line and line.startswith(f"no space left on device writing {dest} (needs more than ")
    assert list(small_disk.iterdir()) == []

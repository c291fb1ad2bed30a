"""crocbench.data.sources.member: one member of a zip archive, the archive fetched once (tests/_http.py)."""

import hashlib
import io
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest
from _http import CONTENT, SHA, Handler

from crocbench.data import DownloadError, Fetching, Ledger, fetch_archive, obtain

MEMBER = b"smiles,y\nCCO,1\nCCC,0\n"


def test_an_archive_is_fetched_once_and_a_wrong_copy_replaced(http_server, tmp_path):
    """Four jobs asking at once fetch it once (the lock), later ones use it without the network, and a copy
    that is not the declared file is fetched again."""
    entry = {"name": "good.csv", "sha256": SHA.upper(), "url": f"{http_server}/slow.csv"}  # a checksum as published
    how = Fetching(archives=tmp_path / "archives", progress=None)
    for path in ("/slow.csv", "/gone.csv"):
        Handler.hits.pop(path, None)
    with ThreadPoolExecutor(4) as pool:  # each request takes 0.3 s: without the lock all four would fetch
        paths = list(pool.map(lambda _: fetch_archive(entry, how), range(4)))
    assert paths == [tmp_path / "archives" / "good.csv"] * 4 and paths[0].read_bytes() == CONTENT
    assert Handler.hits["/slow.csv"] == 1
    log = io.StringIO()
    fetch_archive({**entry, "url": f"{http_server}/gone.csv"}, Fetching(archives=how.archives, progress=log))
    assert "/gone.csv" not in Handler.hits and Handler.hits["/slow.csv"] == 1 and "already in" in log.getvalue()
    paths[0].write_bytes(CONTENT[:100])  # truncated by a crash of some other tool: not the declared file
    fetch_archive(entry, how)
    assert paths[0].read_bytes() == CONTENT and Handler.hits["/slow.csv"] == 2
    with pytest.raises(DownloadError, match="sha256 mismatch"):
        fetch_archive({**entry, "sha256": "0" * 64}, how)
    assert sorted(p.name for p in how.archives.iterdir()) == ["good.csv.flock"]  # a wrong one is gone


def _archive(folder):
    path = folder / "a.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("pkg/data/x.csv", MEMBER)
        z.writestr("pkg/data/y.csv", "other")
    return path


def test_a_member_is_checked_under_the_key_it_is_given(tmp_path):
    """A member that declares no sha256 is recorded and checked under the ledger key the caller gives
    (DATASET/NAME, as the workflow's standardize reads it), not under ARCHIVE:MEMBER."""
    archive = _archive(tmp_path)
    how = Fetching(mirror=tmp_path, archives=tmp_path / "archives", progress=None)
    declared = {
        "name": "a.zip",
        "sha256": hashlib.sha256(archive.read_bytes()).hexdigest(),
        "url": "http://127.0.0.1:9/",
    }
    entry = {"name": "x.csv", "member": "pkg/data/x.csv", "archive": declared}
    ledger = Ledger(tmp_path / "lock.json")
    sha = obtain(entry, tmp_path / "out" / "x.csv", ledger=ledger, key="ds/x.csv", how=how)
    assert sha == hashlib.sha256(MEMBER).hexdigest() and ledger.read() == {"ds/x.csv": sha}
    # another member under the same key: the recorded sha256 refuses it
    with pytest.raises(DownloadError, match="ds/x.csv: sha256 .* differs from"):
        obtain(
            {**entry, "member": "pkg/data/y.csv"}, tmp_path / "out" / "x2.csv", ledger=ledger, key="ds/x.csv", how=how
        )
    assert not (tmp_path / "out" / "x2.csv").exists()
    # a declared sha256 that is not the member's: the message names the archive and the member
    with pytest.raises(DownloadError, match=r"^a\.zip:pkg/data/x\.csv: sha256 mismatch for member pkg/data/x\.csv of "):
        obtain({**entry, "sha256": "0" * 64}, tmp_path / "out" / "x3.csv", how=how)


def test_a_missing_member_or_a_broken_archive_is_one_line(tmp_path):
    archive = _archive(tmp_path)
    how = Fetching(mirror=tmp_path, archives=tmp_path / "archives", progress=None)
    declared = {
        "name": "a.zip",
        "sha256": hashlib.sha256(archive.read_bytes()).hexdigest(),
        "url": "http://127.0.0.1:9/",
    }
    with pytest.raises(DownloadError, match=r"a.zip: no member 'pkg/data/z.csv' \(pkg/data/ holds: x.csv, y.csv\)"):
        obtain(
            {"name": "z.csv", "member": "pkg/data/z.csv", "archive": declared, "sha256": "0" * 64},
            tmp_path / "z.csv",
            how=how,
        )
    (tmp_path / "b.zip").write_bytes(b"not a zip")
    broken = {"name": "b.zip", "sha256": hashlib.sha256(b"not a zip").hexdigest(), "url": "http://127.0.0.1:9/"}
    with pytest.raises(DownloadError, match="b.zip:pkg/x: the archive is not a readable zip"):
        obtain({"name": "x", "member": "pkg/x", "archive": broken, "sha256": "0" * 64}, tmp_path / "x", how=how)
    assert not (tmp_path / "z.csv").exists() and not (tmp_path / "x").exists()

"""crocbench.data.sources.url: downloads from a real HTTP server on 127.0.0.1 (tests/_http.py)."""

import hashlib
import io
import threading

import pytest
from _http import CONTENT, SHA, Handler

from crocbench._io import DiskFullError
from crocbench.data import DownloadError, Fetching, Ledger, obtain

HOW = Fetching(backoff=0.01, timeout=5, progress=None)


def _get(url, dest, sha=SHA, how=HOW, **kw):
    return obtain({"name": dest.name, "url": url, "sha256": sha}, dest, how=how, **kw)


def test_good_file_is_downloaded_and_checked(http_server, tmp_path):
    log = io.StringIO()
    dest = tmp_path / "d" / "a.csv"
    assert _get(f"{http_server}/good.csv", dest, how=Fetching(progress=log)) == SHA
    assert dest.read_bytes() == CONTENT
    assert "downloading" in log.getvalue() and "MB" in log.getvalue()
    assert [p.name for p in dest.parent.iterdir()] == ["a.csv"]  # no temporary left


def test_corrupted_file_is_refused_and_not_written(http_server, tmp_path):
    bad = hashlib.sha256(CONTENT[:-1] + b"X").hexdigest()
    with pytest.raises(DownloadError) as err:
        _get(f"{http_server}/corrupt.csv", tmp_path / "a.csv")
    message = str(err.value)
    assert "a.csv" in message and SHA in message and bad in message and "mirror" in message
    assert list(tmp_path.iterdir()) == []


def test_404_fails_at_once_with_the_error(http_server, tmp_path):
    Handler.hits.pop("/missing.csv", None)
    with pytest.raises(DownloadError, match=r"missing\.csv.*HTTP 404.*CROCBENCH_MIRROR"):
        _get(f"{http_server}/missing.csv", tmp_path / "missing.csv", how=Fetching(retries=3, progress=None))
    assert Handler.hits["/missing.csv"] == 1  # a 404 is not retried
    assert list(tmp_path.iterdir()) == []


def test_a_connection_cut_mid_stream_every_time_is_retried_then_reported(http_server, tmp_path):
    Handler.hits.pop("/dropped.csv", None)
    how = Fetching(retries=2, backoff=0.01, timeout=5, progress=None)
    with pytest.raises(DownloadError, match=r"dropped\.csv: cannot download .*IncompleteRead"):
        _get(f"{http_server}/dropped.csv", tmp_path / "dropped.csv", how=how)
    assert Handler.hits["/dropped.csv"] == 2
    assert list(tmp_path.iterdir()) == []  # neither the half file nor its temporary


def test_a_connection_cut_once_is_retried_and_no_half_file_is_ever_kept(http_server, tmp_path):
    """The server closes the connection halfway through the first transfer: the second attempt brings the
    whole file, and the destination never holds the half one (watched while the download runs)."""
    Handler.hits.pop("/cut_once.csv", None)
    dest, seen, done = tmp_path / "a.csv", set(), threading.Event()

    def watch():
        while not done.is_set():
            if dest.exists():
                seen.add(dest.stat().st_size)

    watcher = threading.Thread(target=watch)
    watcher.start()
    log = io.StringIO()
    try:
        assert _get(f"{http_server}/cut_once.csv", dest, how=Fetching(backoff=0.2, timeout=5, progress=log)) == SHA
    finally:
        done.set()
        watcher.join()
    assert Handler.hits["/cut_once.csv"] == 2 and "attempt 1/3 failed (IncompleteRead" in log.getvalue()
    assert seen <= {len(CONTENT)} and dest.read_bytes() == CONTENT
    assert [p.name for p in tmp_path.iterdir()] == ["a.csv"]


def test_server_error_is_retried(http_server, tmp_path):
    Handler.hits.pop("/flaky.csv", None)
    assert _get(f"{http_server}/flaky.csv", tmp_path / "f.csv", how=Fetching(retries=2, backoff=0.01)) == SHA
    assert Handler.hits["/flaky.csv"] == 2


def test_unreachable_host(tmp_path):
    with pytest.raises(DownloadError, match="cannot download"):
        _get("http://127.0.0.1:9/x.csv", tmp_path / "x.csv", how=Fetching(retries=1, progress=None))


def test_unknown_checksum_is_recorded_then_enforced(http_server, tmp_path):
    ledger = Ledger(tmp_path / "lock.json")
    assert _get(f"{http_server}/good.csv", tmp_path / "a.csv", sha=None, ledger=ledger, key="ds/a.csv") == SHA
    assert ledger.read() == {"ds/a.csv": SHA}
    assert _get(f"{http_server}/good.csv", tmp_path / "a.csv", sha=None, ledger=ledger, key="ds/a.csv") == SHA
    (tmp_path / "a.csv").unlink()
    with pytest.raises(DownloadError, match=f"differs from {SHA} recorded in"):
        _get(f"{http_server}/corrupt.csv", tmp_path / "a.csv", sha=None, ledger=ledger, key="ds/a.csv")
    assert not (tmp_path / "a.csv").exists()
    with pytest.raises(ValueError, match="sha256, or a lock file"):
        _get(f"{http_server}/good.csv", tmp_path / "a.csv", sha=None)


def test_a_download_onto_a_full_disk_is_one_line_and_leaves_nothing(http_server, small_disk):
    """The server announces 115 kB; a 1 MiB tmpfs nearly full takes less: refused before writing, one line
    naming the path and the space needed."""
    (small_disk / "filler").write_bytes(b"\0" * (1024 * 1024 - 64 * 1024))
    dest = small_disk / "a.csv"
    with pytest.raises(DiskFullError) as err:
        _get(f"{http_server}/good.csv", dest)
    line = str(err.value)
    assert "\n" not in line and line.startswith(f"no space left on device writing {dest} (needs ~0.1 MB, ")
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]

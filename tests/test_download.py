"""Fetching raw files against a local HTTP server on 127.0.0.1 (nothing on the network)."""

import hashlib
import http.server
import io
import json
import threading
import time
from pathlib import Path

import pytest

from crocbench.data import DownloadError, fetch, resolve_mirror, sha256_of

CONTENT = b"smiles,activity\nCCO,CI\n" * 5000
SHA = hashlib.sha256(CONTENT).hexdigest()


class _Handler(http.server.BaseHTTPRequestHandler):
    hits: dict = {}

    def log_message(self, *args):  # keep the test output clean
        pass

    def do_GET(self):
        _Handler.hits[self.path] = _Handler.hits.get(self.path, 0) + 1
        if self.path == "/good.csv":
            body = CONTENT
        elif self.path == "/corrupt.csv":
            body = CONTENT[:-1] + b"X"
        elif self.path == "/slow.csv":  # the good file, after a pause: concurrent clients overlap
            time.sleep(0.3)
            body = CONTENT
        elif self.path == "/flaky.csv" and _Handler.hits[self.path] == 1:
            self.send_error(503)
            return
        elif self.path == "/flaky.csv":
            body = CONTENT
        elif self.path == "/dropped.csv":  # announces the whole file, sends half, hangs up
            self.send_response(200)
            self.send_header("Content-Length", str(len(CONTENT)))
            self.end_headers()
            self.wfile.write(CONTENT[: len(CONTENT) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _fetch(url, dest, sha=SHA, **kw):
    kw.setdefault("backoff", 0.01)
    kw.setdefault("timeout", 5)
    return fetch(url, dest, sha, progress=kw.pop("progress", None), **kw)


def test_good_file_is_downloaded_and_checked(server, tmp_path):
    log = io.StringIO()
    assert _fetch(f"{server}/good.csv", tmp_path / "d" / "a.csv", progress=log) == SHA
    assert (tmp_path / "d" / "a.csv").read_bytes() == CONTENT
    assert "downloading" in log.getvalue() and "MB" in log.getvalue()
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["a.csv"]  # no temporary left


def test_corrupted_file_is_refused_and_not_written(server, tmp_path):
    bad = hashlib.sha256(CONTENT[:-1] + b"X").hexdigest()
    with pytest.raises(DownloadError) as err:
        _fetch(f"{server}/corrupt.csv", tmp_path / "a.csv")
    message = str(err.value)
    assert "a.csv" in message and SHA in message and bad in message and "mirror" in message
    assert list(tmp_path.iterdir()) == []


def test_404_fails_at_once_with_the_error(server, tmp_path):
    _Handler.hits.pop("/missing.csv", None)
    with pytest.raises(DownloadError, match=r"missing\.csv.*HTTP 404.*CROCBENCH_MIRROR"):
        _fetch(f"{server}/missing.csv", tmp_path / "missing.csv", retries=3)
    assert _Handler.hits["/missing.csv"] == 1  # a 404 is not retried
    assert list(tmp_path.iterdir()) == []


def test_server_gone_mid_transfer_is_retried_then_reported(server, tmp_path):
    _Handler.hits.pop("/dropped.csv", None)
    with pytest.raises(DownloadError, match=r"dropped\.csv: cannot download .*IncompleteRead"):
        _fetch(f"{server}/dropped.csv", tmp_path / "dropped.csv", retries=2)
    assert _Handler.hits["/dropped.csv"] == 2
    assert list(tmp_path.iterdir()) == []


def test_server_error_is_retried(server, tmp_path):
    _Handler.hits.pop("/flaky.csv", None)
    assert _fetch(f"{server}/flaky.csv", tmp_path / "f.csv", retries=2) == SHA
    assert _Handler.hits["/flaky.csv"] == 2


def test_unreachable_host(tmp_path):
    with pytest.raises(DownloadError, match="cannot download"):
        _fetch("http://127.0.0.1:9/x.csv", tmp_path / "x.csv", retries=1)


def test_mirror_first_and_its_checksum(server, tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "a.csv").write_bytes(CONTENT)
    _Handler.hits.pop("/missing.csv", None)
    # the URL would 404: the mirror is used without touching the network
    assert _fetch(f"{server}/missing.csv", tmp_path / "out" / "a.csv", mirror=mirror) == SHA
    assert "/missing.csv" not in _Handler.hits
    (mirror / "a.csv").write_bytes(CONTENT + b"\n")
    with pytest.raises(DownloadError, match="sha256 mismatch for mirror file") as error:
        _fetch(f"{server}/good.csv", tmp_path / "out" / "b.csv", mirror=mirror, name="a.csv")
    assert f"replace {mirror / 'a.csv'} with the published file" in str(error.value)  # not "use a mirror"
    assert "mirror' key" not in str(error.value)
    # a mirror without the file: download
    assert _fetch(f"{server}/good.csv", tmp_path / "out" / "c.csv", mirror=tmp_path / "nowhere") == SHA


def test_unknown_checksum_is_recorded_then_enforced(server, tmp_path):
    lock = tmp_path / "lock.json"
    assert _fetch(f"{server}/good.csv", tmp_path / "a.csv", sha=None, lock=lock, lock_key="ds/a.csv") == SHA
    assert json.loads(lock.read_text()) == {"ds/a.csv": SHA}
    assert _fetch(f"{server}/good.csv", tmp_path / "a.csv", sha=None, lock=lock, lock_key="ds/a.csv") == SHA
    (tmp_path / "a.csv").unlink()
    with pytest.raises(DownloadError, match=f"differs from {SHA} recorded in"):
        _fetch(f"{server}/corrupt.csv", tmp_path / "a.csv", sha=None, lock=lock, lock_key="ds/a.csv")
    assert not (tmp_path / "a.csv").exists()
    with pytest.raises(ValueError, match="sha256, or a lock file"):
        _fetch(f"{server}/good.csv", tmp_path / "a.csv", sha=None)


def test_unknown_checksum_can_wait_until_the_file_was_read(server, tmp_path):
    """record=False (the workflow's download): nothing is recorded yet, but a recorded sha256 is enforced."""
    from crocbench.data import record_checksums

    lock = tmp_path / "lock.json"
    assert (
        _fetch(f"{server}/corrupt.csv", tmp_path / "a.csv", sha=None, lock=lock, lock_key="ds/a.csv", record=False)
        != SHA
    )
    assert not lock.exists()  # a bad download leaves no trace in the lock
    assert (
        _fetch(f"{server}/good.csv", tmp_path / "a.csv", sha=None, lock=lock, lock_key="ds/a.csv", record=False) == SHA
    )
    assert record_checksums(
        [{"name": "a.csv", "sha256": None}, {"name": "b.csv", "sha256": SHA}], tmp_path, lock, "ds"
    ) == ["a.csv"]
    assert json.loads(lock.read_text()) == {"ds/a.csv": SHA}
    with pytest.raises(DownloadError, match="differs from"):
        _fetch(f"{server}/corrupt.csv", tmp_path / "c.csv", sha=None, lock=lock, lock_key="ds/a.csv", record=False)


def test_resolve_mirror(monkeypatch, tmp_path):
    monkeypatch.delenv("CROCBENCH_MIRROR", raising=False)
    assert resolve_mirror(None) is None
    assert resolve_mirror("m", base=tmp_path) == tmp_path / "m"
    monkeypatch.setenv("CROCBENCH_MIRROR", str(tmp_path / "env"))
    assert resolve_mirror("m", base=tmp_path) == tmp_path / "env"


def test_sha256_of(tmp_path):
    (tmp_path / "x").write_bytes(b"abc")
    assert sha256_of(tmp_path / "x") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def _tiny_wheel(folder: Path) -> Path:
    """A minimal, valid wheel of a package 'tinypkg' 1.0 holding one data member."""
    import zipfile

    path = folder / "tinypkg-1.0-py3-none-any.whl"
    info = "tinypkg-1.0.dist-info"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("tinypkg/data/screen.csv", "smiles,y\nCCO,1\nCCC,0\n")
        z.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: tinypkg\nVersion: 1.0\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{info}/RECORD", "")
    return path


def test_fetch_package_uses_pips_own_client_and_checks_the_sha256(tmp_path, monkeypatch):
    """pip download from a local find-links folder (no network): the file lands whole, or not at all."""
    import hashlib

    from crocbench.data import DownloadError, extract_member, fetch_package

    index = tmp_path / "index"
    index.mkdir()
    wheel = _tiny_wheel(index)
    sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    dest = tmp_path / "archives" / wheel.name
    assert fetch_package("tinypkg==1.0", dest, sha, progress=None) == sha
    assert dest.read_bytes() == wheel.read_bytes()
    member = extract_member(
        dest,
        "tinypkg/data/screen.csv",
        tmp_path / "screen.csv",
        sha256=None,
        lock=tmp_path / "lock.json",
        progress=None,
    )
    assert member == hashlib.sha256(b"smiles,y\nCCO,1\nCCC,0\n").hexdigest()
    other = tmp_path / "other" / wheel.name
    with pytest.raises(DownloadError, match="sha256 mismatch for pip download tinypkg==1.0"):
        fetch_package("tinypkg==1.0", other, "0" * 64, progress=None)
    with pytest.raises(DownloadError, match="pip download tinypkg==2.0 exited with status 1"):
        fetch_package("tinypkg==2.0", other, sha, progress=None)
    assert not other.exists() and not [p for p in other.parent.iterdir()]  # nothing half-written


def test_an_archive_is_fetched_once_and_a_wrong_copy_replaced(server, tmp_path):
    """fetch_archive keeps the declared archive in its folder: four jobs asking at once fetch it once (the lock),
    later ones use it without the network, and a copy that is not the declared file is fetched again."""
    from concurrent.futures import ThreadPoolExecutor

    from crocbench.data import fetch_archive

    entry = {"name": "good.csv", "sha256": SHA.upper(), "url": f"{server}/slow.csv"}  # a checksum as published
    for path in ("/slow.csv", "/gone.csv"):
        _Handler.hits.pop(path, None)
    with ThreadPoolExecutor(4) as pool:  # each request takes 0.3 s: without the lock all four would fetch
        paths = list(pool.map(lambda _: fetch_archive(entry, tmp_path / "archives", progress=None), range(4)))
    assert paths == [tmp_path / "archives" / "good.csv"] * 4 and paths[0].read_bytes() == CONTENT
    assert _Handler.hits["/slow.csv"] == 1
    log = io.StringIO()
    fetch_archive({**entry, "url": f"{server}/gone.csv"}, tmp_path / "archives", progress=log)  # no request made
    assert "/gone.csv" not in _Handler.hits and _Handler.hits["/slow.csv"] == 1 and "already in" in log.getvalue()
    paths[0].write_bytes(CONTENT[:100])  # truncated by a crash of some other tool: not the declared file
    fetch_archive(entry, tmp_path / "archives", progress=None)
    assert paths[0].read_bytes() == CONTENT and _Handler.hits["/slow.csv"] == 2
    with pytest.raises(DownloadError, match="sha256 mismatch"):
        fetch_archive({**entry, "sha256": "0" * 64}, tmp_path / "archives", progress=None)
    assert sorted(p.name for p in (tmp_path / "archives").iterdir()) == ["good.csv.flock"]  # a wrong one is gone

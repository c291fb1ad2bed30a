"""crocbench.data.sources.mirror: local copies by name, before any download."""

import pytest
from _http import CONTENT, SHA, Handler

from crocbench._io import DiskFullError
from crocbench.data import DownloadError, Fetching, obtain, resolve_mirror, source_for


def test_mirror_first_and_its_checksum(http_server, tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "a.csv").write_bytes(CONTENT)
    how = Fetching(mirror=mirror, progress=None)
    Handler.hits.pop("/missing.csv", None)
    # the URL would 404: the mirror is used without touching the network
    assert (
        obtain({"name": "a.csv", "url": f"{http_server}/missing.csv", "sha256": SHA}, tmp_path / "o" / "a.csv", how=how)
        == SHA
    )
    assert "/missing.csv" not in Handler.hits
    (mirror / "a.csv").write_bytes(CONTENT + b"\n")
    with pytest.raises(DownloadError, match="sha256 mismatch for mirror file") as error:
        obtain({"name": "a.csv", "url": f"{http_server}/good.csv", "sha256": SHA}, tmp_path / "o" / "b.csv", how=how)
    assert f"replace {mirror / 'a.csv'} with the published file" in str(error.value)  # not "use a mirror"
    assert "mirror' key" not in str(error.value)
    # a mirror without the file: download
    nowhere = Fetching(mirror=tmp_path / "nowhere", progress=None)
    assert (
        obtain(
            {"name": "c.csv", "url": f"{http_server}/good.csv", "sha256": SHA}, tmp_path / "o" / "c.csv", how=nowhere
        )
        == SHA
    )


def test_the_mirror_stands_in_only_for_mirrorable_kinds(tmp_path):
    (tmp_path / "x.csv").write_text("mirror")
    how = Fetching(mirror=tmp_path, progress=None)
    assert type(source_for({"name": "x.csv", "url": "http://127.0.0.1:9/x.csv"}, how)).__name__ == "Mirror"
    assert type(source_for({"name": "x.csv", "package": "p==1"}, how)).__name__ == "Mirror"
    assert type(source_for({"name": "x.csv", "command": "true"}, how)).__name__ == "Command"
    assert type(source_for({"name": "x.csv", "url": "http://127.0.0.1:9/x.csv"})).__name__ == "Url"


def test_resolve_mirror(monkeypatch, tmp_path):
    monkeypatch.delenv("CROCBENCH_MIRROR", raising=False)
    assert resolve_mirror(None) is None
    assert resolve_mirror("m", base=tmp_path) == tmp_path / "m"
    monkeypatch.setenv("CROCBENCH_MIRROR", str(tmp_path / "env"))
    assert resolve_mirror("m", base=tmp_path) == tmp_path / "env"


def test_a_mirror_copy_onto_a_full_disk_says_the_space_it_needs(tmp_path, small_disk):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "big.csv").write_bytes(b"x" * 2_000_000)
    dest = small_disk / "big.csv"
    with pytest.raises(DiskFullError) as err:
        obtain(
            {"name": "big.csv", "url": "http://127.0.0.1:9/", "sha256": "0" * 64},
            dest,
            how=Fetching(mirror=mirror, progress=None),
        )
    assert str(err.value).startswith(f"no space left on device writing {dest} (needs ~2.0 MB, ")
    assert list(small_disk.iterdir()) == []

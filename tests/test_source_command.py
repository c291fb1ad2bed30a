"""crocbench.data.sources.command: a file a shell command writes, checked like a download."""

import hashlib
import json

import pytest

from crocbench.data import DownloadError, Fetching, Ledger, obtain

QUIET = Fetching(progress=None)


def _make(command, dest, sha=None, how=QUIET, **kw):
    return obtain({"name": dest.name, "command": command, "sha256": sha}, dest, how=how, **kw)


def test_a_dataset_file_made_by_a_command_is_checked_like_a_download(tmp_path):
    script = "import sys; open(sys.argv[1], 'w').write('id,smiles,label\\n1,CCO,1\\n')"
    command = f'{{python}} -c "{script}" {{out}}'
    dest = tmp_path / "data" / "x.csv"
    ledger = Ledger(tmp_path / "lock.json")
    digest = _make(command, dest, ledger=ledger, key="d/x.csv")
    assert dest.read_text() == "id,smiles,label\n1,CCO,1\n"
    assert digest == hashlib.sha256(dest.read_bytes()).hexdigest() == json.loads(ledger.path.read_text())["d/x.csv"]
    dest.unlink()
    with pytest.raises(DownloadError, match="sha256 mismatch .* not deterministic"):
        _make(command, dest, "0" * 64)
    assert not dest.exists() and not list(dest.parent.glob(".*part"))  # nothing half-written
    with pytest.raises(DownloadError, match="exited with status 3"):
        _make("{python} -c 'import sys; sys.exit(3)'", dest, ledger=ledger)
    with pytest.raises(DownloadError, match="needs \\{mirror\\}"):
        _make("cp {mirror}/a {out}", dest, ledger=ledger)
    with pytest.raises(DownloadError, match="without writing"):
        _make("true", dest, ledger=ledger)


def test_the_command_reads_the_mirror(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "a").write_text("from the mirror")
    _make(
        "cp {mirror}/a {out}",
        tmp_path / "x",
        hashlib.sha256(b"from the mirror").hexdigest(),
        how=Fetching(mirror=tmp_path / "m", progress=None),
    )
    assert (tmp_path / "x").read_text() == "from the mirror"

"""The standardized tables an export caches in the user's cache (crocbench.benchmark._cache): keyed by the raw
files' sha256, the standardization's version and the declaration; a broken entry rebuilt, not trusted; and the
standardization's parallel path byte-identical to its serial one. The toy project's exports (tests/_benchmark.py)
read a mirror the test writes; each test has a user cache of its own (conftest.py's ``user_cache``)."""

import hashlib

import pandas as pd
import pytest
from _benchmark import _toy_project

from crocbench.benchmark import export, freeze
from crocbench.benchmark._cache import CACHE_FOLDER, EXPORTS_FOLDER, cache_key, read_cached
from crocbench.benchmark._read import table_bytes
from crocbench.data import Dataset, _standardize, standardize

DECLARATION = {"files": [{"name": "a.csv", "sha256": "0" * 64}], "positive": [1], "description": "words"}


def test_the_key_moves_with_the_standardization_version_the_raw_files_and_the_declaration(monkeypatch):
    key = cache_key(DECLARATION, ["1" * 64])
    assert len(key) == 64 and key == cache_key(DECLARATION, ["1" * 64])
    assert cache_key({**DECLARATION, "description": "other words"}, ["1" * 64]) == key
    assert cache_key({**DECLARATION, "positive": [2]}, ["1" * 64]) != key
    assert cache_key(DECLARATION, ["2" * 64]) != key
    monkeypatch.setattr(_standardize, "STANDARDIZATION_VERSION", _standardize.STANDARDIZATION_VERSION + 1)
    assert cache_key(DECLARATION, ["1" * 64]) != key


def _exported(out) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir())}


def test_a_repeated_export_reads_the_cache_and_a_broken_or_stale_entry_is_rebuilt(tmp_path, monkeypatch, user_cache):
    project, path, mirror = _toy_project(tmp_path, monkeypatch)
    spec = freeze(path, project, progress=None)  # a freeze standardizes afresh, and caches what it made
    entries = sorted((user_cache / CACHE_FOLDER).glob("*.table"))
    assert len(entries) == 2
    first = export(spec, tmp_path / "first", project, progress=None)
    assert sorted((user_cache / CACHE_FOLDER).glob("*.table")) == entries
    whole = {p: p.read_bytes() for p in entries}

    # the raw files gone: a repeated export copies the screen files the cache keeps by their sha256
    raw = {p.name: p.read_bytes() for p in mirror.iterdir()}
    for p in mirror.iterdir():
        p.unlink()
    kept = sorted((user_cache / EXPORTS_FOLDER).glob("*.csv"))
    assert [p.stem for p in kept] == sorted(e["sha256"] for n, e in spec.files.items() if n != "reference.csv")
    export(spec, tmp_path / "copied", project, progress=None)
    assert _exported(tmp_path / "copied") == _exported(tmp_path / "first")

    # a kept file that no longer hashes to its name is not copied: the table is made from the standardized cache
    kept[0].write_bytes(kept[0].read_bytes()[:-10])
    kept[1].unlink()
    export(spec, tmp_path / "again", project, progress=None)
    assert _exported(tmp_path / "again") == _exported(tmp_path / "first")
    assert sorted((user_cache / EXPORTS_FOLDER).glob("*.csv")) == kept  # both made again, whole
    assert all(hashlib.sha256(p.read_bytes()).hexdigest() == p.stem for p in kept)
    for p in kept:
        p.unlink()  # from here on, only the standardized tables

    # a truncated entry is not trusted: with the raw files gone the export must fetch them, and fails
    victim = entries[0]
    victim.write_bytes(whole[victim][: len(whole[victim]) // 2])
    assert read_cached(victim.stem) is None
    with pytest.raises(Exception, match="toy_a.csv|toy_b.csv"):
        export(spec, tmp_path / "broken", project, progress=None)

    # with them back, it is rebuilt whole, the same bytes, and the export is the first one
    for name, data in raw.items():
        (mirror / name).write_bytes(data)
    assert export(spec, tmp_path / "rebuilt", project, progress=None) == first
    assert victim.read_bytes() == whole[victim]
    assert _exported(tmp_path / "rebuilt") == _exported(tmp_path / "first")

    # a new standardization version makes every entry stale: the raw files gone, the export cannot be made
    monkeypatch.setattr(_standardize, "STANDARDIZATION_VERSION", _standardize.STANDARDIZATION_VERSION + 1)
    for p in mirror.iterdir():
        p.unlink()
    for p in (user_cache / EXPORTS_FOLDER).glob("*.csv"):
        p.unlink()
    with pytest.raises(Exception, match="toy_a.csv|toy_b.csv"):
        export(spec, tmp_path / "stale", project, progress=None)


def test_the_parallel_standardization_gives_the_serial_ones_bytes(tmp_path):
    # 4,500 records: three chunks of 2,000 at most, so two processes share them; duplicates merged, unparsable
    # records rejected, in both paths alike
    smiles = [("C" * (1 + i % 37)) + ("O" * (i // 37 % 4)) + ("N" * (i // 148 % 3)) for i in range(4400)]
    smiles += ["C1CC", "c1cccc1"] * 50
    labels = [int(i % 11 == 0) for i in range(len(smiles))]
    frame = pd.DataFrame({"id": [f"m{i}" for i in range(len(smiles))], "smiles": smiles, "active": labels})
    frame.to_csv(tmp_path / "screen.csv", index=False)
    declaration = {
        "files": [{"name": "screen.csv", "url": "http://127.0.0.1:9/screen.csv"}],
        "structures": {"file": "screen.csv", "smiles": "smiles", "id": "id", "label": "active"},
        "positive": [1],
        "negative": [0],
    }
    dataset = Dataset.from_config("screen", declaration)
    serial, rejected, summary = standardize(dataset, tmp_path, n_jobs=1)
    parallel, rejected_parallel, summary_parallel = standardize(dataset, tmp_path, n_jobs=2)
    assert 0 < summary["rejected"] < len(smiles) and summary["merged_rows"] > 0
    assert table_bytes(parallel) == table_bytes(serial)
    assert table_bytes(rejected_parallel) == table_bytes(rejected) and summary_parallel == summary

"""The helpers every workflow script shares: resumable parts and their signature."""

import pandas as pd
import pytest

from crocbench._workflow import remove_parts, resumable, signature


def test_signature_follows_file_bytes_and_parameters(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("one")
    first = signature(a, C=[1, 10])
    assert signature(a, C=[1, 10]) == first
    assert signature(a, C=[1, 100]) != first
    a.write_text("two")
    assert signature(a, C=[1, 10]) != first


def test_an_interrupted_resumable_step_reuses_its_finished_parts(tmp_path):
    parts = tmp_path / "parts"
    calls = []

    def compute(name, fail_at=None):
        calls.append(name)
        if name == fail_at:
            raise KeyboardInterrupt
        return pd.DataFrame({"name": [name], "value": [len(calls)]})

    with pytest.raises(KeyboardInterrupt):
        resumable(parts, "k1", [0, 1, 2], lambda n: compute(n, fail_at=2))
    assert calls == [0, 1, 2] and sorted(p.name for p in parts.iterdir()) == ["0.k1.parquet", "1.k1.parquet"]
    calls.clear()
    out = resumable(parts, "k1", [0, 1, 2], compute)
    assert calls == [2]  # only the unfinished part is computed again
    assert [t["value"].item() for t in out] == [1, 2, 1]  # parts 0 and 1 as first computed
    calls.clear()
    resumable(parts, "other", [0], compute)  # another signature: nothing reused
    assert calls == [0]
    remove_parts(parts)
    assert not parts.exists()

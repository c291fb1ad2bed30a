"""crocbench.cli._compare: ``crocbench compare`` matches the two files' compounds by id and equals the library."""

import json

import pandas as pd
import pytest
from _cli import _cli, _error, _no_traceback_error

from crocbench import stats as S
from crocbench.cli import main


def test_compare_matches_library_after_matching_ids(ranked, capsys):
    y, a, b, fa, fb = ranked
    code = main(
        [
            "compare",
            str(fa),
            str(fb),
            "--score-col",
            "pred",
            "--label-col",
            "active",
            "--positive",
            "1,CA",
            "--metric",
            "croc_exp_80",
            "--samples",
            "2000",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)["comparisons"][0]
    lib = S.compare(y, a, b, "croc_exp_80", n_samples=2000, seed=0)
    assert out["value_a"] == pytest.approx(lib.value_a) and out["value_b"] == pytest.approx(lib.value_b)
    for t in S.TESTS:
        assert out["p_values"][t] == pytest.approx(lib.results[t].p_value)


def test_compare_errors(ranked, tmp_path, capsys):
    _, _, _, fa, _ = ranked
    df = pd.read_csv(fa)
    short = tmp_path / "short.csv"
    df.iloc[:-3].to_csv(short, index=False)
    cols = ["--score-col", "pred", "--label-col", "active"]
    assert "3 id(s) only in" in _error(capsys, ["compare", str(fa), str(short), *cols])
    dup = tmp_path / "dup.csv"
    pd.concat([df, df.iloc[:1]]).to_csv(dup, index=False)
    assert "duplicate id" in _error(capsys, ["compare", str(fa), str(dup), *cols])
    flipped = tmp_path / "flipped.csv"
    df.assign(active=1 - df.active).to_csv(flipped, index=False)
    assert "disagree on the label" in _error(capsys, ["compare", str(fa), str(flipped), *cols])


def test_missing_ids_are_an_input_error_naming_file_count_and_first_row(small, tmp_path):
    f, _ = small
    df = pd.read_csv(f)
    for cells, count, row in ((["m3"], 1, 4), (["m3", "m7"], 2, 4)):
        for marker in ("", "NA"):
            bad = tmp_path / f"ids_{count}_{marker or 'empty'}.csv"
            df.assign(id=df["id"].where(~df["id"].isin(cells), marker)).to_csv(bad, index=False)
            for files in ([bad, f], [f, bad]):
                _no_traceback_error(
                    _cli("compare", *files, "--samples", "10"),
                    f"{bad}: column 'id': {count} missing id(s)",
                    f"first at row {row}",
                )


def test_ids_are_matched_as_text(small, tmp_path):
    f, _ = small
    df = pd.read_csv(f)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    df.assign(id=[f"{i:02d}" for i in range(30)]).to_csv(a, index=False)  # 00, 01, ..., 29
    df.assign(id=[str(i) for i in range(30)]).to_csv(b, index=False)  # 0, 1, ..., 29: 10 ids differ
    _no_traceback_error(_cli("compare", a, b, "--samples", "10"), f"10 id(s) only in {a}, 10 only in {b}", "'00'")
    both = tmp_path / "both.csv"  # 01 and 1 are two compounds, not a duplicate
    df.assign(id=[f"0{i}" for i in range(1, 10)] + [str(i) for i in range(1, 22)]).to_csv(both, index=False)
    done = _cli("compare", both, both, "--samples", "10", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n"] == 30

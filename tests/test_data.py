"""Reading tables and labels."""

import gzip
from pathlib import Path

import pytest

from crocbench.data import binary_labels, numeric_column, read_table


def test_read_table_by_extension_and_sniffing(tmp_path):
    (tmp_path / "a.tsv").write_text("x\ty\n1\t2\n")
    (tmp_path / "a.txt").write_text("x;y\n1;2\n3;4\n")
    with gzip.open(tmp_path / "a.csv.gz", "wt") as fh:
        fh.write("x,y\n1,2\n")
    assert list(read_table(tmp_path / "a.tsv").columns) == ["x", "y"]
    assert read_table(tmp_path / "a.txt").shape == (2, 2)
    assert read_table(tmp_path / "a.csv.gz").iloc[0, 1] == 2


def test_read_table_errors(tmp_path):
    (tmp_path / "h.csv").write_text("x,y\n")
    with pytest.raises(ValueError, match="no rows"):
        read_table(tmp_path / "h.csv")
    (tmp_path / "g.csv").write_text("x,y\n1,2\n")
    with pytest.raises(ValueError, match=r"column\(s\) 'z' not found; columns are: x, y"):
        read_table(tmp_path / "g.csv", required=["x", "z"])
    (tmp_path / "t.csv.gz").write_bytes(gzip.compress(b"x,y\n" + b"1,2\n" * 1000)[:40])
    with pytest.raises(ValueError, match="cannot be read"):
        read_table(tmp_path / "t.csv.gz")


def test_binary_labels():
    assert binary_labels([1, 0, "1", "true", "No"]).tolist() == [True, False, True, True, False]
    assert binary_labels(["CA", "CM", "CI"], positive=["CA", "CM"]).tolist() == [True, True, False]
    with pytest.raises(ValueError, match=r"found \['ca', 'cm'\]"):
        binary_labels(["CA", "CM", "0"])
    with pytest.raises(ValueError, match="missing label"):
        binary_labels([1, None, 0])


def test_numeric_column_names_the_bad_row():
    import pandas as pd

    df = pd.DataFrame({"s": ["0.1", "x", "0.3"]})
    with pytest.raises(ValueError, match="'x' at row 2"):  # the second data row: rows count from 1
        numeric_column(df, "s")
    with pytest.raises(ValueError, match=r"column 's': 1 empty or NaN value\(s\), first at row 2"):
        numeric_column(pd.DataFrame({"s": [0.1, None, 0.3]}), "s")
    with pytest.raises(ValueError, match=r"column 's': 2 infinite value\(s\), first at row 1"):
        numeric_column(pd.DataFrame({"s": ["inf", "0.2", "-inf"]}), "s")
    assert numeric_column(pd.DataFrame({"s": ["1e-3", " 2"]}), "s").tolist() == [0.001, 2.0]


def test_binary_labels_accept_what_the_readme_says():
    from crocbench.data import binary_labels

    words = ["0", "1", "true", "False", "yes", "No", "active", "INACTIVE", "t", "f", "y", "n"]
    assert binary_labels(words).tolist() == [
        False,
        True,
        True,
        False,
        True,
        False,
        True,
        False,
        True,
        False,
        True,
        False,
    ]
    guide = (Path(__file__).resolve().parents[1] / "docs" / "user_guide" / "datasets.md").read_text()
    assert "0/1, true/false,\n  yes/no or active/inactive (any case; t/f and y/n too)" in guide
    with pytest.raises(ValueError, match="yes/no or active/inactive"):
        binary_labels(["CA", "CI"])

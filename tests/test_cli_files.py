"""crocbench.cli._files, _input and _output: the files and options read, each bad one a line naming it, exit 2."""

import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from _cli import CROCBENCH, _cli, _no_traceback_error, _one_line_error


def test_plot_into_a_missing_folder_or_without_extension(small, tmp_path):
    f, _ = small
    _one_line_error(_cli("score", f, "--plot", tmp_path / "nope" / "curves.png"), "folder", "does not exist")
    _one_line_error(_cli("score", f, "--plot", tmp_path / "curves.xyz"), "cannot write .xyz images")
    done = _cli("score", f, "--plot", tmp_path / "noext")
    assert done.returncode == 0 and (tmp_path / "noext.png").stat().st_size > 10_000
    assert f"wrote {tmp_path / 'noext.png'}" in done.stderr


@pytest.mark.parametrize("spec", ["croc_auc:alpha=-1", "croc_auc:alpha=80,beta=2", "croc_auc", "nope"])
def test_bad_metric_exits_2_in_score_and_compare(small, spec):
    f, _ = small
    for command in (["score", f], ["compare", f, f]):
        _one_line_error(_cli(*command, "--metric", spec, installed=spec == "nope"), "metric")


def test_separator_names_and_sniffing(small, tmp_path):
    f, y = small
    df = pd.read_csv(f)
    tsv = tmp_path / "tab_content.csv"  # tab-separated content behind a .csv name
    df.to_csv(tsv, sep="\t", index=False)
    want = json.loads(_cli("score", f, "--json").stdout)["metrics"]
    for extra in ([], ["--sep", "tab"], ["--sep", "\\t"], ["--sep", "\t"]):
        done = _cli("score", tsv, "--json", *extra)
        assert done.returncode == 0, (extra, done.stderr)
        assert json.loads(done.stdout)["metrics"] == want, extra
    _one_line_error(_cli("score", f, "--sep", "ab"), "one character")


def test_positive_values_are_checked(small, tmp_path):
    f, y = small
    words = tmp_path / "words.csv"
    pd.read_csv(f).assign(label=np.where(y == 1, "CA", "CI")).to_csv(words, index=False)
    _one_line_error(_cli("score", words, "--positive", "CA,XX"), "'XX'", "labels found: CA, CI")
    _one_line_error(_cli("score", words, "--positive", "XX"), "'XX'", "labels found: CA, CI")
    _one_line_error(_cli("compare", words, words, "--positive", "CA,XX"), "'XX'")
    assert _cli("score", words, "--positive", "CA").returncode == 0


def test_table_formats(small):
    f, _ = small
    table = _cli("score", f).stdout
    row = next(line for line in table.splitlines() if line.startswith("actives in top 30"))
    assert row.split()[4:] == ["6", "6", "0.0000", "n/a"]  # a count as a count; no z without spread
    requested = _cli("score", f, "--metric", "roc_auc").stdout
    assert "Requested metrics" in requested and "CROC paper areas" not in requested
    compared = _cli("compare", f, f, "--metric", "croc_exp_80", "--samples", "500").stdout.splitlines()[-1]
    p_cells = compared.split()[-6:]
    assert all(re.fullmatch(r"\d\.\d\de[+-]\d\d", p) for p in p_cells), p_cells
    usage = _cli("score", "--help", installed=True).stdout
    assert all(name in usage for name in ("croc_auc", "bedroc", "hits_at_k", "croc_exp_80"))


@pytest.mark.parametrize("labels,lacking", [([1, 1, 1], "negatives"), ([0, 0, 0], "positives"), ([1], "negatives")])
def test_a_file_without_both_classes_is_named(tmp_path, labels, lacking):
    f = tmp_path / "one_class.csv"
    pd.DataFrame({"id": [f"c{i}" for i in range(len(labels))], "s": np.arange(len(labels)) / 3, "act": labels}).to_csv(
        f, index=False
    )
    fragments = (f"{f}: column 'act' has no {lacking}", f"all {len(labels)} row(s)")
    _no_traceback_error(_cli("score", f, "--score-col", "s", "--label-col", "act"), *fragments)
    _no_traceback_error(_cli("compare", f, f, "--score-col", "s", "--label-col", "act"), *fragments)


def test_unknown_metric_parameter_lists_the_valid_ones(small):
    f, _ = small
    _no_traceback_error(
        _cli("score", f, "--metric", "croc_auc:beta=3"),
        "metric croc_auc: unknown parameter 'beta' (valid: alpha, transform)",
    )
    _no_traceback_error(
        _cli("compare", f, f, "--metric", "roc_auc:alpha=3"), "metric roc_auc: unknown parameter 'alpha'"
    )
    _no_traceback_error(_cli("score", f, "--metric", "hits_at_k"), "metric hits_at_k: parameter 'k' is required")


def test_a_directory_is_not_a_table(small, tmp_path):
    f, _ = small
    _no_traceback_error(_cli("score", tmp_path), f"{tmp_path}: is a directory")
    _no_traceback_error(_cli("compare", f, tmp_path), f"{tmp_path}: is a directory")


def test_plot_into_an_existing_directory_is_refused(small, tmp_path):
    f, _ = small
    folder = tmp_path / "figures"
    folder.mkdir()
    done = _cli("score", f, "--plot", folder)
    _no_traceback_error(done, f"--plot {folder}: is a directory", "give an image file name")
    assert done.stdout == "" and not (tmp_path / "figures.png").exists()


def test_dash_reads_the_table_from_standard_input(small, tmp_path, monkeypatch):
    import io

    f, _ = small
    want = json.loads(_cli("score", f, "--json").stdout)
    done = subprocess.run(
        [CROCBENCH, "score", "-", "--json"], input=f.read_text(), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["file"] == "<stdin>" and got["metrics"] == want["metrics"]

    def stdin(text):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))

    stdin(f.read_text())
    done = _cli("compare", "-", f, "--samples", "50", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["file_a"] == "<stdin>"
    stdin("a,b\n1,2\n")
    _no_traceback_error(_cli("score", "-"), "<stdin>: column(s) 'score', 'label' not found")
    _no_traceback_error(_cli("compare", "-", "-"), "both -", "standard input")
    for command, files in (("score", 1), ("compare", 2)):
        usage = " ".join(_cli(command, "--help").stdout.split())  # argparse wraps the lines
        assert usage.count("- reads it from standard input") == files


def _rows(df: pd.DataFrame) -> str:
    return "".join(f"{i},{s},{1 - s},{label}\n" for i, s, label in zip(df["id"], df["score"], df["label"]))


def test_a_duplicated_column_name_is_an_error_naming_it(small, tmp_path):
    f, _ = small
    df = pd.read_csv(f)
    dup = tmp_path / "dup.csv"
    dup.write_text("id,score,score,label\n" + _rows(df))
    want = f"crocbench: error: {dup}: column name 'score' appears 2 times in the header; rename one"
    assert _no_traceback_error(_cli("score", dup)) == want
    assert _no_traceback_error(_cli("compare", f, dup)) == want
    padded = tmp_path / "padded.csv"  # the same name once the blanks around it are stripped
    padded.write_text("id, label,score,label \n" + _rows(df))
    assert _no_traceback_error(_cli("score", padded)).endswith(
        f"{padded}: column name 'label' appears 2 times in the header; rename one"
    )
    two = tmp_path / "two.csv"
    two.write_text("score,label,score,label,score\n1,1,1,1,1\n0,0,0,0,0\n")
    assert _no_traceback_error(_cli("score", two)) == (
        f"crocbench: error: {two}: column names 'score' (3 times) and 'label' (2 times) appear more than once "
        "in the header; rename them"
    )
    real = tmp_path / "real.csv"  # pandas' own spelling of a renamed duplicate, really in the file: no error
    df.assign(**{"score.1": 1 - df["score"]}).to_csv(real, index=False)
    done = _cli("score", real, "--score-col", "score.1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n"] == 30


@pytest.mark.parametrize(
    "argv,want",
    [
        (["score", "{f}", "--score-col", "label"], "--score-col and --label-col name the same column 'label'"),
        (["score", "{f}", "--label-col", "score"], "--score-col and --label-col name the same column 'score'"),
        (["score", "{f}", "--group", "label"], "--label-col and --group name the same column 'label'"),
        (["compare", "{f}", "{f}", "--score-col", "label"], "--score-col and --label-col name the same column 'label'"),
        (["compare", "{f}", "{f}", "--id-col", "score"], "--score-col and --id-col name the same column 'score'"),
        (["compare", "{f}", "{f}", "--id-col", "label"], "--label-col and --id-col name the same column 'label'"),
    ],
)
def test_one_column_for_two_options_is_named(small, argv, want):
    f, _ = small
    done = _cli(*[a.format(f=f) for a in argv])
    assert _no_traceback_error(done) == f"crocbench: error: {want}"
    assert done.stdout == ""


def test_utf16_and_utf32_files_are_read(small, tmp_path):
    """A byte-order mark says how the text is encoded: such a file reads as its UTF-8 twin does."""
    f, _ = small
    want = json.loads(_cli("score", f, "--json").stdout)["metrics"]
    text = f.read_text().replace("\n", "\r\n")  # as Windows writes it
    for codec, name in (("utf-16", "u16.csv"), ("utf-16-be", "u16be.tsv"), ("utf-32", "u32.csv")):
        path = tmp_path / name
        body = text.replace(",", "\t") if name.endswith(".tsv") else text
        path.write_bytes(("\ufeff" + body).encode(codec) if codec.endswith("be") else body.encode(codec))
        assert path.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff")
        done = _cli("score", path, "--json")
        assert done.returncode == 0, (codec, done.stderr)
        assert json.loads(done.stdout)["metrics"] == want, codec
    done = _cli("compare", tmp_path / "u16.csv", f, "--samples", "50", "--json")
    assert done.returncode == 0, done.stderr
    broken = tmp_path / "broken16.csv"  # a mark, then an odd number of bytes
    broken.write_bytes(text.encode("utf-16") + b"x")
    _no_traceback_error(_cli("score", broken), f"{broken}: ", "UTF-16", "save it as UTF-8 CSV/TSV")


def test_a_workbook_is_named_as_one(small, tmp_path, monkeypatch):
    import io
    import zipfile

    f, _ = small
    book = tmp_path / "screen.xlsx"
    with zipfile.ZipFile(book, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        z.writestr("xl/workbook.xml", "<workbook/>")
    want = f"crocbench: error: {book}: looks like a spreadsheet workbook (xlsx); export it as CSV or TSV"
    assert _no_traceback_error(_cli("score", book)) == want
    assert _no_traceback_error(_cli("compare", f, book)) == want
    renamed = tmp_path / "screen.csv"  # the name does not matter, the bytes do
    renamed.write_bytes(book.read_bytes())
    assert _no_traceback_error(_cli("score", renamed)).endswith(
        "looks like a spreadsheet workbook (xlsx); export it as CSV or TSV"
    )
    ods = tmp_path / "screen.ods"
    with zipfile.ZipFile(ods, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    assert _no_traceback_error(_cli("score", ods)).endswith(
        f"{ods}: looks like a spreadsheet workbook (ods); export it as CSV or TSV"
    )
    xls = tmp_path / "old.xls"
    xls.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + bytes(504))
    assert _no_traceback_error(_cli("score", xls)) == (
        f"crocbench: error: {xls}: looks like a spreadsheet workbook (xls); export it as CSV or TSV"
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(book.read_bytes())))
    _no_traceback_error(_cli("score", "-"), "<stdin>: looks like a spreadsheet workbook (xlsx)")


def test_bytes_that_are_not_utf8_are_located(small, tmp_path):
    f, _ = small
    latin = tmp_path / "latin.csv"
    latin.write_bytes("id,score,label\ncaf\xe9,0.5,1\nb,0.2,0\n".encode("latin-1"))
    assert _no_traceback_error(_cli("score", latin)) == (
        f"crocbench: error: {latin}: not UTF-8 text: byte 0xe9 at offset 18 (line 2); "
        "save it as UTF-8 CSV/TSV (it may be in Windows-1252/Latin-1)"
    )
    deep = tmp_path / "deep.csv"  # far beyond the first lines, found when pandas stumbles on it
    body = "id,score,label\n" + "".join(f"m{i},{i / 9000:.6f},{i % 2}\n" for i in range(9000))
    data = body.encode() + "z\xe9,0.5,1\n".encode("cp1252")
    deep.write_bytes(data)
    offset = len(body.encode()) + 1
    _no_traceback_error(_cli("score", deep), f"{deep}: not UTF-8 text: byte 0xe9 at offset {offset} (line 9002)")
    nul = tmp_path / "nul.csv"  # UTF-16 without its byte-order mark
    nul.write_bytes(f.read_text().encode("utf-16-le"))
    _no_traceback_error(_cli("score", nul), f"{nul}: ", "NUL bytes", "save it as UTF-8 CSV/TSV")


def test_a_file_without_header_says_so(small, tmp_path):
    f, y = small
    df = pd.read_csv(f)
    bare = tmp_path / "bare.csv"
    bare.write_text("".join(f"{i},{s:.2f},{label}\n" for i, s, label in zip(range(30), df["score"], y)))
    first = bare.read_text().splitlines()[0]
    assert _no_traceback_error(_cli("score", bare)) == (
        f"crocbench: error: {bare}: has no header row (its first line {first!r} is all numbers); add a header line "
        "such as 'id,score,label', or, if that line is the header, name its columns with --score-col/--label-col"
    )
    assert _no_traceback_error(_cli("compare", bare, bare)).endswith(
        "add a header line such as 'id,score,label', or, if that line is the header, name its columns with "
        "--score-col/--label-col/--id-col"
    )
    numbered = tmp_path / "numbered.csv"  # numbers as column names, named with the options: fine
    numbered.write_text("1,2,3\n" + bare.read_text())
    done = _cli("score", numbered, "--score-col", "2", "--label-col", "3", "--json")
    assert done.returncode == 0, done.stderr
    words = tmp_path / "words.csv"  # a header of words lacking a column: the columns are listed, as before
    words.write_text("a,b\n1,2\n")
    _no_traceback_error(_cli("score", words), "column(s) 'score', 'label' not found; columns are: a, b")


def test_messages_do_not_use_the_librarys_argument_names(small, tmp_path):
    f, _ = small
    grouped = tmp_path / "grouped.csv"
    df = pd.read_csv(f).assign(q=["a"] * 15 + ["b"] * 15, label=[1, 1] + [0] * 13 + [1] * 15)
    df.to_csv(grouped, index=False)
    done = _cli("score", grouped, "--group", "q")
    assert done.returncode == 0, done.stderr
    assert "y_true" not in done.stdout and "y_score" not in done.stdout
    assert "query 'b' has no negatives: the metric needs positives and negatives in every query" in done.stdout
    out = json.loads(_cli("score", grouped, "--group", "q", "--json").stdout)
    notes = [m["note"] for m in out["other_metrics"]]
    assert "query 'b' has no negatives: the metric needs positives and negatives in every query" in notes
    assert not any("y_true" in n or "y_score" in n for n in notes)


@pytest.mark.parametrize(
    "library,cli",
    [
        (
            "query 'b': y_true has no negatives: the metrics are undefined",
            "query 'b' has no negatives: the metric needs positives and negatives in every query",
        ),
        ("y_true has no positives: the metrics are undefined", "the list has no positives: the metrics are undefined"),
        (
            "y_true and y_score differ in length: 3 labels, 2 scores",
            "the labels and the scores differ in length: 3 labels, 2 scores",
        ),
        (
            "y_score has 1 NaN or infinite value(s), first at index 0",
            "the scores have 1 NaN or infinite value(s), first at index 0",
        ),
        ("n must be in [1, 17] for this list; got 50", "n must be in [1, 17] for this list; got 50"),
    ],
)
def test_library_argument_names_are_translated_at_the_cli_edge(library, cli):
    from crocbench.cli._output import _for_users

    assert _for_users(library) == cli


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_a_compressed_file_scores_as_its_text(small, tmp_path, suffix):
    """Every compression crocbench reads (one list: crocbench.data._tables.COMPRESSIONS) is read by score: a real
    compressed file, written by the standard library's own compressor, scores as its plain text does; gzip bytes
    under a name that does not say so are refused, with the way to read them."""
    import bz2
    import gzip
    import lzma

    f, _ = small
    compress = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}[suffix]
    packed = tmp_path / f"scores.csv{suffix}"
    packed.write_bytes(compress(f.read_bytes()))
    want = json.loads(_cli("score", f, "--json").stdout)["metrics"]
    done = _cli("score", packed, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["metrics"] == want
    if suffix == ".gz":
        hidden = tmp_path / "scores.csv"
        hidden.write_bytes(packed.read_bytes())
        _one_line_error(_cli("score", hidden), "is gzip-compressed", "zcat")

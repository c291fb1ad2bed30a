"""crocbench.cli (cli/__init__.py): argument parsing, main's exit codes, the entry point, broken pipes, Ctrl-C."""

import subprocess
import sys
from pathlib import Path

import pytest
from _cli import CROCBENCH, _cli, _error, _no_traceback_error
from _waits import start, stop, until

from crocbench.cli import main


def test_score_ci_below_100_resamples_is_one_line_exit_2(ranked, capsys):
    _, _, _, fa, _ = ranked
    argv = ["score", str(fa), "--score-col", "pred", "--label-col", "active", "--ci"]
    assert "at least 100" in _error(capsys, [*argv, "99"])
    assert "'ten' is not a whole number" in _error(capsys, [*argv, "ten"])


def test_errors_are_one_line_exit_2(ranked, tmp_path, capsys):
    _, _, _, fa, fb = ranked
    err = _error(capsys, ["score", str(fa)])
    assert "'score'" in err and "columns are: id, pred, active" in err
    err = _error(capsys, ["score", str(fb), "--score-col", "pred", "--label-col", "active"])
    assert "binary" in err and "ca" in err
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert "empty" in _error(capsys, ["score", str(empty)])
    assert "no such file" in _error(capsys, ["score", str(tmp_path / "missing.csv")])
    nan = tmp_path / "nan.csv"
    nan.write_text("score,label\n0.5,1\n,0\n0.2,0\n")
    assert f"{nan}: column 'score': 1 empty or NaN value(s), first at row 2" in _error(capsys, ["score", str(nan)])
    word = tmp_path / "word.csv"
    word.write_text("score,label\n0.5,1\nhigh,0\n")
    assert "'high' at row 2 is not a number" in _error(capsys, ["score", str(word)])  # rows count from 1
    only_pos = tmp_path / "pos.csv"
    only_pos.write_text("score,label\n0.5,1\n0.3,1\n")
    assert "no negatives" in _error(capsys, ["score", str(only_pos)])
    assert "unknown metric" in _error(capsys, ["score", str(nan), "--metric", "auprc"])
    assert "argument" in _error(capsys, ["score"])  # argparse's own errors too


def test_module_entry_point_has_no_traceback(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("score,label\n1,0\n2,7\n")
    command = [sys.executable, "-m", "crocbench", "score", str(bad)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "binary" in proc.stderr


def test_broken_pipe_is_quiet(small):
    f, _ = small
    done = subprocess.run(
        f"'{CROCBENCH}' score '{f}' | head -1",
        shell=True,
        capture_output=True,
        text=True,
        executable="/bin/bash",
        timeout=120,
    )
    assert done.stdout.count("\n") == 1 and done.stderr == ""


def test_top_k_must_be_a_positive_whole_number(small, capsys):
    f, _ = small
    for k in ("-5", "0", "x"):
        assert main(["score", str(f), "--top-k", k]) == 2
        err = capsys.readouterr().err
        assert "--top-k" in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["compare", "{f}", "{f}", "--seed", "-1"], "argument --seed: must be a non-negative whole number; got -1"),
        (["compare", "{f}", "{f}", "--seed", "x"], "argument --seed:"),
        (["synthesize", "--n", "5", "--out", "{out}", "--seed", "-1"], "argument --seed: must be a non-negative"),
        (["score", "{f}", "--alpha", "-5"], "argument --alpha: must be a number > 0; got -5"),
        (["score", "{f}", "--alpha", "0"], "argument --alpha: must be a number > 0"),
        (["score", "{f}", "--alpha", "nan"], "argument --alpha: must be a number > 0"),
    ],
)
def test_seed_and_alpha_errors_name_the_option(small, tmp_path, argv, fragment):
    f, _ = small
    done = _cli(*[a.format(f=f, out=tmp_path / "out.csv") for a in argv])
    _no_traceback_error(done, fragment)
    assert done.stdout == ""  # refused before anything ran


def test_ctrl_c_is_one_line_exit_130_and_leaves_no_temporary_file(tmp_path):
    """A real SIGINT while ``score -`` is copying standard input: one line on stderr, exit code 130, no traceback,
    and the temporary copy of standard input removed."""
    import os
    import signal

    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = start(
        [sys.executable, "-m", "crocbench", "score", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        proc.stdin.write("score,label\n0.5,1\n")
        proc.stdin.flush()
        # The temporary copy of standard input exists: the command is past its imports and blocked reading a pipe
        # that stays open (no EOF can reach it before the signal does).
        until(lambda: list(tmp_path.glob("crocbench-*/stdin")), "the copy of standard input", proc)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)  # standard input is still open: the command ends by the signal, not by reading EOF
        out, err = proc.communicate(timeout=60)
    finally:
        stop(proc)
    assert (proc.returncode, out, err) == (130, "", "crocbench: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_the_signal_tests_pass_under_a_parent_that_ignores_sigint():
    """The Ctrl-C tests started as from a background job (``pytest ... &``: SIGINT ignored, and inherited): each
    gives its child SIGINT's default action, so each passes rather than waits forever on a child that ignores it."""
    import signal

    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]
    test = f"{Path(__file__).name}::test_ctrl_c_is_one_line_exit_130_and_leaves_no_temporary_file"
    done = subprocess.run(
        [*command, f"tests/{test}"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]

"""tests/_waits.py: a wait ends at its state, and a child that exits first, or a guard that passes, fails it with
what it waited for."""

import subprocess
import sys

import pytest
from _waits import line, start, stop, until


def _python(code: str) -> subprocess.Popen:
    return start([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_a_line_is_returned_as_soon_as_it_is_written_while_the_child_lives():
    child = _python("import sys; print('ready', flush=True); sys.stdin.read()")
    try:
        assert line(child, "the ready line") == "ready\n"
        assert child.poll() is None  # still blocked on its open standard input
    finally:
        stop(child)
    assert child.returncode == -9


def test_a_child_that_exits_without_the_line_fails_the_wait_with_what_it_waited_for():
    child = _python("import sys; sys.exit(3)")
    with pytest.raises(AssertionError, match=r"^waiting for the ready line: the child exited first \(3\)$"):
        line(child, "the ready line")


def test_a_line_not_written_within_the_guard_fails_the_wait():
    child = _python("import sys; sys.stdout.write('no newline'); sys.stdout.flush(); sys.stdin.read()")
    try:
        with pytest.raises(AssertionError, match=r"^waiting for the ready line: no line in 0.5 s$"):
            line(child, "the ready line", guard=0.5)
    finally:
        stop(child)


def test_a_state_is_awaited_until_it_holds_and_a_child_exiting_first_fails_it(tmp_path):
    child = _python(f"import pathlib; pathlib.Path({str(tmp_path / 'flag')!r}).touch(); input()")
    try:
        until((tmp_path / "flag").exists, "the flag", child)
    finally:
        stop(child)
    with pytest.raises(AssertionError, match=r"^waiting for a file never written: the child exited first \(-9\)$"):
        until((tmp_path / "never").exists, "a file never written", child)
    with pytest.raises(AssertionError, match=r"^waiting for a file never written: not reached in 0.2 s$"):
        until((tmp_path / "never").exists, "a file never written", guard=0.2)

"""Running the command-line tool from the tests (in this process through ``main``, or the installed command)."""

import shutil
import subprocess
import sys
from pathlib import Path

from crocbench.cli import main

CROCBENCH = shutil.which("crocbench") or str(Path(sys.executable).with_name("crocbench"))


def _cli(*args, installed: bool = False) -> subprocess.CompletedProcess:
    """``crocbench ARGS``: through the installed command (a process: entry point, exit status, streams), or
    in this process through ``main``, the function that command runs (the same code, without ~2 s of
    start-up per call, which keeps the unit suite within its budget)."""
    import contextlib
    import io

    if installed:
        return subprocess.run([CROCBENCH, *map(str, args)], capture_output=True, text=True, timeout=300)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(map(str, args)))
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def _one_line_error(done, *fragments):
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("crocbench: error: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def _no_traceback_error(done, *fragments):
    assert "Traceback" not in done.stderr, done.stderr
    return _one_line_error(done, *fragments)


def _error(capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and err.startswith("crocbench: error:")
    return err

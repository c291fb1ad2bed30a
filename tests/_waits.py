"""Waiting on a child process from the tests: for a state (a line it prints, a file it writes, its exit), never for
a time, and never forever.

Every wait here ends at the state it names; the guard (``GUARD_S`` unless a wait names its own) only stops a hang,
and the failure says what was awaited. A child that a test signals is started by :func:`start`, with SIGINT's
default action whatever the test run inherited.
"""

import queue
import signal
import subprocess
import threading
import time

GUARD_S = 600.0  # the longest any wait lasts: it stops a hang and expects no speed
POLL_S = 0.05  # how often a state that gives no signal of its own (a file, a process tree) is looked at


def default_sigint() -> None:
    """Give the child SIGINT's default action (``preexec_fn``), whatever this process inherited: a test run from a
    background job (CI started with ``&``) ignores SIGINT, Python leaves it ignored in every child it starts, and a
    child that ignores SIGINT never ends by it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(command: list, **options) -> subprocess.Popen:
    """``subprocess.Popen(command, **options)`` with SIGINT's default action in the child (:func:`default_sigint`).

    Every child a test starts to signal or to wait on comes from here; :func:`stop` ends it."""
    return subprocess.Popen(command, preexec_fn=default_sigint, **options)


def stop(*children: subprocess.Popen, guard: float = 60.0) -> None:
    """Kill each child still running and reap it (a failed test leaves nothing running)."""
    for child in children:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=guard)


def _exited(child: subprocess.Popen) -> str:
    """What a child that exited said: its return code and the tails of the streams it was given as pipes."""
    try:
        out, err = child.communicate(timeout=60)  # a grandchild may hold the pipes open
    except subprocess.TimeoutExpired:
        out, err = "", "(its streams are held open by another process)"
    said = " | ".join(str(s)[-3000:] for s in (out, err) if s)
    return f"the child exited first ({child.returncode}){': ' + said if said else ''}"


def until(ready, what: str, *children: subprocess.Popen, guard: float = GUARD_S, error=AssertionError) -> None:
    """Return once ``ready()`` is true.

    Parameters
    ----------
    ready : callable
        The state awaited, looked at every ``POLL_S`` seconds.
    what : str
        The state in words, for the failure.
    *children : subprocess.Popen
        Processes that must live until the state is reached: one that exits first fails the wait at once.
    guard : float
        Seconds after which the wait fails as a hang.
    error : type
        The exception raised on failure.

    Raises
    ------
    error
        A child exited before the state was reached, or the guard passed.
    """
    end = time.monotonic() + guard
    while not ready():
        for child in children:
            if child.poll() is not None:
                raise error(f"waiting for {what}: {_exited(child)}")
        if time.monotonic() > end:
            raise error(f"waiting for {what}: not reached in {guard:g} s")
        time.sleep(POLL_S)


def line(child: subprocess.Popen, what: str, guard: float = GUARD_S) -> str:
    """The next line on ``child``'s standard output (a pipe), as soon as it is written.

    Fails naming ``what`` if the child closes its output first or writes no whole line within ``guard`` seconds.
    """
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: lines.put(child.stdout.readline()), daemon=True).start()
    try:
        got = lines.get(timeout=guard)
    except queue.Empty:
        raise AssertionError(f"waiting for {what}: no line in {guard:g} s") from None
    if not got:
        raise AssertionError(f"waiting for {what}: {_exited(child)}")
    return got

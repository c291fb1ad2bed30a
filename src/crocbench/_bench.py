"""The benchmarks' one harness: a step run in a subprocess of its own, timed, with that process's peak RSS.

A benchmark script (``benchmarks/``) calls itself as ``python script --step ARGS...``; the step ends with
:func:`print_result`, which prints its results as one JSON object on the last line of standard output, with
``peak_rss_gb``: the high-water mark of the step's own memory (``VmHWM`` of ``/proc/self/status``, kB / 1e6). Not
``getrusage``'s ``ru_maxrss``: Linux keeps that across ``exec``, so a step started by a large process would report
the starter's size. :func:`measure` runs a step and adds ``wall_seconds``.

Standard library only, and nothing of crocbench: a step run on an older crocbench (a script's ``--before SRC``,
whose ``src/`` may predate this module) loads this file by its path (``benchmarks/_harness.py``).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time


def machine() -> str:
    """The machine, in words, for a benchmark's table (a time means something only beside the machine that took
    it): the CPU model, the cores this process may use and the physical memory."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            model = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    cores = len(os.sched_getaffinity(0))
    return f"{model}, {cores} core{'s' if cores != 1 else ''}, {memory:.0f} GiB"


def step_args() -> list[str] | None:
    """The step's arguments when this process is a step (``script --step ARGS...``), else None."""
    return sys.argv[2:] if sys.argv[1:2] == ["--step"] else None


def cpu_seconds() -> float:
    """This process's user and system CPU seconds so far (its threads included)."""
    t = os.times()
    return t.user + t.system


def own_peak_rss_gb() -> float:
    """This process's peak resident memory since its ``exec`` (``VmHWM``), in GB (kB / 1e6). Read here, not from
    crocbench: a step may run an older crocbench (``--before``)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1e6
    raise RuntimeError("no VmHWM in /proc/self/status")


def print_result(result: dict) -> None:
    """A step's last line: its results as JSON, with its own ``peak_rss_gb``."""
    print(json.dumps({**result, "peak_rss_gb": own_peak_rss_gb()}), flush=True)


def measure(script: str, *args, env: dict | None = None) -> dict:
    """Run ``python script --step *args`` in a subprocess; its JSON result (``peak_rss_gb`` included) and
    ``wall_seconds``.

    Raises
    ------
    SystemExit
        The step failed: its arguments, exit status and the tail of its standard error.
    """
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, script, "--step", *map(str, args)],
        capture_output=True,
        text=True,
        env=None if env is None else {**os.environ, **env},
    )
    wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"{' '.join(map(str, args))} failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    lines = done.stdout.strip().splitlines()
    return {**(json.loads(lines[-1]) if lines else {}), "wall_seconds": wall}

"""The benchmarks' harness (crocbench._bench): a step's own peak RSS, its result, its failure."""

import pytest

from crocbench._bench import measure

STEP = """
import sys
from crocbench._bench import print_result, step_args

args = step_args()
if args[0] == "fail":
    sys.exit("the step's own error")
block = bytearray(int(args[0]) * 2**20)  # touched: resident
block[::4096] = b"x" * len(block[::4096])
print("noise first")
print_result({"mb": int(args[0])})
"""


def test_measure_reports_the_steps_own_peak_rss_and_result(tmp_path):
    big = bytearray(600 * 2**20)  # this process (the harness's side) is large: no step may report its size
    big[::4096] = b"x" * len(big[::4096])
    script = tmp_path / "step.py"
    script.write_text(STEP)
    large, small = measure(str(script), 400), measure(str(script), 10)  # the large first: a max over children fails
    assert small["mb"] == 10 and large["mb"] == 400
    # the 400 MB step's peak is its own (not the harness's, not the other step's): ~390 MB above the small one
    assert 0.35 < large["peak_rss_gb"] - small["peak_rss_gb"] < 0.5
    assert small["wall_seconds"] > 0
    with pytest.raises(SystemExit, match="fail failed \\(exit 1\\):\n.*the step's own error"):
        measure(str(script), "fail")


def test_the_machine_is_named_by_its_cpu_its_usable_cores_and_its_memory(monkeypatch):
    """As lscpu and /proc/meminfo say, and with the cores this process may use, not the machine's."""
    import os
    import shutil
    import subprocess

    from crocbench._bench import machine

    if shutil.which("lscpu") is None:
        pytest.skip("no lscpu")
    lines = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=30).stdout.splitlines()
    model = next(line.split(":", 1)[1].strip() for line in lines if line.startswith("Model name"))
    with open("/proc/meminfo") as fh:
        kib = int(next(line.split()[1] for line in fh if line.startswith("MemTotal:")))
    words = machine().split(", ")
    assert words[0] == model and words[1] == f"{len(os.sched_getaffinity(0))} cores"
    assert abs(float(words[2].removesuffix(" GiB")) - kib / 2**20) <= 1  # MemTotal: the kernel keeps a little
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert machine().split(", ")[1] == "1 core"

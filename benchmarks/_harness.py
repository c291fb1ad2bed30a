"""The harness (``crocbench._bench``) for the scripts whose steps may run on an older crocbench (``--before SRC``).

Such a step puts SRC first on ``PYTHONPATH``, and SRC's crocbench may predate ``crocbench._bench``; so the harness
is loaded from this checkout's ``src/`` by its path (it imports nothing of crocbench), the same code on both sides
of :func:`measure`. A script adds this folder to ``sys.path`` and imports from here.
"""

import importlib.util
import sys
from pathlib import Path

_FILE = Path(__file__).resolve().parents[1] / "src" / "crocbench" / "_bench.py"
_spec = importlib.util.spec_from_file_location("_crocbench_bench", _FILE)
_bench = sys.modules.setdefault("_crocbench_bench", importlib.util.module_from_spec(_spec))
if not hasattr(_bench, "measure"):
    _spec.loader.exec_module(_bench)

cpu_seconds, machine, measure, print_result, step_args = (
    _bench.cpu_seconds,
    _bench.machine,
    _bench.measure,
    _bench.print_result,
    _bench.step_args,
)
__all__ = ["cpu_seconds", "machine", "measure", "print_result", "step_args"]

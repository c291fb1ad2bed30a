"""Python in a subprocess where some modules are not installed, as far as any import can tell.

A finder placed first on ``sys.meta_path`` answers every import of a blocked module (or of a module inside it)
with the ``ModuleNotFoundError`` an absent package gives; nothing of crocbench is replaced. The subprocess imports
this checkout's ``src`` first.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The modules the 'workflow' extra installs (crocbench._extras.EXTRAS), by import name.
EXTRA_MODULES = (
    "chemprop",
    "jsonschema",
    "lightgbm",
    "lightning",
    "llvmlite",
    "matplotlib",
    "numba",
    "pyarrow",
    "pymetis",
    "rdkit",
    "sklearn",
    "snakemake",
    "statsmodels",
    "threadpoolctl",
    "torch",
    "yaml",
)

_PRELUDE = """\
import importlib.abc
import sys


class _Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, _Absent())
"""


def run_without(blocked, code: str, *args: str, cwd=None) -> subprocess.CompletedProcess:
    """Run ``code`` (``python -c``, with ``args``) where the modules ``blocked`` cannot be imported."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])))
    return subprocess.run(
        [sys.executable, "-c", _PRELUDE.format(blocked=sorted(blocked)) + code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )


def crocbench_without(blocked, *args: str, cwd=None) -> subprocess.CompletedProcess:
    """``crocbench ARGS`` where the modules ``blocked`` cannot be imported."""
    return run_without(
        blocked, "import sys\nfrom crocbench.cli import main\nsys.exit(main(sys.argv[1:]))", *args, cwd=cwd
    )

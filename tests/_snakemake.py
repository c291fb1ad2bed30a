"""Running the workflow from a test: the project's Snakefile on a working directory and a config the test wrote."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = shutil.which("snakemake") or str(Path(sys.executable).with_name("snakemake"))


def run_workflow(workdir: Path, config: dict, *extra: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """``snakemake`` on ``workdir`` with ``config`` (written to ``workdir/cfg.yaml``), 1 core, the mirror
    variable unset (the config's ``mirror`` applies); ``extra`` are more arguments (targets, ``-n``, ...);
    ``timeout`` seconds at most."""
    (workdir / "cfg.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    env = {k: v for k, v in os.environ.items() if k != "CROCBENCH_MIRROR"}
    command = [SNAKEMAKE, "--snakefile", str(ROOT / "Snakefile"), "--directory", str(workdir)]
    command += ["--configfile", str(workdir / "cfg.yaml"), "--cores", "1", *extra]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)

"""docs/examples/: the scoring guide's example list is shipped, is what its generator writes, and the guide's
command prints what the guide shows."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_predictions_are_what_their_generator_writes(tmp_path):
    script = tmp_path / "make_predictions.py"
    script.write_text((ROOT / "docs" / "examples" / "make_predictions.py").read_text())
    subprocess.run([sys.executable, str(script)], check=True, timeout=600)
    assert (tmp_path / "predictions.csv").read_bytes() == (ROOT / "docs" / "examples" / "predictions.csv").read_bytes()


def test_the_scoring_guides_example_prints_what_the_guide_shows():
    """The first command of docs/user_guide/scoring.md, run as written from the repository's root: its first
    lines are the guide's (the block ends in ``...``)."""
    block = re.search(r"```text\n\$ (crocbench score [^\n]*)\n(.*?)\n\.\.\.\n```", (ROOT / "docs" / "user_guide" /
                      "scoring.md").read_text(), flags=re.S)  # fmt: skip
    command, shown = block.group(1).split(), block.group(2).splitlines()
    run = subprocess.run(
        [sys.executable, "-m", "crocbench", *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    printed = (run.stderr + run.stdout).splitlines() if not run.stdout.startswith(shown[0]) else run.stdout.splitlines()
    assert printed[: len(shown)] == shown

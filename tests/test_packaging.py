"""Environment specs and the README's commands."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _pins(lines):
    pins = {}
    for line in lines:
        line = line.split("#")[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"not an exact pin: {line!r}"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_pip_and_conda_pins_agree():
    pip_pins = _pins((ROOT / "envs/requirements.txt").read_text().splitlines())
    env = yaml.safe_load((ROOT / "envs/crocbench.yaml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert _pins(pip_section) == pip_pins
    assert "python=3.11" in env["dependencies"]
    assert pip_pins["torch"] == "2.13.0"  # exactly: an unpinned torch pulls the CUDA build


def test_every_runtime_dependency_is_pinned():
    pip_pins = _pins((ROOT / "envs/requirements.txt").read_text().splitlines())
    text = (ROOT / "pyproject.toml").read_text()
    deps = re.findall(r'^\s+"([A-Za-z0-9_.-]+)[<>=!~]', text, flags=re.M)
    assert deps, "no dependencies found in pyproject.toml"
    for dep in deps + ["snakemake", "pytest"]:
        assert re.sub(r"[-_.]+", "-", dep).lower() in pip_pins, dep


def test_readme_opens_with_setup_main_and_test_commands():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```(?:bash|sh)\n(.*?)```", text, flags=re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 3
    assert "pip install -r envs/requirements.txt" in commands[0]
    assert commands[1].startswith("snakemake --cores")
    assert commands[2].startswith("pytest")
    assert text.index("```") < 600, "the commands come first"

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


def test_conda_environment_installs_crocbench_itself():
    """Every rule's script imports crocbench: `snakemake --use-conda` creates envs/crocbench.yaml and then runs
    its post-deploy script (found by that name beside the env file), which must install this checkout."""
    rules = "\n".join(p.read_text() for p in (ROOT / "workflow/rules").glob("*.smk"))
    envs = set(re.findall(r'conda:\s*\n\s*"([^"]+)"', rules))
    assert envs == {"../../envs/crocbench.yaml"}, envs
    script = ROOT / "envs/crocbench.post-deploy.sh"  # the name snakemake looks for: <env stem>.post-deploy.sh
    text = script.read_text()
    assert text.startswith("#!/bin/sh\n") and "set -eu" in text
    root = re.search(r'root=\$\(cd "\$\(dirname "\$0"\)/(.*?)" && pwd\)', text).group(1)
    assert (script.parent / root / "pyproject.toml").resolve() == ROOT / "pyproject.toml"
    install = re.search(r"^python -m pip install (.*)$", text, flags=re.M).group(1).split()
    assert install[-2:] == ["-e", '"$root"'] and "--no-deps" in install  # editable; the env's pins untouched
    assert 'name = "crocbench"' in (ROOT / "pyproject.toml").read_text()


def test_snakemake_floor_is_the_snakefiles():
    floor = re.search(r'min_version\("([0-9.]+)"\)', (ROOT / "Snakefile").read_text()).group(1)
    wanted = re.search(r'"snakemake>=([0-9.]+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    version = lambda text: ([int(x) for x in text.split(".")] + [0, 0, 0])[:3]  # noqa: E731
    assert version(wanted) >= version(floor), (wanted, floor)
    pinned = _pins((ROOT / "envs/requirements.txt").read_text().splitlines())["snakemake"]
    assert int(pinned.split(".")[0]) >= int(floor.split(".")[0])

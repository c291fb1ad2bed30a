"""Environment specs, the package's dependencies (a lean core, the rest in extras) and the README's commands."""

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from _absent import EXTRA_MODULES, run_without

from crocbench._extras import EXTRAS

ROOT = Path(__file__).resolve().parents[1]

#: What `pip install crocbench` installs: what the metrics, the statistics and `crocbench score` / `compare` need.
CORE = {"numpy", "scipy", "pandas"}
#: Import name -> distribution, where they differ.
DISTRIBUTIONS = {"sklearn": "scikit-learn", "yaml": "pyyaml", "scikit_posthocs": "scikit-posthocs"}


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


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)).lower()


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _extras() -> dict:
    """Each extra's distributions; ``crocbench[...]`` (an extra that includes another) left out."""
    return {
        extra: {_name(r) for r in requirements if _name(r) != "crocbench"}
        for extra, requirements in _project()["optional-dependencies"].items()
    }


def test_every_runtime_dependency_is_pinned():
    pip_pins = _pins((ROOT / "envs/requirements.txt").read_text().splitlines())
    dev_pins = _pins((ROOT / "envs/dev.txt").read_text().splitlines())
    extras = _extras()
    for dep in {_name(r) for r in _project()["dependencies"]} | extras["workflow"] | {"pytest"}:
        assert dep in pip_pins, dep  # the README's set-up command installs everything the workflow needs
    for dep in extras["docs"] | extras["dev"]:
        assert dep in pip_pins or dep in dev_pins, dep
    gnn_pins = _pins((ROOT / "envs/gnn.txt").read_text().splitlines())
    for dep in extras["gnn"]:
        assert dep in gnn_pins, dep  # pip install -r envs/gnn.txt installs the gnn extra
    assert not set(gnn_pins) & set(pip_pins), "envs/gnn.txt moves a pin of envs/requirements.txt"


def test_the_core_dependencies_are_the_lean_set():
    assert {_name(r) for r in _project()["dependencies"]} == CORE
    assert set(_extras()) == {"workflow", "docs", "dev", "gnn"}
    assert not (CORE & set().union(*_extras().values()))


def _imports(path: Path):
    """``(top-level module, node, parents)`` of every absolute import in a file."""
    tree = ast.parse(path.read_text())
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module]
        else:
            continue
        chain, up = [], parents.get(node)
        while up is not None:
            chain.append(up)
            up = parents.get(up)
        for name in names:
            yield name.partition(".")[0], node, chain


def _third_party(paths) -> dict:
    found = {}
    for path in paths:
        for module, node, chain in _imports(path):
            if module not in sys.stdlib_module_names and module != "crocbench":
                found.setdefault(module, []).append((path.relative_to(ROOT), node, chain))
    return found


def test_every_third_party_import_is_core_or_in_an_extra():
    extras = _extras()
    found = _third_party(sorted((ROOT / "src/crocbench").rglob("*.py")))
    assert CORE <= {DISTRIBUTIONS.get(m, m) for m in found}  # the parse sees the core's own imports
    for module, places in found.items():
        distribution = DISTRIBUTIONS.get(module, module)
        if distribution in CORE:
            continue
        where = f"{module} (imported in {places[0][0]})"
        assert module in EXTRAS, f"{where}: neither core nor an extra's module in crocbench/_extras.py"
        named, extra = EXTRAS[module]
        assert named == distribution and named in extras[extra], f"{where}: not in pyproject.toml's '{extra}' extra"
    # and every module the messages name is one the package imports
    assert set(EXTRAS) == {m for m in found if DISTRIBUTIONS.get(m, m) not in CORE}


def _in_needs_block(chain) -> bool:
    return any(
        isinstance(up, ast.With)
        and any(
            isinstance(item.context_expr, ast.Call) and getattr(item.context_expr.func, "id", "") == "needs"
            for item in up.items
        )
        for up in chain
    )


def test_every_import_of_an_extras_module_stands_in_a_needs_block():
    """So a missing one stops with the one line that names the extra (crocbench._extras.needs). A package whose
    ``__init__`` imports the module so at its top (crocbench.plots) covers its own modules' top-level imports:
    the package's ``__init__`` runs first."""
    found = _third_party(sorted((ROOT / "src/crocbench").rglob("*.py")))
    for module in EXTRAS:
        places = found.get(module, [])
        covered = {path.parent for path, _, chain in places if path.name == "__init__.py" and _in_needs_block(chain)}
        for path, node, chain in places:
            at_top = all(isinstance(up, (ast.Module, ast.With, ast.Try, ast.If)) for up in chain)
            ok = _in_needs_block(chain) or (at_top and path.parent in covered)
            assert ok, f"{path}:{node.lineno}: import of {module} outside `with needs(...)`"


def test_the_lean_core_imports_no_extra():
    """crocbench.metrics, crocbench.stats and the command line import where no extra's module can be imported."""
    code = """
import sys
import crocbench.metrics, crocbench.stats, crocbench.cli
loaded = sorted({m.partition(".")[0] for m in sys.modules} & set(sys.argv[1:]))
print(loaded)
"""
    done = run_without(EXTRA_MODULES, code, *EXTRA_MODULES)
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", "")


@pytest.mark.parametrize("script", ["score_fold", "pool_scores", "areas_table", "significance_table", "neighbours"])
def test_a_workflow_steps_imports_leave_the_slow_modules_until_used(script):
    """A step's start is mostly imports (the workflow runs dozens of steps): what a script imports before its step
    loads neither torch, matplotlib nor scikit-learn, nor scipy.stats or scipy.optimize (nearly a second together),
    which the library imports where a function first needs them."""
    text = (ROOT / "workflow" / "scripts" / f"{script}.py").read_text()
    header = text[: text.index("\nwith step(")]
    code = header + "\nimport sys\nprint(sorted(set(sys.argv[1:]) & set(sys.modules)))\n"
    slow = ["scipy.optimize", "scipy.stats", "sklearn", "matplotlib", "torch"]
    done = subprocess.run([sys.executable, "-c", code, *slow], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", "")


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


def test_no_module_is_over_400_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "src").rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 400
    }
    assert long == {}

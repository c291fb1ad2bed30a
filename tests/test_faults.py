"""Workflow-level faults, for real: a job killed mid-write, two runs in one folder, a copy without timestamps, a
full disk. Each ends in a complete result or one console line, never a partial file taken for a result."""

import ast
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import yaml
from _snakemake import SNAKEMAKE
from _waits import line, start, stop, until

from crocbench._io import atomic_write, save_arrays
from crocbench._workflow import step

ROOT = Path(__file__).resolve().parents[1]
SCREEN = ROOT / ".test" / "data" / "screen.csv"
SLOW = "results/scr/scores/slow/fold_0.parquet"

# A plug-in ranker whose fit lasts until the test lets it end (``hold``: a file that the test creates), so that its
# job can be killed, or a second run started beside it, while it fits.
SLOW_RANKER = """
import os
import time

import numpy as np


class SlowRanker:
    def __init__(self, hold=None):
        self.hold = hold

    def fit(self, data, train, y):
        while self.hold is not None and not os.path.exists(self.hold):
            time.sleep(0.05)
        return self

    def score(self, data, rows):
        return np.asarray(data.fingerprints[rows].sum(axis=1)).ravel().astype(float)
"""


def _project(folder: Path, held=True) -> Path:
    """The .test screen as dataset ``scr`` (read from the mirror ``mir``) with the slow plug-in as model ``slow``,
    whose fit lasts until :func:`_release` (``held``) or ends at once."""
    (folder / "mir").mkdir(parents=True)
    shutil.copy(SCREEN, folder / "mir" / "screen.csv")
    (folder / "plugins").mkdir()
    (folder / "plugins" / "slow_ranker.py").write_text(SLOW_RANKER)
    config = {
        "dataset": "scr",
        "mirror": "mir",
        "similarity": {"k": 5},
        "cv": {"folds": 2},
        "models": {"slow": {"class": "slow_ranker:SlowRanker", "hold": str(folder / "release") if held else None}},
        "datasets": {
            "scr": {
                "files": [{"name": "screen.csv", "url": "http://127.0.0.1:9/screen.csv", "sha256": None}],
                "structures": {"file": "screen.csv", "smiles": "smiles", "id": "id", "label": "activity"},
                "positive": ["CA", "CM"],
                "negative": ["CI"],
            }
        },
    }
    (folder / "cfg.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return folder


def _command(folder: Path, *extra: str) -> list:
    return [SNAKEMAKE, "--snakefile", str(ROOT / "Snakefile"), "--directory", str(folder), "--configfile",
            str(folder / "cfg.yaml"), "--cores", "1", *extra]  # fmt: skip


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "CROCBENCH_MIRROR"}


def _run(folder: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(_command(folder, *extra), capture_output=True, text=True, env=_env(), timeout=300)


def _start(folder: Path, *extra: str) -> subprocess.Popen:
    """Snakemake started in its own process group (so that the group can be killed)."""
    return start(
        _command(folder, *extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
        start_new_session=True,
    )  # fmt: skip


def _fitting(folder: Path, run: subprocess.Popen) -> None:
    """Wait until the slow job is fitting: its log exists."""
    log = folder / "logs" / "scr" / "scores" / "slow" / "fold_0.log"
    until(log.exists, f"{log} (the slow job fitting)", run, guard=300)


def _release(folder: Path) -> None:
    """Let the slow job's fit end."""
    (folder / "release").touch()


def _kill(run: subprocess.Popen) -> None:
    """SIGKILL to snakemake and its jobs (its process group), as the OOM killer or a power cut would; reaped."""
    if run.poll() is None:
        os.killpg(run.pid, signal.SIGKILL)
    run.wait(timeout=60)


def _partial_files(folder: Path) -> list:
    return sorted(str(p.relative_to(folder)) for p in (folder / "results").rglob("*") if ".part" in p.name)


# --- 1. a job killed while it writes -------------------------------------------------------------------------

WRITER = """
import sys
from crocbench._io import atomic_write
with atomic_write(sys.argv[1]) as tmp, open(tmp, "w") as fh:
    for i in range(101):
        fh.write(f"row {i}\\n"); fh.flush()
    print("writing", flush=True)
    sys.stdin.read()  # mid-write until killed (the test holds standard input open)
    fh.write("the rest\\n")
"""


def test_a_writer_killed_mid_write_leaves_the_old_file_or_none_and_the_next_write_is_whole(tmp_path):
    out = tmp_path / "table.tsv"
    for before in (None, "the previous run's complete table\n"):
        if before is not None:
            out.write_text(before)
        writer = start(
            [sys.executable, "-c", WRITER, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            assert line(writer, "101 rows written") == "writing\n"
        finally:
            stop(writer)  # SIGKILL mid-write
        assert (out.read_text() if out.exists() else None) == before  # never a truncated table
        assert [p.name for p in tmp_path.glob(".table.part*")] == [".table.part.tsv"]  # the killed write's own
    with atomic_write(out) as tmp:
        tmp.write_text("whole\n")
    assert out.read_text() == "whole\n" and sorted(p.name for p in tmp_path.iterdir()) == ["table.tsv"]


def test_every_workflow_script_writes_its_outputs_through_the_atomic_writer():
    """No ``to_parquet``/``to_csv``/``np.save``/``Path.write_text``/``open(..., "w")`` on a path in a workflow script
    (the library's writers, crocbench._io, write complete-or-absent files)."""
    in_place = []
    for script in sorted((ROOT / "workflow" / "scripts").glob("*.py")):
        tree = ast.parse(script.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr in ("to_parquet", "to_csv", "write_text", "write_bytes", "savefig"):
                    in_place.append(f"{script.name}:{node.lineno}")
                elif node.func.attr == "save" and ast.unparse(node.args[0]) != "tmp":
                    in_place.append(f"{script.name}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open" and len(node.args) > 1:
                if "w" in ast.unparse(node.args[1]) and ast.unparse(node.args[0]) != "tmp":
                    in_place.append(f"{script.name}:{node.lineno}")
    assert in_place == []


@pytest.mark.workflow
def test_a_run_killed_with_sigkill_is_rebuilt_whole_by_the_next_run(tmp_path):
    clean = _project(tmp_path / "clean", held=False)
    done = _run(clean, SLOW)
    assert done.returncode == 0, done.stderr[-3000:]
    killed = _project(tmp_path / "killed")
    run = _start(killed, SLOW)
    try:
        _fitting(killed, run)
    finally:
        _kill(run)
    _release(killed)
    assert not (killed / SLOW).exists()
    assert list((killed / ".snakemake" / "locks").iterdir())  # Snakemake's locks, left behind
    done = _run(killed, SLOW)  # a plain rerun: no --unlock needed
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Directory cannot be locked" not in done.stderr
    for path in ("results/scr/compounds.parquet", "results/scr/folds.tsv", SLOW, SLOW.replace(".parquet", ".json")):
        assert (killed / path).read_bytes() == (clean / path).read_bytes(), path
    assert _partial_files(killed) == []


def test_every_wait_on_a_child_in_the_tests_has_a_timeout():
    """No test can hang on a child process: every ``subprocess.run``/``check_output``/``check_call`` and every
    ``.wait()``/``.communicate()`` in tests/ names a timeout (a child that ignores a signal, or a pipe held open by a
    grandchild, then fails its test instead of stalling the suite); no test reads a child's line but through
    tests/_waits.py (``line``, which has a guard), or starts a child but through its ``start`` (SIGINT's default
    action in the child), or waits by sleeping: the only sleep is ``until``'s poll of a state."""
    waits = {"run", "check_output", "check_call", "call", "wait", "communicate"}
    bare = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            call, where = ast.unparse(node.func), f"{path.name}:{node.lineno}"
            if path.name != "_waits.py" and (
                call in ("subprocess.Popen", "time.sleep") or call.endswith(("stdout.readline", "stderr.readline"))
            ):
                bare.append(f"{where}: {call}")
            if node.func.attr not in waits:
                continue
            if node.func.attr not in ("wait", "communicate") and not call.startswith("subprocess."):
                continue  # snakemake's api.run, a fixture's own run...
            timed = any(k.arg == "timeout" for k in node.keywords) or (node.func.attr == "wait" and node.args)
            if not timed:
                bare.append(f"{where}: {call}")
    assert bare == ["_http.py:40: time.sleep"]  # the test server's slow file: a response's pause, not a wait


# --- 2. two runs in one folder ---------------------------------------------------------------------------------


@pytest.mark.workflow
def test_a_second_run_in_the_same_folder_is_refused_in_one_line_and_the_first_completes(tmp_path):
    folder = _project(tmp_path / "p")
    first = _start(folder, SLOW)
    try:
        _fitting(folder, first)
        second = _run(folder, SLOW)
        assert second.returncode == 1
        lines = [line for line in second.stderr.splitlines() if "crocbench" in line or "rror" in line]
        assert len(lines) == 1 and lines[0].startswith("crocbench: another snakemake run is working in "), second.stderr
        assert f"(pid {first.pid}, started " in lines[0]
        print(lines[0])  # the console line, for the record (pytest -rP)
        # A dry run beside it is not refused. The running job's outputs may already be marked incomplete (whether
        # they are depends on how far the first run has got), so the dry run plans them as snakemake would.
        beside = _run(folder, SLOW, "-n", "--rerun-incomplete")
        assert beside.returncode == 0 and "another snakemake run" not in beside.stdout + beside.stderr
        _release(folder)
        out, err = first.communicate(timeout=300)
    finally:
        _kill(first)
    assert first.returncode == 0, err[-3000:]
    assert (folder / SLOW).exists() and _partial_files(folder) == []
    assert "Nothing to be done" in _run(folder, SLOW, "-n").stdout


# --- 4. a full disk ---------------------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB tmpfs at ``tmp_path/disk``, unmounted afterwards; skipped where it cannot be mounted."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        pytest.skip(f"mount is not permitted here: {done.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True, timeout=60)


@pytest.mark.parametrize("writer", ["save_arrays", "write_table"])
def test_a_full_disk_is_one_console_line_with_the_space_needed_and_no_partial_file(tmp_path, small_disk, capfd, writer):
    import pandas as pd

    from crocbench._io import write_table

    out = small_disk / ("fingerprints.npz" if writer == "save_arrays" else "scores.parquet")
    smk = SimpleNamespace(rule="fingerprints", wildcards={"dataset": "scr"}, log=[str(tmp_path / "fp.log")])
    with pytest.raises(SystemExit) as stop, step(smk):
        if writer == "save_arrays":
            save_arrays(out, indptr=np.arange(400_000, dtype=np.int64))  # 3.2 MB on a 1 MB disk
        else:
            write_table(pd.DataFrame({"score": np.random.default_rng(0).random(400_000)}), out, index=False)
    assert stop.value.code == 1
    lines = capfd.readouterr().err.strip().splitlines()
    print(lines)
    need = "~3.2 MB" if writer == "save_arrays" else "more than 1.0 MB"
    assert lines == [
        f"crocbench: fingerprints[dataset=scr]: no space left on device writing {out} (needs {need}, 1.0 MB free) "
        f"(traceback: {tmp_path / 'fp.log'})"
    ]
    assert list(small_disk.iterdir()) == []  # nothing half-written, no .part
    assert "No space left on device" in (tmp_path / "fp.log").read_text()  # the original error, in the log


# --- 3. a copy of a finished project ------------------------------------------------------------------------------


@pytest.mark.workflow
def test_a_copy_with_timestamps_plans_nothing_and_a_plain_cp_r_does_after_one_touch(tmp_path):
    """docs/user_guide/workflow.md: `cp -a` / `cp -r --preserve=timestamps` plan nothing; after a plain `cp -r`
    a script newer than the results plans 'Code has changed', and `snakemake --touch` once plans nothing."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("Snakefile", "workflow", "envs", "config.yaml"):  # the checkout itself, its timestamps kept
        subprocess.run(["cp", "-a", str(ROOT / name), str(project)], check=True, timeout=60)
    _project(project / "run", held=False)
    for name in ("mir", "plugins", "cfg.yaml"):
        shutil.move(project / "run" / name, project / name)
    targets = ("results/scr/folds.tsv", "results/scr/fingerprints.npz")

    def snakemake(folder, *extra):
        command = [SNAKEMAKE, "--configfile", "cfg.yaml", "--cores", "1", *extra, *targets]
        return subprocess.run(command, cwd=folder, capture_output=True, text=True, env=_env(), timeout=300)

    done = snakemake(project)
    assert done.returncode == 0, done.stderr[-3000:]
    for copy in (["cp", "-a"], ["cp", "-r", "--preserve=timestamps"]):
        shutil.rmtree(tmp_path / "copy", ignore_errors=True)
        subprocess.run([*copy, str(project), str(tmp_path / "copy")], check=True, timeout=600)
        assert "Nothing to be done" in snakemake(tmp_path / "copy", "-n").stdout, copy
    shutil.rmtree(tmp_path / "copy")
    subprocess.run(["cp", "-r", str(project), str(tmp_path / "copy")], check=True, timeout=60)
    for script in (tmp_path / "copy" / "workflow" / "scripts").iterdir():  # as cp -r does when it copies them last
        os.utime(script)
    plan = snakemake(tmp_path / "copy", "-n").stdout
    assert "reason: Code has changed since last execution" in plan and "Params have changed" not in plan
    before = {p: p.read_bytes() for p in (tmp_path / "copy" / "results").rglob("*") if p.is_file()}
    done = snakemake(tmp_path / "copy", "--touch")
    assert done.returncode == 0, done.stderr[-3000:]
    assert {p: p.read_bytes() for p in (tmp_path / "copy" / "results").rglob("*") if p.is_file()} == before
    assert "Nothing to be done" in snakemake(tmp_path / "copy", "-n").stdout

"""The workflow on a real Slurm cluster through workflow/profiles/slurm (``pytest -m slurm``; see tests/_slurm.py)."""

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from _waits import start, stop, until

pytestmark = pytest.mark.slurm
ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = shutil.which("snakemake") or str(Path(sys.executable).with_name("snakemake"))


def _project(folder: Path) -> Path:
    """A working folder with the .test screen and the example plug-in, as `--configfile .test/config.yaml` uses."""
    folder.mkdir()
    shutil.copytree(ROOT / ".test", folder / ".test")
    shutil.copytree(ROOT / "plugins", folder / "plugins")
    return folder


def _user_profile(folder: Path, partition: str) -> Path:
    """The shipped Slurm profile with a user's edits: their partition (and no account), and, for a test whose
    jobs take seconds, status checks from 1 s on (Slurm's squeue: this cluster keeps no accounting)."""
    profile = yaml.safe_load((ROOT / "workflow" / "profiles" / "slurm" / "config.yaml").read_text())
    assert profile["default-resources"]["slurm_partition"] == "EDIT-partition"  # the one line users must edit
    profile["default-resources"]["slurm_partition"] = partition
    profile.update(
        {
            "slurm-status-command": "squeue",
            "slurm-init-seconds-before-status-checks": 1,
            "slurm-keep-successful-logs": True,
            "latency-wait": 5,
        }
    )
    (folder / "profile").mkdir()
    (folder / "profile" / "config.yaml").write_text(yaml.safe_dump(profile, sort_keys=False))
    return folder / "profile"


def _command(folder: Path, *extra: str) -> list:
    return [
        SNAKEMAKE,
        "--snakefile",
        str(ROOT / "Snakefile"),
        "--directory",
        str(folder),
        "--configfile",
        str(folder / ".test" / "config.yaml"),
        *extra,
    ]


def _tables(folder: Path) -> dict:
    """Every results table's bytes; irv_training.tsv without its one measured column (train_seconds, a timing)."""
    tables = folder / "results" / "test_screen" / "tables"
    out = {p.name: p.read_bytes() for p in sorted(tables.glob("*.tsv"))}
    lines = [line.split("\t") for line in out["irv_training.tsv"].decode().splitlines()]
    timing = lines[0].index("train_seconds")
    out["irv_training.tsv"] = "\n".join("\t".join(c for i, c in enumerate(line) if i != timing) for line in lines)
    return out


def _squeue(cluster, run_name: str | None = None) -> list[tuple[str, str, str]]:
    """(job id, state, name) of every job this cluster still remembers (MinJobAge: 10 minutes)."""
    done = subprocess.run(
        ["squeue", "--states=all", "--noheader", "--format=%i|%T|%j"],
        capture_output=True,
        text=True,
        env=cluster.env,
        check=True,
        timeout=60,
    )
    rows = [tuple(line.split("|", 2)) for line in done.stdout.split()]
    return [r for r in rows if run_name is None or r[2] == run_name]


def test_the_test_screen_through_slurm_equals_a_local_run_even_with_a_cancelled_job(slurm_cluster, tmp_path, request):
    """The .test screen's whole workflow submitted job by job to Slurm gives the same results tables, byte for
    byte, as a local `--cores 2` run; every job is a Slurm job; a job cancelled with scancel while it runs is
    submitted again (the profile's retries) and the run still finishes with the same tables."""
    env = {k: v for k, v in slurm_cluster.env.items() if k != "CROCBENCH_MIRROR"}
    local = _project(tmp_path / "local")  # run beside the cluster's, which mostly waits on Slurm
    local_run = start(
        _command(local, "--cores", "2"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
    )
    request.addfinalizer(lambda: stop(local_run))

    cluster = _project(tmp_path / "cluster")
    profile = _user_profile(cluster, "crocbench")
    before = {job for job, _, _ in _squeue(slurm_cluster)}
    began = time.monotonic()  # for the record: the run's wall time
    log = open(tmp_path / "cluster.log", "w")
    run = start(
        _command(cluster, "--workflow-profile", str(profile)), stdout=log, stderr=subprocess.STDOUT, text=True, env=env
    )
    running = []

    def a_job_runs() -> bool:
        running[:] = [job for job, state, _ in _squeue(slurm_cluster) if state == "RUNNING" and job not in before]
        return bool(running)

    try:
        until(a_job_runs, "a Slurm job running", run, guard=1500)
        cancelled = running[0]  # the first job seen running (a score_fold, most likely) is cancelled
        subprocess.run(["scancel", cancelled], env=slurm_cluster.env, check=True, timeout=60)
        run.wait(timeout=1500)
    finally:
        stop(run)
        log.close()
    wall = time.monotonic() - began
    local_err = local_run.communicate(timeout=900)[1]
    assert local_run.returncode == 0, local_err[-3000:]
    text = (tmp_path / "cluster.log").read_text()
    assert run.returncode == 0, text[-4000:]

    submitted = re.findall(r"submitted with SLURM jobid (\d+)", text)
    finished = re.findall(r"Finished jobid: \d+ \(Rule: (\w+)\)", text)
    assert finished and len(submitted) == len([r for r in finished if r != "all"]) + 1  # + the cancelled attempt
    jobs = {job: state for job, state, _ in _squeue(slurm_cluster) if job not in before}
    assert set(submitted) <= set(jobs), "a job Snakemake submitted is unknown to Slurm"
    assert jobs[cancelled] == "CANCELLED" and list(jobs.values()).count("CANCELLED") == 1
    assert all(state == "COMPLETED" for job, state in jobs.items() if job != cancelled)
    assert _tables(cluster) == _tables(local) and len(_tables(local)) >= 6
    print(
        f"slurm: {len(submitted)} Slurm jobs ({len(submitted) - 1} rules' jobs + 1 cancelled and resubmitted), "
        f"{wall:.0f} s wall",
        file=sys.stderr,
    )

"""A real single-node Slurm cluster on this machine, for ``pytest -m slurm`` (no systemd, no mock).

Debian's ``slurm-wlm`` and ``munge`` are installed if missing (root, or sudo). Every daemon is started here
in the foreground (``munged -F`` as the munge user, ``slurmctld -D``, ``slurmd -D``) with its state, spool,
logs, key and socket under a temporary folder and ports that were free, and stopped by the pid this module
holds; nothing else is signalled. One file lies outside that folder: ``/etc/slurm/slurm.conf``, because the
Slurm executor's job step clears ``SLURM_CONF`` before its ``srun`` (which then reads only the default path).
It is written only where none exists, marked as this module's, and removed at the end; an existing
configuration (a real cluster's) is never touched: the tests then stop with that reason.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

from _waits import start, until

CONF = Path("/etc/slurm/slurm.conf")
MARK = "# written by crocbench's tests/_slurm.py for pytest -m slurm; removed when the tests end"
PARTITION = "crocbench"
PACKAGES = ("slurm-wlm", "munge")


class SlurmUnavailable(RuntimeError):
    """This machine cannot host the test cluster (the reason says why)."""


def _as_root(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return cmd
    if shutil.which("sudo"):
        return ["sudo", "-n", *cmd]
    raise SlurmUnavailable(f"{' '.join(cmd)} needs root (or sudo)")


def install_packages() -> None:
    """Install Debian's slurm-wlm and munge if their daemons are missing, saying so."""
    if all(shutil.which(p) for p in ("slurmctld", "slurmd", "munged", "sbatch")):
        return
    print(f"slurm tests: installing Debian's {' and '.join(PACKAGES)} (apt-get)", file=sys.stderr, flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *PACKAGES]):
        done = subprocess.run(_as_root(cmd), capture_output=True, text=True, env=env, timeout=60)
        if done.returncode:
            raise SlurmUnavailable(f"{' '.join(cmd)} failed: {(done.stderr or done.stdout).strip()[-500:]}")
    if not all(shutil.which(p) for p in ("slurmctld", "slurmd", "munged", "sbatch")):
        raise SlurmUnavailable(f"{' and '.join(PACKAGES)} installed, but the Slurm daemons are still not on PATH")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _node_hardware() -> tuple[int, int]:
    """This machine's CPUs and memory (MB) as slurmd sees them (``slurmd -C``)."""
    text = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, check=True, timeout=60).stdout
    cpus = int(re.search(r"CPUs=(\d+)", text).group(1))
    memory = int(re.search(r"RealMemory=(\d+)", text).group(1))
    return cpus, memory


class LocalSlurm:
    """munged, slurmctld and slurmd on this machine, one node ``localhost`` in partition :data:`PARTITION`.

    Use as a context manager; :attr:`env` is the environment for Slurm's commands.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.wrote_conf = False
        self.cpus, memory = _node_hardware()
        self.memory_mb = int(memory * 0.9)  # below what slurmd measures, so the node is never drained for it
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "SBATCH_", "SRUN_"))}

    # -- set-up --------------------------------------------------------------------------------------------
    def _munge(self) -> Path:
        key_dir, run_dir = self.folder / "munge-key", self.folder / "munge-run"
        for d, mode in ((key_dir, 0o700), (run_dir, 0o755)):
            d.mkdir(parents=True)
            shutil.chown(d, "munge", "munge")
            d.chmod(mode)
        key = key_dir / "munge.key"
        key.write_bytes(os.urandom(1024))
        shutil.chown(key, "munge", "munge")
        key.chmod(0o400)
        sock = run_dir / "munge.socket"
        self._start(
            "munged",
            [
                "setpriv",
                "--reuid=munge",
                "--regid=munge",
                "--clear-groups",
                "munged",
                "-F",
                f"--key-file={key}",
                f"--socket={sock}",
                f"--pid-file={run_dir / 'munged.pid'}",
                f"--log-file={run_dir / 'munged.log'}",
                f"--seed-file={key_dir / 'munged.seed'}",
            ],
        )
        self._wait(sock.exists, 10, "munged's socket")
        return sock

    def _conf(self, sock: Path) -> str:
        f = self.folder
        for d in ("state", "spool"):
            (f / d).mkdir()
        return "\n".join(
            [
                MARK,
                "ClusterName=crocbenchtest",
                "SlurmctldHost=localhost",
                "SlurmUser=root",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                f"AuthInfo=socket={sock}",
                f"SlurmctldPort={_free_port()}",
                f"SlurmdPort={_free_port()}",
                f"StateSaveLocation={f / 'state'}",
                f"SlurmdSpoolDir={f / 'spool'}",
                f"SlurmctldPidFile={f / 'slurmctld.pid'}",
                f"SlurmdPidFile={f / 'slurmd.pid'}",
                f"SlurmctldLogFile={f / 'slurmctld.log'}",
                f"SlurmdLogFile={f / 'slurmd.log'}",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core_Memory",
                "MpiDefault=none",
                "ReturnToService=2",
                "MinJobAge=600",  # squeue keeps a finished job for 10 minutes: the executor's status source
                "SchedulerParameters=defer_batch=0",
                f"NodeName=localhost NodeAddr=127.0.0.1 CPUs={self.cpus} RealMemory={self.memory_mb} State=UNKNOWN",
                f"PartitionName={PARTITION} Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
                "",
            ]
        )

    def _start(self, name: str, cmd: list[str]) -> None:
        log = open(self.folder / f"{name}.out", "w")
        self.procs.append(
            (name, start(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True))
        )
        log.close()

    def _wait(self, ready, timeout: float, what: str) -> None:
        try:
            until(ready, what, *(proc for _, proc in self.procs), guard=timeout, error=SlurmUnavailable)
        except SlurmUnavailable as e:
            raise SlurmUnavailable(f"{e}: {self.log_tail()}") from None

    def log_tail(self, name: str | None = None, lines: int = 8) -> str:
        names = [name] if name else ["munged", "slurmctld", "slurmd"]
        out = []
        for n in names:
            for path in (self.folder / f"{n}.out", self.folder / f"{n}.log"):
                if path.exists():
                    out += [f"[{path.name}] {line}" for line in path.read_text(errors="replace").splitlines()[-lines:]]
        return " | ".join(out)

    def node_state(self) -> str:
        done = subprocess.run(
            ["sinfo", "-h", "-n", "localhost", "-o", "%T"], capture_output=True, text=True, env=self.env, timeout=60
        )
        return done.stdout.strip()

    def __enter__(self) -> LocalSlurm:
        if os.geteuid() != 0:
            raise SlurmUnavailable("the test cluster's daemons run as root here (slurmd starts jobs as any user)")
        if CONF.exists() and MARK not in CONF.read_text(errors="replace"):
            raise SlurmUnavailable(
                f"{CONF} exists and is not this test's: a Slurm is configured on this machine, "
                "and the tests will not replace its configuration"
            )
        try:
            sock = self._munge()
            CONF.parent.mkdir(parents=True, exist_ok=True)
            CONF.write_text(self._conf(sock))
            self.wrote_conf = True
            self._start("slurmctld", ["slurmctld", "-D", "-i", "-f", str(CONF)])
            self._start("slurmd", ["slurmd", "-D", "-N", "localhost", "-f", str(CONF)])
            self._wait(lambda: self.node_state() == "idle", 60, "the node to become idle")
        except BaseException:
            self.stop()
            raise
        return self

    # -- tear-down -----------------------------------------------------------------------------------------
    def stop(self) -> None:
        """Cancel this cluster's jobs, stop the daemons started here (by pid, slurmd first) and remove the config."""
        if any(name == "slurmctld" and proc.poll() is None for name, proc in self.procs):
            subprocess.run(
                ["scancel", "--full", "--quiet", "--partition", PARTITION],
                env=self.env,
                capture_output=True,
                timeout=30,
            )
        for _name, proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=15)
        self.procs.clear()
        if self.wrote_conf and CONF.exists() and MARK in CONF.read_text(errors="replace"):
            CONF.unlink()
        self.wrote_conf = False

    def __exit__(self, *exc) -> None:
        self.stop()

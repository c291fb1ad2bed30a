"""The default run (the README's ``snakemake --cores 2``) cold, from fresh clones of a baseline commit and of
HEAD, side by side on one machine: wall and CPU seconds, the ratio baseline / HEAD, and whether the tables match.

    python benchmarks/speed/default_run.py [--before bcbe6a0] [--after HEAD] [--order AB] [--workdir DIR]

Each side is a ``git clone`` of this repository checked out at its commit, run with this environment's Python and
packages but the clone's own ``src/`` first on ``PYTHONPATH``, an empty user cache (``CROCBENCH_CACHE``) and the
clone's own numba cache, empty: cold, as a newcomer's first run. The mirror is ``CROCBENCH_MIRROR`` (default: the
project's). ``--order`` gives the runs' order (``A`` the baseline, ``B`` HEAD; ``ABBA`` runs each twice, so that a
machine that slows over time weighs on both). Every file the two sides' runs both write under ``results/`` (not the
committed references, logs or ``benchmark:`` timings) is compared byte for byte; files only one side writes are
counted.

Target (issue 96.1): baseline / HEAD at least 1.4, on identical tables.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: The run's files that say when or how long, not what: never compared.
SKIPPED = ("logs", "benchmarks", ".snakemake")


def clone(commit: str, path: Path) -> str:
    """A fresh clone of this repository at ``commit`` in ``path``; the commit's full hash."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(path)], check=True, timeout=600)
    subprocess.run(["git", "-C", str(path), "checkout", "-q", "--detach", commit], check=True, timeout=600)
    done = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def run(checkout: Path, mirror: str) -> dict:
    """``snakemake --cores 2`` in ``checkout``, cold: its wall and CPU seconds (its processes', waited for) and the
    largest process's peak RSS."""
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout / "src"),
        "CROCBENCH_MIRROR": mirror,
        "CROCBENCH_CACHE": str(checkout / ".user-cache"),
    }
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(checkout / "default_run.log", "w") as log:
        done = subprocess.run(
            [shutil.which("snakemake") or "snakemake", "--cores", "2"],
            cwd=checkout,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=6 * 3600,
        )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"default_run: snakemake failed in {checkout} (exit {done.returncode}): see default_run.log there")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "peak_gb": after.ru_maxrss / 1e6}


def outputs(checkout: Path) -> dict[str, bytes]:
    """The files the run wrote under ``results/`` (by path relative to it): not the committed ones (the curated
    references), nor the logs and timings."""
    base = checkout / "results"
    listed = subprocess.run(["git", "-C", str(checkout), "ls-files", "results"], capture_output=True, text=True)
    committed = set(listed.stdout.splitlines())
    files = {}
    for path in sorted(base.rglob("*")):
        relative = path.relative_to(base)
        if path.is_file() and not any(part in SKIPPED for part in relative.parts):
            if str(path.relative_to(checkout)) not in committed:
                files[str(relative)] = path.read_bytes()
    return files


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", default="bcbe6a0", help="the baseline commit (default: issue 96's bcbe6a0)")
    p.add_argument("--after", default="HEAD", help="the commit measured (default: HEAD)")
    p.add_argument("--order", default="AB", help="the runs, A the baseline and B the other (default: AB)")
    p.add_argument("--workdir", help="where the clones go (default: a temporary folder, removed at the end)")
    args = p.parse_args()
    if not args.order or set(args.order) - {"A", "B"}:
        sys.exit(f"default_run: --order {args.order!r}: use the letters A (baseline) and B (--after), e.g. ABBA")
    mirror = os.environ.get("CROCBENCH_MIRROR") or str((ROOT / ".." / "shared" / "mirror").resolve())
    work = Path(args.workdir or tempfile.mkdtemp(prefix="default_run-"))
    work.mkdir(parents=True, exist_ok=True)
    commits = {"A": args.before, "B": args.after}
    times, files, hashes = {"A": [], "B": []}, {}, {}
    for i, side in enumerate(args.order):
        checkout = work / f"{i}-{side}"
        hashes[side] = clone(commits[side], checkout)
        print(f"{side} ({hashes[side][:7]}): running in {checkout}", file=sys.stderr, flush=True)
        times[side].append(run(checkout, mirror))
        print(f"{side}: {times[side][-1]['wall']:.1f} s wall", file=sys.stderr, flush=True)
        files.setdefault(side, outputs(checkout))
    if not args.workdir:
        shutil.rmtree(work)
    print(f"machine: {machine()}; runs in the order {args.order}\n")
    print("| side | commit | wall s | CPU s | largest process GB |")
    print("|---|---|---:|---:|---:|")
    for side in "AB":
        for t in times[side]:
            print(f"| {side} | {hashes[side][:7]} | {t['wall']:.1f} | {t['cpu']:.1f} | {t['peak_gb']:.2f} |")
    if times["A"] and times["B"]:
        a, b = (min(t["wall"] for t in times[s]) for s in "AB")
        shared = sorted(set(files["A"]) & set(files["B"]))
        differ = [name for name in shared if files["A"][name] != files["B"][name]]
        print(f"\nbaseline / {hashes['B'][:7]} (fastest run of each): {a / b:.2f}")
        print(
            f"files both write: {len(shared)}, identical {len(shared) - len(differ)}"
            f"; only the baseline's {len(set(files['A']) - set(files['B']))}"
            f", only {hashes['B'][:7]}'s {len(set(files['B']) - set(files['A']))}"
        )
        for name in differ:
            print(f"- differs: {name}")


if __name__ == "__main__":
    main()

"""The ECFP rankers on the PubChem HTS panel (docs/studies/ecfp_panel.md), end to end and resumable: one command.

    python benchmarks/studies/ecfp_panel.py RUN_ROOT [--parts primary scaffold confirmed subsample references]
        [--screens SCREEN ...] [--cores 2]

Each run has a folder of its own under RUN_ROOT, a git worktree of this checkout (added at its commit where it is
missing, moved to its commit where it is not, so that Snakemake's triggers decide what runs again), where
``snakemake summary`` runs with the panel's config files (``--rerun-incomplete``: an interrupted run resumes):

- ``primary``: the 25 primary screens, random split (``pubchem_hts.yaml``, then ``pubchem_hts_ecfp.yaml``);
- ``scaffold``: the 9-screen scaffold overlay (``pubchem_hts_scaffold.yaml`` between them);
- ``confirmed``: the 10 campaigns with confirmed actives (``pubchem_hts_confirmed.yaml`` between them);
- ``subsample``: ``benchmarks/studies/svm_subsample.py`` on the primary run (question (d); its 16 GB variant
  needs the machine to itself), written to ``results/reference/svm_subsample.tsv``;
- ``references``: each finished run's summary kept as ``results/reference/pubchem_hts_ecfp[_scaffold|_confirmed]``
  (``crocbench reference``), the README's and the study pages' tables rewritten from them, and the primary
  reference's critical-difference diagrams drawn to ``docs/studies/ecfp_panel_cd.png``.

``--screens`` limits the runs to some screens (a session's share: the summary then covers those screens, and
``references`` adds them to the reference, ``crocbench reference --add``, which keeps the screens of earlier runs). The
parts run in the order given, one at a time; each prints its log's path, and the first that fails stops the
command with its exit status. Ctrl-C (or SIGINT to this command) lets snakemake stop its jobs, then exits 130: the
same command resumes.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PANELS = Path("config") / "panels"
#: Each run: its reference folder's name and its config files, in order (the ECFP rankers' overlay last).
RUNS = {
    "primary": ("pubchem_hts_ecfp", ["pubchem_hts.yaml", "pubchem_hts_ecfp.yaml"]),
    "scaffold": (
        "pubchem_hts_ecfp_scaffold",
        ["pubchem_hts.yaml", "pubchem_hts_scaffold.yaml", "pubchem_hts_ecfp.yaml"],
    ),
    "confirmed": (
        "pubchem_hts_ecfp_confirmed",
        ["pubchem_hts.yaml", "pubchem_hts_confirmed.yaml", "pubchem_hts_ecfp.yaml"],
    ),
}
PARTS = (*RUNS, "subsample", "references")
EXIT_INTERRUPTED = 130  # 128 + SIGINT
PAGE = ROOT / "docs" / "studies" / "ecfp_panel.md"
#: The documents whose reference blocks the runs' references rewrite (the overlays' tables are on a page of their own).
DOCUMENTS = (ROOT / "README.md", PAGE, PAGE.with_name("ecfp_panel_overlays.md"))
#: Each run's critical-difference diagrams, drawn from its reference beside the pages that show them.
FIGURES = {
    part: PAGE.with_name("ecfp_panel_cd.png" if part == "primary" else f"ecfp_panel_{part}_cd.png") for part in RUNS
}


def git(*args, cwd=ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def worktree(folder: Path) -> Path:
    """``folder`` as a worktree of this checkout at its commit: added where missing, moved where it is elsewhere."""
    commit = git("rev-parse", "HEAD")
    if not folder.exists():
        folder.parent.mkdir(parents=True, exist_ok=True)
        git("worktree", "add", "--detach", str(folder), commit)
    elif git("rev-parse", "HEAD", cwd=folder) != commit:
        if git("status", "--porcelain", "--untracked-files=no", cwd=folder):
            sys.exit(f"{folder}: its tracked files have changes: commit or discard them first")
        git("checkout", "--quiet", "--detach", commit, cwd=folder)
    return folder


def run_part(root: Path, part: str, screens: list, cores: int) -> None:
    """``snakemake summary`` of one run in its worktree, logged to ``RUN_ROOT/<part>.log``."""
    folder = worktree(root / part)
    configs = [str(PANELS / name) for name in RUNS[part][1]]
    command = ["snakemake", "summary", "--rerun-incomplete", "--cores", str(cores), "--configfile", *configs]
    if screens:
        command += ["--config", f"dataset=[{','.join(screens)}]"]
    log = root / f"{part}.log"
    print(f"{part}: {' '.join(command)} in {folder}, log {log}", flush=True)
    env = {**os.environ, "PYTHONPATH": str(folder / "src")}
    with open(log, "a") as out:  # snakemake in a session of its own: an interrupt reaches it once, from here
        process = subprocess.Popen(
            command, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            code = process.wait()
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not orphan snakemake's jobs
            print(f"{part}: interrupted; waiting for snakemake to stop its jobs", file=sys.stderr, flush=True)
            process.send_signal(signal.SIGINT)
            process.wait()
            print(f"{part}: stopped; the same command resumes the run (see {log})", file=sys.stderr)
            sys.exit(EXIT_INTERRUPTED)
    if code:
        sys.exit(f"{part}: snakemake exited {code} (see {log})")


def subsample(root: Path) -> None:
    out = ROOT / "results" / "reference" / "svm_subsample.tsv"
    script = ROOT / "benchmarks" / "studies" / "svm_subsample.py"
    done = subprocess.run([sys.executable, str(script), str(root / "primary"), "--out", str(out)])
    if done.returncode:
        sys.exit(f"subsample: exited {done.returncode}")


def references(root: Path, screens: list) -> None:
    """Each finished run's summary kept as its reference (with ``--screens``, its screens added to the reference:
    ``crocbench reference --add``); the README's and the study pages' tables rewritten; the primary reference's
    critical-difference diagrams and each overlay's drawn beside the study pages (:data:`FIGURES`)."""
    from crocbench.pages import critical_difference_figure

    for part, (name, _) in RUNS.items():
        summary = root / part / "results" / "summary"
        if not (summary / "tables" / "datasets.tsv").is_file():
            print(f"references: {part} has no summary yet", flush=True)
            continue
        out = ROOT / "results" / "reference" / name
        command = ["crocbench", "reference", str(summary), "--out", str(out)]
        if screens and (out / "datasets.tsv").is_file():
            command.append("--add")
        done = subprocess.run([*command, "--readme", *map(str, DOCUMENTS)], cwd=ROOT)
        if done.returncode:
            sys.exit(f"references: {' '.join(command)} exited {done.returncode}")
        critical_difference_figure(out, FIGURES[part])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("root", type=Path, help="the folder holding each run's worktree (outside the clone CI uses)")
    p.add_argument("--parts", nargs="+", default=list(PARTS), choices=PARTS)
    p.add_argument("--screens", nargs="+", default=[], help="only these screens (default: each run's own)")
    p.add_argument("--cores", type=int, default=2)
    args = p.parse_args()
    root = args.root.resolve()
    if root == ROOT or ROOT in root.parents:
        sys.exit(f"{root}: put the runs outside this checkout")
    for part in args.parts:
        if part in RUNS:
            run_part(root, part, args.screens, args.cores)
        elif part == "subsample":
            subsample(root)
        else:
            references(root, args.screens)


if __name__ == "__main__":
    main()

"""Per-rule time and memory of the last workflow run, from its own ``benchmark:`` files; prints a table.

    python benchmarks/workflow.py [logs/dtp_aids]
    python benchmarks/workflow.py --slurm [logs/dtp_aids]   # the Slurm profile's runtimes from that run

Targets (2 cores, default config, data from the mirror): cold run <= 15 minutes wall
(``snakemake --cores 2`` reports its elapsed time; the jobs' sum is larger when two run
at once), peak RSS of any job <= 14 GB, a no-op rerun <= 10 s.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

# A benchmark file (its path under logs/{dataset}/benchmark/, without .tsv, a repeat's prefix removed) and the rule
# that writes it.
RULES = [
    (re.compile(r"scores/[^/]+/fold_\d+"), "score_fold"),
    (re.compile(r"neighbours_k\d+/chunk_\d+"), "neighbours_chunk"),
    (re.compile(r"neighbours_k\d+"), "neighbours"),
    (re.compile(r"svm_sensitivity/[^/]+"), "svm_sensitivity_grid"),
    (re.compile(r"irv_sensitivity/fold_\d+"), "irv_sensitivity_fold"),
    (re.compile(r"fingerprints_[^/]+"), "fingerprint_variant"),
    (re.compile(r"download/.+"), "download"),
    (re.compile(r"pool_scores/[^/]+"), "pool_scores"),
    (re.compile(r"import_scores/[^/]+"), "import_scores"),
    (re.compile(r"scaffolds_[a-z]+"), "scaffolds"),
    (re.compile(r"[a-z_]+"), None),  # the rule's own name
]
#: A repeat's jobs (cv: repeats) write the same files under repeats/r/.
REPEAT_PREFIX = re.compile(r"^repeats/\d+/")
SAFETY = 4  # a busy node ran the SVM's folds 4x slower than an idle one (README, issue 19)
FLOOR_MIN = 10


def rule_of(rel: str) -> str:
    """The rule that wrote the benchmark file at ``rel`` (under the benchmark folder, without .tsv)."""
    rel = REPEAT_PREFIX.sub("", rel)
    for pattern, rule in RULES:
        if pattern.fullmatch(rel):
            return rule or rel
    raise ValueError(f"benchmark file {rel}.tsv: no rule writes it")


#: The last line of a step's log (crocbench._workflow.step): its exact peak RSS, in MiB.
_PEAK = re.compile(r"done in [\d.]+ s; peak RSS (\d+) MiB(?: \(largest child process (\d+) MiB\))?$")
#: Benchmark files whose job logs elsewhere than logs/{dataset}/<the same path>.log: (pattern, log path).
_LOGS = [(re.compile(r"((?:repeats/\d+/)?)(pool|import)_scores/([^/]+)"), r"\1scores/\3/\2")]


def log_of(rel: str) -> str:
    """The log (under logs/{dataset}, without .log) of the job whose benchmark file is ``rel``."""
    for pattern, log in _LOGS:
        if pattern.fullmatch(rel):
            return pattern.sub(log, rel)
    return rel


def logged_peak_mb(log: Path) -> tuple[float, float] | None:
    """``(the step's own peak RSS, its largest child process's)`` in MiB, as its log ends with them
    (:func:`crocbench._workflow.step`: both exact ``VmHWM``-style peaks), or None (a log written before steps
    logged them, or none)."""
    if not log.is_file():
        return None
    lines = log.read_text(errors="replace").rstrip().splitlines()
    match = _PEAK.fullmatch(lines[-1]) if lines else None
    return None if match is None else (float(match.group(1)), float(match.group(2) or 0))


#: Snakemake samples a job's memory every 0.5 s for its first 15 s (then every 30 s): a job this short was sampled
#: throughout, and its sampled peak is as good as a logged one.
DENSE_SAMPLING_S = 15


def _jobs(folder: Path) -> pd.DataFrame:
    """Each job's wall seconds and peak RSS (MiB) from its benchmark file under ``folder`` (``logs/{dataset}``).

    The peak is the larger of Snakemake's ``max_rss`` (the job's process tree, sampled: every 0.5 s for 15 s,
    then every 30 s, so it can miss a late peak) and the peaks the job's log ends with (its own process's, exact;
    its largest child process's). ``rss_logged``: the log had them; ``rss_exact``: and the job had no child
    processes (with children beside it, the tree's peak is at most the own peak plus each child's);
    ``rss_complete``: logged, or the job ran at most :data:`DENSE_SAMPLING_S` seconds.
    """
    rows = []
    for path in sorted((folder / "benchmark").rglob("*.tsv")):
        rel = path.relative_to(folder / "benchmark").with_suffix("").as_posix()
        bench = pd.read_csv(path, sep="\t")
        logged = logged_peak_mb(folder / f"{log_of(rel)}.log")
        sampled = float(pd.to_numeric(bench["max_rss"], errors="coerce").fillna(0).iloc[-1])
        rows.append(
            {
                "file": rel,
                "rule": rule_of(rel),
                "s": float(bench["s"].iloc[-1]),
                "max_rss_mb": max((sampled, *(logged or ()))),
                "rss_logged": logged is not None,
                "rss_exact": logged is not None and logged[1] == 0,
                "rss_complete": logged is not None or float(bench["s"].iloc[-1]) <= DENSE_SAMPLING_S,
            }
        )
    if not rows:
        raise SystemExit(f"no benchmark files under {folder / 'benchmark'}: run the workflow first")
    return pd.DataFrame(rows)


def rule_table(folder: Path) -> pd.DataFrame:
    """One row per rule (fold jobs per model): jobs, summed and longest wall seconds, largest max RSS (GB)."""
    jobs = _jobs(folder)
    jobs["rule"] = [
        f"score_fold ({REPEAT_PREFIX.sub('', f).split('/')[1]})" if r == "score_fold" else r
        for f, r in zip(jobs["file"], jobs["rule"])
    ]
    table = jobs.groupby("rule").agg(
        jobs=("s", "size"), total_s=("s", "sum"), longest_s=("s", "max"), max_rss_gb=("max_rss_mb", "max")
    )
    table["max_rss_gb"] /= 1024
    return table.sort_values("total_s", ascending=False)


def slurm_runtimes(folder: Path) -> pd.DataFrame:
    """Per rule: its longest job, and the Slurm runtime (minutes) the profile gives it: SAFETY x that job, at
    least FLOOR_MIN, rounded up to 10 minutes. A neighbour chunk is scaled from its pairs to a full default chunk
    (``similarity.default_chunks``: ~2e10 pairs), so the runtime holds for any N."""
    from crocbench.similarity import DEFAULT_TILE, chunk_pairs, default_chunks

    jobs = _jobs(folder)
    longest = jobs.groupby("rule")["s"].max()
    note = {}
    chunks = jobs[jobs["rule"] == "neighbours_chunk"]
    fingerprints = ROOT / "results" / folder.name / "fingerprints.npz"
    if len(chunks) and fingerprints.exists():
        with np.load(fingerprints) as fp:
            n = fp["indptr"].size - 1
        pairs = max(chunk_pairs(n, len(chunks), DEFAULT_TILE))
        full = n * (n - 1) / 2 / default_chunks(n) if default_chunks(n) > 1 else 2e10
        longest["neighbours_chunk"] = chunks["s"].max() * max(1.0, full / pairs)
        note["neighbours_chunk"] = f"scaled from {pairs:.2g} to {full:.2g} pairs"
    minutes = np.maximum(FLOOR_MIN, np.ceil(SAFETY * longest / 60 / 10) * 10).astype(int)
    return pd.DataFrame(
        {"longest_s": longest.round(1), "runtime_min": minutes, "note": [note.get(r, "") for r in longest.index]}
    ).sort_values("longest_s", ascending=False)


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--slurm"]
    folder = Path(args[0] if args else ROOT / "logs" / "dtp_aids")
    if "--slurm" in sys.argv[1:]:
        table = slurm_runtimes(folder)
        print(table.to_string())
        print("\nset-resources:  # for workflow/profiles/slurm/config.yaml")
        for rule, row in table.iterrows():
            if row["runtime_min"] > FLOOR_MIN:
                print(
                    f"  {rule}:  # longest job {row['longest_s']:.0f} s{'; ' + row['note'] if row['note'] else ''}\n"
                    f'    runtime: "{row["runtime_min"]} * attempt"'
                )
        return
    table = rule_table(folder)
    print(table.to_string(float_format=lambda v: f"{v:.1f}"))
    print(
        f"sum of job times: {table['total_s'].sum() / 60:.1f} min; largest job RSS: {table['max_rss_gb'].max():.1f} GB"
    )


if __name__ == "__main__":
    main()

"""What a workflow run cost, from its own files: each job's wall time and peak memory, per rule and per stage.

Snakemake writes each job's ``benchmark:`` file under ``logs/{dataset}/benchmark/`` (wall seconds, and ``max_rss``
sampled every 0.5 s for 15 s, then every 30 s); each step's log ends with its exact peak
(:func:`crocbench._workflow.step`). :func:`jobs` reads both, one row per job; :func:`rule_table` sums them per rule,
:func:`stage_of` puts a job in its stage, :func:`invocation_walls` reads each Snakemake invocation's wall time,
:func:`seconds_per_fold` a run's job seconds per fold.
Shared by the accounting scripts (``benchmarks/accounting/``) and the protocol study
(``benchmarks/studies/protocol_study.py``).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pandas as pd

# A benchmark file (its path under logs/{dataset}/benchmark/, without .tsv, a repeat's prefix removed) and the rule
# that writes it.
RULES = [
    (re.compile(r"scores/[^/]+/fold_\d+"), "score_fold"),
    (re.compile(r"scores/[^/]+/folds(_\d+)?"), "score_folds"),  # all of a run's folds, or a share (folds_<j>)
    (re.compile(r"neighbours(_[a-z0-9]+)?_k\d+/chunk_\d+"), "neighbours_chunk"),  # of either fingerprint
    (re.compile(r"neighbours(_[a-z0-9]+)?_k\d+"), "neighbours"),
    (re.compile(r"similarity_matrix(_[a-z0-9]+)?"), "similarity_matrix"),
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


def jobs(folder: Path) -> pd.DataFrame:
    """Each job's wall seconds and peak RSS (MiB) from its benchmark file under ``folder`` (``logs/{dataset}``).

    The peak is the larger of Snakemake's ``max_rss`` (the job's process tree, sampled: every 0.5 s for 15 s,
    then every 30 s, so it can miss a late peak) and the peaks the job's log ends with (its own process's, exact;
    its largest child process's). ``rss_logged``: the log had them; ``rss_exact``: and the job had no child
    processes (with children beside it, the tree's peak is at most the own peak plus each child's);
    ``rss_complete``: logged, or the job ran at most :data:`DENSE_SAMPLING_S` seconds.

    Raises
    ------
    SystemExit
        No benchmark file under ``folder``.
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
    """One row per rule (a model's fold jobs, or its one job of all folds, per model): jobs, summed and longest
    wall seconds, largest max RSS (GB)."""
    table = jobs(folder)
    table["rule"] = [
        f"{r} ({REPEAT_PREFIX.sub('', f).split('/')[1]})" if r in ("score_fold", "score_folds") else r
        for f, r in zip(table["file"], table["rule"])
    ]
    table = table.groupby("rule").agg(
        jobs=("s", "size"), total_s=("s", "sum"), longest_s=("s", "max"), max_rss_gb=("max_rss_mb", "max")
    )
    table["max_rss_gb"] /= 1024
    return table.sort_values("total_s", ascending=False)


#: Stages, by the rule (or "score_fold (model)", "score_folds (model)") of a job; the neighbour search grows with pairs, the rest with N.
STAGES = {
    "data": ("download", "standardize", "fingerprints", "scaffolds", "folds", "folds_table", "import_scores"),
    "neighbours": ("neighbours_chunk", "neighbours"),
    "tables": ("pool_scores", "areas_table", "figures", "intervals_table", "irv_training_table", "significance_table"),
}
#: Log folders (``logs/<name>``) of the summary's jobs, not of one screen: ``results/summary``'s and
#: ``results/screens``'s (the target ``screen_tables``).
SUMMARY_LOGS = ("summary", "screens")
#: The stages whose cost grows with the pairs of compounds, not with their number.
PAIR_STAGES = ("neighbours",)
_STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]")


def stage_of(rule: str, file: str) -> str:
    """The stage of a job: a model's fold jobs are the model's stage, the others by :data:`STAGES`."""
    if rule in ("score_fold", "score_folds"):
        return file.split("/")[-2]
    for stage, rules in STAGES.items():
        if rule in rules:
            return stage
    return "other"


def invocation_walls(run: Path, since: datetime | None = None, screens=None) -> list[float]:
    """Seconds from the first to the last timestamp of each Snakemake log that finished a job (a dry run finishes
    none), of the invocations started at or after ``since`` and (``screens``) that ran a job of one of them (its
    ``dataset`` wildcard; a summary job across the screens names none)."""
    walls = []
    for log in sorted((run / ".snakemake" / "log").glob("*.snakemake.log")):
        text = log.read_text(errors="replace")
        if screens is not None and not any(
            re.search(rf"^\s*wildcards: dataset={re.escape(s)}(,|$)", text, re.M) for s in screens
        ):
            continue
        stamps = [
            datetime.strptime(" ".join(m.group(1).split()), "%a %b %d %H:%M:%S %Y")
            for m in map(_STAMP.match, text.splitlines())
            if m
        ]
        if len(stamps) >= 2 and " steps (" in text and (since is None or stamps[0] >= since):
            walls.append((stamps[-1] - stamps[0]).total_seconds())
    return walls


def seconds_per_fold(benchmarks, groups, folds, column: str = "s") -> float:
    """A trained run's mean job seconds per fold over ``folds``: each of its fold jobs' benchmark files
    (``benchmarks``, one per job) counts its seconds over its folds (``groups``, the jobs' folds in the same order)
    evenly. ``column``: the benchmark file's ``s`` (wall seconds) or ``cpu_time`` (CPU seconds, all threads: what
    the job costs the machine, which another job's load beside it barely moves).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     paths = [Path(d) / "folds_0.tsv", Path(d) / "folds_1.tsv"]
    ...     _ = paths[0].write_text("s\\n30\\n"), paths[1].write_text("s\\n12\\n")
    ...     seconds_per_fold(paths, [[0, 1, 2], [3, 4]], [0, 3])
    8.0
    """
    per_fold = {}
    for path, group in zip(benchmarks, groups, strict=True):
        seconds = float(pd.read_csv(path, sep="\t")[column].iloc[-1])
        per_fold.update({k: seconds / len(group) for k in group})
    return float(sum(per_fold[k] for k in folds) / len(folds))

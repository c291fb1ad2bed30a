"""Per-rule time and memory of the last workflow run, from its own ``benchmark:`` files; prints a table.

    python benchmarks/workflow.py [logs/dtp_aids]

Targets (2 cores, default config, data from the mirror): cold run <= 15 minutes wall
(``snakemake --cores 2`` reports its elapsed time; the jobs' sum is larger when two run
at once), peak RSS of any job <= 14 GB, a no-op rerun <= 10 s.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def rule_table(folder: Path) -> pd.DataFrame:
    """One row per rule: jobs, summed and longest wall seconds, largest max RSS (MB)."""
    rows = []
    for path in sorted((folder / "benchmark").rglob("*.tsv")):
        rel = path.relative_to(folder / "benchmark")
        rule = rel.parts[0] if rel.parts[0] != "scores" else f"score_fold ({rel.parts[1]})"
        bench = pd.read_csv(path, sep="\t")
        rows.append({"rule": rule.removesuffix(".tsv"), "s": float(bench["s"].iloc[-1]),
                     "max_rss_mb": float(pd.to_numeric(bench["max_rss"], errors="coerce").fillna(0).iloc[-1])})
    if not rows:
        raise SystemExit(f"no benchmark files under {folder / 'benchmark'}: run the workflow first")
    table = pd.DataFrame(rows).groupby("rule").agg(jobs=("s", "size"), total_s=("s", "sum"), longest_s=("s", "max"),
                                                   max_rss_gb=("max_rss_mb", "max"))
    table["max_rss_gb"] /= 1024
    return table.sort_values("total_s", ascending=False)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "logs" / "dtp_aids")
    table = rule_table(folder)
    print(table.to_string(float_format=lambda v: f"{v:.1f}"))
    print(f"sum of job times: {table['total_s'].sum() / 60:.1f} min; largest job RSS: {table['max_rss_gb'].max():.1f} GB")


if __name__ == "__main__":
    main()

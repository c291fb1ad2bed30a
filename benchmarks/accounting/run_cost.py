"""Per-rule time and memory of the last workflow run, from its own ``benchmark:`` files; prints a table.

    python benchmarks/accounting/run_cost.py [logs/dtp_aids]
    python benchmarks/accounting/run_cost.py --slurm [logs/dtp_aids]   # the Slurm profile's runtimes from that run

Targets (2 cores, default config, data from the mirror): cold run <= 5 minutes wall
(``snakemake --cores 2`` reports its elapsed time; the jobs' sum is larger when two run
at once), peak RSS of any job <= 8 GB, a no-op rerun <= 10 s.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from crocbench._accounting import jobs, rule_table

ROOT = Path(__file__).resolve().parents[2]
SAFETY = 4  # a busy node ran the SVM's folds 4x slower than an idle one (README, issue 19)
FLOOR_MIN = 10


def slurm_runtimes(folder: Path) -> pd.DataFrame:
    """Per rule: its longest job, and the Slurm runtime (minutes) the profile gives it: SAFETY x that job, at
    least FLOOR_MIN, rounded up to 10 minutes. A neighbour chunk is scaled from its pairs to a full default chunk
    (``similarity.default_chunks``: ~2e10 pairs), so the runtime holds for any N."""
    from crocbench.similarity import DEFAULT_TILE, chunk_pairs, default_chunks

    table = jobs(folder)
    longest = table.groupby("rule")["s"].max()
    note = {}
    chunks = table[table["rule"] == "neighbours_chunk"]
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
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("logs", type=Path, nargs="?", default=ROOT / "logs" / "dtp_aids", help="default: logs/dtp_aids")
    p.add_argument("--slurm", action="store_true", help="print the Slurm profile's runtimes from that run instead")
    args = p.parse_args()
    folder = args.logs
    if args.slurm:
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

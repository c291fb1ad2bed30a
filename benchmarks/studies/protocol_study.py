"""The protocol study (docs/studies/protocol.md): DTP AIDS under a random and a scaffold split, R repeats each.

    python benchmarks/studies/protocol_study.py RANDOM_RUN SCAFFOLD_RUN [--figure docs/studies/protocol.png]

RANDOM_RUN and SCAFFOLD_RUN are project folders where `snakemake --cores 2 --configfile
config/studies/protocol_random.yaml` (and protocol_scaffold.yaml) ran. Prints, as Markdown: each ranker's AUC[ROC]
and AUC[CROC(exp)] a=80 (mean ± SD over the repeats) under both splits and what the scaffold split costs it; the
order at a=80 per repeat against the paper's (IRV, then SVM and kNN, then MAX-SIM, then RANDOM); IRV vs SVM by the
corrected resampled t-test and by the paper's six tests in each repeat; and each run's cost from its benchmark files.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from crocbench._accounting import rule_table
from crocbench.plots import plot_split_comparison
from crocbench.report import markdown_table, split_comparison, split_comparison_markdown, split_orders
from crocbench.stats import TESTS

SPLITS = ("random", "scaffold")
DATASET = "dtp_aids"


def paper_order_holds(order: list) -> bool:
    """The paper's order at a=80: IRV first, then SVM and kNN (either way), then MAX-SIM, then RANDOM."""
    return order[0] == "IRV" and set(order[1:3]) == {"SVM", "kNN"} and order[3:] == ["MAX-SIM", "RANDOM"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("random_run", type=Path)
    p.add_argument("scaffold_run", type=Path)
    p.add_argument("--figure", type=Path, default=None, help="write the figure here (.png, and a .pdf beside it)")
    args = p.parse_args()
    runs = dict(zip(SPLITS, (args.random_run, args.scaffold_run)))
    results = {s: run / "results" / DATASET for s, run in runs.items()}
    repeats = {s: pd.read_csv(r / "tables" / "repeats.tsv", sep="\t") for s, r in results.items()}
    tests = {s: pd.read_csv(r / "tables" / "repeats_tests.tsv", sep="\t") for s, r in results.items()}
    n_repeats = sum(c.startswith("repeat_") for c in repeats["random"].columns)

    table = split_comparison(repeats)
    print(f"## Each ranker under both splits ({n_repeats} repeats of 10-fold CV; mean ± SD over the repeats)\n")
    print(split_comparison_markdown(table, SPLITS) + "\n")

    print("## The order at AUC[CROC(exp)] a=80\n")
    rows = []
    for split, orders in split_orders(repeats).items():
        for which, order in orders.items():
            rows.append(
                {"split": split, "ranking": which, "order": " > ".join(order), "paper's": paper_order_holds(order)}
            )
    print(markdown_table(pd.DataFrame(rows)) + "\n")

    print("## IRV vs SVM\n")
    rows = []
    for split in SPLITS:
        part = tests[split]
        for key in ("croc_exp_80", "roc"):
            pair = part[["model_a", "model_b"]].isin(["IRV", "SVM"]).all(axis=1)
            t = part[(part["key"] == key) & pair]
            row = t.iloc[0]
            sign = 1 if row["model_a"] == "IRV" else -1
            rows.append(
                {
                    "split": split,
                    "metric": key,
                    "IRV - SVM": f"{sign * row['difference']:+.4f}",
                    "t": f"{sign * row['t']:.2f}",
                    "df": int(row["df"]),
                    "p (corrected t)": f"{row['p_value']:.3g}",
                }
            )
    print(markdown_table(pd.DataFrame(rows)) + "\n")
    rows = []
    for split, folder in results.items():
        for r in range(n_repeats):
            path = folder / (f"repeats/{r}/" if r else "") / "tables" / "significance.tsv"
            sig = pd.read_csv(path, sep="\t")
            pair = sig[
                (sig["metric"] == "croc_exp_80") & sig["a"].isin(["IRV", "SVM"]) & sig["b"].isin(["IRV", "SVM"])
            ].iloc[0]
            rows.append({"split": split, "repeat": r, "better": pair["better"], **{t: f"{pair[t]:.2g}" for t in TESTS}})
    print("The paper's six tests on AUC[CROC(exp)] a=80, IRV vs SVM, in each repeat (one-sided p-values):\n")
    print(markdown_table(pd.DataFrame(rows)) + "\n")

    print("## Cost (from each run's benchmark files)\n")
    for split, run in runs.items():
        rules = rule_table(run / "logs" / DATASET)
        print(
            f"- {split}: {rules['jobs'].sum()} jobs, {rules['total_s'].sum() / 60:.1f} min of job time, largest job "
            f"{rules['max_rss_gb'].max():.1f} GB ({rules['max_rss_gb'].idxmax()})"
        )
    print()
    if args.figure:
        written = plot_split_comparison(table, args.figure)
        print(f"figure: {', '.join(map(str, written))}")


if __name__ == "__main__":
    main()

import pandas as pd
import yaml

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.cv import NOVELTY, NOVELTY_SETTINGS
from crocbench.metrics import benchmark_metrics
from crocbench.plots import plot_memorization
from crocbench.report import (
    markdown_html,
    memorization_markdown,
    memorization_table,
    metric_set_for,
    stratum_tests,
    stratum_tests_markdown,
)
from crocbench.report.findings import memorization_findings_markdown
from crocbench.stats import TESTS

with step(snakemake) as log:
    p = snakemake.params
    pooled = {p.labels[m]: pd.read_parquet(path) for m, path in zip(p.models, snakemake.input.scores)}
    overlap = pd.read_parquet(snakemake.input.overlap)
    calls = metric_set_for(next(iter(pooled.values())), p.top) + benchmark_metrics()
    table = memorization_table(pooled, overlap, calls, p.novel, p.analog)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    chosen = [c for c in calls if c.key in p.metrics]
    absent = [key for key in p.metrics if key not in {c.key for c in calls}]
    if absent:
        raise ValueError(
            f"memorization: metrics: {absent[0]!r} is not computed on this dataset's list "
            f"(its metrics: {', '.join(c.key for c in calls)})"
        )
    tests = stratum_tests(pooled, overlap, chosen, TESTS, p.novel, p.analog, n_samples=p.samples, seed=p.seed)
    write_table(tests, snakemake.output.tests, sep="\t", index=False, float_format="%.10g")
    declared = {"split": p.split, "novel": p.novel, "analog": p.analog, "metrics": list(p.metrics)}
    if p.split == NOVELTY:  # its reference records them (crocbench.reference: novelty:)
        declared["novelty"] = {k: p.novelty[k] for k in NOVELTY_SETTINGS}
    write_text(snakemake.output.declared, yaml.safe_dump(declared, sort_keys=False))
    text = (
        f"# Memorization ({snakemake.wildcards.dataset}): each ranker on its test actives by their nearest training "
        f"active: analog (>= {p.analog}), middle, novel (< {p.novel})\n\n"
        + memorization_findings_markdown(table, tests, p.metrics, p.novel, p.analog)
        + "\n\n"
        + memorization_markdown(table, p.metrics)
        + f"\n\n## The six tests on each stratum: one-sided p-values, {p.samples:,} permutation samples; **p < 0.01**, "
        "*p < 0.05*\n\n" + stratum_tests_markdown(tests, {c.key: c.label for c in chosen}, TESTS) + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    plot_memorization(table, p.metrics, snakemake.output.figure)
    print(f"{len(tests)} comparisons", file=log)

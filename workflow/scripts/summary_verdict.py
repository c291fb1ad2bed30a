import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import markdown_html
from crocbench.report.findings import decomposition_markdown, decomposition_table, verdict_markdown, verdict_table

with step(snakemake) as log:
    declared, arms = snakemake.params.verdict, snakemake.params.arms
    values = {
        "confirmed actives": pd.read_csv(snakemake.input.repeats, sep="\t"),
        "novel actives": pd.read_csv(snakemake.input.novel, sep="\t"),
    }
    table = verdict_table(values, declared, arms)
    parts = decomposition_table(values, declared, arms)
    write_table(table, snakemake.output.verdict, sep="\t", index=False, float_format="%.10g")
    write_table(parts, snakemake.output.decomposition, sep="\t", index=False, float_format="%.10g")
    text = (
        "# The verdict study: its families' union, each verdict's robustness\n\n"
        + verdict_markdown(table, declared)
        + "\n\n# Each pair across fingerprints: its ranker part and its features part\n\n"
        + decomposition_markdown(parts, declared)
        + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    print(text, file=log)

import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import markdown_html, ranks_markdown, tests_across_screens

with step(snakemake) as log:
    datasets, repeats = snakemake.params.datasets, snakemake.params.repeats
    # the values as the tables of one screen each keep them, as a panel's reference recomputes these tables
    table = pd.read_csv(snakemake.input.datasets, sep="\t")
    per_repeat = pd.read_csv(snakemake.input.repeats, sep="\t") if repeats > 1 else None
    ranked = snakemake.params.ranked  # summary: models (default: every model)
    ranks, pairs, conover = tests_across_screens(table, ranked, per_repeat)
    write_table(ranks, snakemake.output.ranks_tsv, sep="\t", index=False, float_format="%.10g")
    write_table(pairs, snakemake.output.pairs_tsv, sep="\t", index=False, float_format="%.10g")
    write_table(conover, snakemake.output.conover_tsv, sep="\t", index=False, float_format="%.10g")
    source = (
        f"each screen's value the mean over the {repeats} repeats of its cross-validation (each on that repeat's "
        "pooled ranking)"
        if repeats > 1
        else "each screen's pooled out-of-fold ranking"
    )
    text = (
        f"# Ranks of {', '.join(ranked)} across {len(datasets)} datasets ({', '.join(datasets)}): 1 = best; "
        f"{source}\n\n" + ranks_markdown(ranks, pairs, conover=conover) + "\n"
    )
    write_text(snakemake.output.ranks_md, text)
    write_text(snakemake.output.ranks_html, markdown_html(text))
    print(text, file=log)

import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.report import markdown_html, metric_set_for, repeats_markdown, repeats_table, repeats_tests

with step(snakemake) as log:
    models, label, repeats = snakemake.params.models, snakemake.params.labels, snakemake.params.repeats

    def by_repeat(paths, read):
        """The inputs (repeat by repeat, models in order within each) as one {model label: table} per repeat."""
        paths = list(paths)
        return [
            {label[m]: read(p) for m, p in zip(models, paths[r * len(models) : (r + 1) * len(models)])}
            for r in range(repeats)
        ]

    pooled = by_repeat(snakemake.input.scores, pd.read_parquet)
    per_fold = by_repeat(snakemake.input.per_fold, lambda p: pd.read_csv(p, sep="\t", dtype={"fold": str}))
    calls = metric_set_for(next(iter(pooled[0].values())), snakemake.params.top)
    table = repeats_table(pooled, calls)
    tests = repeats_tests(per_fold, n_folds=snakemake.params.n_folds)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    write_table(tests, snakemake.output.tests, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Repeats ({snakemake.wildcards.dataset}): {repeats} seeded {snakemake.params.n_folds}-fold "
        "cross-validations\n\n" + repeats_markdown(table, tests, calls, repeats) + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    print(text, file=log)

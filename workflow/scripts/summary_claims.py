import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.paper import PAPER_MODELS, claims_across
from crocbench.report import claims_across_markdown, markdown_html
from crocbench.stats import nemenyi_critical_difference, screens_needed

with step(snakemake) as log:
    datasets, labels = snakemake.params.datasets, snakemake.params.labels
    names = {m: labels[m] for m in PAPER_MODELS}
    significance = {d: pd.read_csv(p, sep="\t") for d, p in zip(datasets, snakemake.input.significance)}
    screens = pd.read_csv(snakemake.input.per_screen, sep="\t")
    table = claims_across(screens, pd.read_csv(snakemake.input.datasets, sep="\t"), names, significance)
    write_table(table, snakemake.output.tsv, sep="\t", index=False)
    text = (
        f"# The paper's claims across {len(datasets)} screens\n\n"
        "Each claim checked on each screen as on the paper's one (its tables 1 and 2), and across the screens: the "
        "two-sided paired Wilcoxon signed-rank test over the screens, Holm-adjusted over the pairs of the paper's "
        "five rankers (an order: with the Friedman test), at 0.05.\n\n"
        + claims_across_markdown(table)
        + f"\n\nWhat it takes: with {len(datasets)} screens and the {len(names)} rankers, the Nemenyi critical "
        f"difference of mean ranks is {nemenyi_critical_difference(len(names), len(datasets)):.2f}; a pair that "
        f"agrees on every screen is told apart by the Wilcoxon-Holm tests from {screens_needed(len(names))} "
        "screens on (2 / 2^n, times the pairs).\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    print(text, file=log)

import pandas as pd

from crocbench._io import write_text
from crocbench._workflow import step
from crocbench.report.findings import pains_markdown

with step(snakemake) as log:
    counts = pd.read_csv(snakemake.input.counts, sep="\t")
    without = pd.read_csv(snakemake.input.datasets, sep="\t")
    text = "# Without the PAINS compounds\n\n" + pains_markdown(counts, without, snakemake.params.questions) + "\n"
    write_text(snakemake.output[0], text)
    print(text, file=log)

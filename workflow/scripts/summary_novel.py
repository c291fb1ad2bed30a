import pandas as pd

from crocbench._io import write_text
from crocbench._workflow import step
from crocbench.report.findings import novel_markdown

with step(snakemake) as log:
    novel = pd.read_csv(snakemake.input[0], sep="\t")
    text = "# The novel actives, across the screens\n\n" + novel_markdown(novel, snakemake.params.questions) + "\n"
    write_text(snakemake.output[0], text)
    print(text, file=log)

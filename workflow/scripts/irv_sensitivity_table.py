import json
from pathlib import Path

import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.paper import paper_irv_epochs
from crocbench.plots import plot_irv_study
from crocbench.report import irv_study_closest, irv_study_markdown, irv_study_table, markdown_html

with step(snakemake) as log:
    scores = pd.concat([pd.read_parquet(p) for p in snakemake.input.scores], ignore_index=True)
    infos = [json.loads(Path(p).read_text()) for p in snakemake.input.infos]
    runs = pd.DataFrame([{"fold": i["fold"], **r} for i in infos for r in i["runs"]])
    curve = pd.DataFrame([{"fold": i["fold"], **c} for i in infos for c in i["curve"]])
    table = irv_study_table(scores, runs, snakemake.params.top)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    paper = paper_irv_epochs()
    closest = irv_study_closest(table, paper)
    text = (
        f"# IRV training study ({snakemake.wildcards.dataset}): every optimizer and stop rule x reweighting "
        f"scheme on the shared {runs['fold'].nunique()} folds\n\n"
        + irv_study_markdown(table, curve, closest, paper)
        + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    plot_irv_study(table, snakemake.output.figure, paper)
    print(text, file=log)

import json
from pathlib import Path

import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.paper import published_points, svm_anchors
from crocbench.plots import plot_svm_sensitivity
from crocbench.report import (
    markdown_html,
    pooling_table,
    sensitivity_keys,
    svm_choices,
    svm_sensitivity_markdown,
    svm_sensitivity_table,
)

with step(snakemake) as log:
    scores = pd.concat([pd.read_parquet(p) for p in snakemake.input.grids], ignore_index=True)
    top, reproduces = snakemake.params.top, snakemake.params.reproduces
    table = svm_sensitivity_table(scores, top)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    per_fold = {
        snakemake.params.labels[m]: pd.read_csv(p, sep="\t")
        for m, p in zip(snakemake.params.models, snakemake.input.per_fold)
    }
    pooling = pooling_table(per_fold, sensitivity_keys(scores["id"].nunique(), top))
    infos = [json.loads(Path(p).read_text()) for p in snakemake.input.svm_info]
    select_metric = next((i["select_metric"] for i in infos if "select_metric" in i), "")
    text = (
        f"# SVM set-up sensitivity ({snakemake.wildcards.dataset})\n\n"
        + svm_sensitivity_markdown(
            table, pooling, svm_choices(infos), select_metric, svm_anchors() if reproduces else None
        )
        + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    refs = published_points(("svm", "irv")) if reproduces else {}
    if "IRV" in per_fold:
        irv = pooling.set_index("model").loc["IRV"]
        refs["our IRV"] = (irv["roc"], irv["croc_exp_80"])
    plot_svm_sensitivity(table, snakemake.output.figure, refs)
    print(text, file=log)

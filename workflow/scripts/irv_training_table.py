import json
from pathlib import Path

import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.paper import irv_training_claims, irv_training_notes, paper_irv_epochs
from crocbench.plots import plot_training_curves
from crocbench.report import claims_markdown, irv_training_table, markdown_html, markdown_table, pooled_metrics

with step(snakemake) as log:
    run_of, n_folds = snakemake.params.runs, snakemake.params.n_folds  # scheme -> run name
    schemes = list(run_of)

    def of_run(paths, run):  # a run's files: scores/{run}.parquet, scores/{run}/fold_k.json, .../{run}/*.tsv
        return [Path(p) for p in paths if Path(p).parent.name == run or Path(p).name == f"{run}.parquet"]

    runs = {
        scheme: (
            pd.read_parquet(of_run(snakemake.input.scores, run)[0]),
            [json.loads(p.read_text()) for p in of_run(snakemake.input.infos, run)],
            [float(pd.read_csv(p, sep="\t")["s"].iloc[0]) for p in of_run(snakemake.input.benchmarks, run)],
        )
        for scheme, run in run_of.items()
    }
    # the paper's epochs column only where the dataset reproduces it (config.yaml `reproduces:`)
    paper_epochs = paper_irv_epochs() if snakemake.params.reproduces else None
    table = irv_training_table(runs, top=snakemake.params.top, paper_epochs=paper_epochs)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# IRV training with rank reweighting ({snakemake.wildcards.dataset})\n\n{markdown_table(table)}\n\n"
        f"train_seconds: wall time of the run's jobs ({n_folds} folds, loading included).\n"
    )
    if snakemake.params.reproduces:  # the paper's Appendix A numbers and claims apply to this dataset only
        others = {
            Path(p).stem: pooled_metrics(pd.read_parquet(p), top=snakemake.params.top) for p in snakemake.input.others
        }
        claims = irv_training_claims(table, others)
        text += f"\n{irv_training_notes()}\n\n## The paper's claims on this run\n\n{claims_markdown(claims)}\n"
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    plot_training_curves(
        {s: [i["history"] for i in runs[s][1]] for s in schemes},
        snakemake.output.figure,
        title=f"IRV training, {snakemake.wildcards.dataset}",
    )
    print(text, file=log)

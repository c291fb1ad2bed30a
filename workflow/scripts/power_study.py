import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.paper import power_claims
from crocbench.plots import plot_power_by_metric, plot_power_by_test
from crocbench.power import feasible_fractions, power_study
from crocbench.report import claims_markdown, markdown_html, metric_set_for, power_markdown, power_notes

with step(snakemake) as log:
    cfg, out = snakemake.params.power, snakemake.output
    pooled = {m: pd.read_parquet(p) for m, p in zip(snakemake.params.models, snakemake.input.scores)}
    first = next(iter(pooled.values()))
    notes = []
    calls = metric_set_for(first, snakemake.params.top, notes=notes)
    fractions, left_out = feasible_fractions(first["label"].to_numpy(), cfg["fractions"])
    notes += left_out
    if not fractions:
        raise ValueError("no subset size leaves 2 positives to test: " + "; ".join(left_out))
    table = power_study(
        first["label"].to_numpy(),
        {m: t["score"].to_numpy() for m, t in pooled.items()},
        calls,
        pairs=[tuple(p) for p in snakemake.params.pairs],
        fractions=fractions,
        n_subsets=cfg["subsets"],
        n_samples=cfg["samples"],
        level=cfg["level"],
        seed=snakemake.params.seed,
        n_jobs=snakemake.threads,
        progress=log,
    )
    write_table(table, out.tsv, sep="\t", index=False, float_format="%.10g")
    claims = power_claims(table, snakemake.params.labels)
    text = (
        f"# Power study ({snakemake.wildcards.dataset}): {cfg['subsets']} stratified random subsets per size, "
        f"{cfg['samples']} permutation samples, one-sided tests at p < {cfg['level']}\n\n"
        + "".join(f"- note: {n}\n" for n in notes)
        + ("\n" if notes else "")
        + "## The paper's power claims, measured\n\n"
        + claims_markdown(claims, ("supported", "NOT supported", "not checked"))
        + "\n\n"
        + power_notes(table)
        + "\n\n## Power by pair, metric, test and subset size\n\n"
        + power_markdown(table, snakemake.params.labels)
        + "\n"
    )
    write_text(out.md, text)
    write_text(out.html, markdown_html(text))
    plot_power_by_metric(table, out.metrics, labels=snakemake.params.labels)
    plot_power_by_test(table, out.tests, labels=snakemake.params.labels)
    print(text, file=log)

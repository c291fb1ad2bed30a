import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.chem.ecfp import load_ecfp
from crocbench.chem.fingerprints import load_fingerprints
from crocbench.chem.graph import ecfp4_fingerprints
from crocbench.cv import read_split_groups, split_overlaps
from crocbench.plots import plot_split_similarity
from crocbench.report import markdown_html, split_similarity_curves, split_similarity_markdown, split_similarity_table
from crocbench.similarity import SimilarityIndex, load_neighbours

with step(snakemake) as log:
    p = snakemake.params
    compounds = pd.read_parquet(snakemake.input.compounds, columns=["id", "label"])
    data = SimilarityIndex(
        load_fingerprints(snakemake.input.fingerprints),
        neighbours=load_neighbours(snakemake.input.neighbours),
        block=p.block,
    )
    files = {k: snakemake.input[k] for k in ("scaffolds", "clusters") if k in snakemake.input.keys()}
    groups = read_split_groups(compounds["id"], **files)
    if "ecfp" in snakemake.input.keys():  # the novelty split, made and measured on its fingerprint
        fp = ecfp4_fingerprints(load_ecfp(snakemake.input.ecfp), **p.ecfp)
        groups["novelty"] = {"fingerprints": fp, "tau": p.novelty["tau"], "max_dropped": p.novelty["max_dropped"]}
    overlaps, notes = split_overlaps(
        data, compounds["id"], compounds["label"], p.splits, p.n_folds, p.seed, groups, progress=log
    )
    table = split_similarity_table(overlaps)
    curves = split_similarity_curves(overlaps)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    write_table(curves, snakemake.output.curves, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Train-to-test similarity ({snakemake.wildcards.dataset}): {p.n_folds} folds of each split, seed {p.seed}\n\n"
        + split_similarity_markdown(table, notes)
        + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    plot_split_similarity(curves, snakemake.output.figure, p.novel, p.analog)
    print(text, file=log)

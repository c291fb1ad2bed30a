import pandas as pd

from crocbench._io import write_table, write_text
from crocbench._workflow import step
from crocbench.paper import check_claims, load_published, measured_values, published_comparison
from crocbench.report import claims_markdown, landing_rst, markdown_html, markdown_table

with step(snakemake) as log:
    published = load_published()
    names = {m: snakemake.params.labels[m] for m in snakemake.params.models}
    areas = pd.read_csv(snakemake.input.areas, sep="\t")
    significance = pd.read_csv(snakemake.input.significance, sep="\t")
    training = pd.read_csv(snakemake.input.training[0], sep="\t") if snakemake.input.training else None
    table = published_comparison(measured_values(areas, training, {v: k for k, v in names.items()}), published)
    claims = check_claims(areas, significance, names, published)
    write_table(table, snakemake.output.tsv, sep="\t", index=False, float_format="%.10g")
    text = (
        f"# Published vs reproduced ({snakemake.wildcards.dataset})\n\n{published['reference']}\n\n"
        f"{published['data_note']}\n\n{markdown_table(table)}\n\n## Claims\n\n" + claims_markdown(claims) + "\n"
    )
    write_text(snakemake.output.md, text)
    write_text(snakemake.output.html, markdown_html(text))
    write_text(snakemake.output.landing, landing_rst(table, snakemake.wildcards.dataset))  # the report's first page
    print(text, file=log)

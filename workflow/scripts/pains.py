import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.chem.pains import pains_table

with step(snakemake) as log:
    compounds = pd.read_parquet(snakemake.input[0], columns=["id", "smiles"])
    table = pains_table(compounds["id"], compounds["smiles"], progress=log, n_jobs=snakemake.threads)
    write_table(table, snakemake.output[0], index=False)
    alerts = table["alerts"][table["pains"]].str.split(";").explode()
    print(
        f"{len(table):,} compounds, {int(table['pains'].sum()):,} flagged; commonest alerts:\n"
        f"{alerts.value_counts().head(5).to_string()}",
        file=log,
    )

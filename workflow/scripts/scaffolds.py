import pandas as pd

from crocbench._io import write_table
from crocbench._workflow import step
from crocbench.chem.scaffolds import scaffolds

with step(snakemake) as log:
    compounds = pd.read_parquet(snakemake.input[0], columns=["id", "smiles"])
    kind = snakemake.wildcards.kind
    table = pd.DataFrame({"id": compounds["id"], "scaffold": scaffolds(compounds["smiles"], kind, progress=log)})
    write_table(table, snakemake.output[0], index=False)
    ringed = table["scaffold"][table["scaffold"] != ""]
    print(
        f"{len(table):,} compounds: {ringed.nunique():,} {kind} scaffolds, "
        f"{len(table) - len(ringed):,} acyclic; largest groups:\n{ringed.value_counts().head(5).to_string()}",
        file=log,
    )

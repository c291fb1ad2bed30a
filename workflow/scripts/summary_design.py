import yaml

from crocbench._io import write_text
from crocbench._workflow import step

with step(snakemake):
    write_text(snakemake.output[0], yaml.safe_dump(snakemake.params.design, sort_keys=False))

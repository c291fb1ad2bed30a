import yaml

from crocbench._io import write_text
from crocbench._workflow import step

with step(snakemake):
    write_text(snakemake.output.design, yaml.safe_dump(snakemake.params.design, sort_keys=False))
    # the study's declared questions (summary: questions; null where none): crocbench reference keeps them
    write_text(snakemake.output.questions, yaml.safe_dump(snakemake.params.questions, sort_keys=False))

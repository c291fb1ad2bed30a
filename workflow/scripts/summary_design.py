import yaml

from crocbench._io import write_text
from crocbench._workflow import features_design, step

with step(snakemake):
    features = features_design(snakemake.input.infos, snakemake.params.labels)
    design = {**snakemake.params.design, "features": features}
    write_text(snakemake.output.design, yaml.safe_dump(design, sort_keys=False))
    # the study's declared questions (summary: questions; null where none): crocbench reference keeps them
    write_text(snakemake.output.questions, yaml.safe_dump(snakemake.params.questions, sort_keys=False))

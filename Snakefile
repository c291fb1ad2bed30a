# crocbench: early-retrieval benchmark on the NCI DTP AIDS antiviral screen
# (Swamidass et al. 2010, "A CROC stronger than ROC"). Run: snakemake --cores 2
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config.yaml"


report: "workflow/report/workflow.rst"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/features.smk"
include: "workflow/rules/models.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/sensitivity.smk"
include: "workflow/rules/summary.smk"


rule all:
    input:
        all_targets(),
    default_target: True

# crocbench: early-retrieval benchmark on the NCI DTP AIDS antiviral screen
# (Swamidass et al. 2010, "A CROC stronger than ROC"). Run: snakemake --cores 2
from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version, validate

from crocbench._workflow import config_error_line

min_version("9.0")


configfile: "config.yaml"


report: "workflow/report/workflow.rst"


try:  # a config that breaks the schema: one line saying where and what (not the schema and the whole config)
    validate(config, "workflow/schemas/config.schema.yaml")
except WorkflowError as exc:
    raise WorkflowError(config_error_line(config, f"{workflow.basedir}/workflow/schemas/config.schema.yaml")) from None


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/features.smk"
include: "workflow/rules/models.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/sensitivity.smk"
include: "workflow/rules/summary.smk"


rule all:
    default_target: True
    input:
        all_targets(),

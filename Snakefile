# crocbench: early-retrieval benchmark on the NCI DTP AIDS antiviral screen
# (Swamidass et al. 2010, "A CROC stronger than ROC"). Run: snakemake --cores 2
from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version, validate

import sys

from crocbench._workflow import config_error_line, hold_run_lock, runs_jobs

min_version("9.0")


configfile: "config.yaml"


report: "workflow/report/workflow.rst"


try:  # a config that breaks the schema: one line saying where and what (not the schema and the whole config)
    validate(config, "workflow/schemas/config.schema.yaml")
except WorkflowError as exc:
    raise WorkflowError(config_error_line(config, f"{workflow.basedir}/workflow/schemas/config.schema.yaml")) from None

# One run at a time in a folder, refused in one line; a killed run's locks removed (crocbench._workflow.hold_run_lock)
if workflow.is_main_process and runs_jobs():
    _refused = hold_run_lock()
    if _refused:
        print(_refused, file=sys.stderr, flush=True)
        sys.exit(1)


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/features.smk"
include: "workflow/rules/models.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/memorization.smk"
include: "workflow/rules/sensitivity.smk"
include: "workflow/rules/summary.smk"
include: "workflow/rules/tuning.smk"


rule all:
    default_target: True
    input:
        all_targets(),

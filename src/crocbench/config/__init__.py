"""A workflow run's config: loaded and read (``_load``), and checked across its keys before any job runs (``_checks``).

The JSON schema (``workflow/schemas/config.schema.yaml``) checks each key alone; :func:`check_config` checks keys
against each other and each model against each dataset's size. The workflow's ``common.smk`` calls it once and
wires; every message is one line that names the key.
"""

from ._checks import (
    check_archives,
    check_config,
    check_features,
    check_memorization,
    check_questions,
    check_repeats,
    check_sizes,
    check_tuning,
    check_verdict,
)
from ._load import (
    SIZE_UNKNOWN,
    chosen_datasets,
    compared_models,
    expected_compounds,
    load_config,
    study_design,
    study_runs,
    summary_models,
    tuning_settings,
    update_config,
)

__all__ = [
    "SIZE_UNKNOWN",
    "check_archives",
    "check_config",
    "check_features",
    "check_memorization",
    "check_questions",
    "check_repeats",
    "check_sizes",
    "check_tuning",
    "check_verdict",
    "chosen_datasets",
    "compared_models",
    "expected_compounds",
    "load_config",
    "study_design",
    "study_runs",
    "summary_models",
    "tuning_settings",
    "update_config",
]

"""The workflow's library: what its scripts do around their one library call (``_steps``), and its plan.

``_steps``: a step's log and threads (:func:`step`), the one-line errors, the run lock, resumable parts, and the
fold jobs of a run (:func:`fold_groups`). ``_plan`` (:class:`~crocbench._workflow._plan.Plan`: a config's
datasets, runs and fold jobs, each job's resources) and ``_files`` (:class:`~crocbench._workflow._files.Files`: its
inputs and targets) are what ``workflow/rules/common.smk`` wires; they are imported by their own names, so a
script's ``from crocbench._workflow import step`` loads no model.
"""

from ._steps import (
    INPUT_ERRORS,
    config_error_line,
    console_line,
    features_design,
    features_read,
    fold_groups,
    hold_run_lock,
    remove_parts,
    resumable,
    runs_jobs,
    screen_runs,
    signature,
    stale_summary_tables,
    step,
)

__all__ = [
    "INPUT_ERRORS",
    "config_error_line",
    "console_line",
    "features_design",
    "features_read",
    "fold_groups",
    "hold_run_lock",
    "remove_parts",
    "resumable",
    "runs_jobs",
    "screen_runs",
    "signature",
    "stale_summary_tables",
    "step",
]

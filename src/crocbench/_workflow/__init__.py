"""The workflow's library: what its scripts do around their one library call (``_steps``), and its plan.

``_steps``: a step's log and threads (:func:`step`), the one-line errors, the run lock, resumable parts, and the
fold jobs of a run (:func:`fold_groups`).
"""

from ._steps import (
    INPUT_ERRORS,
    config_error_line,
    console_line,
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

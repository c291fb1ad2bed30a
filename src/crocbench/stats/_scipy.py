"""scipy.stats, imported where a test first needs it: importing it costs most of a second, and most workflow steps
that import ``crocbench.stats`` (through ``crocbench.report``) never call it."""

from __future__ import annotations


def scipy_stats():
    """The ``scipy.stats`` module (imported on the first call; Python keeps it after that)."""
    from scipy import stats

    return stats

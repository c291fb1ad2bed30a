"""The paper's six significance tests for the difference of a metric between two rankings.

Every metric of :mod:`crocbench.metrics` is an increasing affine transform of
the mean of per-positive values, so comparing two rankings of the same
compounds is comparing two samples of per-positive values
(:func:`crocbench.metrics.per_positive_values`):

``paired_permutation``
    One fair coin per positive decides whether its two values are swapped
    between the methods (paper, section 2.5; novel there).
``unpaired_permutation``
    Both methods' values are pooled and split at random into two sets of the
    original sizes.
``paired_t`` / ``unpaired_t``
    Student's paired t-test and Welch's t-test on the values.
``paired_wilcoxon`` / ``unpaired_wilcoxon``
    Wilcoxon signed-rank test (zero differences dropped) and rank-sum
    (Mann-Whitney U) test; values closer than :data:`RANK_RESOLUTION`
    (relative to themselves) are ties, so that last-bit noise cannot move a rank.

Permutation p-values are ``(1 + #samples at least as extreme) / (1 + n)``.
By default (``alternative="observed"``) every test is one-sided in the
direction of the observed difference, as in the paper; ``"two-sided"``,
``"greater"`` (a better than b) and ``"less"`` are available.

Modules, one concern each (everything public is importable from here):

``_tests``
    Two rankings compared: :func:`compare`, :func:`compare_many`,
    :func:`permutation_test`, :func:`t_test`, :func:`run_tests`.
``_pvalues``
    The batched core, :func:`p_values` on the columns of (n, m) arrays;
    :data:`TESTS`, :data:`TEST_LABELS`, :data:`ALTERNATIVES`, :func:`check_tests`.
``_permutation``
    The permutation samples (sign flips, random splits), drawn chunk by chunk.
``_ties``
    :data:`RANK_RESOLUTION` and :func:`snap_ties`, the ties of the rank tests.
``_bootstrap``
    Confidence intervals: :func:`bootstrap`, a stratified bootstrap over
    compounds drawn as multinomial counts of tie groups (exact for ties).
``_repeats``
    Two models over the folds of a repeated cross-validation: :func:`corrected_t_test`
    (Nadeau & Bengio's corrected resampled t-test).
``_ranks``
    Many datasets (Demsar 2006): :func:`friedman_test`, :func:`dataset_ranks`,
    :func:`nemenyi_critical_difference`, :func:`holm`, :func:`pairwise_wilcoxon`, :func:`turned_pair`,
    :func:`screens_needed`.
``_effects``
    How much two rankers differ across datasets: :func:`paired_effect`, the mean paired difference with its
    bootstrap interval over the datasets; :func:`decompose`, a pair on different features split into a ranker
    part and a features part.
``_robustness``
    Whether a declared family's verdicts survive: :func:`family_verdicts`, :func:`leave_one_out` (the panels
    without one screen), :func:`mixed_difference` (the repeat-level differences, screens as a random effect) and
    :func:`robustness`, the two joined.
``_conover``
    Which pairs of rankers differ over many datasets, after Friedman's test: :func:`conover_friedman`
    (Conover's post-hoc test, optionally Holm-adjusted).
"""

from ._bootstrap import (
    DEFAULT_RESAMPLES,
    MAX_RESAMPLES,
    MIN_RESAMPLES,
    Interval,
    bootstrap,
    bootstrap_values,
    check_resamples,
    draw_resamples,
    resamples_from_counts,
)
from ._conover import P_ADJUST, conover_friedman
from ._effects import EFFECT_RESAMPLES, Decomposition, Effect, decompose, paired_effect
from ._permutation import paired_permutation_samples, unpaired_permutation_samples
from ._pvalues import ALTERNATIVES, TEST_LABELS, TESTS, check_tests, p_values
from ._ranks import (
    Friedman,
    cd_cliques,
    dataset_ranks,
    friedman_test,
    holm,
    nemenyi_critical_difference,
    pairwise_wilcoxon,
    screens_needed,
    turned_pair,
)
from ._repeats import CorrectedT, corrected_t_test
from ._robustness import MixedDifference, Robustness, family_verdicts, leave_one_out, mixed_difference, robustness
from ._tests import Comparison, TestResult, compare, compare_many, permutation_test, run_tests, t_test
from ._ties import RANK_RESOLUTION, snap_ties

__all__ = [
    "cd_cliques",
    "DEFAULT_RESAMPLES",
    "MAX_RESAMPLES",
    "MIN_RESAMPLES",
    "P_ADJUST",
    "EFFECT_RESAMPLES",
    "Decomposition",
    "Effect",
    "MixedDifference",
    "Robustness",
    "decompose",
    "family_verdicts",
    "leave_one_out",
    "mixed_difference",
    "robustness",
    "Interval",
    "bootstrap",
    "bootstrap_values",
    "check_resamples",
    "draw_resamples",
    "resamples_from_counts",
    "ALTERNATIVES",
    "RANK_RESOLUTION",
    "TESTS",
    "TEST_LABELS",
    "Comparison",
    "CorrectedT",
    "Friedman",
    "TestResult",
    "check_tests",
    "compare",
    "compare_many",
    "conover_friedman",
    "corrected_t_test",
    "dataset_ranks",
    "friedman_test",
    "holm",
    "nemenyi_critical_difference",
    "screens_needed",
    "p_values",
    "paired_effect",
    "paired_permutation_samples",
    "pairwise_wilcoxon",
    "turned_pair",
    "permutation_test",
    "run_tests",
    "snap_ties",
    "t_test",
    "unpaired_permutation_samples",
]

"""DeLong, DeLong & Clarke-Pearson (1988): the standard error of AUC[ROC] from the placement values, computed with
midranks (Sun & Xu 2014): an implementation independent of crocbench, for checking its bootstrap."""

import numpy as np
from scipy.stats import rankdata


def delong_se(y, s) -> float:
    """DeLong's standard error of the AUC of scores ``s`` for labels ``y`` (ties count 1/2)."""
    y, s = np.asarray(y) == 1, np.asarray(s, dtype=float)
    pos, neg = s[y], s[~y]
    m, n = pos.size, neg.size
    ranks = rankdata(np.r_[pos, neg])
    v10 = (ranks[:m] - rankdata(pos)) / n  # per positive: the share of negatives below it
    v01 = 1.0 - (ranks[m:] - rankdata(neg)) / m  # per negative: the share of positives above it
    return float(np.sqrt(v10.var(ddof=1) / m + v01.var(ddof=1) / n))

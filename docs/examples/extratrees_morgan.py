"""A model written outside crocbench, entered on a benchmark: ExtraTrees on RDKit Morgan bits.

The evaluate page's worked example (scikit-learn's ``ExtraTreesClassifier``: 50 trees, at least 3 compounds a
leaf, seed 0), on every screen of a benchmark export, with ``logreg_morgan.py``'s features (Morgan bits, radius 2,
2,048 bits) and loop, and its submission format. It runs on one thread, so that a rerun gives the same scores to
the bit: with threads, scikit-learn adds the trees' probabilities in the order the threads finish. Two processes
on disjoint ``--screens`` use two cores::

    python docs/examples/extratrees_morgan.py EXPORT SUBMISSION [--screens A,B]
    crocbench benchmark evaluate SUBMISSION --benchmark EXPORT --name extratrees-morgan
"""

from logreg_morgan import main
from sklearn.ensemble import ExtraTreesClassifier


def extra_trees() -> ExtraTreesClassifier:
    """The model: the worked example's ExtraTrees, its settings fixed, tuned on no screen."""
    return ExtraTreesClassifier(n_estimators=50, min_samples_leaf=3, n_jobs=1, random_state=0)


if __name__ == "__main__":
    main(extra_trees, __doc__.splitlines()[0])

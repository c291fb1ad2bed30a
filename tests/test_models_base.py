"""crocbench.models._base: the model interface's checks of its fit and score inputs."""

import pytest

from crocbench.models import KNN, MaxSim, make_model
from crocbench.similarity import SimilarityIndex


def test_fit_input_errors(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    with pytest.raises(ValueError, match="no positive"):
        KNN().fit(sim, [0, 1], [0, 0])
    with pytest.raises(ValueError, match="labels must be 0/1"):
        KNN().fit(sim, [0, 1], [0, 2])
    with pytest.raises(ValueError, match=r"in \[0, 300\)"):
        MaxSim().fit(sim, [0, 1, 999], [1, 0, 0])
    with pytest.raises(RuntimeError, match="call fit"):
        KNN().score(sim, [0])
    with pytest.raises(ValueError, match="unknown model 'nn'"):
        make_model("nn")
    with pytest.raises(ValueError, match="model knn"):
        make_model("knn", {"alpha": 1})
    assert make_model("random", seed=(1, 2)).seed == (1, 2)

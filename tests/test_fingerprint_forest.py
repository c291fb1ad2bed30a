"""plugins/fingerprint_forest.py: the example plug-in is a random forest on folded fingerprint bits."""

from pathlib import Path

import numpy as np

from crocbench.models import make_model
from crocbench.similarity import SimilarityIndex


def test_example_forest_plugin_is_a_forest_on_folded_bits(data):
    from sklearn.ensemble import RandomForestClassifier

    fp, y, _ = data
    sim = SimilarityIndex(fp)
    root = Path(__file__).resolve().parents[1]
    model = make_model(
        "rf",
        {"class": "fingerprint_forest:FingerprintForest", "n_estimators": 15, "n_bits": 64},
        seed=(0, 2),
        search=[root / "plugins"],
    )
    train, test = np.arange(0, sim.n, 2), np.arange(1, sim.n, 2)
    model.fit(sim, train, y[train])
    folded = np.zeros((sim.n, 64))  # by hand: feature id mod 64, 0/1
    for i in range(sim.n):
        folded[i, (fp.row(i) % np.uint64(64)).astype(int)] = 1
    assert np.array_equal(model._features(sim, np.arange(sim.n)).toarray(), folded)
    forest = RandomForestClassifier(n_estimators=15, max_features="sqrt", random_state=model.forest_.random_state)
    assert np.array_equal(model.score(sim, test), forest.fit(folded[train], y[train]).predict_proba(folded[test])[:, 1])

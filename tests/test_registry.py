"""crocbench.models._registry: a config entry made into a model, with the injected seed, progress and n_jobs."""

import io

import numpy as np
import pytest

from crocbench.cv import fold_table, score_fold
from crocbench.models import SVM, make_model
from crocbench.similarity import SimilarityIndex


def _plugin(tmp_path, body: str) -> str:
    module = f"plugin_{tmp_path.name.replace('-', '_')}"  # one module name per test: imports are cached by name
    (tmp_path / f"{module}.py").write_text(body)
    return f"{module}:Ranker"


OPEN_ENDED = """
class Ranker:
    def __init__(self, depth=1, **kwargs):
        self.depth, self.kwargs = depth, kwargs

    def fit(self, data, train, y):
        return self

    def score(self, data, rows):
        return [0.0] * len(rows)
"""

CLOSED = """
class Ranker:
    def __init__(self, depth=1, seed=None):
        self.depth, self.seed = depth, seed

    def fit(self, data, train, y):
        return self

    def score(self, data, rows):
        return [0.0] * len(rows)
"""


def test_an_open_ended_plugin_gets_the_folds_seed_threads_and_progress(tmp_path):
    """A user's class taking ``**kwargs`` gets ``seed``, ``n_jobs`` and ``progress`` like one that names them:
    without them every fold of such a ranker would run on its default seed."""
    stream = io.StringIO()
    spec = _plugin(tmp_path, OPEN_ENDED)
    model = make_model("mine", {"class": spec, "depth": 3}, seed=(2, 7), n_jobs=2, progress=stream, search=[tmp_path])
    assert model.depth == 3
    assert model.kwargs == {"seed": (2, 7), "n_jobs": 2, "progress": stream}
    seeds = [make_model("mine", {"class": spec}, seed=(0, f), search=[tmp_path]).kwargs["seed"] for f in range(3)]
    assert seeds == [(0, 0), (0, 1), (0, 2)]  # each fold its own seed


def test_a_closed_plugin_gets_only_what_it_names_and_unknown_keys_fail(tmp_path):
    spec = _plugin(tmp_path, CLOSED)
    model = make_model("mine", {"class": spec}, seed=(1, 1), n_jobs=4, progress=io.StringIO(), search=[tmp_path])
    assert (model.depth, model.seed) == (1, (1, 1))
    with pytest.raises(ValueError, match=r"^model mine: unknown parameter 'width'; Ranker takes depth$"):
        make_model("mine", {"class": spec, "width": 2}, search=[tmp_path])


def test_a_users_own_seed_in_the_entry_is_kept(tmp_path):
    """A seed the entry declares wins over the injected one (``setdefault``)."""
    spec = _plugin(tmp_path, OPEN_ENDED)
    assert make_model("mine", {"class": spec, "seed": 5}, seed=(0, 3), search=[tmp_path]).kwargs == {"seed": 5}


def test_a_plugin_class_is_found_in_a_folder_checked_and_labelled(tmp_path, data, write_plugin):
    from crocbench.models import declared_runs, load_class

    search = [write_plugin(tmp_path, "unit_rankers")]
    fp, y, _ = data
    smiles = ["C" * (1 + i % 7) for i in range(fp.n)]
    sim = SimilarityIndex(fp, smiles=smiles)
    model = make_model("mine", {"class": "unit_rankers:SizeRanker", "weight": 2.0}, search=search)
    folds = fold_table([f"c{i}" for i in range(sim.n)], y, n_folds=3)
    scores = score_fold(model, sim, folds, 1)
    test = np.flatnonzero(folds["fold"].to_numpy() == 1)
    # by hand: the feature count plus 2 x the SMILES length / 1000
    assert scores["score"].tolist() == [fp.sizes()[i] + 2.0 * len(smiles[i]) / 1000 for i in test]
    assert model.seen_ == sim.n - test.size
    runs = declared_runs(
        {
            "knn": {},
            "mine": {"class": "unit_rankers:SizeRanker"},
            "knn5": {"class": "knn", "k": 5},
            "ext": {"scores": "x.csv", "label": "GNN"},
        },
        search=search,
    )
    assert {n: r.label for n, r in runs.items()} == {"knn": "kNN", "mine": "SIZE", "knn5": "knn5", "ext": "GNN"}
    assert runs["mine"].resources(500, 10) == {"threads": 3, "mem_mb": 500}
    assert runs["knn"].resources(500, 10) == {"threads": 1, "mem_mb": 4000}
    # above 300,000 compounds the default grows: 1.5 x (0.3 GB + 8.2 kB a compound), by hand at 1,000,000
    assert runs["knn"].resources(1_000_000, 10) == {"threads": 1, "mem_mb": 12_750}
    assert runs["ext"].imported and runs["ext"].params == {
        "id": "id",
        "score": "score",
        "fold": None,
        "scores": "x.csv",
    }
    assert load_class("svm") is SVM
    bad = {
        "nowhere:SizeRanker": "module 'nowhere' not found on PYTHONPATH or in",
        "unit_rankers:Missing": "module 'unit_rankers' has no 'Missing'",
        "unit_rankers:NoScore": "no score method",
        "unit_rankers": "unknown model 'unit_rankers'",
    }
    for spec, message in bad.items():
        with pytest.raises(ValueError, match=f"^model mine: .*{message}"):
            make_model("mine", {"class": spec}, search=search)
    with pytest.raises(ValueError, match="^model mine: unknown parameter 'wieght'; SizeRanker takes weight$"):
        make_model("mine", {"class": "unit_rankers:SizeRanker", "wieght": 2}, search=search)
    with pytest.raises(ValueError, match="models knn and mine are both labelled 'kNN'"):
        declared_runs({"knn": {}, "mine": {"class": "unit_rankers:SizeRanker", "label": "kNN"}}, search=search)

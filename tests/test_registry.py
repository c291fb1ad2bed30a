"""crocbench.models._registry: a config entry made into a model, with the injected seed, progress and n_jobs."""

import io

import pytest

from crocbench.models import make_model


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

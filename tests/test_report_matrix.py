"""crocbench.report.metric_matrix against pandas' own pivot: the screens and models in order of first appearance,
a missing cell NaN, and a duplicated cell refused."""

import numpy as np
import pandas as pd
import pytest

from crocbench.report import metric_matrix


def _table(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [(f"s{s}", f"m{m}", rng.random()) for s in range(5) for m in range(4)]
    t = pd.DataFrame(rows, columns=["dataset", "model", "roc"]).sample(frac=1.0, random_state=seed)
    return t.drop(index=t.index[:3])  # three cells missing


@pytest.mark.parametrize("seed", range(3))
def test_the_matrix_is_pandas_pivot_in_first_appearance_order(seed):
    t = _table(seed)
    values, screens, models = metric_matrix(t, "roc")
    assert screens == list(dict.fromkeys(t["dataset"])) and models == list(dict.fromkeys(t["model"]))
    wide = t.pivot(index="dataset", columns="model", values="roc").loc[screens, models]
    np.testing.assert_array_equal(values, wide.to_numpy(dtype=float))
    assert np.isnan(values).sum() == 3


def test_a_cell_given_twice_is_refused():
    t = _table(0)
    with pytest.raises(ValueError, match="duplicate"):
        metric_matrix(pd.concat([t, t.iloc[:1]]), "roc")

"""crocbench.report._shared: the structures a panel's screens share, against Python's sets."""

import numpy as np
import pandas as pd
import pytest

from crocbench.report import shared_markdown, shared_structures, structure_keys


def test_the_shared_structures_equal_set_arithmetic_on_the_smiles():
    rng = np.random.default_rng(0)
    library = [f"C{'C' * i}O" for i in range(300)]  # 300 distinct SMILES
    screens = {
        name: list(rng.choice(library, size, replace=True)) for name, size in (("a", 200), ("b", 150), ("c", 90))
    }
    counts, pairs = shared_structures({n: structure_keys(s) for n, s in screens.items()})
    sets = {n: set(s) for n, s in screens.items()}
    held = pd.Series([sum(x in s for s in sets.values()) for x in set().union(*sets.values())])
    assert counts["screens"].tolist() == [1, 2, 3]
    assert counts["structures"].tolist() == [int((held == k).sum()) for k in (1, 2, 3)]
    for row in pairs.itertuples():
        assert (row.structures_a, row.structures_b) == (len(sets[row.a]), len(sets[row.b]))
        assert row.shared == len(sets[row.a] & sets[row.b])
    text = shared_markdown(counts, pairs)
    several = int((held >= 2).sum())
    assert f"The 3 screens hold {len(held)} distinct structures; {several} of them" in text
    assert f"and {int((held == 3).sum())} in all 3" in text
    shares = [len(sets[a] & sets[b]) / min(len(sets[a]), len(sets[b])) for a, b in (("a", "b"), ("a", "c"), ("b", "c"))]
    assert f"median {100 * np.median(shares):.0f}%" in text and f"at most {100 * max(shares):.0f}%" in text


def test_a_structure_is_one_key_whatever_its_count():
    assert structure_keys(["CCO"] * 5).size == 1
    with pytest.raises(TypeError):
        structure_keys(None)

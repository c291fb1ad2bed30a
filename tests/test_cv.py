"""crocbench.cv: the stratified and the grouped (scaffold) splits, pooling of out-of-fold scores, the driver."""

import numpy as np
import pandas as pd
import pytest

from crocbench.cv import fold_table, grouped_folds, repeat_seed

# --- the grouped (scaffold) split: hand-dealt cases and properties ------------------------------------------


def _big_and_small_groups():
    """Group "big": 4 positives (size 4); groups "s0".."s3": 1 positive and 5 negatives each (size 6);
    groups "n0", "n1": one negative each.  8 positives in all."""
    y, groups = [1] * 4, ["big"] * 4
    for i in range(4):
        y += [1] + [0] * 5
        groups += [f"s{i}"] * 6
    y += [0, 0]
    groups += ["n0", "n1"]
    return np.array(y), np.array(groups)


@pytest.mark.parametrize("seed", range(5))
def test_grouped_folds_deal_the_groups_with_most_positives_first_by_hand(seed):
    # Dealt by hand, most positives first: "big" (4) opens fold 0 (all folds empty: the first); s0..s3 (1 each,
    # any order) each go to the fold with the fewest positives: fold 1 has 0, 1, 2, 3 < 4, so all four go there;
    # then n0, n1 go to the fold with the fewest negatives: fold 0 (0 against 20), then fold 0 again (1 < 20).
    # Positives 4 and 4: the best possible split of 8.  Dealt largest first (the s-groups, size 6, before "big",
    # size 4), s0..s3 would alternate 2 and 2, and "big" would make it 6 and 2.
    y, groups = _big_and_small_groups()
    f = grouped_folds(y, groups, n_folds=2, seed=seed)
    fold_of = dict(zip(groups.tolist(), f.tolist()))
    assert fold_of == {"big": 0, "s0": 1, "s1": 1, "s2": 1, "s3": 1, "n0": 0, "n1": 0}
    assert np.bincount(f, weights=y).tolist() == [4.0, 4.0]


def test_grouped_folds_a_larger_group_does_not_go_before_one_with_more_positives():
    # Three folds.  Groups: A 3 positives (size 3), B 2 positives (size 2), C..E 1 positive + 9 negatives (size
    # 10), and F, G, H one negative each.  By hand, most positives first: A -> fold 0, B -> fold 1, C -> fold 2
    # (0 positives), D -> fold 2 (1 < 2, 3), E -> fold 1 (2 = 2 < 3: fold 1 has fewer compounds, 2 against 20)
    # (C, D, E in the seed's order); positives 3, 3, 2.  Largest first, C..E would open the three folds and A, B
    # join two of them: 4, 3, 1.  F, G, H go to the folds with the fewest negatives: fold 0 (0), fold 0 (1 < 9, 18),
    # fold 0 (2 < 9).
    y = [1] * 3 + [1] * 2
    groups = ["A"] * 3 + ["B"] * 2
    for g in "CDE":
        y += [1] + [0] * 9
        groups += [g] * 10
    y += [0, 0, 0]
    groups += ["F", "G", "H"]
    y, groups = np.array(y), np.array(groups)
    for seed in range(4):
        f = grouped_folds(y, groups, n_folds=3, seed=seed)
        fold_of = dict(zip(groups.tolist(), f.tolist()))
        assert fold_of["A"] == 0 and fold_of["B"] == 1, fold_of
        assert sorted(np.bincount(f, weights=y).tolist()) == [2.0, 3.0, 3.0]
        assert fold_of["F"] == fold_of["G"] == fold_of["H"] == 0


def _partition(folds) -> frozenset:
    """A split as the set of its folds' members, whatever the folds' numbers."""
    folds = np.asarray(folds)
    return frozenset(frozenset(np.flatnonzero(folds == k).tolist()) for k in np.unique(folds))


def test_grouped_folds_depend_on_the_seed_and_only_on_it():
    # 20 groups alike (1 positive, 1 negative): only the seed's shuffle decides which groups share a fold
    y = np.tile([1, 0], 20)
    groups = np.repeat(np.arange(20), 2)
    splits = {seed: _partition(grouped_folds(y, groups, n_folds=2, seed=seed)) for seed in range(10)}
    assert len(set(splits.values())) >= 5  # C(20, 10) / 2 = 92,378 ways: ten seeds do not all agree
    assert all(_partition(grouped_folds(y, groups, n_folds=2, seed=s)) == splits[s] for s in range(10))


def test_the_repeats_of_a_repeated_scaffold_cv_get_different_splits():
    # a repeated CV's repeat r runs fold_table with seed repeat_seed(seed, r): each repeat must get its own split
    ids = [f"m{i}" for i in range(60)]
    y = np.tile([1, 0, 0], 20)
    scaffolds = [f"C1CC{'C' * (i // 3)}1" for i in range(60)]  # 20 scaffolds of 3 compounds, 1 positive each
    splits = []
    for r in range(4):
        table = fold_table(ids, y, n_folds=5, seed=repeat_seed(7, r), scaffolds=scaffolds)
        assert table.groupby("scaffold")["fold"].nunique().max() == 1  # whole groups
        assert table.groupby("fold")["label"].sum().tolist() == [4] * 5  # 20 positive groups dealt 4 a fold
        splits.append(_partition(table["fold"]))
    assert len(set(splits)) == 4, "two repeats of the scaffold split got the same split"
    again = fold_table(ids, y, n_folds=5, seed=repeat_seed(7, 2), scaffolds=scaffolds)
    assert _partition(again["fold"]) == splits[2]  # and a repeat's split is reproducible
    assert repeat_seed(7, 0) == 7 and pd.Series([repeat_seed(7, r) for r in range(4)]).is_unique

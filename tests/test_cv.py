"""crocbench.cv: the stratified and the grouped (scaffold) splits, pooling of out-of-fold scores, the driver."""

import re

import numpy as np
import pandas as pd
import pytest
from _hiv import hiv_sample

from crocbench.cv import (
    fold_summary,
    fold_table,
    grouped_folds,
    pool_scores,
    repeat_seed,
    score_fold,
    split,
    stratified_folds,
)
from crocbench.metrics import paper_metrics, per_fold_metrics, roc_auc
from crocbench.models import KNN
from crocbench.similarity import SimilarityIndex

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


def test_grouped_folds_keep_groups_whole_and_balance_positives():
    rng = np.random.default_rng(1)
    groups = rng.integers(0, 300, size=3000)
    y = (rng.random(3000) < 0.05).astype(int)
    f = grouped_folds(y, groups, n_folds=7, seed=3)
    assert pd.DataFrame({"g": groups, "f": f}).groupby("g")["f"].nunique().max() == 1
    pos = np.bincount(f, weights=y, minlength=7)
    biggest = pd.Series(y).groupby(groups).sum().max()
    assert pos.min() >= 1 and pos.max() - pos.min() <= biggest
    sizes = np.bincount(f, minlength=7)
    assert sizes.max() - sizes.min() <= pd.Series(groups).value_counts().max() + 1
    np.testing.assert_array_equal(f, grouped_folds(y, groups, n_folds=7, seed=3))  # deterministic
    assert not np.array_equal(f, grouped_folds(y, groups, n_folds=7, seed=4))  # seeded


def test_singleton_groups_give_a_stratified_split():
    """With every compound its own group, each fold holds the positives to within one, like the random split."""
    y = np.r_[np.ones(23), np.zeros(177)].astype(int)
    f = grouped_folds(y, np.arange(200), n_folds=10, seed=0)
    pos, size = np.bincount(f, weights=y), np.bincount(f)
    assert pos.max() - pos.min() <= 1 and size.max() - size.min() <= 1
    ref = stratified_folds(y, 10, 0)
    assert sorted(np.bincount(ref, weights=y)) == sorted(pos)


def test_an_impossible_scaffold_split_is_refused_in_one_line():
    y = [1, 1, 1, 0, 0, 0, 0, 0]
    with pytest.raises(ValueError) as exc:
        fold_table(list("abcdefgh"), y, n_folds=3, seed=0, scaffolds=["C1CC1"] * 3 + ["c1ccccc1"] * 5)
    assert str(exc.value) == (
        "scaffold split: the 3 positives lie in only 1 of the 2 groups: 3 folds need positives in at least 3 groups"
    )
    with pytest.raises(ValueError, match="the 2 negatives lie in only 1 of the 4 groups"):
        grouped_folds([1, 1, 1, 0, 0], ["a", "b", "c", "d", "d"], n_folds=3)


def test_fold_summary_counts_scaffolds_and_acyclic_compounds():
    folds = fold_table(list("abcdef"), [1, 0, 1, 0, 1, 0], n_folds=2, seed=0, scaffolds=["X", "X", "Y", "Y", "", ""])
    s = fold_summary(folds)
    assert (s["scaffolds"], s["largest_group"], s["acyclic"]) == (2, 2, 2)
    assert sum(f["positives"] for f in s["folds"]) == 3 and "scaffolds" not in fold_summary(
        folds.drop(columns="scaffold")
    )


def test_repeat_zero_is_the_run_itself():
    assert repeat_seed(7, 0) == 7 and repeat_seed(7, 2) == 9


# --- the stratified split, the driver, pooling and imported scores ------------------------------------------


def test_stratified_folds_are_balanced_and_seeded():
    y = np.array([1] * 23 + [0] * 177)
    folds = stratified_folds(y, 10, seed=3)
    for f in range(10):
        members = folds == f
        assert y[members].sum() in (2, 3) and (members.sum() in (20,))
    assert np.array_equal(folds, stratified_folds(y, 10, seed=3))
    assert not np.array_equal(folds, stratified_folds(y, 10, seed=4))
    with pytest.raises(ValueError, match="smallest class has 3"):
        stratified_folds([1, 1, 1] + [0] * 20, 5)


def test_cross_validate_runs_a_fresh_model_per_fold_and_pools_as_by_hand(data):
    from crocbench.cv import cross_validate

    fp, y, _ = data
    sim = SimilarityIndex(fp)
    table = fold_table([f"c{i}" for i in range(fp.n)], y, n_folds=4, seed=0)
    made = []

    def make(fold):
        made.append(fold)
        return KNN(k=5)

    done = cross_validate(make, sim, table)
    assert made == [0, 1, 2, 3] and len({id(m) for m in done.models.values()}) == 4
    for k, model in done.models.items():  # each fitted on the other folds only
        assert sorted(model.train_.tolist()) == np.flatnonzero(table["fold"].to_numpy() != k).tolist()
    by_hand = pool_scores([score_fold(KNN(k=5), sim, table, f) for f in range(4)], table)
    assert done.pooled(table).equals(by_hand)
    one = cross_validate(make, sim, table, only=[2])
    assert list(one.scores) == [2] and one.scores[2].equals(done.scores[2])
    with pytest.raises(ValueError):  # a pooled table needs every fold
        one.pooled(table)


def test_score_fold_and_pooling_score_every_compound_once(data):
    fp, y, _ = data
    sim = SimilarityIndex(fp)
    table = fold_table([f"c{i}" for i in range(fp.n)], y, n_folds=4, seed=0)
    parts = [score_fold(KNN(k=5), sim, table, f) for f in range(4)]
    pooled = pool_scores(parts[::-1], table)
    assert pooled["id"].tolist() == table["id"].tolist()
    for part in parts:
        train, test = split(table["fold"].to_numpy(), int(part["fold"].iloc[0]))
        expected = KNN(k=5).fit(sim, train, y[train]).score(sim, test)
        assert np.array_equal(part["score"].to_numpy(), expected)
    with pytest.raises(ValueError, match="have no score"):
        pool_scores(parts[:3], table)
    with pytest.raises(ValueError, match="more than once"):
        pool_scores(parts + parts[:1], table)
    moved = parts[0].assign(fold=1)
    with pytest.raises(ValueError, match="another fold"):
        pool_scores([moved] + parts[1:], table)
    metrics = per_fold_metrics(pooled, paper_metrics(top_k=10))
    assert metrics["fold"].tolist() == ["0", "1", "2", "3", "all"]
    assert metrics["roc"].iloc[-1] == pytest.approx(roc_auc(pooled["label"], pooled["score"]))
    assert pd.api.types.is_float_dtype(metrics["croc_exp_80"])


def test_imported_scores_are_checked_against_the_folds_one_line_each():
    from crocbench.cv import import_scores

    folds = fold_table([f"c{i}" for i in range(12)], [1, 0, 0, 0] * 3, n_folds=3, seed=1)
    rng = np.random.default_rng(0)
    given = folds.sample(frac=1.0, random_state=0).assign(s=rng.random(12), k=lambda t: t["fold"])
    pooled = import_scores(given.rename(columns={"id": "name"}), folds, id="name", score="s", fold="k")
    assert pooled["id"].tolist() == folds["id"].tolist() and pooled["fold"].tolist() == folds["fold"].tolist()
    assert pooled["score"].tolist() == given.set_index("id").loc[folds["id"], "s"].tolist()
    cases = {
        "missing": (given.iloc[1:], "1 compound(s) of the dataset have no score, e.g. "),
        "duplicated": (pd.concat([given, given.iloc[[3]]]), "1 compound(s) scored more than once, e.g. "),
        "unknown": (
            pd.concat([given, given.iloc[[0]].assign(id="zz")]),
            "1 scored id(s) are not in the dataset, e.g. 'zz'",
        ),
        "nan": (
            given.assign(s=given["s"].where(given["id"] != "c4")),
            "1 score(s) are not finite numbers .*, e.g. id 'c4'",
        ),
        "inf": (
            given.assign(s=np.where(given["id"] == "c5", np.inf, given["s"])),
            "1 score(s) are not finite numbers .*, e.g. id 'c5'",
        ),
        "fold": (
            given.assign(k=np.where(given["id"] == "c7", (given["k"] + 1) % 3, given["k"])),
            "1 compound(s) have a fold other than folds.tsv's, e.g. 'c7'",
        ),
    }
    for _name, (table, message) in cases.items():
        with pytest.raises(ValueError, match="^gnn.csv: " + re.escape(message).replace(re.escape(".*"), ".*")):
            import_scores(table, folds, score="s", fold="k", source="gnn.csv")
    with pytest.raises(ValueError, match="no column\\(s\\) 'round'"):
        import_scores(given, folds, score="s", fold="round")


# --- what a split lets a ranker remember: train-to-test similarity and the strata of the test actives ----------


@pytest.fixture(scope="module")
def screen(mirror):
    """600 real DTP AIDS compounds (every 70th row) with the paper's fingerprints, labelled CA/CM active."""
    from crocbench.chem.fingerprints import fingerprints_from_smiles

    table = hiv_sample(mirror, 70)
    reasons, fp = fingerprints_from_smiles(table["smiles"].tolist())
    assert all(r is None for r in reasons)
    return table, fp


@pytest.mark.parametrize("seed", [0, 1])
def test_train_test_similarity_is_the_brute_force_maximum_over_the_training_folds(screen, seed):
    """Per compound, in Python sets: the highest Tanimoto similarity to a compound of the other folds, and to an
    active of the other folds (not to any training compound)."""
    from crocbench.cv import train_test_similarity

    table, fp = screen
    folds = fold_table(table["id"], table["label"], 4, seed)
    got = train_test_similarity(SimilarityIndex(fp), folds)
    sets = [set(fp.row(i).tolist()) for i in range(fp.n)]
    fold, label = folds["fold"].to_numpy(), folds["label"].to_numpy()

    def t(a, b):
        return len(a & b) / len(a | b) if a or b else 0.0

    for i in range(fp.n):
        train = np.flatnonzero(fold != fold[i])
        assert got["to_train"][i] == pytest.approx(max(t(sets[i], sets[j]) for j in train), abs=1e-6)
        actives = train[label[train] == 1]
        assert got["to_train_actives"][i] == pytest.approx(max(t(sets[i], sets[j]) for j in actives), abs=1e-6)
    assert (got["to_train_actives"] < got["to_train"]).any()  # the two measures differ on this screen


def test_train_test_similarity_uses_the_top_k_lists_exactly(screen):
    """With the workflow's top-k lists the values are the same as computed directly (bit for bit)."""
    from crocbench.cv import train_test_similarity
    from crocbench.similarity import top_k

    table, fp = screen
    folds = fold_table(table["id"], table["label"], 5, 0)
    direct = train_test_similarity(SimilarityIndex(fp), folds)
    cached = train_test_similarity(SimilarityIndex(fp, neighbours=top_k(fp, 5)), folds)
    pd.testing.assert_frame_equal(direct, cached)


def test_the_strata_partition_the_actives_at_the_declared_thresholds():
    """analog at or above `analog` (0.7 itself is an analog), novel below `novel` (0.4 itself is middle); every
    active in exactly one stratum, for any thresholds."""
    from crocbench.cv import STRATA, strata

    edges = np.float32([0.0, 0.39999, 0.4, 0.5, 0.69999, 0.7, 0.9, 1.0])
    assert strata(edges).tolist() == ["novel", "novel", "middle", "middle", "middle", "analog", "analog", "analog"]
    rng = np.random.default_rng(0)
    s = rng.random(1000).astype(np.float32)
    for novel, analog in [(0.4, 0.7), (0.3, 0.3), (0.1, 0.95)]:
        got = strata(s, novel, analog)
        assert set(got) <= set(STRATA)
        masks = [got == name for name in STRATA]
        assert (np.sum(masks, axis=0) == 1).all()
        assert (s[masks[0]] >= np.float32(analog)).all() and (s[masks[2]] < np.float32(novel)).all()


def test_strata_thresholds_out_of_order_are_refused_in_one_line():
    from crocbench.cv import strata

    with pytest.raises(ValueError, match="need 0 < novel <= analog <= 1; got novel 0.8, analog 0.7"):
        strata([0.5], 0.8, 0.7)


def test_a_split_that_cannot_be_made_is_a_note_not_an_error(screen):
    """Three scaffold groups cannot give 4 folds positives: the scaffold split is a note, the others are made, and
    the random split's table is the one of its own folds."""
    from crocbench.cv import split_overlaps, train_test_similarity

    table, fp = screen
    data = SimilarityIndex(fp)
    scaffolds = np.array(["c1ccccc1", "C1CCCCC1", "c1ccncc1"])[np.arange(len(table)) % 3]
    clusters = np.arange(len(table))
    overlaps, notes = split_overlaps(
        data,
        table["id"],
        table["label"],
        ["random", "scaffold", "cluster"],
        4,
        0,
        {"scaffolds": scaffolds, "clusters": clusters},
    )
    assert list(overlaps) == ["random", "cluster"] and list(notes) == ["scaffold"]
    assert "only 3 of the 3 groups" in notes["scaffold"]
    own = train_test_similarity(data, fold_table(table["id"], table["label"], 4, 0))
    pd.testing.assert_frame_equal(overlaps["random"], own)


def test_the_split_groups_are_read_from_the_workflows_files_and_checked(tmp_path):
    from crocbench.cv import read_split_groups

    ids = pd.Series(["a", "b", "c"])
    pd.DataFrame({"id": ids, "scaffold": ["c1ccccc1", "", "c1ccccc1"]}).to_parquet(tmp_path / "s.parquet")
    pd.DataFrame({"id": ["a", "c", "b"], "cluster": [0, 1, 1]}).to_parquet(tmp_path / "c.parquet")
    groups = read_split_groups(ids, scaffolds=tmp_path / "s.parquet")
    assert list(groups) == ["scaffolds"] and groups["scaffolds"].tolist() == ["c1ccccc1", "", "c1ccccc1"]
    with pytest.raises(ValueError, match="c.parquet does not list the compounds of the compounds table, in its order"):
        read_split_groups(ids, clusters=tmp_path / "c.parquet")
    assert read_split_groups(ids) == {}

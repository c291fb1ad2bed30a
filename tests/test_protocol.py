"""The evaluation protocol: scaffold-grouped folds (checked against RDKit's own scaffold SMILES), repeats' seeds,
the corrected resampled t-test (against scipy), and the tables of repeats and intervals."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from crocbench.cv import fold_summary, fold_table, grouped_folds, repeat_seed, stratified_folds
from crocbench.metrics import paper_panel
from crocbench.report import intervals_table, repeats_table, repeats_tests
from crocbench.scaffolds import scaffold, scaffold_groups, scaffolds
from crocbench.stats import bootstrap, corrected_t_test


@pytest.fixture(scope="module")
def hiv(mirror):
    """2,000 real compounds of the DTP AIDS screen (every 20th row), labelled CA/CM active."""
    from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    table = pd.read_csv(mirror / "HIV_41913.csv").iloc[::20]
    table = table[[Chem.MolFromSmiles(s) is not None for s in table["smiles"]]].reset_index(drop=True)
    table["label"] = table["activity"].isin(["CA", "CM"]).astype(int)
    table["id"] = [f"m{i}" for i in range(len(table))]
    return table


def _rdkit_scaffold(smiles, generic=False):
    """RDKit's own entry point (MurckoScaffoldSmiles), independent of crocbench.scaffolds."""
    from rdkit import Chem
    from rdkit.Chem.Scaffolds import MurckoScaffold

    s = MurckoScaffold.MurckoScaffoldSmiles(smiles=smiles)
    if generic and s:
        try:
            mol = MurckoScaffold.MakeScaffoldGeneric(Chem.MolFromSmiles(s))
        except Chem.AtomValenceException:  # a carbon with five bonds or more: RDKit's refuses, ours does not
            return None
        for atom in mol.GetAtoms():  # RDKit's leaves a radical where a charged atom was ([CH]): a plain carbon
            atom.SetNumRadicalElectrons(0)
            atom.SetNumExplicitHs(0)
            atom.SetNoImplicit(False)
        mol.UpdatePropertyCache()
        s = Chem.MolToSmiles(mol)
    return s


@pytest.mark.parametrize("generic", [False, True])
def test_no_scaffold_in_two_folds_by_an_independent_rdkit_computation(hiv, generic):
    kind = "generic" if generic else "murcko"
    ours = scaffolds(hiv["smiles"], kind)
    theirs = np.array([_rdkit_scaffold(s, generic) for s in hiv["smiles"]], dtype=object)
    known = theirs != None  # noqa: E711 (an object array)
    assert (ours[known] == theirs[known]).all()  # the same scaffolds, compound by compound
    assert (~known).sum() <= (10 if generic else 0)  # hypervalent cores (9 here): RDKit's generic refuses them
    folds = fold_table(hiv["id"], hiv["label"], n_folds=10, seed=0, scaffolds=ours)
    ringed = pd.DataFrame({"scaffold": theirs, "fold": folds["fold"]})[known & (theirs != "")]
    assert ringed.groupby("scaffold")["fold"].nunique().max() == 1  # no scaffold in two folds
    per_fold = folds.groupby("fold")["label"].sum()
    assert per_fold.size == 10 and per_fold.min() >= 1  # every fold has positives ...
    assert per_fold.max() - per_fold.min() <= 1 + _largest_positive_group(theirs, hiv)  # ... about evenly
    assert (folds["scaffold"].to_numpy() == ours).all()


def _largest_positive_group(s, hiv):
    pos = pd.Series(s)[(hiv["label"].to_numpy() == 1) & (s != None)]  # noqa: E711
    return int(pos[pos != ""].value_counts().max())


def test_scaffold_examples_and_acyclic_compounds():
    assert scaffold("Cc1ccccc1O") == "c1ccccc1"
    assert scaffold("CCCCCC") == "" and scaffold("CCN(CC)CC") == ""
    assert scaffold("O=C(O)c1ccc2ccccc2c1") == "c1ccc2ccccc2c1"
    assert scaffold("c1ccncc1", "generic") == scaffold("c1ccccc1", "generic") == "C1CCCCC1"
    with pytest.raises(ValueError, match="does not parse"):
        scaffold("C1CC")
    with pytest.raises(ValueError, match="unknown scaffold kind"):
        scaffold("CCO", "bemis")
    groups = scaffold_groups(["a", "b", "c", "d"], ["", "", "c1ccccc1", "c1ccccc1"])
    assert len(set(groups)) == 3  # each acyclic compound a group of its own


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


def test_corrected_t_is_the_one_sample_t_test_without_correction_and_widens_with_it():
    d = np.random.default_rng(0).normal(0.01, 0.02, size=30)
    plain = corrected_t_test(d, test_share=0.0)
    ref = sps.ttest_1samp(d, 0.0)
    assert plain.t == pytest.approx(ref.statistic, rel=1e-12) and plain.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    corrected = corrected_t_test(d, test_share=1 / 9)
    # the variance grows from var/J to (1/J + 1/9) var: t shrinks by sqrt((1/30) / (1/30 + 1/9))
    assert corrected.t == pytest.approx(ref.statistic * np.sqrt((1 / 30) / (1 / 30 + 1 / 9)), rel=1e-12)
    assert corrected.df == 29 and corrected.p_value > plain.p_value
    one_sided = corrected_t_test(d, test_share=1 / 9, alternative="greater")
    assert one_sided.p_value == pytest.approx(corrected.p_value / 2, rel=1e-9)
    assert np.isnan(corrected_t_test([0.1, 0.1, 0.1], 0.1).p_value)
    with pytest.raises(ValueError, match="at least 2"):
        corrected_t_test([0.1], 0.1)


def _pooled(seed, n=400):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int8)
    folds = stratified_folds(y, 5, seed)
    a = pd.DataFrame({"id": [f"c{i}" for i in range(n)], "fold": folds, "label": y, "score": rng.normal(size=n) + y})
    b = a.assign(score=rng.normal(size=n) + 0.3 * y)
    return {"A": a, "B": b}


def test_repeats_table_is_the_mean_and_sd_of_each_repeats_pooled_metric():
    calls = paper_panel(top_k=20, n=400)[:3]
    repeats = [_pooled(s) for s in range(3)]
    table = repeats_table(repeats, calls)
    row = table[(table["model"] == "B") & (table["key"] == "roc")].iloc[0]
    values = [
        calls[0].value(__import__("crocbench").metrics.Ranking(r["B"]["label"], r["B"]["score"])) for r in repeats
    ]
    assert row["mean"] == pytest.approx(np.mean(values)) and row["sd"] == pytest.approx(np.std(values, ddof=1))
    assert [row[f"repeat_{i}"] for i in range(3)] == pytest.approx(values)


def test_repeats_tests_pair_the_folds_of_every_repeat():
    from crocbench.metrics import per_fold_metrics

    calls = paper_panel(top_k=20, n=400)[:1]
    per_fold = [{m: per_fold_metrics(p, calls).astype({"fold": str}) for m, p in _pooled(s).items()} for s in range(3)]
    tests = repeats_tests(per_fold, keys=["roc"], n_folds=5)
    d = np.concatenate(
        [(r["A"]["roc"] - r["B"]["roc"]).to_numpy()[:-1] for r in per_fold]  # the folds, not the pooled row
    )
    want = corrected_t_test(d, test_share=1 / 4)
    got = tests.iloc[0]
    assert (got["model_a"], got["model_b"], got["df"]) == ("A", "B", 14)
    assert got["t"] == pytest.approx(want.t) and got["p_value"] == pytest.approx(want.p_value)


def test_intervals_table_is_the_bootstrap_of_each_pooled_ranking():
    pooled = _pooled(0)
    calls = paper_panel(top_k=20, n=400)[:2]
    table = intervals_table(pooled, calls, n_resamples=200, seed=5)
    want = bootstrap(pooled["A"]["label"], pooled["A"]["score"], calls, n_resamples=200, seed=5)
    got = table[table["model"] == "A"]
    assert got["low"].tolist() == [w.low for w in want] and got["high"].tolist() == [w.high for w in want]


def test_split_comparison_and_orders_from_two_repeats_tables(tmp_path):
    from crocbench.plots import plot_split_comparison
    from crocbench.report import split_comparison, split_comparison_markdown, split_orders

    calls = paper_panel(top_k=20, n=400)[:5]  # roc ... croc_exp_80
    by_split = {"random": repeats_table([_pooled(s) for s in range(3)], calls)}
    by_split["scaffold"] = repeats_table([_pooled(s) for s in range(3, 6)], calls)
    table = split_comparison(by_split)
    assert set(table["key"]) == {"roc", "croc_exp_80"} and len(table) == 4
    row = table[(table["model"] == "A") & (table["key"] == "roc")].iloc[0]
    r = by_split["random"].set_index(["model", "key"]).loc[("A", "roc")]
    s = by_split["scaffold"].set_index(["model", "key"]).loc[("A", "roc")]
    assert row["loss"] == pytest.approx(r["mean"] - s["mean"]) and row["scaffold_sd"] == pytest.approx(s["sd"])
    assert "AUC[ROC] loss" in split_comparison_markdown(table, ("random", "scaffold"))
    orders = split_orders(by_split, "roc")
    assert orders["random"]["mean"] == ["A", "B"]  # A's scores carry the label more strongly
    assert set(orders["scaffold"]) == {"mean", "repeat_0", "repeat_1", "repeat_2"}
    written = plot_split_comparison(table, tmp_path / "split.png")
    assert [p.suffix for p in map(Path, written)] == [".png", ".pdf"] and Path(written[0]).stat().st_size > 10_000

"""crocbench.report._memorization: the split table, each metric per stratum of the test actives (against the list
with the other actives deleted), the analogs' share of a ranker's gain, and the tests per stratum."""

import numpy as np
import pandas as pd
import pytest

from crocbench.metrics import parse_metric, random_baseline, score
from crocbench.report import (
    memorization_markdown,
    memorization_table,
    split_similarity_markdown,
    split_similarity_table,
    stratum_tests,
)
from crocbench.stats import TESTS, compare


def _screen(seed=0, n=300, n_pos=40):
    """Two rankers' pooled scores (ties included) and an overlap table whose actives span the three strata."""
    rng = np.random.default_rng(seed)
    label = np.zeros(n, dtype=np.int8)
    label[rng.choice(n, n_pos, replace=False)] = 1
    ids = [f"c{i}" for i in range(n)]
    to_actives = np.where(label == 1, rng.choice([0.1, 0.4, 0.55, 0.7, 0.95], size=n), rng.random(n)).astype(np.float32)
    overlap = pd.DataFrame(
        {
            "id": ids,
            "label": label,
            "fold": rng.integers(0, 5, n),
            "to_train": to_actives,
            "to_train_actives": to_actives,
        }
    )
    pooled = {
        name: pd.DataFrame({"id": ids, "label": label, "score": np.round(label * shift + rng.normal(size=n), 1)})
        for name, shift in (("A", 1.5), ("B", 0.7))
    }
    return pooled, overlap


SPECS = ("roc_auc", "croc_auc:alpha=7", "enrichment_factor:fraction=0.05", "bedroc:alpha=20")
CALLS = [parse_metric(s) for s in SPECS]


def test_split_table_quantiles_and_shares_are_numpys():
    rng = np.random.default_rng(1)
    t = pd.DataFrame(
        {"label": rng.integers(0, 2, 500), "to_train": rng.random(500), "to_train_actives": rng.random(500)}
    )
    t.loc[:9, "to_train"] = 1.0
    row = split_similarity_table({"cluster": t}).set_index("measure")
    v = t["to_train"].to_numpy(dtype=np.float32)
    assert row.at["to_train", "q50"] == pytest.approx(np.quantile(v, 0.5))
    assert row.at["to_train", "ge0.6"] == pytest.approx((v >= np.float32(0.6)).mean())
    assert row.at["to_train", "ge1.0"] >= 10 / 500
    actives = t["to_train_actives"].to_numpy(dtype=np.float32)[t["label"] == 1]
    assert row.at["to_train_actives", "compounds"] == actives.size
    assert row.at["to_train_actives", "q95"] == pytest.approx(np.quantile(actives, 0.95))
    text = split_similarity_markdown(split_similarity_table({"cluster": t}))
    assert "| cluster | 500 |" in text and "Test active to nearest training active" in text


@pytest.mark.parametrize("seed", range(3))
def test_a_stratum_value_is_the_metric_with_the_other_actives_deleted(seed):
    """Brute force: each (model, stratum, metric) against crocbench.metrics.score on the rows that stay, and the
    random mean against the exact baseline of that shorter list."""
    pooled, overlap = _screen(seed)
    table = memorization_table(pooled, overlap, CALLS, 0.4, 0.7)
    s = overlap["to_train_actives"].to_numpy()
    active = overlap["label"].to_numpy() == 1
    stratum_of = {"analog": s >= 0.7, "middle": (s >= 0.4) & (s < 0.7), "novel": s < 0.4, "all": np.ones_like(active)}
    for row in table.itertuples():
        keep = ~active | stratum_of[row.stratum]
        c = next(c for c in CALLS if c.key == row.key)
        y, sc = pooled[row.model]["label"].to_numpy()[keep], pooled[row.model]["score"].to_numpy()[keep]
        assert row.value == pytest.approx(score(y, sc, c.metric, **c.params), abs=1e-12)
        assert row.random == pytest.approx(random_baseline(c.metric, y.size, int(y.sum()), **c.params).mean)
        assert row.actives == int(y.sum())
    assert set(table["stratum"]) == {"all", "analog", "middle", "novel"}


def test_the_analogs_share_decomposes_an_fpr_metric_over_the_strata():
    """For a metric of each active's FPR (ROC, CROC) the gain over random splits over the strata exactly:
    gain_all = sum_s w_s gain_s (w_s the stratum's share of the actives), and the analogs' share of it is
    w_analog gain_analog / gain_all, from the strata's own values."""
    pooled, overlap = _screen(4)
    table = memorization_table(pooled, overlap, CALLS[:2], 0.4, 0.7)
    for (_model, _key), part in table.groupby(["model", "key"]):
        part = part.set_index("stratum")
        n = part.at["all", "actives"]
        gains = {s: part.at[s, "value"] - part.at[s, "random"] for s in part.index}
        assert gains["all"] == pytest.approx(
            sum(part.at[s, "actives"] / n * gains[s] for s in ("analog", "middle", "novel"))
        )
        want = part.at["analog", "actives"] / n * gains["analog"] / gains["all"]
        assert part.at["all", "analog_share"] == pytest.approx(want)


def test_the_stratum_tests_are_the_six_tests_on_the_shorter_list_with_the_effect_beside_them():
    pooled, overlap = _screen(2)
    tests = stratum_tests(pooled, overlap, CALLS[1:3], TESTS, 0.4, 0.7, n_samples=500, seed=3)
    assert list(dict.fromkeys(tests["stratum"])) == ["all", "analog", "middle", "novel"]
    s = overlap["to_train_actives"].to_numpy()
    active = overlap["label"].to_numpy() == 1
    for row in tests.itertuples():
        keep = (
            ~active | {"all": True, "analog": s >= 0.7, "middle": (s >= 0.4) & (s < 0.7), "novel": s < 0.4}[row.stratum]
        )
        spec = next(spec for spec, c in zip(SPECS, CALLS) if c.key == row.metric)
        y = pooled["A"]["label"].to_numpy()[keep]
        a, b = pooled["A"]["score"].to_numpy()[keep], pooled["B"]["score"].to_numpy()[keep]
        result = compare(y, a, b, spec, tests=TESTS, n_samples=500, seed=3)
        assert row.paired_permutation == result.results["paired_permutation"].p_value
        assert row.paired_t == pytest.approx(result.results["paired_t"].p_value)
        assert row.effect == pytest.approx(row.value_a - row.value_b, abs=1e-9)
        assert row.effect_low <= row.effect <= row.effect_high


def test_the_markdown_has_a_row_per_model_and_the_random_means():
    pooled, overlap = _screen(0)
    table = memorization_table(pooled, overlap, CALLS, 0.4, 0.7)
    text = memorization_markdown(table, ["croc_auc:alpha=7"])
    assert "| A |" in text and "| B |" in text and "| random (expected) |" in text
    assert "all - novel" in text and "analogs' share of the gain over random" in text
    n = int(overlap["label"].sum())
    assert f"all ({n:,})" in text


def test_one_model_a_top_k_beyond_a_stratum_and_a_model_named_like_the_baseline_row():
    """One model: the tests table is empty, with its columns. A top k longer than a stratum's list: NaN there, the
    metric still on the other lists. A model labelled "random (expected)" keeps its row beside the baseline's."""
    from crocbench.report._tables import RANDOM_ROW

    pooled, overlap = _screen(0, n=60, n_pos=20)
    one = {"A": pooled["A"]}
    assert stratum_tests(one, overlap, CALLS[:1], TESTS, 0.4, 0.7, n_samples=100).empty
    hits = parse_metric("hits_at_k:k=50")
    table = memorization_table(one, overlap, [hits], 0.4, 0.7).set_index("stratum")
    sizes = table["actives"] + 40
    assert table.loc[sizes < 50, "value"].isna().all() and table.loc[sizes >= 50, "value"].notna().all()
    named = {RANDOM_ROW: pooled["A"], "B": pooled["B"]}
    text = memorization_markdown(memorization_table(named, overlap, CALLS[:1], 0.4, 0.7), ["roc"])
    assert text.count(f"| {RANDOM_ROW} |") == 2


def test_a_share_above_100_percent_is_explained_where_it_is_shown():
    """A ranker that puts the analog actives first and every other active last: the others fall below random, so
    the analogs give more than the whole gain (their share, gain_analog w_analog / gain_all by the strata's own
    values, above 1); the strata table, the findings and the headline then say what a share above 100% means,
    and say nothing of it where every share is at most 100%."""
    from crocbench.report._memorization import SHARE_ABOVE_WHOLE
    from crocbench.report.findings import memorization_findings_markdown, memorization_headline_markdown

    pooled, overlap = _screen(0)
    analog = (overlap["label"] == 1) & (overlap["to_train_actives"] >= 0.7)
    other = (overlap["label"] == 1) & ~analog
    pooled["C"] = pooled["A"].assign(score=np.where(analog, 10.0, np.where(other, -10.0, 0.0)))
    calls = CALLS[:2]
    table = memorization_table(pooled, overlap, calls, 0.4, 0.7)
    key = calls[1].key
    c = table[(table["model"] == "C") & (table["key"] == key)].set_index("stratum")
    n = c.at["all", "actives"]
    by_hand = c.at["analog", "actives"] / n * (c.at["analog", "value"] - c.at["analog", "random"])
    by_hand /= c.at["all", "value"] - c.at["all", "random"]
    assert by_hand > 1 and c.at["all", "analog_share"] == pytest.approx(by_hand)
    tests = stratum_tests(pooled, overlap, calls, ["paired_permutation"], 0.4, 0.7, n_samples=99)
    texts = (
        memorization_markdown(table, [key]),
        memorization_findings_markdown(table, tests, [key], 0.4, 0.7),
        memorization_headline_markdown(table, key),
    )
    assert all(SHARE_ABOVE_WHOLE in text for text in texts)
    plain = table[table["model"] != "C"]
    assert (plain.loc[plain["stratum"] == "all", "analog_share"].dropna() <= 1).all()
    tests = tests[(tests["a"] != "C") & (tests["b"] != "C")]
    texts = (
        memorization_markdown(plain, [key]),
        memorization_findings_markdown(plain, tests, [key], 0.4, 0.7),
        memorization_headline_markdown(plain, key),
    )
    assert not any(SHARE_ABOVE_WHOLE in text for text in texts)

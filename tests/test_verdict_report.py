"""crocbench.report.findings' verdict study (issue 94): the union's table, the decomposition and the words, on
tables of 15 screens x 3 repeats built here with planted differences, against independent computations: scipy's
exact signed-rank test with Holm written out here, the leave-one-out panels enumerated here, the balanced mixed
model's closed form (REML), the bootstrap drawn here and the 2 x 2 factorial's parts by hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats
from test_robustness import _holm  # Holm written out, by hand

from crocbench.models import declared_runs
from crocbench.pages import reference_blocks, verdict_tables
from crocbench.report.findings import (
    Arm,
    awaiting_markdown,
    declared_arms,
    decomposition_markdown,
    decomposition_table,
    verdict_markdown,
    verdict_table,
)

ROOT = Path(__file__).resolve().parents[1]
SCREENS, REPEATS, RESAMPLES = 15, 3, 1000
CONFIRMED, NOVEL = "confirmed actives", "novel actives"
# The arms: rankers A, B, C, D on features p, and A, B on features e; each arm's rows under its own model label.
ARMS = {
    "A/p": Arm("A", "A", "p"),
    "B/p": Arm("B", "B", "p"),
    "C/p": Arm("C", "C", "p"),
    "D/p": Arm("D", "D", "p"),
    "A/e": Arm("A-e", "A", "e"),
    "B/e": Arm("B-e", "B", "e"),
}
FAMILIES = [
    {"name": "equal features", "scored_on": CONFIRMED, "split": "random",
     "pairs": [["A/p", "B/p"], ["C/p", "B/p"], ["D/p", "B/p"], ["A/e", "B/e"]], "metrics": ["croc_exp_80", "roc"]},
    {"name": "on the novel actives", "scored_on": NOVEL, "split": "random", "pairs": [["A/p", "B/p"]],
     "metrics": ["croc_exp_80"]},
]  # fmt: skip
VERDICT = {
    "declared": "before the run",
    "metric_of_record": "croc_exp_80",
    "alpha": 0.05,
    "families": FAMILIES,
    "decomposition": {"pairs": [["A/p", "B/e"]], "level": 0.95, "resamples": RESAMPLES, "seed": 0},
}
STEP = np.arange(1, SCREENS + 1) / 100  # distinct magnitudes: no ties among the screens' differences
# Carried by one screen: 14 positive, the second largest negative; without the largest positive screen (the last)
# the signed-rank p rises from 0.0067 to 0.0134, past Holm's threshold with 5 tests below it (0.05 / 4).
ONE_SCREEN = np.where(np.arange(SCREENS) == 13, -1, 1) * STEP
ALL_SCREENS = 0.05 + STEP  # every screen ahead
NULL = np.where(np.arange(SCREENS) % 2 == 0, 1, -1) * STEP / 10  # alternating signs: no difference
# The screens' differences (of their repeat means) from B on the same features, per arm and metric.
PLANTED = {
    ("A", "croc_exp_80"): ALL_SCREENS, ("A", "roc"): ALL_SCREENS,
    ("C", "croc_exp_80"): ONE_SCREEN, ("C", "roc"): NULL,
    ("D", "croc_exp_80"): NULL, ("D", "roc"): ALL_SCREENS,
    ("A-e", "croc_exp_80"): ALL_SCREENS, ("A-e", "roc"): 0.5 * ALL_SCREENS,
}  # fmt: skip


def _tables(planted=PLANTED, novel_shift=NULL, seed=0):
    """{scored_on: table}: the confirmed actives per screen, model and repeat (D's croc_exp_80 with repeat noise
    far above its screens' spread); the novel actives one value per screen (no repeat column)."""
    rng = np.random.default_rng(seed)
    screens = [f"s{i:02d}" for i in range(SCREENS)]
    rows, novel = [], []
    base = {m: rng.uniform(0.2, 0.6, size=SCREENS) for m in ("croc_exp_80", "roc")}
    for model in ("A", "B", "C", "D", "A-e", "B-e"):
        reference = "B-e" if model == "A-e" else "B"
        values = {}
        for m in ("croc_exp_80", "roc"):
            noise = rng.normal(0, 0.05 if (model, m) == ("D", "croc_exp_80") else 0.004, size=(SCREENS, REPEATS))
            noise -= noise.mean(axis=1, keepdims=True)  # each screen's repeats centred: its mean is as planted
            offset = 0.1 if model.endswith("-e") else 0.0  # the features e score higher
            values[m] = (
                base[m][:, None] + offset + planted.get((model, m), np.zeros(SCREENS))[:, None] * (model != reference)
            )
            values[m] = values[m] + noise * (model != reference)
        for s, screen in enumerate(screens):
            for r in range(REPEATS):
                rows.append({"dataset": screen, "model": model, "repeat": r,
                             **{m: values[m][s, r] for m in values}})  # fmt: skip
            novel.append(
                {"dataset": screen, "model": model, "croc_exp_80": 0.3 + s / 100 + novel_shift[s] * (model == "A")}
            )
    return {CONFIRMED: pd.DataFrame(rows), NOVEL: pd.DataFrame(novel)}


def _union(d, alpha=0.05):
    """The union's verdicts by scipy: per test's screen differences, exact two-sided p, Holm, the signed ranks' side."""
    p, signs = [], []
    for x in d:
        p.append(float(stats.wilcoxon(x, method="exact").pvalue))
        ranks = stats.rankdata(np.abs(x))
        signs.append(int(np.sign(ranks[x > 0].sum() - ranks[x < 0].sum())))
    adjusted = _holm(p)
    return [s if q < alpha else 0 for s, q in zip(signs, adjusted)], adjusted, p


def _differences(tables):
    """Per test of the union, in declared order: (screens, repeats) differences a - b, by hand from the tables."""
    out = []
    for family in FAMILIES:
        table = tables[family["scored_on"]]
        table = table if "repeat" in table else table.assign(repeat=0)
        for a, b in family["pairs"]:
            for m in family["metrics"]:
                wide = {
                    arm: table[table["model"] == ARMS[arm].model].pivot(index="dataset", columns="repeat", values=m)
                    for arm in (a, b)
                }  # fmt: skip
                out.append((wide[a] - wide[b]).to_numpy())
    return out


def _closed_form(d):
    """The balanced one-way random-intercept model by REML, closed form: (estimate, se)."""
    k, r = d.shape
    means, grand = d.mean(axis=1), d.mean()
    msb = r * ((means - grand) ** 2).sum() / (k - 1)
    msw = ((d - means[:, None]) ** 2).sum() / (k * (r - 1)) if r > 1 else 0.0
    if r > 1 and msb > msw:
        return grand, np.sqrt(msb / (k * r))
    return grand, np.sqrt(((d - grand) ** 2).sum() / (d.size - 1) / d.size)  # the screens' variance at 0


@pytest.fixture(scope="module")
def tables():
    return _tables()


@pytest.fixture(scope="module")
def table(tables):
    return verdict_table(tables, VERDICT, ARMS)


def test_the_union_is_scipys_exact_wilcoxon_with_holm_over_both_families(table, tables):
    d = _differences(tables)
    verdicts, adjusted, p = _union([x.mean(axis=1) for x in d])
    assert table["verdict"].tolist() == verdicts
    np.testing.assert_allclose(table["p_value"], p, rtol=1e-12)
    np.testing.assert_allclose(table["p_holm"], adjusted, rtol=1e-12)
    assert verdicts == [1, 1, 1, 0, 0, 1, 1, 1, 0]  # the planted: five all-screen, one single-screen, three nulls
    means = [x.mean(axis=1) for x in d]
    assert table["wins"].tolist() == [int((x > 0).sum()) for x in means]
    assert table["losses"].tolist() == [int((x < 0).sum()) for x in means]
    assert table["repeats"].tolist() == [REPEATS] * 8 + [1]


def test_leave_one_out_counts_are_the_union_retested_on_every_fourteen_screen_panel(table, tables):
    means = [x.mean(axis=1) for x in _differences(tables)]
    whole, _, _ = _union(means)
    holding = np.zeros(len(means), dtype=int)
    for s in range(SCREENS):
        panel, _, _ = _union([np.delete(x, s) for x in means])
        holding += np.asarray(panel) == np.asarray(whole)
    assert table["holding"].tolist() == holding.tolist()
    assert table["panels"].tolist() == [SCREENS] * len(means)
    fragile = table[(table["a"] == "C/p") & (table["metric"] == "croc_exp_80")].iloc[0]
    assert fragile["verdict"] == 1 and fragile["holding"] == SCREENS - 1  # only the largest screen carries it


def test_the_mixed_model_reads_every_repeat_its_holm_over_the_union(table, tables):
    d = _differences(tables)
    fits = [_closed_form(x) for x in d]
    t = stats.t(SCREENS - 1)
    p = [float(2 * t.sf(abs(e) / se)) for e, se in fits]
    half = [t.ppf(0.975) * se for _, se in fits]
    np.testing.assert_allclose(table["mixed"], [e for e, _ in fits], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(table["mixed_low"], [e - h for (e, _), h in zip(fits, half)], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(table["mixed_high"], [e + h for (e, _), h in zip(fits, half)], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(table["mixed_p_holm"], _holm(p), rtol=1e-5)
    noisy = d[4]  # D/p vs B/p on croc_exp_80: the repeats spread more than the screens' means
    assert noisy.var(axis=1, ddof=1).mean() > 3 * REPEATS * noisy.mean(axis=1).var(ddof=1)  # the screens' at 0
    mixed = [int(np.sign(e)) if q < 0.05 else 0 for (e, _), q in zip(fits, _holm(p))]
    assert table["mixed_verdict"].tolist() == mixed
    robust = [h == SCREENS and m == v for h, m, v in zip(table["holding"], mixed, table["verdict"])]
    assert table["robust"].tolist() == robust


def test_each_effect_is_the_mean_difference_with_its_bootstrap_over_the_screens(table, tables):
    draws = np.random.default_rng(0).integers(0, SCREENS, size=(RESAMPLES, SCREENS))
    for row, x in zip(table.itertuples(), _differences(tables)):
        means = x.mean(axis=1)
        low, high = np.quantile(means[draws].mean(axis=1), [0.025, 0.975])
        assert row.effect == pytest.approx(means.mean(), abs=1e-12)
        assert (row.low, row.high) == pytest.approx((low, high), abs=1e-12)


def test_the_decomposition_splits_the_difference_by_hand(tables):
    table = decomposition_table(tables, VERDICT, ARMS)
    wide = tables[CONFIRMED].groupby(["model", "dataset"])["croc_exp_80"].mean().unstack()
    a1, a2, b1, b2 = (wide.loc[m].to_numpy() for m in ("A", "A-e", "B", "B-e"))
    expected = {
        "total": a1 - b2,
        "ranker": ((a1 - b1) + (a2 - b2)) / 2,
        "features": ((a1 - a2) + (b1 - b2)) / 2,
        "ranker at p": a1 - b1,
        "ranker at e": a2 - b2,
        "features of A/p": a1 - a2,
        "features of B/p": b1 - b2,
    }
    np.testing.assert_allclose(table["effect"], [v.mean() for v in expected.values()], atol=1e-12)
    assert table["part"].tolist() == list(expected)
    parts = table.set_index("part")["effect"]
    assert parts["ranker"] + parts["features"] == pytest.approx(parts["total"], abs=1e-12)
    assert parts["features"] == pytest.approx(-0.1, abs=1e-12)  # the features e score 0.1 higher, as planted
    text = decomposition_markdown(table, VERDICT)
    assert len(text.splitlines()) == 3 and text.splitlines()[2].startswith(
        "| A/p vs B/e | AUC[CROC(exp)] a=80 | +0.03 ["
    )


def test_declared_arms_read_their_own_entry_not_the_twin_on_the_other_fingerprint():
    runs = declared_runs({"rf": {}, "rf_paper": {"class": "rf", "features": "paper"}, "knn": {}})
    verdict = {"arms": {"RF/paper": {"ranker": "rf_paper", "fingerprint": "paper"},
                        "RF/ECFP4": {"ranker": "rf", "fingerprint": "ECFP4"},
                        "kNN/paper": {"ranker": "knn", "fingerprint": "paper"}}}  # fmt: skip
    arms = declared_arms(verdict, runs)
    assert {k: a.model for k, a in arms.items()} == {"RF/paper": "RF/paper", "RF/ECFP4": "RF", "kNN/paper": "kNN"}
    assert arms["RF/paper"].ranker == arms["RF/ECFP4"].ranker != arms["kNN/paper"].ranker


def _sentences(text):
    return text.split("\n\n")[0]


def test_the_words_say_robust_fragile_and_not_reproduced_as_the_rule_decides(table):
    text = verdict_markdown(table, VERDICT)
    words = _sentences(text)
    robust = table[table["robust"]]
    assert len(robust) and words.count(": robust:") == (robust["verdict"] != 0).sum()
    fragile = table[(table["verdict"] != 0) & ~table["robust"]].iloc[0]
    assert f"fragile: holds in {fragile['holding']} of {SCREENS} leave-one-out panels" in words
    assert "Not reproduced on these panels: C/p vs B/p on" in words
    assert "- on the novel actives: no test of the family shows a difference; not reproduced" in words
    assert "fail" not in text and "confirmatory" in words
    assert len(text.split("\n\n")[1].splitlines()) == 2 + len(table)
    exploratory = verdict_markdown(table, {**VERDICT, "declared": "after the run"})
    assert "exploratory" in exploratory and "confirmatory" not in exploratory


def test_the_words_follow_the_data():
    turned = {k: (-v if k[0] == "A" else v) for k, v in PLANTED.items()}  # A behind B where it was ahead
    shown = {**PLANTED, ("C", "croc_exp_80"): ALL_SCREENS}  # C ahead on every screen
    first, second, third = (
        _sentences(verdict_markdown(verdict_table(t, VERDICT, ARMS), VERDICT))
        for t in (_tables(), _tables(turned), _tables(shown, novel_shift=ALL_SCREENS))
    )
    assert "A/p over B/p on" in first and "B/p over A/p on" in second and "A/p over B/p on" not in second
    assert "C/p over B/p on AUC" in third and ": robust:" in third.split("C/p over B/p on AUC")[1].split("\n")[0]
    assert "fragile" in first and "fragile" not in third
    assert "no test of the family shows" in first and "no test of the family shows" not in third


def test_an_arm_without_values_on_a_screen_is_one_line(tables):
    novel = tables[NOVEL][~((tables[NOVEL]["model"] == "A") & (tables[NOVEL]["dataset"] == "s03"))]
    with pytest.raises(ValueError, match=r"^verdict: arm A/p has no croc_exp_80 on the novel actives of screen s03$"):
        verdict_table({**tables, NOVEL: novel}, VERDICT, ARMS)


def test_the_study_awaiting_its_run_says_what_it_will_test():
    text = awaiting_markdown(VERDICT)
    assert (
        "9 tests" in text
        and "equal features (4 pairs x 2 metrics)" in text
        and "(1 pair x 1 metric)" in text
        and "awaits its run" in text
    )


def test_the_pages_block_is_the_awaiting_words_until_the_reference_holds_the_runs_values(tmp_path, tables):
    studies = tmp_path / "config" / "studies"
    studies.mkdir(parents=True)
    (studies / "study.yaml").write_text(yaml.safe_dump({"verdict": VERDICT}))
    (studies / "other.yaml").write_text(yaml.safe_dump({"dataset": ["s"]}))
    assert verdict_tables(tmp_path) == {"study/verdict": awaiting_markdown(VERDICT)}
    # the study's reference: its run's per-repeat values and novel actives, and the manifest's design with the
    # verdict declared and its arms, as the run recorded them (crocbench.config.study_design)
    folder = tmp_path / "results" / "reference" / "study"
    folder.mkdir(parents=True)
    tables[CONFIRMED].to_csv(folder / "datasets_repeats.tsv", sep="\t", index=False)
    tables[NOVEL].to_csv(folder / "novel.tsv", sep="\t", index=False)
    design = {"verdict": VERDICT, "arms": {label: dict(arm._asdict()) for label, arm in ARMS.items()}}
    manifest = {"kind": "panel", "split": "random", "labels": "confirmed", "config": [], "documents": [],
                "design": design}  # fmt: skip
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    table, parts = verdict_table(tables, VERDICT, ARMS), decomposition_table(tables, VERDICT, ARMS)
    text = verdict_tables(tmp_path)["study/verdict"]
    assert text.startswith(_sentences(verdict_markdown(table, VERDICT))) and "| A/p vs B/e |" in text
    assert "awaits" not in text and ": robust:" in text and "fragile: holds in 14 of 15" in text
    assert text == verdict_markdown(table, VERDICT) + "\n\n" + decomposition_markdown(parts, VERDICT)
    # a screen more in the reference (crocbench reference --add) moves the words with no table kept by hand
    more = tables[CONFIRMED][tables[CONFIRMED]["dataset"] == tables[CONFIRMED]["dataset"].iloc[0]].assign(
        dataset="extra"
    )
    pd.concat([tables[CONFIRMED], more]).to_csv(folder / "datasets_repeats.tsv", sep="\t", index=False)
    novel = tables[NOVEL][tables[NOVEL]["dataset"] == tables[NOVEL]["dataset"].iloc[0]].assign(dataset="extra")
    pd.concat([tables[NOVEL], novel]).to_csv(folder / "novel.tsv", sep="\t", index=False)
    assert (
        verdict_tables(tmp_path)["study/verdict"] != text
        and "on 16 screens" in verdict_tables(tmp_path)["study/verdict"]
    )


def test_the_docs_block_of_the_declared_study_is_current():
    (block,) = [v for k, v in reference_blocks((ROOT / "docs" / "user_guide" / "many_screens.md").read_text()).items()
                if k == "verdict/verdict"]  # fmt: skip
    assert block == verdict_tables(ROOT)["verdict/verdict"]


def test_a_verdict_runs_design_records_the_declaration_and_its_arms():
    """The verdict study's design (tables/design.yaml, kept in its reference's manifest) holds its ``verdict:`` and
    each arm's model label, ranker and fingerprint, through YAML, so that the pages compute its words from the
    reference alone; a run without ``verdict:`` records neither."""
    from _configs import merged_config

    from crocbench.config import study_design

    panel = ROOT / "config" / "panels" / "pubchem_hts.yaml"
    studies = ROOT / "config" / "studies"
    config, runs = merged_config(panel, studies / "verdict.yaml", studies / "fair_chosen.yaml")
    arms = declared_arms(config["verdict"], runs)
    design = yaml.safe_load(yaml.safe_dump(study_design(config, runs, arms=arms)))
    assert {label: Arm(**arm) for label, arm in design["arms"].items()} == arms and len(arms) == 18
    assert design["verdict"] == config["verdict"] and design["arms"]["RF/paper"]["model"] == runs["rf_paper"].label
    plain, plain_runs = merged_config(panel, studies / "fair_random.yaml", studies / "fair_chosen.yaml")
    assert not {"verdict", "arms"} & set(study_design(plain, plain_runs))

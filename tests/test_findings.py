"""crocbench.report.findings: the declared family's tests, effects and verdicts, checked against scipy and
statsmodels, and the answers' words following the numbers."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from crocbench.report.findings import (
    VERDICTS,
    Questions,
    answers_markdown,
    family_markdown,
    family_table,
    headline_markdown,
    verdict_counts,
)

SPEC = {
    "declared": "before the run",
    "metric_of_record": "croc_exp_80",
    "pairs": [["A", "B"], ["C", "B"]],
    "metrics": ["croc_exp_80", "roc"],
    "thresholds": {"croc_exp_80": 0.01, "roc": 0.02},
}


def _panel(values: dict) -> pd.DataFrame:
    """datasets.tsv's shape from {model: {metric: per-screen values}}."""
    rows = []
    for model, metrics in values.items():
        n = len(next(iter(metrics.values())))
        for i in range(n):
            rows.append({"dataset": f"s{i}", "model": model, **{m: v[i] for m, v in metrics.items()}})
    return pd.DataFrame(rows)


def _ranks(datasets: pd.DataFrame, metrics) -> pd.DataFrame:
    rows = []
    for m in metrics:
        wide = datasets.pivot(index="dataset", columns="model", values=m)
        ranks = wide.apply(lambda r: pd.Series(sps.rankdata(-r.to_numpy()), index=r.index), axis=1).mean()
        rows += [{"metric": m, "model": k, "mean_rank": v, "datasets": len(wide)} for k, v in ranks.items()]
    return pd.DataFrame(rows)


@pytest.fixture
def noisy():
    rng = np.random.default_rng(3)
    b = rng.uniform(0.2, 0.4, 12)
    return _panel(
        {
            "A": {
                "croc_exp_80": b + 0.05 + 0.01 * rng.standard_normal(12),
                "roc": 0.8 + 0.01 * rng.standard_normal(12),
            },
            "B": {"croc_exp_80": b, "roc": np.full(12, 0.8)},
            "C": {
                "croc_exp_80": b + 0.004 + 0.001 * rng.standard_normal(12),
                "roc": 0.8 + 0.01 * rng.standard_normal(12),
            },
        }
    )


def test_the_family_is_wilcoxon_per_test_holm_over_all_and_the_mean_difference(noisy):
    q = Questions.from_dict(SPEC)
    table = family_table(noisy, q)
    assert list(zip(table["a"], table["b"], table["metric"])) == [
        ("A", "B", "croc_exp_80"),
        ("A", "B", "roc"),
        ("C", "B", "croc_exp_80"),
        ("C", "B", "roc"),
    ]
    for r in table.itertuples():
        wide = noisy.pivot(index="dataset", columns="model", values=r.metric)
        d = (wide[r.a] - wide[r.b]).to_numpy()
        assert (r.wins, r.losses, r.ties, r.screens) == ((d > 0).sum(), (d < 0).sum(), (d == 0).sum(), 12)
        assert r.p_value == pytest.approx(sps.wilcoxon(d).pvalue, rel=1e-12)
        assert r.effect == pytest.approx(d.mean(), abs=1e-15)
        boot = sps.bootstrap((d,), np.mean, n_resamples=20_000, method="percentile", random_state=1)
        span = d.max() - d.min()
        assert r.low == pytest.approx(boot.confidence_interval.low, abs=0.02 * span)
        assert r.high == pytest.approx(boot.confidence_interval.high, abs=0.02 * span)
    assert np.allclose(table["p_holm"], multipletests(table["p_value"], method="holm")[1], rtol=1e-12)


def test_a_declared_pairs_interval_is_the_summarys_wilcoxon_rows_turned_where_declared_the_other_way(noisy):
    """One bootstrap per pair: the family states the interval that the every-pair table beside it states (the same
    screens' order, the same draws), negated and swapped for a pair declared against the table's order."""
    from crocbench.report import ranks_table

    table = family_table(noisy, Questions.from_dict(SPEC))
    _, pairs = ranks_table(noisy)
    turned = 0
    for r in table.itertuples():
        mine = pairs["metric"] == r.metric
        row = pairs[mine & (((pairs["a"] == r.a) & (pairs["b"] == r.b)) | ((pairs["a"] == r.b) & (pairs["b"] == r.a)))]
        row = row.iloc[0]
        turned += row["a"] != r.a
        assert (r.low, r.high) == ((row["low"], row["high"]) if row["a"] == r.a else (-row["high"], -row["low"]))
    assert turned == 2  # C vs B: the table holds B before C


def test_verdicts_need_holm_and_the_whole_interval_beyond_the_threshold(noisy):
    table = family_table(noisy, Questions.from_dict(SPEC)).set_index(["a", "metric"])
    assert table.loc[("A", "croc_exp_80"), "verdict"] == VERDICTS[0]  # 0.05 ahead, threshold 0.01
    assert table.loc[("A", "croc_exp_80"), "ahead"] == "A"
    assert table.loc[("C", "croc_exp_80"), "verdict"] == VERDICTS[1]  # 12-0, but by 0.004 < 0.01
    assert table.loc[("A", "roc"), "verdict"] == VERDICTS[2]  # noise
    lower = Questions.from_dict({**SPEC, "thresholds": {"croc_exp_80": 0.003, "roc": 0.02}})
    low = family_table(noisy, lower).set_index(["a", "metric"])
    c = low.loc[("C", "croc_exp_80")]
    assert c["verdict"] == (VERDICTS[0] if c["low"] >= 0.003 else VERDICTS[1])


def test_a_threshold_met_exactly_counts_and_the_ranker_behind_is_the_b_side():
    """Every screen 0.25 apart, exactly in binary (an interval of one point, exactly the threshold): beyond it, >=
    and not >; the side ahead may be b."""
    panel = _panel({"A": {"roc": np.full(9, 0.5)}, "B": {"roc": np.full(9, 0.75)}})
    q = Questions.from_dict({**SPEC, "metric_of_record": "roc", "pairs": [["A", "B"]], "metrics": ["roc"],
                             "thresholds": {"roc": 0.25}})  # fmt: skip
    r = family_table(panel, q).iloc[0]
    assert (r["ahead"], r["losses"], r["low"], r["high"]) == ("B", 9, -0.25, -0.25)
    assert r["verdict"] == VERDICTS[0]


def test_a_test_that_fails_says_not_significant_and_never_claims_no_difference():
    """Two screens cannot pass a Wilcoxon test at 0.05 (its smallest p is 0.5), however far apart: B is 0.2 ahead
    on both, its cell says "not significant" (absence of evidence) and never "no difference"."""
    panel = _panel({"A": {"roc": np.array([0.5, 0.55])}, "B": {"roc": np.array([0.7, 0.75])}})
    q = Questions.from_dict({**SPEC, "metric_of_record": "roc", "pairs": [["A", "B"]], "metrics": ["roc"],
                             "thresholds": {"roc": 0.01}})  # fmt: skip
    table = family_table(panel, q)
    assert table.iloc[0]["verdict"] == VERDICTS[2]
    row = family_markdown(table, q).splitlines()[2]
    assert row.endswith("| not significant |") and "no difference" not in row
    # one test: a unanimous Wilcoxon record passes at 0.05 from 6 screens (2/2**6 < 0.05 < 2/2**5), so the answers
    # and the headline say that 2 are too few for any test to pass; from 6 on they do not
    ranks = _ranks(panel, q.metrics)
    answers = answers_markdown(ranks, table, q)
    assert "and this panel has 2, too few for any of its tests to pass." in answers
    # the answers give the failed test its effect and interval too: A - B is -0.2 on both screens, so the mean and
    # every bootstrap resample's mean are -0.2; 0-2, Wilcoxon p 0.5 (the smallest on two screens), one test
    assert answers.splitlines()[-2:] == [
        "- Not significant after Holm's adjustment; the mean difference, first named minus second, with its 95% "
        "interval over the screens, unadjusted for multiplicity (it may exclude zero where the adjusted p does not "
        "pass):",
        "  - A vs B on AUC[ROC]: -0.2 (-0.2 to -0.2; 0-2, Holm p 0.5)",
    ]
    assert headline_markdown(ranks, table, q).endswith(
        "(confirmatory; no test of the family can pass on fewer than 6 screens)."
    )
    six = _panel({"A": {"roc": np.linspace(0.5, 0.55, 6)}, "B": {"roc": np.linspace(0.7, 0.75, 6)}})
    ranks6, table6 = _ranks(six, q.metrics), family_table(six, q)
    assert table6.iloc[0]["verdict"] == VERDICTS[0]  # 0-6, p 2/64 = 0.03125
    assert "too few" not in answers_markdown(ranks6, table6, q)
    assert headline_markdown(ranks6, table6, q).endswith("(confirmatory).")


def test_the_answers_follow_the_numbers_with_no_code_edit(noisy):
    q = Questions.from_dict(SPEC)
    ranks = _ranks(noisy, q.metrics)
    before = answers_markdown(ranks, family_table(noisy, q), q)
    assert "Metric of record: AUC[CROC(exp)] a=80. Over 12 screens the first by mean rank is A" in before
    assert "The answers are confirmatory." in before
    moved = noisy.copy()
    b0 = moved.loc[(moved["model"] == "B") & (moved["dataset"] == "s0"), "croc_exp_80"].item()
    moved.loc[(moved["model"] == "A") & (moved["dataset"] == "s0"), "croc_exp_80"] = b0 - 0.001  # A loses a screen
    after = answers_markdown(_ranks(moved, q.metrics), family_table(moved, q), q)
    assert "A over B on AUC[CROC(exp)] a=80" in before and "12-0" in before
    assert "11-1" in after and after != before
    late = Questions.from_dict({**SPEC, "declared": "after the run"})
    assert "exploratory: the family was declared after the run" in answers_markdown(
        ranks, family_table(noisy, late), late
    )


def test_the_family_table_and_headline_carry_every_test_and_the_counts(noisy):
    q = Questions.from_dict(SPEC)
    table = family_table(noisy, q)
    lines = family_markdown(table, q).splitlines()
    assert len(lines) == 2 + q.size and "Holm p (4 tests)" in lines[0]
    head = headline_markdown(_ranks(noisy, q.metrics), table, q, "Primary hits, random split")
    assert head.startswith("Primary hits, random split, 12 screens: first by mean rank")
    # A is 0.05 above B on every screen (beyond the 0.01 threshold), C 0.004 above (significant, within it); the
    # AUC[ROC] differences are noise about 0
    assert list(table["verdict"]) == [VERDICTS[0], VERDICTS[2], VERDICTS[1], VERDICTS[2]]
    assert (
        "1 of the 4 declared tests shows a difference beyond the practical threshold, 1 a significant one within it"
        in head
    )


@pytest.mark.parametrize(
    "verdicts, words",
    [
        ([2, 2, 2, 2], "0 of the 4 declared tests show a difference beyond the practical threshold, 0 a significant"),
        ([0, 1, 2, 2], "1 of the 4 declared tests shows a difference beyond the practical threshold, 1 a significant"),
        ([0, 0, 1, 1], "2 of the 4 declared tests show a difference beyond the practical threshold, 2 a significant"),
    ],
)
def test_the_verdict_count_agrees_with_its_number(verdicts, words):
    q = Questions.from_dict(SPEC)
    assert q.size == 4
    assert verdict_counts(pd.DataFrame({"verdict": [VERDICTS[v] for v in verdicts]}), q) == words + " one within it"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"declared": "later"}, "declared must be 'before the run' or 'after the run'"),
        ({"pairs": [["A", "A"]]}, "two different rankers"),
        ({"pairs": [["A", "B"], ["B", "A"]]}, "a pair is declared twice"),
        ({"metric_of_record": "bedroc_20"}, "must be one of metrics"),
        ({"thresholds": {"croc_exp_80": 0.01}}, "no threshold for metric 'roc'"),
        ({"thresholds": {"croc_exp_80": 0.01, "roc": -1}}, "must be a number >= 0"),
        ({"thresholds": {"croc_exp_80": 0.01, "roc": 0.1, "ef": 1}}, "'ef', which is not a metric of the family"),
        ({"alpha": 1.5}, "alpha and level must be in (0, 1)"),
        ({"colour": 1}, "unknown key 'colour'"),
    ],
)
def test_bad_questions_fail_in_one_line(change, message):
    with pytest.raises(ValueError) as info:
        Questions.from_dict({**SPEC, **change})
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_question_naming_an_unknown_ranker_or_metric_fails(noisy):
    with pytest.raises(ValueError, match=r"'Z' is not a ranker of the panel \(A, B, C\)"):
        family_table(noisy, Questions.from_dict({**SPEC, "pairs": [["A", "Z"]]}))
    spec = {**SPEC, "metrics": ["croc_exp_80", "ef_1pct"], "thresholds": {"croc_exp_80": 0.01, "ef_1pct": 1}}
    with pytest.raises(ValueError, match="the panel has no metric 'ef_1pct'"):
        family_table(noisy, Questions.from_dict(spec))


def test_a_studys_family_reads_its_paired_permutation_tests_and_intervals():
    """On the committed DTP AIDS study: each test's p is the pair's paired permutation p (either row order), Holm
    is statsmodels' over the family, the effect the difference of the intervals table's values, and a verdict
    needs Holm's p below alpha and the point difference at the threshold."""
    from pathlib import Path

    from crocbench.report.findings import study_family_table

    ref = Path(__file__).resolve().parents[1] / "results" / "reference" / "ecfp_rankers_random"
    sig = pd.read_csv(ref / "significance.tsv", sep="\t")
    iv = pd.read_csv(ref / "intervals.tsv", sep="\t")
    spec = {**SPEC, "pairs": [["IRV", "SVM"], ["MLP-exp", "MLP"]], "metrics": ["croc_exp_80", "roc"]}
    table = study_family_table(sig, iv, Questions.from_dict(spec))
    values = iv.set_index(["model", "key"])["value"]
    for r in table.itertuples():
        row = sig[(sig["metric"] == r.metric) & sig["a"].isin([r.a, r.b]) & sig["b"].isin([r.a, r.b])]
        assert r.p_value == row["paired_permutation"].item()
        assert r.effect == pytest.approx(values[(r.a, r.metric)] - values[(r.b, r.metric)], abs=1e-15)
        assert (r.low_a, r.high_a) == tuple(iv.set_index(["model", "key"]).loc[(r.a, r.metric), ["low", "high"]])
        want = VERDICTS[2] if r.p_holm >= 0.05 else VERDICTS[0] if abs(r.effect) >= r.threshold else VERDICTS[1]
        assert r.verdict == want
    assert np.allclose(table["p_holm"], multipletests(table["p_value"], method="holm")[1], rtol=1e-12)
    with pytest.raises(ValueError, match="hold no metric 'ef_1pct'"):
        study_family_table(sig, iv, Questions.from_dict({**spec, "metrics": ["ef_1pct"], "metric_of_record": "ef_1pct",
                                                         "thresholds": {"ef_1pct": 1}}))  # fmt: skip


def test_a_studys_answers_give_every_test_both_intervals():
    """Two tests written out by hand: one beyond the threshold (B ahead, so B's values come first), one not
    significant (in declared order); each names both rankers' values with their intervals (95% over compounds,
    whatever the family's level over screens) and its Holm p."""
    from crocbench.report.findings import study_answers_markdown

    iv = pd.DataFrame(
        [
            ("A", "croc_exp_80", 0.30, 0.28, 0.32),
            ("B", "croc_exp_80", 0.35, 0.33, 0.37),
            ("A", "roc", 0.80, 0.79, 0.81),
            ("B", "roc", 0.799, 0.789, 0.809),
        ],
        columns=["model", "key", "value", "low", "high"],
    )
    table = pd.DataFrame(
        [
            ("A", "B", "croc_exp_80", 0.30, 0.28, 0.32, 0.35, 0.33, 0.37, -0.05, 0.001, 0.002, 0.01, "B", VERDICTS[0]),
            ("A", "B", "roc", 0.80, 0.79, 0.81, 0.799, 0.789, 0.809, 0.001, 0.4, 0.4, 0.02, "A", VERDICTS[2]),
        ],
        columns=["a", "b", "metric", "value_a", "low_a", "high_a", "value_b", "low_b", "high_b", "effect",
                 "p_value", "p_holm", "threshold", "ahead", "verdict"],
    )  # fmt: skip
    q = Questions.from_dict({**SPEC, "pairs": [["A", "B"]], "level": 0.9})  # the screens' level, not the compounds'
    lines = study_answers_markdown(iv, table, q).splitlines()
    assert (
        lines[3]
        == "  - B over A on AUC[CROC(exp)] a=80 by 0.05 (B 0.35 [0.33, 0.37], A 0.3 [0.28, 0.32]; Holm p 0.002)"
    )
    assert lines[4].startswith("- Not significant after Holm's adjustment") and "95% interval" in lines[4]
    assert lines[4].endswith("95% interval over compounds, unadjusted for multiplicity:")
    assert lines[5] == "  - A vs B on AUC[ROC]: +0.001 (A 0.8 [0.79, 0.81], B 0.799 [0.789, 0.809]; Holm p 0.4)"
    assert len(lines) == 6


def test_findings_read_the_ranks_and_the_holm_tests_as_computed_by_hand():
    """Twelve screens where the SVM leads on ROC and GBM-rank on every other metric, each ranker in the same order
    on every screen: every pair's record is 12-0, its exact two-sided signed-rank p 2/2^12 (scipy's, without ties),
    times 10 pairs by Holm (all equal); the mean ranks are whole places."""
    from scipy.stats import wilcoxon

    from crocbench.report import SUMMARY_RANK_METRICS, SUMMARY_TABLE_METRICS, ranks_table
    from crocbench.report.findings import exploratory_markdown

    roc_order = ["SVM", "GBM", "GBM-rank", "MAX-SIM", "RANDOM"]
    top_order = ["GBM-rank", "GBM", "SVM", "MAX-SIM", "RANDOM"]
    rows = []
    for d in range(12):
        for m in roc_order:
            # a place's gap to the next grows with the screen: no two screens tie on a pair's difference
            gap = 0.1 - d / 10_000
            values = {k: 1.0 - top_order.index(m) * gap + d / 1000 for k in SUMMARY_RANK_METRICS}
            rows.append({"dataset": f"d{d}", "model": m, **values, "roc": 1.0 - roc_order.index(m) * gap + d / 1000})
    ranks, pairs = ranks_table(pd.DataFrame(rows))
    text = exploratory_markdown(
        ranks, pairs, SUMMARY_TABLE_METRICS, trained=[("GBM-rank", "GBM")], baseline="MAX-SIM", left_out=["RANDOM"]
    )
    holm = f"{min(1.0, wilcoxon(np.arange(1.0, 13.0)).pvalue * 10):.2g}"
    assert holm == "0.0049"
    # each pair's record follows its mean difference and 95% interval: "+0.199 (0.198 to 0.2; 12-0, Holm p ...)"
    effect = re.compile(r"([+-][0-9.e-]+) \((-?[0-9.e-]+) to (-?[0-9.e-]+); (\d+-\d+(?:-\d+)?), ")
    effects = effect.findall(text)
    assert len(effects) == 5 + 6 + 3  # the early metrics against ROC's pick, the pair per metric, MAX-SIM's three
    for mean, low, high, _ in effects:  # the interval (3 significant digits, as the mean) holds the mean
        assert float(low) <= float(mean) <= float(high)
    # GBM-rank - SVM at AUC[CROC(exp)] a=80: two places of 0.1 - d / 10,000 apart on screen d: 0.2 - d / 5,000,
    # a mean of 0.1989 over d = 0..11; every resample's mean lies between the smallest (0.1978) and the largest (0.2)
    mean, low, high, record = effects[0]
    assert (mean, record) == ("+0.199", "12-0") and 0.198 <= float(low) <= 0.199 <= float(high) <= 0.2
    text = effect.sub(r"\4 (", text)  # the records and Holm p as computed by hand, below
    lines = text.splitlines()
    assert lines[0] == (
        "- Best by mean rank over 12 screens: by AUC[ROC] SVM (1.00); by AUC[CROC(exp)] a=80 GBM-rank (1.00); "
        "by BEDROC a=20 GBM-rank (1.00); by EF 1% GBM-rank (1.00); by logAUC[0.001, 0.1] GBM-rank (1.00); "
        "by DCG@100 GBM-rank (1.00)."
    )
    assert lines[1] == f"- By AUC[CROC(exp)] a=80, GBM-rank against AUC[ROC]'s pick SVM: 12-0 (Holm p {holm})."
    assert len(lines) == 1 + 5 + 1 + 2  # a line per early metric against ROC's pick, the pair, MAX-SIM's two
    assert lines[6].startswith(f"- GBM-rank against GBM: AUC[ROC] 0-12 (Holm p {holm}); AUC[CROC(exp)] a=80 12-0")
    assert lines[7] == (
        "- MAX-SIM's place by mean rank: AUC[ROC] 4 of 5; AUC[CROC(exp)] a=80 4 of 5; BEDROC a=20 4 of 5; "
        "EF 1% 4 of 5; logAUC[0.001, 0.1] 4 of 5; DCG@100 4 of 5."
    )
    assert lines[8] == (
        "- By EF 1%, MAX-SIM is significantly below 3 of the 3 other rankers (Holm p < 0.05) and above 0; its record "
        f"against each: SVM 0-12 (Holm p {holm}); GBM 0-12 (Holm p {holm}); GBM-rank 0-12 (Holm p {holm})."
    )


def test_findings_name_every_ranker_tied_at_the_best_mean_rank():
    """Two rankers that win every other screen off each other share the best mean rank (1.5) by every metric: both
    are named, and no metric's pick is read against ROC's (they are the same pair); MAX-SIM, tied with kNN, has a
    place range."""
    from crocbench.report import SUMMARY_RANK_METRICS, SUMMARY_TABLE_METRICS, ranks_table
    from crocbench.report.findings import exploratory_markdown

    rows = []
    for d in range(6):  # MAX-SIM and kNN trade the last two places likewise
        order = ["GBM", "GBM-rank", "MAX-SIM", "kNN"] if d % 2 else ["GBM-rank", "GBM", "kNN", "MAX-SIM"]
        for m in order:
            rows.append(
                {"dataset": f"d{d}", "model": m, **{k: 1.0 - order.index(m) / 10 for k in SUMMARY_RANK_METRICS}}
            )
    ranks, pairs = ranks_table(pd.DataFrame(rows))
    lines = exploratory_markdown(ranks, pairs, SUMMARY_TABLE_METRICS, baseline="MAX-SIM").splitlines()
    assert lines[0].startswith("- Best by mean rank over 6 screens: by AUC[ROC] GBM-rank and GBM (1.50); ")
    assert lines[0].endswith("; by DCG@100 GBM-rank and GBM (1.50).")
    assert not any("'s pick" in line for line in lines)
    assert lines[1].startswith("- MAX-SIM's place by mean rank: AUC[ROC] 3-4 (tied) of 4; ")
    assert lines[2].startswith("- By EF 1%, MAX-SIM is significantly below 0 of the 3 other rankers")
    # a baseline the ranks lack, and metrics without EF 1%: those lines are left out, not an error
    assert len(exploratory_markdown(ranks, pairs, SUMMARY_TABLE_METRICS, baseline="RANDOM").splitlines()) == 1
    no_ef = [m for m in SUMMARY_TABLE_METRICS if m != "ef_1pct"]
    assert len(exploratory_markdown(ranks, pairs, no_ef, baseline="MAX-SIM").splitlines()) == 2


def test_repeat_means_bounds_are_the_lowest_and_highest_repeat_in_place_of_the_intervals():
    """Three repeats of one screen and ranker, each with its own 95% interval: with bounds, the value is the mean
    (0.7, 0.9, 0.8 give 0.8) and its bounds the lowest and highest repeat (0.7, 0.9), not any repeat's interval."""
    from crocbench.report import repeat_means

    per_repeat = pd.DataFrame(
        {"dataset": ["s"] * 3, "model": ["A"] * 3, "repeat": [0, 1, 2], "roc": [0.7, 0.9, 0.8],
         "roc_low": [0.6, 0.85, 0.75], "roc_high": [0.75, 0.95, 0.85], "ef": [2.0, 4.0, 3.0]}
    )  # fmt: skip
    row = repeat_means(per_repeat, bounds=True).iloc[0]
    assert list(row.index) == ["dataset", "model", "roc", "roc_low", "roc_high", "ef", "ef_low", "ef_high"]
    assert [row[c] for c in row.index[2:]] == pytest.approx([0.8, 0.7, 0.9, 3.0, 2.0, 4.0])
    plain = repeat_means(per_repeat).iloc[0]  # without bounds, every column's mean, the intervals' too
    assert [plain[c] for c in ("roc", "roc_low", "roc_high")] == pytest.approx([0.8, 0.7333333, 0.85])


def test_the_spread_of_a_ranker_equal_in_every_repeat_is_exactly_zero():
    """A deterministic ranker (the same values in each of 3 repeats: 0.7 and 0.1, whose SD about their float mean is
    1.4e-16 and 1.7e-17) has an SD of exactly 0 on every screen and over the panel; a ranker that moves keeps its
    SD: 0.6, 0.8, 0.7 give 0.1."""
    from crocbench.report.findings import repeat_spread, spread_markdown

    rows = [
        {"dataset": d, "model": "fixed", "repeat": r, "roc": v} for r in range(3) for d, v in (("s", 0.7), ("t", 0.1))
    ]
    rows += [{"dataset": d, "model": "moving", "repeat": r, "roc": 0.6 + 0.1 * r} for r in (0, 2, 1) for d in "st"]
    spread = repeat_spread(pd.DataFrame(rows), ["roc"]).set_index("model")
    assert spread.loc["fixed", ["sd_mean", "sd_max", "panel_sd"]].tolist() == [0.0, 0.0, 0.0]
    assert spread.loc["moving", ["sd_mean", "sd_max", "panel_sd"]].tolist() == pytest.approx([0.1, 0.1, 0.1])
    lines = spread_markdown(spread.reset_index()).splitlines()
    assert lines[2:] == ["| fixed | AUC[ROC] | 0 | 0 | 0 |", "| moving | AUC[ROC] | 0.1 | 0.1 (s) | 0.1 |"]


def test_with_repeats_the_family_is_tested_on_their_means_and_each_repeat_counted_on_its_own():
    """Nine screens, three repeats. Repeats 0 and 2: A ahead of B by 0.05 on every screen; repeat 1: by 0.03 on five
    and behind by 0.01 on four. Their means, A ahead by 0.13 / 3 or 0.09 / 3 on every screen: 9-0, Wilcoxon p =
    2/512, the whole interval beyond 0.01. Repeats 0 and 2 alone give that verdict too; repeat 1 alone (5-4) finds
    no difference."""
    from crocbench.report import repeat_means
    from crocbench.report.findings import repeats_agreeing

    spec = {**SPEC, "pairs": [["A", "B"]], "metrics": ["roc"], "metric_of_record": "roc", "thresholds": {"roc": 0.01}}
    questions = Questions.from_dict(spec)
    rows = []
    for i in range(9):
        rows.append({"dataset": f"s{i}", "model": "B", "repeat": 0, "roc": 0.7 + 0.01 * i})
        rows.append({"dataset": f"s{i}", "model": "A", "repeat": 0, "roc": 0.75 + 0.01 * i})
        rows.append({"dataset": f"s{i}", "model": "B", "repeat": 1, "roc": 0.7 + 0.01 * i})
        rows.append({"dataset": f"s{i}", "model": "A", "repeat": 1, "roc": 0.7 + 0.01 * i + (0.03 if i < 5 else -0.01)})
        rows.append({"dataset": f"s{i}", "model": "B", "repeat": 2, "roc": 0.7 + 0.01 * i})
        rows.append({"dataset": f"s{i}", "model": "A", "repeat": 2, "roc": 0.75 + 0.01 * i})
    per_repeat = pd.DataFrame(rows)
    means = repeat_means(per_repeat)
    a = means[means["model"] == "A"]["roc"].to_numpy()
    b = means[means["model"] == "B"]["roc"].to_numpy()
    assert a - b == pytest.approx([0.13 / 3] * 5 + [0.09 / 3] * 4)
    family = repeats_agreeing(per_repeat, questions, family_table(means, questions))
    row = family.iloc[0]
    assert (row["wins"], row["losses"]) == (9, 0) and row["p_value"] == pytest.approx(2 / 512)
    assert row["effect"] == pytest.approx((5 * 0.13 + 4 * 0.09) / 27) and row["verdict"] == VERDICTS[0]
    assert (row["repeats"], row["agreeing"]) == (3, 2)
    one = family_table(per_repeat[per_repeat["repeat"] == 1].drop(columns="repeat"), questions).iloc[0]
    assert (one["wins"], one["losses"], one["verdict"]) == (5, 4, VERDICTS[2])
    assert family_markdown(family, questions).splitlines()[2].endswith("| 2 of 3 |")
    assert "same in repeats" in family_markdown(family, questions).splitlines()[0]
    assert "the same in 2 of 3 repeats on their own" in answers_markdown(_ranks(means, ["roc"]), family, questions)


def test_the_spread_over_repeats_per_screen_and_of_the_panel_mean_by_hand():
    """Two rankers, three screens, three repeats. A: screen s0 0.5, 0.6, 0.7 (SD 0.1), s1 0.2, 0.2, 0.2 (SD 0),
    s2 0.4, 0.1, 0.4 (SD sqrt(0.03)); its panel means per repeat 1.1/3, 0.9/3, 1.3/3 (SD 0.2/3). B is the same
    on every repeat: no spread. Checked against statistics.stdev as well."""
    import statistics

    from crocbench.report.findings import repeat_spread, spread_markdown

    values = {"A": {"s0": [0.5, 0.6, 0.7], "s1": [0.2, 0.2, 0.2], "s2": [0.4, 0.1, 0.4]},
              "B": {"s0": [0.3] * 3, "s1": [0.9] * 3, "s2": [0.5] * 3}}  # fmt: skip
    rows = [
        {"dataset": d, "model": m, "repeat": r, "roc": v, "ef_1pct": 10 * v}
        for m, screens in values.items()
        for d, vs in screens.items()
        for r, v in enumerate(vs)
    ]
    table = repeat_spread(pd.DataFrame(rows), ["roc", "ef_1pct"])
    assert list(zip(table["model"], table["metric"])) == [
        ("A", "roc"),
        ("A", "ef_1pct"),
        ("B", "roc"),
        ("B", "ef_1pct"),
    ]
    a = table.iloc[0]
    assert (a["repeats"], a["screens"]) == (3, 3)
    assert a["sd_mean"] == pytest.approx((0.1 + 0 + 0.03**0.5) / 3)
    assert a["sd_max"] == pytest.approx(0.03**0.5) and a["sd_max_screen"] == "s2"
    assert a["panel_sd"] == pytest.approx(0.2 / 3) == statistics.stdev([1.1 / 3, 0.9 / 3, 1.3 / 3])
    assert table.iloc[1]["sd_mean"] == pytest.approx(10 * a["sd_mean"])
    assert table.iloc[2][["sd_mean", "sd_max", "panel_sd"]].tolist() == pytest.approx([0, 0, 0], abs=1e-12)
    lines = spread_markdown(table).splitlines()
    assert "3 repeats, mean over 3 screens" in lines[0] and len(lines) == 2 + 4
    assert lines[2] == "| A | AUC[ROC] | 0.0911 | 0.173 (s2) | 0.0667 |"
    with pytest.raises(ValueError, match="two or more repeats"):
        repeat_spread(pd.DataFrame(rows).query("repeat == 0"), ["roc"])


def test_the_novel_actives_across_screens_their_means_and_the_family_on_them_exploratory():
    """Nine screens' memorization tables: on the novel actives A is ahead of B by 0.05 (CROC) on every screen, and
    the top-100 EF is undefined on one screen's novel actives."""
    from crocbench.report.findings import novel_markdown, stratum_datasets

    tables = {}
    for i in range(9):
        rows = []
        for model, croc in (("A", 0.30 + 0.01 * i), ("B", 0.25 + 0.01 * i)):
            for stratum, actives, scale in (("all", 50, 1.5), ("novel", 10 + i, 1.0)):
                ef = np.nan if (stratum == "novel" and i == 4) else 3.0 * scale
                rows += [
                    {
                        "model": model,
                        "stratum": stratum,
                        "actives": actives,
                        "key": "croc_exp_80",
                        "value": croc * scale,
                    },
                    {"model": model, "stratum": stratum, "actives": actives, "key": "ef_1pct", "value": ef},
                ]
        tables[f"s{i}"] = pd.DataFrame(rows)
    novel = stratum_datasets(tables)
    assert novel["dataset"].tolist() == [f"s{i}" for i in range(9) for _ in range(2)]
    assert novel["actives"].tolist() == [10 + i for i in range(9) for _ in range(2)]
    assert novel[novel["model"] == "A"]["croc_exp_80"].tolist() == pytest.approx([0.30 + 0.01 * i for i in range(9)])
    spec = {**SPEC, "pairs": [["A", "B"]], "metrics": ["croc_exp_80", "ef_1pct"]}
    spec["thresholds"] = {"croc_exp_80": 0.01, "ef_1pct": 1.0}
    text = novel_markdown(novel, spec)
    assert "Novel actives (every training active below the novel threshold): 126 over 9 screens, 10 to 18" in text
    assert "| A | 0.3400 |" in text and "| B | 0.2900 |" in text  # means over the screens: 0.30 + 0.04, 0.25 + 0.04
    assert "exploratory: the family was declared on all the actives" in text
    assert "| A vs B | AUC[CROC(exp)] a=80 | 9-0 | +0.05 [" in text and "(1 tests)" in text
    assert "Not defined on every screen's novel actives: EF 1%." in text


def test_a_screen_without_novel_actives_has_none_and_no_values():
    from crocbench.report.findings import novel_markdown, stratum_datasets

    t = pd.DataFrame({"model": ["A", "B"], "stratum": "all", "actives": 5, "key": "roc", "value": [0.8, 0.7]})
    novel = stratum_datasets({"s1": t})
    assert novel["actives"].tolist() == [0, 0] and novel["roc"].isna().all()
    text = novel_markdown(novel, {**SPEC, "metrics": ["roc"], "thresholds": {"roc": 0.01}, "metric_of_record": "roc"})
    assert "0 over 1 screens" in text and "Not defined on every screen's novel actives: AUC[ROC]." in text


def test_the_novel_family_stands_when_the_metric_of_record_is_undefined_there():
    from crocbench.report.findings import novel_markdown

    novel = _panel(
        {
            "A": {"ef_1pct": [5.0, np.nan, 4.0], "roc": [0.8, 0.7, 0.75]},
            "B": {"ef_1pct": [3.0, 2.0, np.nan], "roc": [0.7, 0.6, 0.7]},
        }
    )
    novel.insert(2, "actives", 4)
    spec = {**SPEC, "pairs": [["A", "B"]], "metric_of_record": "ef_1pct", "metrics": ["ef_1pct", "roc"]}
    spec["thresholds"] = {"ef_1pct": 1.0, "roc": 0.01}
    text = novel_markdown(novel, spec)
    assert "| A vs B | AUC[ROC] | 3-0 |" in text and "Not defined on every screen's novel actives: EF 1%." in text
    assert "| A | 4.5000 | 0.7500 |" in text  # EF: the mean of the screens where it is defined


def test_the_pains_family_with_repeats_is_tested_on_their_means():
    from crocbench.report.findings import pains_markdown

    counts = pd.DataFrame(
        [{"dataset": f"s{i}", "compounds": 100, "flagged": 5, "actives": 10, "flagged_actives": 1} for i in range(9)]
    )
    rows = []
    for r, gap in ((0, 0.05), (1, -0.01)):
        for i in range(9):
            rows += [
                {"dataset": f"s{i}", "model": "A", "roc": 0.7 + 0.01 * i + gap, "repeat": r},
                {"dataset": f"s{i}", "model": "B", "roc": 0.7 + 0.01 * i, "repeat": r},
            ]
    spec = {**SPEC, "pairs": [["A", "B"]], "metric_of_record": "roc", "metrics": ["roc"], "thresholds": {"roc": 0.01}}
    text = pains_markdown(counts, pd.DataFrame(rows), spec)
    # means: A ahead by 0.02 on every screen, 9-0; repeat 0 agrees, repeat 1 (B ahead 9-0) does not
    assert "(their means over the 2 repeats):" in text and "| A vs B | AUC[ROC] | 9-0 | +0.02 [" in text
    assert text.rstrip().endswith("| 1 of 2 |")

"""crocbench.reference: a run's tables against the committed reference, cell by cell; the README's tables and
the ``<!-- reference:NAME -->`` blocks, on small tables written here."""

import json
import re
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from crocbench.cli import main
from crocbench.pages import readme_tables, reference_blocks, update_readme
from crocbench.reference import (
    SUMMARY_FILES,
    added_screens,
    compare,
    compare_run,
    write_reference,
)

# --- compare: which cells moved, and how it says so ---------------------------------------------------------


def test_compare_floats_to_a_relative_tolerance_and_everything_else_exactly():
    ref = pd.DataFrame({"model": ["IRV", "SVM"], "roc": [0.8, 0.0], "top1000": [641, 625], "C": ["1", "10"]})
    assert compare(ref.copy(), ref, "areas.tsv") == []
    # 0.8 * (1 + 5e-10) is within 1e-9 relative; 1e-13 is within the absolute floor 1e-12 around 0
    assert compare(ref.assign(roc=[0.8 * (1 + 5e-10), 1e-13]), ref, "areas.tsv") == []
    assert compare(ref.assign(roc=[0.8 * (1 + 2e-9), 2e-12]), ref, "areas.tsv") == [
        "areas.tsv: roc moved in 2 of 2 rows",
        f"  IRV: 0.8 -> {0.8 * (1 + 2e-9)!r}",
        "  SVM: 0.0 -> 2e-12",
    ]
    assert compare(ref.assign(top1000=[641, 626], C=["1", "100"]), ref, "areas.tsv") == [
        "areas.tsv: top1000 moved in 1 of 2 rows",
        "  SVM: 625 -> 626",
        "areas.tsv: C moved in 1 of 2 rows",
        "  SVM: '10' -> '100'",
    ]
    nan = ref.assign(roc=[np.nan, 0.0])
    assert compare(nan, nan.copy(), "areas.tsv") == []  # NaN where the reference has NaN: unchanged
    assert compare(ref, nan, "areas.tsv")[0] == "areas.tsv: roc moved in 1 of 2 rows"
    inf = ref.assign(roc=[np.inf, -np.inf])  # an Iman-Davenport F of screens whose ranks all agree
    assert compare(inf, inf.copy(), "ranks.tsv") == []
    assert compare(ref.assign(roc=[np.inf, 0.0]), inf, "ranks.tsv")[0] == "ranks.tsv: roc moved in 1 of 2 rows"
    # looser tolerances on request (a table recomputed from 10 significant digits): 0.8 * (1 + 5e-7) within 1e-6
    # relative, 5e-9 within 1e-8 absolute; 0.8 * (1 + 2e-6) and 2e-8 not
    loose = {"rtol": 1e-6, "atol": 1e-8}
    assert compare(ref.assign(roc=[0.8 * (1 + 5e-7), 5e-9]), ref, "ranks.tsv", **loose) == []
    assert compare(ref.assign(roc=[0.8 * (1 + 2e-6), 2e-8]), ref, "ranks.tsv", **loose)[0] == (
        "ranks.tsv: roc moved in 2 of 2 rows"
    )


def test_compare_names_rows_by_their_keys_and_lists_at_most_eight_cells():
    ref = pd.DataFrame({"a": ["IRV"] * 10, "b": ["SVM"] * 10, "metric": [f"m{i}" for i in range(10)], "p": 0.5})
    lines = compare(ref.assign(p=0.25), ref, "significance.tsv")
    assert lines[0] == "significance.tsv: p moved in 10 of 10 rows"
    assert lines[1:3] == ["  IRV / SVM / m0: 0.5 -> 0.25", "  IRV / SVM / m1: 0.5 -> 0.25"]
    assert len(lines) == 1 + 8 + 1 and lines[-1] == "  ... and 2 more"


def test_compare_reports_changed_columns_and_rows_in_one_line():
    ref = pd.DataFrame({"model": ["IRV", "SVM"], "roc": [0.8, 0.9]})
    assert compare(ref.rename(columns={"roc": "auc"}), ref, "areas.tsv") == [
        "areas.tsv: columns changed (missing: roc; new: auc)"
    ]
    assert compare(ref.iloc[:1], ref, "areas.tsv") == ["areas.tsv: 1 rows, reference 2"]


def test_the_svm_folds_inner_values_have_their_own_absolute_tolerance():
    ref = pd.DataFrame({"fold": [0, 1], "inner_roc": [0.85, 0.86], "C": [1.0, 1.0]})
    assert compare(ref.assign(inner_roc=[0.85 + 9e-7, 0.86]), ref, "svm_folds.tsv") == []  # 1e-6 absolute
    assert compare(ref.assign(inner_roc=[0.85 + 2e-6, 0.86]), ref, "svm_folds.tsv")[0] == (
        "svm_folds.tsv: inner_roc moved in 1 of 2 rows"
    )
    assert compare(ref.assign(C=[1.0 + 1e-8, 1.0]), ref, "svm_folds.tsv") != []  # other columns: 1e-9 relative


# --- a panel's reference: written, compared, --check ---------------------------------------------------------


def test_write_reference_then_compare_run_and_check(tmp_path, capsys):
    """A panel's summary written into a new reference, compared with it (equal), then a summary of the same screens
    whose IRV scored higher (shift): compare_run and --check name what moved (the IRV's rows of datasets.tsv: 2 of
    its 10), --check writes nothing, and a refresh says the same and writes a table the reference lacked."""
    summary, ref = tmp_path / "summary", tmp_path / "ref"
    _panel_summary(summary, ["s1", "s2"])
    written = write_reference(summary, ref)
    assert sorted(p.name for p in written) == sorted([*SUMMARY_FILES, "manifest.yaml"])
    assert all(v == ["new"] for v in written.values())
    assert compare_run(summary, ref) == dict.fromkeys(SUMMARY_FILES, [])
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 0
    _panel_summary(summary, ["s1", "s2"], shift=0.5)
    moved = compare_run(summary, ref)
    assert moved["datasets.tsv"][0] == "datasets.tsv: roc moved in 2 of 10 rows"
    assert all(line.startswith(("  s1 / IRV: ", "  s2 / IRV: ")) for line in moved["datasets.tsv"][1:3])
    capsys.readouterr()
    before = (ref / "datasets.tsv").read_text()
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 1
    assert "datasets.tsv: roc moved in 2 of 10 rows" in capsys.readouterr().out
    assert (ref / "datasets.tsv").read_text() == before  # --check wrote nothing
    (ref / "ranks.tsv").unlink()
    assert compare_run(summary, ref)["ranks.tsv"] == [f"ranks.tsv: not in the reference {ref}"]
    again = write_reference(summary, ref)  # a refresh says what moved
    assert again[ref / "datasets.tsv"] == moved["datasets.tsv"]
    assert again[ref / "ranks.tsv"] == ["new"]


# --- a panel's reference screen by screen (--add) -----------------------------------------------------------


#: Each distinct summary :func:`_panel_summary` wrote, by its arguments: ``{path in the summary: bytes}``.
_SUMMARIES: dict = {}


def _panel_summary(folder, screens, seed=0, shift=0.0, repeats=1, pains=False, across=True):
    """A panel's summary of real tables: each screen's pooled values of the paper's five rankers on scores drawn
    per screen (``shift`` moves the IRV's scores), its claims on its table 1, and the tables across its screens
    computed as the summary rules compute them (ranks, Wilcoxon and Conover from the datasets table; here from its
    10 digits, so that a tie of two differences is one in every run: the committed reference's own tables are
    recomputed from its 10 digits below). With ``repeats`` above 1, each repeat's values drawn anew
    (``datasets_repeats.tsv``; ``datasets.tsv`` is repeat 0's) and the ranks and tests on their means; with
    ``pains``, each screen's PAINS counts and its values without them (here: repeat 0's values less 0.01). Without
    ``across``, a summary of its screens only (the target ``screen_tables``): no tables across the screens, and a
    design naming the ranked runs.

    Each distinct summary is computed once per test process and written to ``folder`` from its bytes.
    """
    key = (tuple(screens), seed, shift, repeats, pains, across)
    if key not in _SUMMARIES:
        with tempfile.TemporaryDirectory() as scratch:
            built = _build_panel_summary(Path(scratch) / "summary", screens, seed, shift, repeats, pains, across)
            _SUMMARIES[key] = {p.relative_to(built): p.read_bytes() for p in sorted(built.rglob("*")) if p.is_file()}
    for path, data in _SUMMARIES[key].items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    return folder


def _build_panel_summary(folder, screens, seed, shift, repeats, pains, across):
    """:func:`_panel_summary`'s tables, computed and written to ``folder``."""
    from crocbench.models import LABELS
    from crocbench.paper import PAPER_MODELS, claims_across, screen_claims
    from crocbench.report import areas_table, conover_table, datasets_table, metric_set_for, ranks_table, repeat_means

    names = {m: LABELS[m] for m in PAPER_MODELS}
    tables, areas, per_repeat = [], {}, []
    for screen in screens:
        for r in range(repeats):
            rng = np.random.default_rng([seed, int(screen[1:]), *([r] if r else [])])
            y = (np.arange(300) < 30).astype(int)
            run = {}
            for k, m in enumerate(PAPER_MODELS):
                score = rng.normal(size=300) + y * (0.4 * k + (shift if m == "irv" else 0.0))
                run[names[m]] = pd.DataFrame({"id": np.arange(300), "label": y, "score": score})
            table = datasets_table({screen: run})
            per_repeat.append(table.assign(repeat=r))
            if r == 0:
                tables.append(table)
                areas[screen] = areas_table(run, metric_set_for(run[names["irv"]], 10))
    (folder / "tables").mkdir(parents=True, exist_ok=True)  # the values as the summary writes them (10 digits)
    pd.concat(tables, ignore_index=True).to_csv(folder / "tables" / "datasets.tsv", sep="\t", float_format="%.10g")
    datasets = pd.read_csv(folder / "tables" / "datasets.tsv", sep="\t", index_col=0)
    values = datasets
    if repeats > 1:
        path = folder / "tables" / "datasets_repeats.tsv"
        pd.concat(per_repeat, ignore_index=True).to_csv(path, sep="\t", index=False, float_format="%.10g")
        values = repeat_means(pd.read_csv(path, sep="\t"))
    if pains:
        counts = pd.DataFrame({"dataset": screens, "compounds": 300, "flagged": 7, "actives": 30, "flagged_actives": 1})
        counts.to_csv(folder / "tables" / "pains.tsv", sep="\t", index=False)
        kept = datasets.assign(repeat=0, roc=datasets["roc"] - 0.01)
        kept.to_csv(folder / "tables" / "datasets_without_pains.tsv", sep="\t", index=False, float_format="%.10g")
    per_screen = screen_claims(areas, {}, names)
    if not across:
        per_screen.to_csv(folder / "tables" / "claims_per_screen.tsv", sep="\t", index=False)
        datasets.to_csv(folder / "tables" / "datasets.tsv", sep="\t", index=False, float_format="%.10g")
        (folder / "tables" / "design.yaml").write_text(yaml.safe_dump({"ranked": list(names.values())}))
        return folder
    ranks, pairs = ranks_table(values)
    out = {
        "datasets.tsv": datasets,
        "ranks.tsv": ranks,
        "wilcoxon.tsv": pairs,
        "conover.tsv": conover_table(values),
        "claims.tsv": claims_across(per_screen, datasets, names),
        "claims_per_screen.tsv": per_screen,
    }
    for name, table in out.items():
        table.to_csv(folder / "tables" / name, sep="\t", index=False, float_format="%.10g")
    return folder


def test_a_panels_reference_grows_screen_by_screen_into_the_reference_of_one_run(tmp_path, capsys):
    whole = _panel_summary(tmp_path / "whole" / "summary", ["s1", "s2", "s3", "s4", "s5", "s6"])
    first = _panel_summary(tmp_path / "first" / "summary", ["s1", "s2", "s3", "s4"])
    rest = _panel_summary(tmp_path / "rest" / "summary", ["s5", "s6"])
    one, grown = tmp_path / "one", tmp_path / "grown"
    write_reference(whole, one)
    write_reference(first, grown)
    assert main(["reference", str(rest), "--out", str(grown), "--add"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {grown / 'datasets.tsv'}:\ndatasets.tsv: 30 rows, reference 20" in out
    for name in SUMMARY_FILES:  # six screens in two runs: the reference of the six in one run
        assert compare(pd.read_csv(grown / name, sep="\t"), pd.read_csv(one / name, sep="\t"), name) == [], name
    assert pd.read_csv(grown / "ranks.tsv", sep="\t")["datasets"].eq(6).all()
    two = tmp_path / "two"  # a summary of every screen the reference holds is taken as it is (its pooled claims too)
    write_reference(rest, two)
    taken = added_screens(whole, two)
    assert all(taken[n].equals(pd.read_csv(whole / "tables" / n, sep="\t")) for n in SUMMARY_FILES)
    # a screen again replaces its rows in place; the tables across the screens follow it
    again = _panel_summary(tmp_path / "again" / "summary", ["s2", "s5"], seed=1, shift=3.0)
    tables = added_screens(again, grown)
    d = tables["datasets.tsv"]
    assert list(dict.fromkeys(d["dataset"])) == ["s1", "s2", "s3", "s4", "s5", "s6"]
    fresh = pd.read_csv(again / "tables" / "datasets.tsv", sep="\t")
    assert d[d["dataset"] == "s2"]["roc"].tolist() == fresh[fresh["dataset"] == "s2"]["roc"].tolist()
    irv = tables["ranks.tsv"].query("metric == 'roc' and model == 'IRV'")["mean_rank"].iloc[0]
    rocs = d.pivot(index="dataset", columns="model", values="roc")  # by hand: the IRV's rank per screen
    assert irv == pytest.approx((rocs.rank(axis=1, ascending=False)["IRV"]).mean())
    # what cannot be added is refused in one line, and nothing is written
    before = (grown / "ranks.tsv").read_text()
    moved = pd.read_csv(again / "tables" / "ranks.tsv", sep="\t")
    moved.loc[0, "mean_rank"] += 0.5  # not what its datasets table gives (e.g. means over repeats)
    moved.to_csv(again / "tables" / "ranks.tsv", sep="\t", index=False)
    assert main(["reference", str(again), "--out", str(grown), "--add"]) == 2
    assert "its ranks.tsv is not what its datasets.tsv gives" in capsys.readouterr().err
    assert main(["reference", str(again), "--out", str(tmp_path / "fresh")]) == 2  # nor written as it is
    assert "its ranks.tsv is not what its datasets.tsv gives" in capsys.readouterr().err
    assert not (tmp_path / "fresh").exists()
    fewer = _panel_summary(tmp_path / "fewer" / "summary", ["s7"], across=False)  # a screen of four rankers
    table = pd.read_csv(fewer / "tables" / "datasets.tsv", sep="\t").query("model != 'kNN'")
    table.to_csv(fewer / "tables" / "datasets.tsv", sep="\t", index=False)
    (fewer / "tables" / "design.yaml").write_text(yaml.safe_dump({"ranked": ["RANDOM", "MAX-SIM", "SVM", "IRV"]}))
    assert main(["reference", str(fewer), "--out", str(grown), "--add"]) == 2
    assert "a screen is added to a panel of the same rankers" in capsys.readouterr().err
    assert main(["reference", str(rest), "--out", str(tmp_path / "none"), "--add"]) == 2
    assert "no panel reference to add screens to" in capsys.readouterr().err
    assert (grown / "ranks.tsv").read_text() == before


def test_the_ecfp_panels_tables_across_the_screens_are_what_its_screens_rows_give():
    """What --add recomputes, on the committed reference: ranks, Conover and every Wilcoxon record and p-value as
    the summary computed them from full precision; the mean differences to the 10 digits the rows keep."""
    from crocbench.reference import across_screens

    ref = Path(__file__).resolve().parents[1] / "results" / "reference" / "pubchem_hts_ecfp"
    read = lambda name: pd.read_csv(ref / name, sep="\t")  # noqa: E731
    ranked = list(dict.fromkeys(read("ranks.tsv")["model"]))
    own = across_screens(read("datasets.tsv"), read("claims_per_screen.tsv"), ranked)
    assert compare(own["ranks.tsv"], read("ranks.tsv"), "ranks.tsv") == []
    assert compare(own["conover.tsv"], read("conover.tsv"), "conover.tsv") == []
    pairs, want = own["wilcoxon.tsv"], read("wilcoxon.tsv")
    exact = [c for c in want.columns if c != "mean_difference"]
    assert compare(pairs[exact], want[exact], "wilcoxon.tsv") == []
    assert np.allclose(pairs["mean_difference"], want["mean_difference"], rtol=0, atol=1e-8)  # DCG ~10: 1e-9 each
    claims = own["claims.tsv"].set_index("id")
    assert claims.loc["paired_more_powerful", "evidence"] == "not checked"  # it pools every screen's table 2
    rest = [c for c in read("claims.tsv")["id"] if c != "paired_more_powerful"]
    assert (
        compare(claims.loc[rest].reset_index(), read("claims.tsv").set_index("id").loc[rest].reset_index(), "c") == []
    )


@pytest.mark.parametrize("panel", ["fair_random", "pubchem_hts_confirmed"])
def test_recompute_gives_an_older_references_pairs_their_intervals_and_leaves_the_rest(tmp_path, capsys, panel):
    """A committed reference's wilcoxon.tsv without its interval columns (as written before they joined):
    ``--recompute`` writes them back, from each screen's mean over the repeats where it has repeats (fair_random:
    3) and its values where not (pubchem_hts_confirmed: the paper's five, with the claims). Each pair's mean
    difference is the mean over the screens of the two rankers' values, computed here with pandas; its interval is
    :func:`crocbench.stats.paired_effect`'s of those values. The other tables across the screens are left as they
    are, byte for byte. One claim's evidence made stale is written again, its interval the same paired_effect's
    (of the first repeat's values, which the claims read), and the paired claim's pooled evidence (which a reference cannot recompute) stays."""
    from crocbench.stats import paired_effect

    ref = tmp_path / panel
    shutil.copytree(Path(__file__).resolve().parents[1] / "results" / "reference" / panel, ref)
    pairs = pd.read_csv(ref / "wilcoxon.tsv", sep="\t")
    pairs.drop(columns=["low", "high"]).to_csv(ref / "wilcoxon.tsv", sep="\t", index=False)
    others = {n: (ref / n).read_bytes() for n in ("ranks.tsv", "conover.tsv") if (ref / n).is_file()}
    claims = pd.read_csv(ref / "claims.tsv", sep="\t").set_index("id")
    paired = claims.loc["paired_more_powerful"].copy()
    claims.loc["croc_significant_roc_not", "evidence"] = "stale"
    claims.reset_index().to_csv(ref / "claims.tsv", sep="\t", index=False)
    assert main(["reference", str(ref), "--recompute"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {ref / 'wilcoxon.tsv'}:\nwilcoxon.tsv: columns changed (missing: none; new: low, high)" in out
    assert f"{ref / 'ranks.tsv'}: unchanged (left as it is)" in out
    assert all((ref / n).read_bytes() == held for n, held in others.items())
    got = pd.read_csv(ref / "wilcoxon.tsv", sep="\t")
    assert list(got.columns[6:9]) == ["mean_difference", "low", "high"]
    repeats = ref / "datasets_repeats.tsv"
    values = pd.read_csv(repeats if repeats.is_file() else ref / "datasets.tsv", sep="\t")
    means = values.groupby(["dataset", "model"], sort=False).mean(numeric_only=True)
    for row in got.sample(12, random_state=0).itertuples():
        wide = means[row.metric].unstack("model")
        effect = paired_effect(wide[row.a].to_numpy(), wide[row.b].to_numpy())
        assert row.mean_difference == pytest.approx((wide[row.a] - wide[row.b]).mean(), rel=1e-8, abs=1e-10)
        assert (row.low, row.high) == pytest.approx((effect.low, effect.high), rel=1e-9, abs=1e-12)
    claims = pd.read_csv(ref / "claims.tsv", sep="\t").set_index("id")
    assert claims.loc["paired_more_powerful"].equals(paired)
    first = pd.read_csv(ref / "datasets.tsv", sep="\t")  # the claims read the first repeat's values
    wide = first.pivot(index="dataset", columns="model", values="croc_exp_80").loc[first["dataset"].unique()]
    irv, svm = wide["IRV"].to_numpy(), wide["SVM"].to_numpy()
    models = list(dict.fromkeys(first["model"]))
    # the tests run in the table's order of screens and of rankers (SVM before IRV: SVM - IRV, turned round)
    if models.index("SVM") < models.index("IRV"):
        e = paired_effect(svm, irv)
        effect = (-e.mean, -e.high, -e.low)
    else:
        effect = paired_effect(irv, svm)[:3]
    stated = re.match(
        r"IRV - SVM croc_exp_80 (\S+) \[(\S+), (\S+)\], (\d+)/(\d+) screens, Holm p ",
        claims.loc["croc_significant_roc_not", "evidence"],
    )
    assert [float(v) for v in stated.groups()[:3]] == pytest.approx(list(effect), abs=0.00006)  # 4 decimals
    assert stated.groups()[3:] == (str(int((irv > svm).sum())), str(len(irv)))
    assert main(["reference", str(ref), "--recompute"]) == 0  # done: nothing moves
    assert "wrote" not in capsys.readouterr().out


def test_recompute_refuses_a_folder_without_tables_across_screens_and_extra_flags(tmp_path, capsys):
    assert main(["reference", str(tmp_path), "--recompute"]) == 2
    assert capsys.readouterr().err == (
        f"crocbench: error: {tmp_path}: no panel reference with tables across its screens (ranks.tsv) to recompute\n"
    )
    assert main(["reference", str(tmp_path), "--recompute", "--out", "x"]) == 2
    assert "leave out --out" in capsys.readouterr().err
    assert main(["reference", str(tmp_path), "--recompute", "--readme", "README.md"]) == 2
    assert "leave out --readme" in capsys.readouterr().err


def test_a_panels_pages_refuse_a_wilcoxon_table_without_intervals_in_one_line(tmp_path):
    """A reference written before the pairs' intervals joined: its pages would state p-values without them."""
    from crocbench.pages._tables import document_tables

    ref = tmp_path / "pubchem_hts"
    shutil.copytree(Path(__file__).resolve().parents[1] / "results" / "reference" / "pubchem_hts", ref)
    pairs = pd.read_csv(ref / "wilcoxon.tsv", sep="\t").drop(columns=["low", "high"])
    pairs.to_csv(ref / "wilcoxon.tsv", sep="\t", index=False)
    with pytest.raises(ValueError) as info:
        document_tables(ref)
    assert str(info.value) == (
        f"{ref / 'wilcoxon.tsv'} has no interval of its differences (low, high): run crocbench reference {ref} "
        "--recompute"
    )


# --- the README's tables and their blocks ----------------------------------------------------------------------


def _dtp_reference(folder):
    """A dataset's reference with two anchors and three rankers' pooled areas."""
    from crocbench.reference import Manifest, write_manifest

    folder.mkdir(parents=True, exist_ok=True)
    write_manifest(Manifest(folder, kind="paper", split="random", labels="paper"))
    pd.DataFrame(
        {
            "id": ["svm_roc", "irv_top"],
            "model": ["svm", "irv"],
            "metric": ["roc", "top1000"],
            "published": [0.852, 645.0],
            "reproduced": [0.85323556, 1234.5],
            "tolerance": [0.03, np.nan],
            "band_low": [np.nan, 1000.0],
            "band_high": [np.nan, 1500.0],
            "status": ["pass", "in band"],
            "note": ["", ""],
        }
    ).to_csv(folder / "published.tsv", sep="\t", index=False)
    pd.DataFrame(
        {
            "model": ["random (expected)", "SVM", "mine"],
            "roc": [0.5, 0.85323, 0.7],
            "croc_exp_80": [0.0125, 0.3842, 0.25],
            "top1000": [23.0, 625.0, 500.4],
        }
    ).to_csv(folder / "areas.tsv", sep="\t", index=False)
    keys = ["r_precision", "ap", "precision_at_1000", "loc_auc_0.01", "roc50_pooled", "roc50_per_query", "mrr"]
    rows = [
        {"model": model, "key": key, "label": key.upper(), "value": 0.1 * (m + 1) + 0.01 * k}
        for m, model in enumerate(["SVM", "mine"])
        for k, key in enumerate(reversed(keys))  # another order than the table's; mrr is not shown
    ]
    pd.DataFrame(rows).to_csv(folder / "other_metrics.tsv", sep="\t", index=False)
    return folder


def test_readme_tables_by_hand(tmp_path):
    tables = readme_tables(_dtp_reference(tmp_path / "reference"))
    # values: 4 significant digits, or whole with thousands separators from 1,000 on (1,234.5 to even: 1,234);
    # the paper's numbers from published.yaml (SVM: 0.852, 0.31, 616; the random classifier's expected a = 80
    # area: 0.0125); none for a model the paper did not run
    assert tables["published"] == "\n".join(
        [
            "| anchor | model | quantity | published | reproduced | tolerance (band) | status |",
            "|---|---|---|---|---|---|---|",
            "| svm_roc | svm | AUC[ROC] | 0.852 | 0.8532 | 0.03 | pass |",
            "| irv_top | irv | actives in top 1,000 | 645 | 1,234 | (1,000 to 1,500) | in band |",
        ]
    )
    assert tables["pooled"] == "\n".join(
        [
            "| model | AUC[ROC] | paper | AUC[CROC(exp)] a=80 | paper | actives in top 1,000 | paper |",
            "|---|---|---|---|---|---|---|",
            "| random (expected) | 0.500 |  | 0.013 | 0.0125 | 23.0 |  |",
            "| SVM | 0.853 | 0.852 | 0.384 | 0.31 | 625.0 | 616 |",
            "| mine | 0.700 |  | 0.250 |  | 500.4 |  |",
        ]
    )
    # table 1b's excerpt: the scoring guide's six metrics in their order, a row per model in the table's order
    assert tables["other_metrics"] == "\n".join(
        [
            "| model | R_PRECISION | AP | PRECISION_AT_1000 | LOC_AUC_0.01 | ROC50_POOLED | ROC50_PER_QUERY |",
            "|---|---|---|---|---|---|---|",
            "| SVM | 0.1600 | 0.1500 | 0.1400 | 0.1300 | 0.1200 | 0.1100 |",
            "| mine | 0.2600 | 0.2500 | 0.2400 | 0.2300 | 0.2200 | 0.2100 |",
        ]
    )


def test_reference_blocks_are_read_by_name():
    text = (
        "intro\n<!-- reference:pooled -->\n| a |\n| b |\n<!-- /reference:pooled -->\n"
        "<!-- reference:pubchem_hts/roc -->\n| c |\n<!-- /reference:pubchem_hts/roc -->\n"
        "<!-- reference:open -->\n| never closed |\n"
    )
    assert reference_blocks(text) == {"pooled": "| a |\n| b |", "pubchem_hts/roc": "| c |"}


def test_update_readme_rewrites_only_its_references_stale_blocks(tmp_path):
    ref = _dtp_reference(tmp_path / "reference")
    tables = readme_tables(ref)
    readme, page = tmp_path / "README.md", tmp_path / "page.md"
    readme.write_text(
        f"# x\n<!-- reference:published -->\n{tables['published']}\n<!-- /reference:published -->\ntail\n"
        "<!-- reference:pubchem_hts/roc -->\n| another reference's |\n<!-- /reference:pubchem_hts/roc -->\n"
        f"<!-- reference:other_metrics -->\n{tables['other_metrics']}\n<!-- /reference:other_metrics -->\n"
    )
    page.write_text("before\n<!-- reference:pooled -->\n| stale |\n<!-- /reference:pooled -->\nafter\n")
    before = readme.read_text()
    assert update_readme([readme, page], ref) == [(str(page), "pooled")]
    assert readme.read_text() == before  # up to date, and the panel's block left alone
    assert page.read_text() == (
        f"before\n<!-- reference:pooled -->\n{tables['pooled']}\n<!-- /reference:pooled -->\nafter\n"
    )
    assert update_readme([readme, page], ref) == []  # now nothing is stale
    with pytest.raises(ValueError, match="no <!-- reference:pooled --> block"):
        update_readme([readme], ref)
    page.write_text(
        "<!-- reference:pooled -->\n<!-- /reference:pooled -->\n<!-- reference:typo -->\n<!-- /reference:typo -->\n"
    )
    with pytest.raises(ValueError, match="block <!-- reference:typo --> names no table"):
        update_readme([readme, page], ref)


# --- a study of rankers: its own reference folder and its page's tables ------------------------------------------


def _study_run(folder, seed=0):
    """A run's tables of ten rankers on 400 compounds (the study's four files), as the workflow writes them."""
    from crocbench.report import (
        areas_table,
        intervals_table,
        metric_set_for,
        other_metrics_table,
        significance_table,
    )
    from crocbench.stats import TESTS

    rng = np.random.default_rng(seed)
    y = (rng.random(400) < 0.1).astype(int)
    names = ["RF", "GBM", "GBM-rank", "MLP", "MLP-exp", "RANDOM", "MAX-SIM", "kNN", "SVM", "IRV"]
    pooled = {
        m: pd.DataFrame(
            {"id": np.arange(400), "fold": np.arange(400) % 4, "label": y, "score": y * (i % 4) + rng.normal(size=400)}
        )
        for i, m in enumerate(names)
    }
    calls = metric_set_for(pooled["RF"], 50)
    tables = folder / "tables"
    tables.mkdir(parents=True)
    for name, frame in {
        "areas": areas_table(pooled, calls),
        "other_metrics": other_metrics_table(pooled, 50),
        "intervals": intervals_table(pooled, calls, n_resamples=100, seed=0),
        "significance": significance_table(pooled, calls, TESTS, n_samples=50, seed=0),
    }.items():
        frame.to_csv(tables / f"{name}.tsv", sep="\t", index=False, float_format="%.10g")
    return pooled


def test_a_studys_reference_and_its_page_tables(tmp_path, capsys):
    """`crocbench reference RUN --out DIR --study` keeps the study's four tables in a folder of its own; --check
    finds a moved interval; the page's tables: every ranker's values and intervals, the orders (checked against
    scikit-learn's AUC), each other ranker against the IRV and the SVM, and the pairs trained for the top, a pair
    standing the other way round in significance.tsv shown as asked."""
    from sklearn.metrics import roc_auc_score

    from crocbench.pages import study_tables
    from crocbench.reference import STUDY_FILES
    from crocbench.stats import TESTS

    run, ref = tmp_path / "results" / "dtp_aids", tmp_path / "reference" / "mystudy"
    pooled = _study_run(run)
    assert main(["reference", str(run), "--study"]) == 2
    assert "needs a folder of its own" in capsys.readouterr().err
    assert main(["reference", str(run), "--out", str(ref), "--study"]) == 0
    assert sorted(p.name for p in ref.iterdir()) == sorted([*STUDY_FILES, "manifest.yaml"])
    capsys.readouterr()
    assert main(["reference", str(run), "--out", str(ref), "--check"]) == 0  # a study folder is known as one
    moved = pd.read_csv(run / "tables" / "intervals.tsv", sep="\t")
    moved.loc[5, "low"] *= 1 + 1e-6
    moved.to_csv(run / "tables" / "intervals.tsv", sep="\t", index=False, float_format="%.10g")
    assert main(["reference", str(run), "--out", str(ref), "--check"]) == 1
    assert "intervals.tsv: low moved in 1 of" in capsys.readouterr().out
    dtp = tmp_path / "dtp_reference"
    dtp.mkdir()
    (dtp / "published.tsv").write_text("id\n")
    assert main(["reference", str(run), "--out", str(dtp), "--study"]) == 2
    assert "a study needs a folder of its own" in capsys.readouterr().err

    tables = study_tables(ref)
    assert sorted(tables) == [f"mystudy/{n}" for n in ("orders", "rankers", "top_training", "versus_paper")]
    auc = {m: roc_auc_score(p["label"], p["score"]) for m, p in pooled.items()}
    rows = [line.strip("| ").split(" | ") for line in tables["mystudy/rankers"].splitlines()[2:]]
    assert [r[0] for r in rows] == list(pooled) and len(rows[0]) == 5
    iv = pd.read_csv(ref / "intervals.tsv", sep="\t").set_index(["model", "key"])
    for r in rows:
        assert r[1] == f"{auc[r[0]]:.4f} [{iv.at[(r[0], 'roc'), 'low']:.3f}, {iv.at[(r[0], 'roc'), 'high']:.3f}]"
    roc_order = [line.split(" | ")[1].split(" (")[0] for line in tables["mystudy/orders"].splitlines()[2:]]
    assert roc_order == sorted(auc, key=lambda m: -auc[m])

    significance = pd.read_csv(ref / "significance.tsv", sep="\t")
    versus = [line.strip("| ").split(" | ") for line in tables["mystudy/versus_paper"].splitlines()[2:]]
    assert [r[0] for r in versus[::3]] == [
        f"{m} vs {a}" for m in ["RF", "GBM", "GBM-rank", "MLP", "MLP-exp"] for a in ["IRV", "SVM"]
    ]
    assert [r[1] for r in versus[:3]] == ["AUC[ROC]", "AUC[CROC(exp)] a=80", "BEDROC a=20"]
    rf_irv = significance[
        (significance["a"] == "RF") & (significance["b"] == "IRV") & (significance["metric"] == "roc")
    ]
    assert versus[0][4] == rf_irv["better"].iloc[0] and len(versus[0]) == 5 + len(TESTS)
    top = [line.strip("| ").split(" | ") for line in tables["mystudy/top_training"].splitlines()[2:]]
    assert [r[0] for r in top] == ["GBM-rank vs GBM"] * 3 + ["MLP-exp vs MLP"] * 3
    assert top[0][2] == f"{auc['GBM-rank']:.4f}" and top[0][3] == f"{auc['GBM']:.4f}"  # swapped to the pair as asked


def test_a_panels_tables_add_the_top_training_pairs_and_max_sim_where_it_has_todays_rankers(tmp_path):
    """The committed panel reference (the paper's five) has no table of the ECFP rankers; the same folder with
    ranks and Wilcoxon tests over RANDOM, MAX-SIM, kNN, GBM and GBM-rank has GBM-rank against GBM (the MLP pair
    is absent: no MLP) and MAX-SIM against every ranker but RANDOM, in the models' order."""

    from crocbench.pages import document_tables
    from crocbench.report import SUMMARY_RANK_METRICS, ranks_table

    panel = Path(__file__).resolve().parents[1] / "results" / "reference" / "pubchem_hts"
    assert not {"pubchem_hts/top_training", "pubchem_hts/maxsim"} & set(document_tables(panel))
    copy = tmp_path / "pubchem_hts"
    shutil.copytree(panel, copy)
    labels = ["RANDOM", "MAX-SIM", "kNN", "GBM", "GBM-rank"]
    rng = np.random.default_rng(3)
    rows = [
        {"dataset": f"d{d}", "model": m, **{k: rng.uniform() for k in SUMMARY_RANK_METRICS}}
        for d in range(6)
        for m in labels
    ]
    ranks, pairs = ranks_table(pd.DataFrame(rows))
    ranks.to_csv(copy / "ranks.tsv", sep="\t", index=False)
    pairs.to_csv(copy / "wilcoxon.tsv", sep="\t", index=False)
    tables = document_tables(copy)
    rows_of = {name: [line.split(" | ")[0][2:] for line in tables[name].splitlines()[2:]] for name in tables}
    assert rows_of["pubchem_hts/top_training"] == ["GBM-rank vs GBM"]
    assert rows_of["pubchem_hts/maxsim"] == ["MAX-SIM vs kNN", "MAX-SIM vs GBM", "MAX-SIM vs GBM-rank"]
    assert "pubchem_hts/exploratory" not in document_tables(panel)
    assert tables["pubchem_hts/exploratory"].splitlines()[-3].startswith("- GBM-rank against GBM: AUC[ROC] ")
    assert tables["pubchem_hts/ranks"].count("\n") == 2 + 6 - 1  # a row per metric of the six


def test_a_runs_declared_questions_go_into_its_references_manifest_and_a_change_is_reported(tmp_path):
    """The summary's tables/questions.yaml (the config's summary: questions) is kept in a new reference's manifest;
    a later run declaring other questions rewrites them and says so; a run without the file leaves them."""
    import yaml

    from crocbench.reference import read_manifest

    summary, ref = tmp_path / "summary", tmp_path / "ref"
    _panel_summary(summary, ["s1", "s2"])
    q = {"declared": "before the run", "metric_of_record": "roc", "pairs": [["IRV", "SVM"]], "metrics": ["roc"],
         "thresholds": {"roc": 0.01}}  # fmt: skip
    (summary / "tables" / "questions.yaml").write_text(yaml.safe_dump(q))
    write_reference(summary, ref)
    assert read_manifest(ref).questions == q and read_manifest(ref).kind == "panel"
    other = {**q, "thresholds": {"roc": 0.02}}
    (summary / "tables" / "questions.yaml").write_text(yaml.safe_dump(other))
    written = write_reference(summary, ref)
    assert read_manifest(ref).questions == other
    [line] = [line for lines in written.values() for line in lines if "questions" in line]
    assert line.startswith("manifest.yaml: questions: {") and line.endswith("'thresholds': {'roc': 0.02}}")
    assert " -> " in line and "'thresholds': {'roc': 0.01}} -> " in line
    (summary / "tables" / "questions.yaml").unlink()
    write_reference(summary, ref)
    assert read_manifest(ref).questions == other


def test_a_runs_design_goes_into_its_references_manifest_and_screens_of_another_design_are_not_added(tmp_path):
    """tables/design.yaml (split, tuning, each run's parameters) is kept in a new panel reference's manifest; a
    rerun with another design rewrites it and says so; screens run under another design are refused by --add, in
    one line, and nothing is written."""
    import yaml

    from crocbench.reference import read_manifest

    design = {
        "cv": {"split": "random", "folds": 5, "repeats": 3, "seed": 0},
        "tuning": {"design": "development", "budget": 8, "chosen_on": ["GPCR_2_primary"]},
        "models": {"IRV": {"class": "irv", "k": 30}},
    }
    first = _panel_summary(tmp_path / "a" / "summary", ["s1", "s2", "s3", "s4"])
    rest = _panel_summary(tmp_path / "b" / "summary", ["s5", "s6"])
    ref = tmp_path / "ref"
    (first / "tables" / "design.yaml").write_text(yaml.safe_dump(design))
    write_reference(first, ref)
    assert read_manifest(ref).design == design
    assert yaml.safe_load((ref / "manifest.yaml").read_text())["design"]["cv"]["repeats"] == 3
    other = {**design, "cv": {**design["cv"], "repeats": 1}}
    (rest / "tables" / "design.yaml").write_text(yaml.safe_dump(other))
    before = (ref / "datasets.tsv").read_text()
    with pytest.raises(
        ValueError, match=r"its run's design \(tables/design.yaml\) is not the panel's \(.*\): cv differ$"
    ):
        write_reference(rest, ref, add=True)
    assert (ref / "datasets.tsv").read_text() == before and read_manifest(ref).design == design
    (rest / "tables" / "design.yaml").write_text(yaml.safe_dump(design))
    write_reference(rest, ref, add=True)  # the same design: added
    assert set(pd.read_csv(ref / "datasets.tsv", sep="\t")["dataset"]) == {"s1", "s2", "s3", "s4", "s5", "s6"}
    (first / "tables" / "design.yaml").write_text(yaml.safe_dump(other))
    written = write_reference(first, ref)
    assert read_manifest(ref).design == other
    assert any(line.startswith("manifest.yaml: design: {") for lines in written.values() for line in lines)
    (first / "tables" / "design.yaml").unlink()  # a panel of unknown design does not take an added run's
    write_reference(first, tmp_path / "bare")
    write_reference(rest, tmp_path / "bare", add=True)
    assert read_manifest(tmp_path / "bare").design is None


def test_reference_comparison_reports_a_one_in_a_million_change(tmp_path):
    from crocbench.reference import REFERENCE_FILES, compare_run

    run, ref = tmp_path / "run", tmp_path / "ref"
    for d in (run / "tables", run / "scores" / "svm", ref):
        d.mkdir(parents=True)
    table = pd.DataFrame({"model": ["IRV", "SVM"], "roc": [0.8443, 0.8532], "top1000": [641, 625]})
    for name in REFERENCE_FILES:
        if name != "svm_folds.tsv":
            table.to_csv(run / "tables" / name, sep="\t", index=False, float_format="%.17g")
            table.to_csv(ref / name, sep="\t", index=False, float_format="%.17g")
    (run / "scores" / "svm" / "fold_0.json").write_text(
        json.dumps(
            {
                "fold": 0,
                "C": 1.0,
                "class_weight": "balanced",
                "support_vectors": 100,
                "select_metric": "roc",
                "inner_cv": [{"C": 1.0, "class_weight": None, "value": 0.8}],
            }
        )
    )
    pd.DataFrame(
        {
            "fold": [0],
            "C": [1.0],
            "class_weight": ["balanced"],
            "support_vectors": [100],
            "select_metric": ["roc"],
            "inner_1_none": [0.8],
        }
    ).to_csv(ref / "svm_folds.tsv", sep="\t", index=False)
    assert compare_run(run, ref) == {name: [] for name in REFERENCE_FILES}

    def areas_after(relative_change):
        moved = table.copy()
        moved.loc[1, "roc"] = 0.8532 * (1 + relative_change)
        moved.to_csv(run / "tables" / "areas.tsv", sep="\t", index=False, float_format="%.17g")
        return compare_run(run, ref)

    out = areas_after(1e-6)  # 8.5e-7 apart: far beyond 1e-9 relative
    assert out["areas.tsv"][:1] == ["areas.tsv: roc moved in 1 of 2 rows"]
    assert out["areas.tsv"][1].startswith("  SVM: 0.8532 -> 0.85320085")
    assert all(not lines for name, lines in out.items() if name != "areas.tsv")
    assert areas_after(1e-12)["areas.tsv"] == []  # last-bit noise, far inside 1e-9 relative
    assert areas_after(-1e-6)["areas.tsv"][:1] == ["areas.tsv: roc moved in 1 of 2 rows"]


# --- a memorization reference: written from a run, compared, and its pages' tables ----------------------------------


def _memorization_run(tmp_path, shift=1.5):
    """A run folder with the memorization tables of two rankers on a seeded screen (the workflow's functions)."""
    import yaml

    from crocbench.metrics import parse_metric
    from crocbench.report import memorization_table, split_similarity_curves, split_similarity_table, stratum_tests
    from crocbench.stats import TESTS

    rng = np.random.default_rng(0)
    n, label = 200, np.zeros(200, dtype=np.int8)
    label[rng.choice(n, 30, replace=False)] = 1
    ids = [f"c{i}" for i in range(n)]
    sim = np.where(label == 1, rng.choice([0.2, 0.5, 0.8], size=n), rng.random(n)).astype(np.float32)
    overlap = pd.DataFrame(
        {"id": ids, "label": label, "fold": np.arange(n) % 5, "to_train": sim, "to_train_actives": sim}
    )
    pooled = {
        m: pd.DataFrame({"id": ids, "label": label, "score": label * s + rng.normal(size=n)})
        for m, s in (("IRV", shift), ("kNN", 1.0))
    }
    calls = [parse_metric("croc_auc:alpha=80"), parse_metric("enrichment_factor:fraction=0.05")]
    tables = tmp_path / "run" / "tables"
    tables.mkdir(parents=True)
    memorization_table(pooled, overlap, calls, 0.4, 0.7).to_csv(tables / "memorization.tsv", sep="\t", index=False)
    stratum_tests(pooled, overlap, calls, TESTS, 0.4, 0.7, n_samples=200).to_csv(
        tables / "memorization_tests.tsv", sep="\t", index=False
    )
    overlaps = {"random": overlap, "cluster": overlap.assign(to_train=sim / 2)}
    split_similarity_table(overlaps).to_csv(tables / "split_similarity.tsv", sep="\t", index=False)
    split_similarity_curves(overlaps).to_csv(tables / "split_similarity_curves.tsv", sep="\t", index=False)
    keys = [c.key for c in calls]
    (tables / "memorization.yaml").write_text(
        yaml.safe_dump({"split": "cluster", "novel": 0.4, "analog": 0.7, "metrics": keys})
    )
    return tmp_path / "run"


def test_a_memorization_reference_is_written_compared_and_published(tmp_path, capsys):
    from crocbench.pages import document_tables, reference_figure
    from crocbench.reference import read_manifest

    run, out = _memorization_run(tmp_path), tmp_path / "memorization_cluster"
    assert main(["reference", str(run), "--memorization", "--out", str(out)]) == 0
    manifest = read_manifest(out)
    assert (manifest.kind, manifest.split, manifest.strata["novel"]) == ("memorization", "cluster", 0.4)
    assert main(["reference", str(run), "--check", "--out", str(out)]) == 0  # the kind comes from the manifest
    moved = _memorization_run(tmp_path / "again", shift=2.5)
    capsys.readouterr()
    assert main(["reference", str(moved), "--check", "--out", str(out)]) == 1
    assert "memorization.tsv: value moved" in capsys.readouterr().out
    tables = document_tables(out)
    assert set(tables) == {
        f"memorization_cluster/{t}" for t in ("findings", "headline", "strata", "tests", "split_similarity")
    }
    assert tables["memorization_cluster/headline"].startswith("Cluster split: ")
    assert "first on novel actives" in tables["memorization_cluster/findings"]
    for kind in ("memorization", "split_similarity"):
        assert reference_figure(out, kind, tmp_path / f"{kind}.png")[0].is_file()
    capsys.readouterr()
    assert main(["reference", str(run), "--memorization"]) == 2  # a folder of its own, in one line
    assert "a memorization reference needs a folder of its own" in capsys.readouterr().err


def test_a_panels_optional_tables_are_kept_where_the_summary_has_them(tmp_path):
    from crocbench.reference import write_reference
    from crocbench.reference._tables import optional_summary_files

    summary = _panel_summary(tmp_path / "run" / "summary", ["s1", "s2", "s3"])
    datasets = pd.read_csv(summary / "tables" / "datasets.tsv", sep="\t")
    datasets.assign(repeat=0).to_csv(summary / "tables" / "datasets_repeats.tsv", sep="\t", index=False)
    assert optional_summary_files(summary) == ()  # one repeat: the datasets table says it all
    two = pd.concat([datasets.assign(repeat=0), datasets.assign(repeat=1)])
    two.to_csv(summary / "tables" / "datasets_repeats.tsv", sep="\t", index=False)
    counts = pd.DataFrame(
        {"dataset": ["s1", "s2", "s3"], "compounds": 10, "flagged": 1, "actives": 3, "flagged_actives": 0}
    )
    counts.to_csv(summary / "tables" / "pains.tsv", sep="\t", index=False)
    datasets.to_csv(summary / "tables" / "datasets_without_pains.tsv", sep="\t", index=False)
    assert optional_summary_files(summary) == ("datasets_repeats.tsv", "pains.tsv", "datasets_without_pains.tsv")
    written = write_reference(summary, tmp_path / "ref")
    assert {p.name for p in written} >= {"datasets_repeats.tsv", "pains.tsv", "datasets_without_pains.tsv"}
    assert pd.read_csv(tmp_path / "ref" / "datasets_repeats.tsv", sep="\t")["repeat"].tolist() == [0] * 15 + [1] * 15


@pytest.fixture(scope="module")
def five_screens(tmp_path_factory):
    """A run of five screens s1 to s5 with 3 repeats and PAINS (the IRV's scores moved by -1.4): its summary and
    its reference, (summary, reference), which the panels grown screen by screen below must equal. Read only."""
    folder = tmp_path_factory.mktemp("five_screens")
    whole = _panel_summary(
        folder / "whole" / "summary", ["s1", "s2", "s3", "s4", "s5"], repeats=3, pains=True, shift=-1.4
    )
    write_reference(whole, folder / "one")
    return whole, folder / "one"


def test_a_panel_with_repeats_and_pains_grows_screen_by_screen_into_the_reference_of_one_run(
    tmp_path, capsys, five_screens
):
    """`--add` with `cv: repeats` and `summary: pains`: each repeat's values and the PAINS tables merge screen by
    screen, and the ranks and tests are those of one run of all the screens (on each screen's mean over the
    repeats); a summary of another design (no repeats, other repeats, no PAINS) is refused in one line."""
    _, one = five_screens
    first = _panel_summary(tmp_path / "first" / "summary", ["s1", "s2", "s3"], repeats=3, pains=True, shift=-1.4)
    rest = _panel_summary(tmp_path / "rest" / "summary", ["s4", "s5"], repeats=3, pains=True, shift=-1.4)
    grown = tmp_path / "grown"
    write_reference(first, grown)
    assert main(["reference", str(rest), "--out", str(grown), "--add"]) == 0
    names = (*SUMMARY_FILES, "datasets_repeats.tsv", "pains.tsv", "datasets_without_pains.tsv")
    for name in names:
        assert compare(pd.read_csv(grown / name, sep="\t"), pd.read_csv(one / name, sep="\t"), name) == [], name
    repeats = pd.read_csv(grown / "datasets_repeats.tsv", sep="\t")
    assert list(dict.fromkeys(repeats["dataset"])) == ["s1", "s2", "s3", "s4", "s5"]
    # by hand: each ranker's mean rank on AUC[ROC] is over each screen's mean of its 3 repeats, not over repeat 0's
    # (the IRV's scores moved between RANDOM's and MAX-SIM's, so their order changes from repeat to repeat)
    means = repeats.groupby(["dataset", "model"])["roc"].mean().unstack()
    ranks = pd.read_csv(grown / "ranks.tsv", sep="\t").query("metric == 'roc'").set_index("model")["mean_rank"]
    by_hand = means.rank(axis=1, ascending=False).mean()
    assert ranks.to_dict() == pytest.approx(by_hand.to_dict())
    first_only = pd.read_csv(grown / "datasets.tsv", sep="\t").pivot(index="dataset", columns="model", values="roc")
    assert ranks.to_dict() != pytest.approx(first_only.rank(axis=1, ascending=False).mean().to_dict())
    # another design is refused, and nothing is written
    before = {n: (grown / n).read_text() for n in names}
    capsys.readouterr()
    plain = _panel_summary(tmp_path / "plain" / "summary", ["s6", "s7"])
    assert main(["reference", str(plain), "--out", str(grown), "--add"]) == 2
    assert "holds datasets_repeats.tsv and " in capsys.readouterr().err
    two = _panel_summary(tmp_path / "two" / "summary", ["s6", "s7"], repeats=2, pains=True)
    assert main(["reference", str(two), "--out", str(grown), "--add"]) == 2
    assert "holds repeats [0, 1]; " in capsys.readouterr().err
    bare = _panel_summary(tmp_path / "bare" / "summary", ["s6", "s7"], repeats=3)
    assert main(["reference", str(bare), "--out", str(grown), "--add"]) == 2
    assert "holds pains.tsv and " in capsys.readouterr().err
    assert {n: (grown / n).read_text() for n in names} == before


def test_a_panel_grows_one_screen_at_a_time_from_summaries_of_their_screens_only(tmp_path, capsys, five_screens):
    """The target `screen_tables` on one screen: its summary has only the tables of one screen each. The first
    starts the panel's reference (no tables across the screens: one screen has no ranks); each next `--add` merges
    its screen, and from two screens on the tables across the screens are recomputed, until the reference is the
    one of a run of all five, repeats and PAINS included. A stale ranks table beside one screen's, or a summary
    that does not say which runs are ranked, is refused in one line; a summary of its screens only written over a
    panel's reference leaves no table across the screens behind."""
    screens = ["s1", "s2", "s3", "s4", "s5"]
    whole, one = five_screens
    grown = tmp_path / "grown"
    single = {
        s: _panel_summary(tmp_path / s / "summary", [s], repeats=3, pains=True, shift=-1.4, across=False)
        for s in screens
    }
    assert not (single["s1"] / "tables" / "ranks.tsv").exists()
    assert main(["reference", str(single["s1"]), "--out", str(grown)]) == 0
    assert capsys.readouterr().out.endswith(
        f"{grown} holds 1 screen(s): s1 (the tables across the screens come with a second)\n"
    )
    held = sorted(p.name for p in grown.iterdir())
    assert held == sorted(["datasets.tsv", "claims_per_screen.tsv", "datasets_repeats.tsv", "pains.tsv",
                           "datasets_without_pains.tsv", "manifest.yaml"])  # fmt: skip
    assert main(["reference", str(single["s2"]), "--out", str(grown), "--add"]) == 0
    assert capsys.readouterr().out.endswith(f"{grown} holds 2 screen(s): s1, s2, and the tables across them\n")
    assert pd.read_csv(grown / "ranks.tsv", sep="\t")["datasets"].eq(2).all()  # two screens: ranked
    # a run's design names its ranked runs in its config's order, the reference's ranks table in its rows' (the
    # datasets table's): the same runs in another order are the same panel
    ranks = pd.read_csv(grown / "ranks.tsv", sep="\t")
    ranks.iloc[::-1].to_csv(grown / "ranks.tsv", sep="\t", index=False)
    for s in screens[2:]:
        assert main(["reference", str(single[s]), "--out", str(grown), "--add"]) == 0
    names = (*SUMMARY_FILES, "datasets_repeats.tsv", "pains.tsv", "datasets_without_pains.tsv")
    for name in names:
        assert compare(pd.read_csv(grown / name, sep="\t"), pd.read_csv(one / name, sep="\t"), name) == [], name
    assert list(dict.fromkeys(pd.read_csv(grown / "datasets.tsv", sep="\t")["dataset"])) == screens
    # a run of two screens at once, written without --add: the tables across them too, as one run of the two gives
    pair = _panel_summary(tmp_path / "pair" / "summary", screens[:2], repeats=3, pains=True, shift=-1.4, across=False)
    both = _panel_summary(tmp_path / "both" / "summary", screens[:2], repeats=3, pains=True, shift=-1.4)
    write_reference(pair, tmp_path / "pair_ref")
    write_reference(both, tmp_path / "both_ref")
    for name in names:
        got, want = (pd.read_csv(tmp_path / f / name, sep="\t") for f in ("pair_ref", "both_ref"))
        assert compare(got, want, name) == [], name
    capsys.readouterr()
    stale = _panel_summary(tmp_path / "stale" / "summary", ["s6"], repeats=3, pains=True, across=False)
    for name in ("ranks.tsv", "wilcoxon.tsv", "conover.tsv", "claims.tsv"):  # left by a run of five screens
        shutil.copy(whole / "tables" / name, stale / "tables" / name)
    before = {n: (grown / n).read_text() for n in names}
    assert main(["reference", str(stale), "--out", str(grown), "--add"]) == 2
    err = capsys.readouterr().err
    assert "its ranks.tsv is left from another run (its datasets.tsv holds one screen)" in err and err.count("\n") == 1
    for name in ("ranks.tsv", "wilcoxon.tsv", "conover.tsv", "claims.tsv"):
        (stale / "tables" / name).unlink()
    (stale / "tables" / "design.yaml").unlink()  # nothing says which runs it ranks
    assert main(["reference", str(stale), "--out", str(grown), "--add"]) == 2
    assert "no ranks table and no design naming the ranked runs" in capsys.readouterr().err
    mixed = _panel_summary(tmp_path / "mixed" / "summary", ["s7"], repeats=3, pains=True, across=False)
    shutil.copy(stale / "tables" / "pains.tsv", mixed / "tables" / "pains.tsv")  # a run of s6 left it behind
    assert main(["reference", str(mixed), "--out", str(grown), "--add"]) == 2
    assert "pains.tsv holds s6; its datasets.tsv holds s7: tables of another run" in capsys.readouterr().err
    assert {n: (grown / n).read_text() for n in names} == before
    write_reference(single["s1"], one)  # written over, not added: the tables across the screens go
    assert not any((one / n).exists() for n in ("ranks.tsv", "wilcoxon.tsv", "conover.tsv", "claims.tsv"))


def test_a_panel_without_the_papers_five_has_no_claims_and_grows_and_is_published_without_them(tmp_path, capsys):
    """A panel whose run does not rank the paper's five writes no claims tables: its reference is written and grown
    screen by screen without them, into the reference of one run of its three screens; a screen with claims is not
    added to it; its page tables have no claims block, and compared with a panel that has them, its claims' cells
    read "not run"."""
    from crocbench.pages import panel_tables
    from crocbench.reference import CLAIMS_FILES
    from crocbench.report import panels_compared

    def without_claims(folder):
        for name in CLAIMS_FILES:
            (folder / "tables" / name).unlink(missing_ok=True)
        return folder

    screens = ["s1", "s2", "s3"]
    whole = without_claims(_panel_summary(tmp_path / "whole" / "summary", screens))
    one, grown = tmp_path / "one", tmp_path / "grown"
    write_reference(whole, one)
    for n, screen in enumerate(screens):
        single = without_claims(_panel_summary(tmp_path / screen / "summary", [screen], across=False))
        assert main(["reference", str(single), "--out", str(grown), *(["--add"] if n else [])]) == 0
    for name in ("datasets.tsv", "ranks.tsv", "wilcoxon.tsv", "conover.tsv"):
        assert compare(pd.read_csv(grown / name, sep="\t"), pd.read_csv(one / name, sep="\t"), name) == [], name
    assert not any((folder / name).exists() for folder in (one, grown) for name in CLAIMS_FILES)
    capsys.readouterr()
    claimed = _panel_summary(tmp_path / "s4" / "summary", ["s4"], across=False)
    assert main(["reference", str(claimed), "--out", str(grown), "--add"]) == 2
    assert "holds the paper's claims and" in capsys.readouterr().err
    tables = panel_tables(grown)
    assert "grown/ranks" in tables and not any(key.endswith("/claims") for key in tables)
    datasets = pd.read_csv(grown / "datasets.tsv", sep="\t")
    per_screen = pd.read_csv(tmp_path / "s4" / "summary" / "tables" / "claims_per_screen.tsv", sep="\t")
    compared = panels_compared({"without": (datasets, None), "with": (datasets, per_screen.assign(dataset="s1"))}, {})
    claims = compared[compared["what"].isin(set(per_screen["text"]))]
    assert len(claims) == per_screen["id"].nunique() and claims["without"].eq("not run").all()
    assert claims["with"].str.startswith("holds in ").all()


def test_a_panel_grown_screen_by_screen_merges_its_novel_actives_and_drops_the_shared_structures(tmp_path, capsys):
    """`--add`: novel.tsv merges screen by screen like datasets.tsv; shared.tsv and shared_pairs.tsv (each pair of
    screens, the new ones with the old unknown) are removed from the reference, and it says so."""

    def extras(summary, screens):
        # each screen's top count is a key of its own (top30, top31, ...): the panel's table has every one
        parts = [pd.DataFrame({"dataset": [d], "model": "IRV", "actives": 3, "roc": 0.6, f"top{30 + i}": 5.0})
                 for i, d in enumerate(screens, int(screens[0][1:]))]  # fmt: skip
        novel = pd.concat(parts, ignore_index=True)
        novel.to_csv(summary / "tables" / "novel.tsv", sep="\t", index=False)
        pd.DataFrame({"screens": [1, 2], "structures": [10, 5]}).to_csv(
            summary / "tables" / "shared.tsv", sep="\t", index=False
        )
        pd.DataFrame({"a": [screens[0]], "b": [screens[1]], "structures_a": 8, "structures_b": 7, "shared": 5}).to_csv(
            summary / "tables" / "shared_pairs.tsv", sep="\t", index=False
        )
        return novel

    first = _panel_summary(tmp_path / "first" / "summary", ["s1", "s2", "s3", "s4"])
    rest = _panel_summary(tmp_path / "rest" / "summary", ["s5", "s6"])
    extras(first, ["s1", "s2", "s3", "s4"])
    extras(rest, ["s5", "s6"])
    (tmp_path / "whole" / "tables").mkdir(parents=True)
    whole = extras(tmp_path / "whole", ["s1", "s2", "s3", "s4", "s5", "s6"])  # one run's table of the six
    grown = tmp_path / "grown"
    write_reference(first, grown)
    assert (grown / "novel.tsv").is_file() and (grown / "shared.tsv").is_file()
    assert main(["reference", str(rest), "--out", str(grown), "--add"]) == 0
    assert "shared.tsv: removed (not merged screen by screen)" in capsys.readouterr().out
    assert pd.read_csv(grown / "novel.tsv", sep="\t").equals(whole)  # rows, columns and their order
    assert not (grown / "shared.tsv").exists() and not (grown / "shared_pairs.tsv").exists()


def test_a_novelty_cost_reference_publishes_its_tables_and_figure(tmp_path):
    """A ``tables`` reference with ``kept.tsv``: its block shows the counts, its figure kind draws the shares."""
    import pandas as pd
    from matplotlib.image import imread

    from crocbench.pages import document_tables, reference_figure

    out = tmp_path / "novelty_cost"
    out.mkdir()
    (out / "manifest.yaml").write_text("kind: tables\nfigures:\n  kept.png: novelty_cost\n")
    kept = pd.DataFrame(
        {"screen": ["s"] * 2, "tau": [0.3, 0.6], "compounds": [10, 10], "compounds_kept": [5, 10], "actives": 2}
    ).assign(actives_kept=[1, 2])
    kept.to_csv(out / "kept.tsv", sep="\t", index=False)
    table = document_tables(out)["novelty_cost/kept"]
    assert table.splitlines()[0].split("|")[1:-1] == [
        f" {c} " for c in ("screen", "tau", "compounds", "compounds_kept", "actives", "actives_kept")
    ]
    assert "| s | 0.3000 | 10 | 5 | 2 | 1 |" in table
    png = reference_figure(out, "novelty_cost", tmp_path / "kept.png")[0]
    assert imread(png).shape[0] > 100

"""crocbench.pages: the panels a panel reference is compared with, the comparison of two references, and the
regeneration of every page through the command a maintainer types (`crocbench regenerate`)."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_a_panel_reference_is_compared_with_the_panels_beside_it_that_hold_its_campaigns(tmp_path):
    from crocbench.pages import compared_panels
    from crocbench.reference import Manifest, write_manifest

    def panel(name, screens, models=("IRV",)):
        """A panel reference; its manifest says what its name suggests (the code reads the manifest, not the
        name): ``*confirmed`` confirmed actives, ``*scaffold`` a scaffold split, each overlaying ``all``."""
        (tmp_path / name).mkdir()
        rows = [(s, m) for s in screens for m in models]
        pd.DataFrame(rows, columns=["dataset", "model"]).to_csv(tmp_path / name / "datasets.tsv", sep="\t")
        split = "scaffold" if name.endswith("scaffold") else "random"
        labels = "confirmed" if name.endswith("confirmed") else "primary"
        overlays = None if (split, labels) == ("random", "primary") else "all"
        write_manifest(Manifest(tmp_path / name, "panel", split, labels, overlays, campaign_key="campaign"))

    panel("all", ["X_primary", "Y_primary", "Z_primary"])
    panel(
        "more", ["X_primary", "Y_primary", "Z_primary"], models=("IRV", "RF")
    )  # more rankers: compared with all, not by it
    panel("confirmed", ["X_confirmed", "Y_confirmed"])
    panel("scaffold", ["X_primary", "Z_primary"])
    panel("other", ["X_primary", "W_primary"])
    (tmp_path / "not_a_panel").mkdir()
    assert compared_panels(tmp_path / "confirmed") == [tmp_path / "all"]
    assert compared_panels(tmp_path / "scaffold") == [tmp_path / "all"]
    assert compared_panels(tmp_path / "all") == [] and compared_panels(tmp_path / "other") == []
    assert compared_panels(tmp_path / "more") == [tmp_path / "all"]
    # an overlay is not compared with an overlay of the other kind, though it holds the campaigns
    panel("few_confirmed", ["X_confirmed"])
    assert compared_panels(tmp_path / "few_confirmed") == [tmp_path / "all", tmp_path / "confirmed", tmp_path / "other"]
    panel("few_scaffold", ["X_primary"])
    assert compared_panels(tmp_path / "few_scaffold") == [tmp_path / "all", tmp_path / "other", tmp_path / "scaffold"]
    # a panel growing screen by screen is compared with the one it overlays on the campaigns they share, though
    # it holds one the other does not yet; with none shared, it is not
    panel("grown_scaffold", ["X_primary", "V_primary"])
    assert compared_panels(tmp_path / "grown_scaffold") == [tmp_path / "all"]
    panel("apart_scaffold", ["U_primary"])
    assert compared_panels(tmp_path / "apart_scaffold") == []


def test_two_references_of_todays_rankers_are_compared_on_every_ranker_and_metric_they_share():
    """The committed scaffold overlay of the ECFP rankers against their primary screens: every ranker both rank, the
    six metrics of the panels' tables, and the trained-for-the-top pairs' records, counted again here with pandas
    from both references' datasets.tsv on the campaigns they share."""
    from crocbench.data.pubchem import campaign_of
    from crocbench.pages import comparison_markdown
    from crocbench.report import SUMMARY_TABLE_METRICS, summary_labels

    ref = Path(__file__).resolve().parents[1] / "results" / "reference"
    mine, other = ref / "pubchem_hts_ecfp_scaffold", ref / "pubchem_hts_ecfp"
    lines = comparison_markdown(mine, other).splitlines()
    rows = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ")[1:] for line in lines[2:]}
    ranked = set(pd.read_csv(mine / "ranks.tsv", sep="\t")["model"])
    assert len(ranked) == 11
    for metric in SUMMARY_TABLE_METRICS:
        for cell in rows[f"mean ranks, {summary_labels()[metric]}"]:
            assert {part.rsplit(" ", 1)[0] for part in cell.split(" (Friedman")[0].split(", ")} == ranked
    tables = [pd.read_csv(f / "datasets.tsv", sep="\t") for f in (mine, other)]
    shared = set(tables[0]["dataset"].map(campaign_of)) & set(tables[1]["dataset"].map(campaign_of))
    for (a, b), column in [(pair, i) for pair in (("GBM-rank", "GBM"), ("MLP-exp", "MLP")) for i in (0, 1)]:
        t = tables[column][tables[column]["dataset"].map(campaign_of).isin(shared)].set_index(["dataset", "model"])
        want = []
        for metric in SUMMARY_TABLE_METRICS:
            x, y = t[metric].xs(a, level="model"), t[metric].xs(b, level="model")
            ties = int((x == y).sum())
            want.append(
                f"{summary_labels()[metric]} {int((x > y).sum())}-{int((x < y).sum())}" + (f"-{ties}" if ties else "")
            )
        assert rows[f"record, {a} vs {b}"][column] == ", ".join(want)
    # against the paper's five under the scaffold split: the paper's five on the four metrics of the values figure
    lines = comparison_markdown(mine, ref / "pubchem_hts_scaffold").splitlines()
    assert not any(line.startswith("| record,") or "DCG@100" in line for line in lines)
    cell = lines[3].split(" | ")[1].split(" (Friedman")[0]  # mean ranks, AUC[ROC]: the paper's five only
    assert {part.rsplit(" ", 1)[0] for part in cell.split(", ")} == {"RANDOM", "MAX-SIM", "kNN", "SVM", "IRV"}


def _copy(tmp_path, keep: str | tuple = "pubchem_hts_ecfp") -> Path:
    """README.md, docs/ and one committed reference folder (``keep``, or each of a tuple of them), as regeneration
    reads them: the pages hold those references' blocks only (every other reference's, and their comparisons with
    them, are cut out with their markers; a leaderboard's block stays where its benchmark's reference is kept), and
    no kept manifest names a generated figure (drawing them is most of a regeneration's time; the committed figures are checked by
    tests/test_readme.py). What a regeneration does with a block does not depend on how many other references
    stand beside it; tests/test_readme.py regenerates the whole repository as committed."""
    import re

    import yaml

    from crocbench.pages._blocks import _BLOCK
    from crocbench.pages._leaderboard import leaderboard_specs

    keeps = (keep,) if isinstance(keep, str) else tuple(keep)
    root = tmp_path / "repo"
    (root / "results" / "reference").mkdir(parents=True)
    for folder in keeps:
        shutil.copytree(ROOT / "results" / "reference" / folder, root / "results" / "reference" / folder)
        manifest = root / "results" / "reference" / folder / "manifest.yaml"
        manifest.write_text(yaml.safe_dump({**yaml.safe_load(manifest.read_text()), "figures": {}}, sort_keys=False))
    boards = {f"leaderboard/{s.name}" for s in leaderboard_specs(ROOT) if Path(s.reference).name in keeps}

    def kept(name):
        table = name.split("/")[-1]
        compared = not table.startswith("vs_") or table.removeprefix("vs_") in keeps
        return name in boards or (name.split("/")[0] in keeps and compared)

    block = re.compile(_BLOCK.format(name=r"[\w./-]+") + r"\n?", flags=re.S)
    shutil.copy(ROOT / "README.md", root / "README.md")
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("_build"))
    for page in [root / "README.md", *(root / "docs").rglob("*.md")]:
        text = page.read_text()
        page.write_text(block.sub(lambda m: m.group(0) if kept(m.group(1)) else "", text))
    return root


def _regenerate(root, *args, fresh: bool = False):
    """``crocbench regenerate --root ROOT ARGS``: in this process through ``main``, the function the command runs
    (its exit status, its stdout and stderr), or with ``fresh`` in a Python process of its own that has regenerated
    nothing before."""
    if not fresh:
        from _cli import _cli

        return _cli("regenerate", "--root", root, *args)
    return subprocess.run(
        [sys.executable, "-m", "crocbench", "regenerate", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def _answers(root) -> str:
    text = (root / "docs" / "studies" / "ecfp_panel.md").read_text()
    start = text.index("<!-- reference:pubchem_hts_ecfp/answers -->")
    return text[start : text.index("<!-- /reference:pubchem_hts_ecfp/answers -->")]


def test_a_moved_number_moves_the_answers_and_the_check_fails_until_regenerated(tmp_path):
    """The issue's mutation: one value of a committed datasets.tsv changed (the IRV's AUC[CROC(exp)] a=80 on one
    screen put below the SVM's). `--check` names the stale blocks and exits 1; `regenerate` rewrites them with the
    new record, and no code is edited; `--check` then exits 0."""
    root = _copy(tmp_path)  # equal to its regeneration: tests/test_readme.py checks the committed pages
    before = _answers(root)
    path = root / "results" / "reference" / "pubchem_hts_ecfp" / "datasets.tsv"
    table = pd.read_csv(path, sep="\t")
    screen = "GPCR_3_primary"
    svm = table.loc[(table["dataset"] == screen) & (table["model"] == "SVM"), "croc_exp_80"].item()
    irv = (table["dataset"] == screen) & (table["model"] == "IRV")
    assert table.loc[irv, "croc_exp_80"].item() > svm  # the IRV won this screen
    table.loc[irv, "croc_exp_80"] = svm - 1e-4
    table.to_csv(path, sep="\t", index=False)

    check = _regenerate(root, "--check")
    assert check.returncode == 1
    assert "stale: docs/studies/ecfp_panel.md: pubchem_hts_ecfp/answers" in check.stdout.splitlines()
    assert "stale: README.md: pubchem_hts_ecfp/headline" not in check.stdout  # its counts did not move
    assert _answers(root) == before  # --check writes nothing
    done = _regenerate(root)
    assert done.returncode == 0 and "rewrote: docs/studies/ecfp_panel.md: pubchem_hts_ecfp/answers" in done.stdout
    after = _answers(root)
    assert "IRV over SVM on AUC[CROC(exp)] a=80" in before and "24-1" in before.split("IRV over SVM")[1][:60]
    assert "23-2" in after.split("IRV over SVM on AUC[CROC(exp)] a=80")[1][:60]
    assert _regenerate(root, "--check").returncode == 0


def test_two_repositories_regenerated_in_one_process_each_get_their_own_comparison(tmp_path):
    """Two copies of the repository with pubchem_hts and its scaffold overlay, the second's pubchem_hts with one
    claim's verdict on one shared screen flipped to False: regenerated one after the other in one process (each
    regeneration keeps what it read and computed), each copy's comparison counts its own verdicts (the second's
    one screen fewer for that claim), as a fresh process regenerating it alone writes it; the first's reference
    then edited the same way, its next regeneration in the same process finds the block stale."""
    from crocbench.data.pubchem import campaign_of
    from crocbench.pages import regenerate_documents

    keep, block = ("pubchem_hts", "pubchem_hts_scaffold"), "pubchem_hts_scaffold/vs_pubchem_hts"
    first, second = _copy(tmp_path / "first", keep), _copy(tmp_path / "second", keep)
    path = second / "results" / "reference" / "pubchem_hts" / "claims_per_screen.tsv"
    claims = pd.read_csv(path, sep="\t")
    overlay = pd.read_csv(second / "results" / "reference" / "pubchem_hts_scaffold" / "datasets.tsv", sep="\t")
    shared = claims["dataset"].map(campaign_of).isin(set(overlay["dataset"].map(campaign_of)))
    flipped = claims.index[shared & (claims["holds"] == True)][0]  # noqa: E712 (a column of True, False, None)
    claims.loc[flipped, "holds"] = False
    claims.to_csv(path, sep="\t", index=False)

    def held(root) -> tuple:
        """(h, n) of the flipped claim's "holds in h of n" in pubchem_hts's column of the comparison."""
        page = next(p for p in (root / "docs").rglob("*.md") if f"<!-- reference:{block} -->" in p.read_text())
        text = page.read_text().split(f"<!-- reference:{block} -->")[1]
        row = next(line for line in text.splitlines() if line.startswith(f"| {claims.loc[flipped, 'text']} |"))
        return tuple(map(int, re.search(r"holds in (\d+) of (\d+)", row.split(" | ")[2]).groups()))

    assert regenerate_documents(first) == []  # as committed
    changed = regenerate_documents(second)
    assert [name for _, name in changed] == [block]
    assert regenerate_documents(first, check=True) == []  # the first again, after the second
    (h, n), (h2, n2) = held(first), held(second)
    assert (h2, n2) == (h - 1, n)
    fresh = _regenerate(second, "--check", fresh=True)  # a process that regenerated nothing else
    assert fresh.returncode == 0, fresh.stdout
    # the first's reference edited as the second's was, between two regenerations of it: the block is stale
    shutil.copy(path, first / "results" / "reference" / "pubchem_hts" / "claims_per_screen.tsv")
    assert [name for _, name in regenerate_documents(first, check=True)] == [block]


def test_a_block_naming_no_table_and_a_folder_that_is_no_repository_fail_in_one_line(tmp_path):
    root = _copy(tmp_path)
    readme = root / "README.md"
    readme.write_text(readme.read_text() + "\n<!-- reference:pubchem_hts_ecfp/nothing -->\n<!-- /reference:"
                      "pubchem_hts_ecfp/nothing -->\n")  # fmt: skip
    bad = _regenerate(root, "--check")
    assert bad.returncode == 2
    assert bad.stderr == (
        "crocbench: error: README.md: block <!-- reference:pubchem_hts_ecfp/nothing --> names no table of the "
        "committed references\n"
    )
    empty = _regenerate(tmp_path / "nowhere")
    assert empty.returncode == 2 and empty.stderr.count("\n") == 1 and "not the repository's root" in empty.stderr


def test_a_panel_with_repeats_states_its_family_on_their_means_and_each_rankers_spread(tmp_path):
    """pubchem_hts's reference with a second repeat in which only the IRV moves, by +0.02 on AUC[CROC(exp)] a=80 on
    every screen: its spread is 0.02 / sqrt(2) on each screen and on the panel's mean, every other SD 0; the family
    table counts each verdict per repeat."""
    from crocbench.pages._tables import document_tables

    ref = tmp_path / "pubchem_hts"
    shutil.copytree(ROOT / "results" / "reference" / "pubchem_hts", ref)
    datasets = pd.read_csv(ref / "datasets.tsv", sep="\t")
    second = datasets.copy()
    second.loc[second["model"] == "IRV", "croc_exp_80"] += 0.02
    pd.concat([datasets.assign(repeat=0), second.assign(repeat=1)]).to_csv(
        ref / "datasets_repeats.tsv", sep="\t", index=False
    )
    tables = document_tables(ref)
    assert "same in repeats" in tables["pubchem_hts/family"].splitlines()[0]
    spread = tables["pubchem_hts/spread"].splitlines()
    assert "2 repeats, mean over 25 screens" in spread[0]
    irv = [line for line in spread if line.startswith("| IRV | AUC[CROC(exp)] a=80 |")]
    match = re.fullmatch(r"\| IRV \| AUC\[CROC\(exp\)\] a=80 \| 0\.0141 \| 0\.0141 \((\w+)\) \| 0\.0141 \|", irv[0])
    assert len(irv) == 1 and match and match.group(1) in set(datasets["dataset"])  # equal SDs: any screen (rounding)
    others = [line for line in spread[2:] if not line.startswith("| IRV | AUC[CROC(exp)]")]
    assert len(others) == len(spread) - 3 and all(line.endswith("| 0 |") for line in others)
    # each screen's value is the mean over the repeats, bracketed by the lowest and the highest repeat's value
    lead, *parts = tables["pubchem_hts/croc_exp_80"].split("\n\n")  # a ranker per row, the screens side by side
    assert lead == "Each screen's mean over its 2 repeats [the lowest repeat, the highest]."
    screen = datasets["dataset"].iloc[0]
    part = next(p for p in parts if f" {screen} |" in p.splitlines()[0])
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in part.splitlines()]
    column = rows[0].index(screen)
    cell = {row[0]: row[column] for row in rows[2:]}
    value = datasets.set_index(["dataset", "model"])["croc_exp_80"]
    irv, svm = value[(screen, "IRV")], value[(screen, "SVM")]
    assert cell["IRV"] == f"{irv + 0.01:.3f} [{irv:.3f}, {irv + 0.02:.3f}]"
    assert cell["SVM"] == f"{svm:.3f} [{svm:.3f}, {svm:.3f}]"
    # and the panel is compared with others on those means: the IRV's mean over the screens moved by 0.01
    from crocbench.pages import panel_values

    means = panel_values(ref).set_index(["dataset", "model"])["croc_exp_80"]
    assert np.allclose(means.xs("IRV", level="model"), value.xs("IRV", level="model") + 0.01)
    assert np.allclose(means.xs("SVM", level="model"), value.xs("SVM", level="model"))
    assert list(panel_values(ref)[["dataset", "model"]].itertuples(index=False)) == list(
        datasets[["dataset", "model"]].itertuples(index=False)
    )


def test_a_repeated_panel_is_compared_on_its_means_and_its_claims_on_its_first_repeat(tmp_path):
    """pubchem_hts with a second repeat in which the IRV's CROC values rise by 0.5 and the SVM's AUC[ROC] by 0.3 on
    every screen: compared with the scaffold panel, its mean CROC(exp) a=80 rises by 0.25 (the mean of the two
    repeats), while every claim's row (its counts per screen and its test across the
    screens) stays the first repeat's, word for word; on the means, the first claim would read "supported"."""
    from crocbench.pages import comparison_markdown

    other = ROOT / "results" / "reference" / "pubchem_hts_scaffold"
    plain, repeated = tmp_path / "plain" / "pubchem_hts", tmp_path / "repeated" / "pubchem_hts"
    for folder in (plain, repeated):
        shutil.copytree(ROOT / "results" / "reference" / "pubchem_hts", folder)
    datasets = pd.read_csv(repeated / "datasets.tsv", sep="\t")
    second = datasets.copy()
    croc = [c for c in second.columns if c.startswith("croc_exp_") and "_" not in c.removeprefix("croc_exp_")]
    second.loc[second["model"] == "IRV", croc] += 0.5
    second.loc[second["model"] == "SVM", "roc"] += 0.3
    pd.concat([datasets.assign(repeat=0), second.assign(repeat=1)]).to_csv(
        repeated / "datasets_repeats.tsv", sep="\t", index=False
    )
    before, after = (comparison_markdown(f, other).splitlines() for f in (plain, repeated))
    claims = [i for i, line in enumerate(before) if "holds in" in line]
    assert claims and [after[i] for i in claims] == [before[i] for i in claims]
    row = next(i for i, line in enumerate(before) if line.startswith("| mean AUC[CROC(exp)] a=80 |"))

    def irv(line):
        return float(re.search(r"IRV (-?[0-9.]+)", line.split("|")[2]).group(1))

    assert irv(after[row]) == pytest.approx(irv(before[row]) + 0.25, abs=1e-3)
    assert after[row].split("|")[3] == before[row].split("|")[3]  # the other panel as it was


def test_a_reference_that_names_no_page_is_not_published_and_one_that_names_a_page_needs_its_blocks(tmp_path):
    """A panel growing screen by screen (its manifest names no document and no figure) is left out of the pages;
    once its manifest names a page, each of its tables needs a block there (one line, naming the first)."""
    from crocbench.pages import regenerate_documents
    from crocbench.reference import Manifest, write_manifest

    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("# A page with no blocks\n")
    folder = root / "results" / "reference" / "growing"
    folder.mkdir(parents=True)
    pd.DataFrame({"dataset": ["s1"], "value": [0.5]}).to_csv(folder / "values.tsv", sep="\t", index=False)
    write_manifest(Manifest(folder, kind="tables"))
    assert regenerate_documents(root, check=True) == []
    write_manifest(Manifest(folder, kind="tables", documents=["README.md"]))
    with pytest.raises(ValueError, match=r"^no <!-- reference:growing/values --> block in README.md or docs/$"):
        regenerate_documents(root, check=True)


def test_the_scoring_guides_table_1b_shows_each_models_committed_value_under_its_metric():
    """docs/user_guide/scoring.md's block: every cell is the value other_metrics.tsv holds for that model and that
    metric's label (read here with the csv module), to 4 decimals."""
    import csv

    with open(ROOT / "results" / "reference" / "other_metrics.tsv", newline="") as f:
        values = {(r["model"], r["label"]): r["value"] for r in csv.DictReader(f, delimiter="\t")}
    page = (ROOT / "docs" / "user_guide" / "scoring.md").read_text()
    block = re.search(r"<!-- reference:other_metrics -->\n(.*?)\n<!-- /reference:other_metrics -->", page, re.S)
    header, _, *rows = block.group(1).splitlines()
    labels = [c.strip() for c in header.strip("|").split("|")][1:]
    assert "R-precision" in labels and "ROC50, pooled list" in labels and len(rows) == 5
    for row in rows:
        model, *cells = [c.strip() for c in row.strip("|").split("|")]
        for label, cell in zip(labels, cells, strict=True):
            assert float(cell) == pytest.approx(float(values[model, label]), abs=5e-5), (model, label)


def _github_slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading (github-slugger): the text without its inline marks, lower-cased, every
    character but letters, digits, ``_``, ``-`` and spaces dropped, spaces turned into ``-``. MyST's own anchors
    (``myst_heading_anchors``) are the same."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _outside_code(path) -> str:
    return re.sub(r"```.*?```", "", Path(path).read_text(), flags=re.S)


def test_every_link_of_the_readme_and_the_docs_resolves_on_github_and_in_sphinx():
    """Every relative link names a file that exists, and every anchor into a Markdown page is a heading's GitHub
    slug there (``#cost_modelpy`` for ``### cost_model.py``; ``#cost-model-py``, docutils' id, breaks on GitHub).
    Every source path a page names in backquotes (``src/...``, ``tests/...``, ``workflow/...``, ...) exists: a
    page must not send a reader to a module that has moved."""
    pages = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)]
    broken = []
    for page in pages:
        text = _outside_code(page)
        for target, anchor in re.findall(r"\]\(([^)\s#]*)(?:#([^)\s]+))?\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path = page.parent / target if target else page
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} does not exist")
            elif anchor and path.suffix == ".md":
                headings = [_github_slug(h) for h in re.findall(r"^#{1,6} +(.+?) *$", _outside_code(path), re.M)]
                if anchor not in headings:
                    broken.append(f"{page.relative_to(ROOT)}: #{anchor} is no heading of {target or page.name}")
        for source in re.findall(r"`((?:src|tests|workflow|benchmarks|plugins|envs|config)/[\w./-]+)`", text):
            if not (ROOT / source).exists():
                broken.append(f"{page.relative_to(ROOT)}: `{source}` does not exist")
    assert broken == []

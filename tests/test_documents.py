"""crocbench.reference._documents' regeneration, through the command a maintainer types: `crocbench regenerate`."""

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def _copy(tmp_path) -> Path:
    """README.md, docs/ and results/reference/ as committed: the repository as regeneration reads it."""
    root = tmp_path / "repo"
    (root / "results").mkdir(parents=True)
    shutil.copy(ROOT / "README.md", root / "README.md")
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("_build"))
    shutil.copytree(ROOT / "results" / "reference", root / "results" / "reference")
    return root


def _regenerate(root, *args):
    return subprocess.run(
        [sys.executable, "-m", "crocbench", "regenerate", "--root", str(root), *args],
        capture_output=True,
        text=True,
    )


def _answers(root) -> str:
    text = (root / "docs" / "studies" / "modern_panel.md").read_text()
    start = text.index("<!-- reference:pubchem_hts_modern/answers -->")
    return text[start : text.index("<!-- /reference:pubchem_hts_modern/answers -->")]


def test_a_moved_number_moves_the_answers_and_the_check_fails_until_regenerated(tmp_path):
    """The issue's mutation: one value of a committed datasets.tsv changed (the IRV's AUC[CROC(exp)] a=80 on one
    screen put below the SVM's). `--check` names the stale blocks and exits 1; `regenerate` rewrites them with the
    new record, and no code is edited; `--check` then exits 0."""
    root = _copy(tmp_path)  # equal to its regeneration: tests/test_readme.py checks the committed pages
    before = _answers(root)
    path = root / "results" / "reference" / "pubchem_hts_modern" / "datasets.tsv"
    table = pd.read_csv(path, sep="\t")
    screen = "GPCR_3_primary"
    svm = table.loc[(table["dataset"] == screen) & (table["model"] == "SVM"), "croc_exp_80"].item()
    irv = (table["dataset"] == screen) & (table["model"] == "IRV")
    assert table.loc[irv, "croc_exp_80"].item() > svm  # the IRV won this screen
    table.loc[irv, "croc_exp_80"] = svm - 1e-4
    table.to_csv(path, sep="\t", index=False)

    check = _regenerate(root, "--check")
    assert check.returncode == 1
    assert "stale: docs/studies/modern_panel.md: pubchem_hts_modern/answers" in check.stdout.splitlines()
    assert "stale: README.md: pubchem_hts_modern/headline" not in check.stdout  # its counts did not move
    assert _answers(root) == before  # --check writes nothing
    done = _regenerate(root)
    assert done.returncode == 0 and "rewrote: docs/studies/modern_panel.md: pubchem_hts_modern/answers" in done.stdout
    after = _answers(root)
    assert "IRV over SVM on AUC[CROC(exp)] a=80" in before and "24-1" in before.split("IRV over SVM")[1][:60]
    assert "23-2" in after.split("IRV over SVM on AUC[CROC(exp)] a=80")[1][:60]
    assert _regenerate(root, "--check").returncode == 0


def test_a_block_naming_no_table_and_a_folder_that_is_no_repository_fail_in_one_line(tmp_path):
    root = _copy(tmp_path)
    readme = root / "README.md"
    readme.write_text(readme.read_text() + "\n<!-- reference:pubchem_hts_modern/nothing -->\n<!-- /reference:"
                      "pubchem_hts_modern/nothing -->\n")  # fmt: skip
    bad = _regenerate(root, "--check")
    assert bad.returncode == 2
    assert bad.stderr == (
        "crocbench: error: README.md: block <!-- reference:pubchem_hts_modern/nothing --> names no table of the "
        "committed references\n"
    )
    empty = _regenerate(tmp_path / "nowhere")
    assert empty.returncode == 2 and empty.stderr.count("\n") == 1 and "not the repository's root" in empty.stderr

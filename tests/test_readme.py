"""The README's results tables are the committed reference's (a stale number is a bug)."""

import re
from pathlib import Path

import pytest

from crocbench.reference import readme_tables

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["published", "pooled"])
def test_readme_results_tables_are_the_reference(name):
    text = (ROOT / "README.md").read_text()
    block = re.search(rf"<!-- reference:{name} -->\n(.*?)\n?<!-- /reference:{name} -->", text, flags=re.S)
    assert block, f"README.md lacks the <!-- reference:{name} --> block"
    want = readme_tables(ROOT / "results" / "reference")[name]
    assert block.group(1).strip() == want, (
        f"README.md's {name} table is stale: crocbench reference results/dtp_aids --readme README.md rewrites it")

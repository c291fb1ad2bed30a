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


def test_readme_python_example_runs():
    """The "From Python" snippet, run as written on a small list (it failed once: a keyword where the API takes
    N and n_pos positionally)."""
    import numpy as np

    code = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S).group(1)
    rng = np.random.default_rng(0)
    y_true = rng.random(2000) < 0.05
    names = {"y_true": y_true, "y_score": rng.random(2000) + y_true, "score_irv": rng.random(2000) + y_true,
             "score_svm": rng.random(2000) + 0.5 * y_true}
    exec(compile(code, "README.md", "exec"), names)  # noqa: S102

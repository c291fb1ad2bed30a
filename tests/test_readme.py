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
        f"README.md's {name} table is stale: crocbench reference results/dtp_aids --readme README.md rewrites it"
    )


def test_readme_python_example_runs():
    """The "From Python" snippet, run as written on a small list (it failed once: a keyword where the API takes
    N and n_pos positionally)."""
    import numpy as np

    code = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S).group(1)
    rng = np.random.default_rng(0)
    y_true = rng.random(2000) < 0.05
    names = {
        "y_true": y_true,
        "y_score": rng.random(2000) + y_true,
        "score_irv": rng.random(2000) + y_true,
        "score_svm": rng.random(2000) + 0.5 * y_true,
    }
    exec(compile(code, "README.md", "exec"), names)  # noqa: S102


def test_readme_plugin_example_runs_as_declared(tmp_path):
    """ "Benchmark your own ranker": the plug-in module and its config entry, as written, fit and score."""
    import numpy as np
    import yaml

    from crocbench.cv import fold_table, score_fold
    from crocbench.fingerprints import Fingerprints
    from crocbench.models import declared_runs, make_model
    from crocbench.similarity import SimilarityIndex

    text = (ROOT / "README.md").read_text()
    module = re.search(r"```python\n# plugins/my_rankers.py\n(.*?)```", text, flags=re.S).group(1)
    entry = re.search(r"```yaml\n(models:\n  logreg: .*?)```", text, flags=re.S).group(1)
    (tmp_path / "my_rankers.py").write_text(module)
    models = yaml.safe_load(entry)["models"]
    runs = declared_runs(models, search=[tmp_path])
    assert runs["logreg"].label == "LogReg"
    rng = np.random.default_rng(0)
    rows = [np.unique(rng.integers(0, 50, 12)) for _ in range(60)]
    y = np.arange(60) % 4 == 0
    rows = [np.union1d(r, [100, 101]) if a else r for r, a in zip(rows, y)]  # actives share two features
    fp = Fingerprints(np.r_[0, np.cumsum([r.size for r in rows])], np.concatenate(rows).astype(np.uint64))
    model = make_model("logreg", models["logreg"], seed=(0, 1), search=[tmp_path])
    scores = score_fold(model, SimilarityIndex(fp), fold_table([f"c{i}" for i in range(60)], y.astype(int), 3), 0)
    assert scores["score"].notna().all()
    assert scores.loc[scores["label"] == 1, "score"].min() > scores.loc[scores["label"] == 0, "score"].max()

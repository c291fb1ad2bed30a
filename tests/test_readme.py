"""The README's and the docs' generated blocks are the committed references' (a stale number is a bug), and the
README's examples run as written."""

import re
from pathlib import Path

import pandas as pd
import pytest

from crocbench.pages import readme_tables, reference_blocks, regenerate_documents

ROOT = Path(__file__).resolve().parents[1]


def test_every_page_is_its_regeneration_from_the_committed_references():
    """`crocbench regenerate --check` from the repository alone: every generated block and figure of the README and
    the docs equals what the library writes from the committed references now, and every block names a table of
    them (a stale block, or one naming a table no reference has, fails)."""
    stale = regenerate_documents(ROOT, check=True)
    assert stale == [], f"stale: {stale}; `crocbench regenerate` rewrites them"


def test_update_readme_rewrites_a_stale_block_wherever_it_stands(tmp_path):
    from crocbench.pages import update_readme

    tables = readme_tables(ROOT / "results" / "reference")
    readme, page = tmp_path / "README.md", tmp_path / "page.md"
    readme.write_text(
        f"# x\n<!-- reference:published -->\n{tables['published']}\n<!-- /reference:published -->\n"
        f"<!-- reference:other_metrics -->\n{tables['other_metrics']}\n<!-- /reference:other_metrics -->\n"
    )
    page.write_text("text\n<!-- reference:pooled -->\n| stale |\n<!-- /reference:pooled -->\nmore\n")
    assert update_readme([readme, page], ROOT / "results" / "reference") == [(str(page), "pooled")]
    assert reference_blocks(page.read_text()) == {"pooled": tables["pooled"]} and page.read_text().endswith("more\n")
    with pytest.raises(ValueError, match="no <!-- reference:pooled --> block"):
        update_readme([readme], ROOT / "results" / "reference")


def test_readme_python_example_runs():
    """The "From Python" snippet, run as written on a small list, each line's value checked against an independent
    computation: the CROC area by the trapezoid rule on the curve computed here, BEDROC by RDKit's, the random
    baseline by the paper's 0.0125 at a = 80 (it failed once: a keyword where the API takes N and n_pos
    positionally)."""
    import ast

    import numpy as np
    from rdkit.ML.Scoring.Scoring import CalcBEDROC
    from sklearn.linear_model import LogisticRegression

    code = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S).group(1)
    rng = np.random.default_rng(0)
    y_true = rng.random(2000) < 0.05
    names = {
        "y_true": y_true,
        "y_score": rng.random(2000) + y_true,
        "score_irv": rng.random(2000) + y_true,
        "score_svm": rng.random(2000) + 0.5 * y_true,
    }
    values = []
    for statement in ast.parse(code).body:  # each expression's value kept, the imports run
        if isinstance(statement, ast.Expr):
            values.append(eval(compile(ast.Expression(statement.value), "README.md", "eval"), names))  # noqa: S307
        else:
            exec(compile(ast.Module([statement], []), "README.md", "exec"), names)  # noqa: S102
    croc, bedroc, baseline, comparison, scorer = values
    order = np.argsort(-names["y_score"], kind="stable")  # no ties in random floats
    y = y_true[order]
    tpr = np.r_[0, np.cumsum(y) / y.sum()]
    fpr = np.r_[0, np.cumsum(~y) / (~y).sum()]
    x = (1 - np.exp(-80 * fpr)) / (1 - np.exp(-80))  # the exponential magnification of the FPR axis
    assert croc == pytest.approx(np.trapezoid(tpr, x), abs=1e-12)
    assert bedroc == pytest.approx(CalcBEDROC([[v] for v in y], 0, 20.0), abs=1e-9)
    assert baseline.mean == pytest.approx(0.0125, abs=5e-5)  # the paper's random AUC[CROC(exp)] at a = 80
    assert comparison.value_a > comparison.value_b and comparison.results["paired_permutation"].p_value < 0.01
    model = LogisticRegression().fit(np.c_[names["y_score"]], y_true)
    assert scorer(model, np.c_[names["y_score"]], y_true) == pytest.approx(croc, abs=1e-12)  # a monotone score


def test_the_plugin_example_runs_as_declared(tmp_path):
    """The models guide's plug-in (route 1, which the README links): the module and its config entry, as written,
    fit and score."""
    import numpy as np
    import yaml

    from crocbench.chem.fingerprints import Fingerprints
    from crocbench.cv import fold_table, score_fold
    from crocbench.models import declared_runs, make_model
    from crocbench.similarity import SimilarityIndex

    text = (ROOT / "docs" / "user_guide" / "models.md").read_text()
    module = re.search(r"```python\n# plugins/my_rankers.py\n(.*?)```", text, flags=re.S).group(1)
    entry = re.search(r"```yaml\n(models:\n  logreg_paper: .*?)```", text, flags=re.S).group(1)
    (tmp_path / "my_rankers.py").write_text(module)
    models = yaml.safe_load(entry)["models"]
    runs = declared_runs(models, search=[tmp_path])
    assert runs["logreg_paper"].label == "LogReg-paper"
    import jsonschema  # the entry passes the config's schema, as it would in config.yaml

    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())
    jsonschema.validate({"models": models}, {**schema, "required": []})
    rng = np.random.default_rng(0)
    rows = [np.unique(rng.integers(0, 50, 12)) for _ in range(60)]
    y = np.arange(60) % 4 == 0
    rows = [np.union1d(r, [100, 101]) if a else r for r, a in zip(rows, y)]  # actives share two features
    fp = Fingerprints(np.r_[0, np.cumsum([r.size for r in rows])], np.concatenate(rows).astype(np.uint64))
    model = make_model("logreg_paper", models["logreg_paper"], seed=(0, 1), search=[tmp_path])
    scores = score_fold(model, SimilarityIndex(fp), fold_table([f"c{i}" for i in range(60)], y.astype(int), 3), 0)
    assert scores["score"].notna().all()
    assert scores.loc[scores["label"] == 1, "score"].min() > scores.loc[scores["label"] == 0, "score"].max()


def _study(name):
    """benchmarks/studies/NAME.py as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{name}_study", ROOT / "benchmarks" / "studies" / f"{name}.py")
    study = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(study)
    return study


def test_the_svm_subsample_table_is_the_committed_studys():
    """docs/studies/ecfp_panel.md, question (d): the table is benchmarks/studies/svm_subsample.py's rendering of
    results/reference/svm_subsample.tsv."""
    study = _study("svm_subsample")
    table = pd.read_csv(ROOT / "results" / "reference" / "svm_subsample.tsv", sep="\t")
    page = (ROOT / "docs" / "studies" / "ecfp_panel.md").read_text()
    block = re.search(r"<!-- study:svm_subsample -->\n(.*?)\n<!-- /study:svm_subsample -->", page, flags=re.S)
    assert block and block.group(1) == study.markdown(table)


@pytest.mark.parametrize("ranker", ["svm", "rf"])
def test_the_caps_tables_are_the_committed_studys(ranker):
    """docs/studies/ecfp_panel.md: each cap's table and reading is benchmarks/studies/caps.py's rendering of
    results/reference/caps_RANKER.tsv."""
    study = _study("caps")
    table = pd.read_csv(ROOT / "results" / "reference" / f"caps_{ranker}.tsv", sep="\t")
    page = (ROOT / "docs" / "studies" / "ecfp_panel.md").read_text()
    block = re.search(rf"<!-- study:caps_{ranker} -->\n(.*?)\n<!-- /study:caps_{ranker} -->", page, flags=re.S)
    assert block and block.group(1) == study.markdown(table)


def test_the_caps_reading_by_hand():
    """Two screens; the chosen candidate and two redraws span [0.10, 0.13] on A and [0.20, 0.21] on B (ranges 0.03 and
    0.01, mean 0.02); the variant moves by +0.04 on A (0.16: outside) and -0.005 on B (0.195: outside), mean
    +0.0175."""
    study = _study("caps")
    rows = []
    for screen, chosen, draws, variant in (("A", 0.12, (0.10, 0.13), 0.16), ("B", 0.20, (0.21, 0.205), 0.195)):
        for name, settings, value in (
            ("seed1", "subsample_seed=1", draws[0]),
            ("seed2", "subsample_seed=2", draws[1]),
            ("big", "max_kernel_gb=16", variant),
        ):
            rows.append(
                {
                    "screen": screen,
                    "variant": name,
                    "settings": settings,
                    "chosen_croc_exp_80": chosen,
                    "variant_croc_exp_80": value,
                    "difference_croc_exp_80": value - chosen,
                }
            )
    text = study.reading(pd.DataFrame(rows))
    assert text.splitlines() == [
        "- Redraws (seed1, seed2, with the chosen candidate: 3 draws a screen): AUC[CROC(exp)] a=80 spans 0.0200 on "
        "mean over 2 screens, at most 0.0300 (A).",
        "- big: AUC[CROC(exp)] a=80 moves by +0.0175 on mean over 2 screens (from -0.0050 to +0.0400); outside the "
        "redraws' spread on 2 of 2 screens.",
    ]


def _answers(path):
    """The ``*/headline`` blocks of a page, in order: (name, text, the prose between it and the block before)."""
    text = (ROOT / path).read_text()
    found, last = [], 0
    for m in re.finditer(r"<!-- reference:([\w./-]+/headline) -->\n(.*?)\n<!-- /reference:\1 -->", text, flags=re.S):
        found.append((m.group(1), m.group(2), text[last : m.start()]))
        last = m.end()
    return found


def test_the_readme_and_the_front_pages_lead_with_the_same_answers():
    """README.md and docs/index.md hold the same answers in the same order, and docs/studies/index.md begins with
    the same confirmatory ones and holds the README's others in the same order; on each page every confirmatory
    answer (declared before the run, as its generated text says) comes before every exploratory one, and the prose
    before the first exploratory answer says that what follows is exploratory."""
    readme, front, studies = (_answers(p) for p in ("README.md", "docs/index.md", "docs/studies/index.md"))
    names = [name for name, _, _ in readme]
    assert names[:2] == ["fair_random/headline", "fair_cluster/headline"]
    assert [name for name, _, _ in front] == names
    listed = [name for name, _, _ in studies]
    assert listed[:2] == names[:2] and [n for n in listed if n in names] == names
    for page in (readme, front, studies):
        kinds = ["(confirmatory" in text for _, text, _ in page]
        assert kinds == sorted(kinds, reverse=True) and kinds[0] and not kinds[-1]
        first = kinds.index(False)
        assert "exploratory" in page[first][2].lower()


def test_the_readme_is_at_most_150_lines_and_its_first_bash_block_holds_the_three_commands():
    """The front door stays short; .ci/run reads set-up, main and test commands from the first ```bash block."""
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    first = re.search(r"```bash\n(.*?)```", text, flags=re.S).group(1)
    assert [line for line in first.splitlines() if line.strip() and not line.startswith("#")] == [
        "python3 -m venv .venv && source .venv/bin/activate && pip install -r envs/requirements.txt -e .",
        "snakemake --cores 2",
        "pytest -n 2",
    ]
    assert "crocbench benchmark export fair_random" in text

"""A verdict study through the workflow (``pytest -m workflow``): on three copies of the .test screen, two rankers
on both fingerprints (kNN and RF, each on the paper's features and on ECFP4) declared as a `verdict:` with both
families and a decomposition. The dry run plans summary_verdict on the summary's tables; the real run writes
verdict.tsv, decomposition.tsv and verdict.md, whose rows are the declared union's."""

import pandas as pd
import pytest
from _snakemake import run_workflow as _run
from test_arms_workflow import workdir  # noqa: F401 (the fixture: the .test screen in the mirror)
from test_ecfp_workflow import _config

pytestmark = pytest.mark.workflow
MODELS = {
    "knn_ecfp4": {"class": "knn", "k": 5, "features": "ecfp4"},
    "rf": {"n_estimators": 5},
    "rf_paper": {"class": "rf", "n_estimators": 5, "features": "paper"},
}
ARMS = {
    "kNN/paper": {"ranker": "knn", "fingerprint": "paper"},
    "kNN/ECFP4": {"ranker": "knn_ecfp4", "fingerprint": "ECFP4"},
    "RF/paper": {"ranker": "rf_paper", "fingerprint": "paper"},
    "RF/ECFP4": {"ranker": "rf", "fingerprint": "ECFP4"},
}
PAIRS = [["kNN/paper", "RF/paper"], ["kNN/ECFP4", "RF/ECFP4"]]


def _verdict_config() -> dict:
    # every test active without an identical training active is novel: the .test screen has none below the default
    config = _config(MODELS) | {"memorization": {"splits": ["random"], "novel": 1.0, "analog": 1.0}}
    config["dataset"] = ["scr", "scr2", "scr3"]
    config["datasets"] |= {name: config["datasets"]["scr"] for name in ("scr2", "scr3")}
    secondary = {"model": "difference ~ 1 + (1 | screen)", "on": "repeat-level differences",
                 "reference": "t on screens - 1 df", "holm": "union"}  # fmt: skip
    config["verdict"] = {
        "declared": "before the run",
        "metric_of_record": "roc",
        "alpha": 0.05,
        "fingerprints": {f: {"reads": "features", "similarity": "Tanimoto"} for f in ("paper", "ECFP4")},
        "arms": ARMS,
        "families": [
            {"name": "equal", "scored_on": "confirmed actives", "split": "random", "pairs": PAIRS,
             "metrics": ["roc", "croc_exp_80"]},
            {"name": "novel", "scored_on": "novel actives", "split": "random", "pairs": PAIRS, "metrics": ["roc"]},
        ],  # fmt: skip
        "holm": "union",
        "robustness": {"leave_one_out": "every screen", "secondary": secondary,
                       "robust": "every panel holds and the secondary agrees"},  # fmt: skip
        "decomposition": {"pairs": [["kNN/paper", "RF/ECFP4"]], "level": 0.95, "resamples": 1000, "seed": 0},
        "cost": {"budget_hours": 1, "cores": 1, "model": "cost_model.py", "stages": [
            {"stage": 1, "priority": 1, "what": "all", "arguments": "", "columns": ["random"], "planned_hours": 0.5,
             "planned": True}]},
    }  # fmt: skip
    return config


def test_the_dry_run_plans_the_verdict_on_the_summarys_tables(workdir):  # noqa: F811
    plain = _run(workdir, {k: v for k, v in _verdict_config().items() if k != "verdict"}, "-n", "summary")
    dry = _run(workdir, _verdict_config(), "-n", "summary")
    assert plain.returncode == dry.returncode == 0, plain.stderr[-2000:] + dry.stderr[-2000:]
    assert "summary_verdict" not in plain.stdout
    job = dry.stdout.split("rule summary_verdict:")[1].split("\n\n")[0]
    assert "input: results/summary/tables/datasets_repeats.tsv, results/summary/tables/novel.tsv" in job
    assert "results/summary/tables/verdict.tsv, results/summary/tables/decomposition.tsv" in job


def test_the_run_writes_the_declared_unions_tables(workdir):  # noqa: F811
    done = _run(workdir, _verdict_config(), "results/summary/tables/verdict.md", timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    tables = workdir / "results" / "summary" / "tables"
    verdict = pd.read_csv(tables / "verdict.tsv", sep="\t")
    expected = [("equal", a, b, m) for a, b in PAIRS for m in ("roc", "croc_exp_80")]
    expected += [("novel", a, b, "roc") for a, b in PAIRS]
    assert list(verdict[["family", "a", "b", "metric"]].itertuples(index=False, name=None)) == expected
    assert (verdict["screens"] == 3).all() and (verdict["panels"] == 3).all()
    parts = pd.read_csv(tables / "decomposition.tsv", sep="\t")
    assert parts["part"].tolist()[:3] == ["total", "ranker", "features"]
    text = (tables / "verdict.md").read_text()
    assert "6 tests in 2 families, Holm over their union at 0.05, on 3 screens" in text

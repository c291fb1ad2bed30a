"""Benchmarks against the real data: an export from the mirror is byte-identical twice over, equals the folds a
workflow run of the benchmark's config makes, and the round trip holds: a reference ranker's own out-of-fold
scores from that run, evaluated, give back its committed values and its place. And the docs' worked example runs
as written (docs/user_guide/evaluate.md).

Marked ``workflow`` (pytest -m workflow): they run the workflow and standardize screens of 63,643 and 104,663
compounds, minutes of CPU.
"""

import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml
from _snakemake import ROOT, run_workflow

from crocbench import benchmark as bm
from crocbench.reference._tables import ABSOLUTE_FLOOR, RELATIVE_TOLERANCE

pytestmark = pytest.mark.workflow

BENCHMARK = "pubchem_hts"
SCREENS = ["GPCR_3_primary", "ion_channel2_primary"]  # the panel's two smallest screens
RANKERS = {"knn": "kNN", "maxsim": "MAX-SIM"}


@pytest.fixture(scope="module")
def run(tmp_path_factory, mirror):
    """A workflow run of the benchmark's config on its two smallest screens: folds, kNN and MAX-SIM."""
    work = tmp_path_factory.mktemp("run")
    config = yaml.safe_load((ROOT / "config" / "panels" / "pubchem_hts.yaml").read_text())
    config.update(dataset=SCREENS, mirror=str(mirror))
    targets = [
        f"results/{s}/{f}" for s in SCREENS for f in ("folds.tsv", "scores/knn.parquet", "scores/maxsim.parquet")
    ]
    done = run_workflow(work, config, "--cores", "2", *targets)
    assert done.returncode == 0, done.stderr[-3000:]
    return work


@pytest.fixture(scope="module")
def exported(tmp_path_factory, mirror):
    """The two screens exported twice, from the mirror."""
    os.environ.setdefault("CROCBENCH_MIRROR", str(mirror))
    spec = bm.find_spec(BENCHMARK, ROOT)
    outs = [tmp_path_factory.mktemp(f"export{i}") for i in range(2)]
    for out in outs:
        bm.export(spec, out, ROOT, SCREENS, progress=None)
    return outs


def test_two_exports_are_byte_identical_and_the_spec_is_the_committed_one(exported):
    names = sorted(p.name for p in exported[0].iterdir())
    assert names == sorted(["benchmark.json", "reference.csv", *[f"{s}.csv" for s in SCREENS]])
    for name in names:
        assert (exported[0] / name).read_bytes() == (exported[1] / name).read_bytes(), name
    assert (exported[0] / "benchmark.json").read_bytes() == (ROOT / "results/benchmarks/pubchem_hts.json").read_bytes()


def test_the_export_equals_the_workflow_runs_compounds_and_folds(exported, run):
    for screen in SCREENS:
        table = pd.read_csv(exported[0] / f"{screen}.csv", dtype={"id": str}, keep_default_na=False)
        folds = pd.read_csv(run / "results" / screen / "folds.tsv", sep="\t", dtype={"id": str})
        compounds = pd.read_parquet(run / "results" / screen / "compounds.parquet", columns=["id", "smiles"])
        assert table["id"].tolist() == folds["id"].tolist() == compounds["id"].tolist()
        assert np.array_equal(table["fold"], folds["fold"]) and np.array_equal(table["label"], folds["label"])
        assert table["smiles"].tolist() == compounds["smiles"].tolist()


def test_the_round_trip_gives_back_each_rankers_committed_values_and_place(exported, run, tmp_path):
    bench = bm.load(exported[0])
    committed = pd.read_csv(ROOT / bench.spec.reference / "datasets.tsv", sep="\t").set_index(["dataset", "model"])
    for key, label in RANKERS.items():
        sub = tmp_path / key
        sub.mkdir()
        for screen in SCREENS:
            scores = pd.read_parquet(run / "results" / screen / "scores" / f"{key}.parquet")
            scores[["id", "score"]].to_csv(sub / f"{screen}.csv", index=False)
        (sub / "benchmark.json").write_bytes((exported[0] / "benchmark.json").read_bytes())
        result = bench.evaluate(sub, name=f"{label} again")
        assert result.subset and result.screens == SCREENS
        values = result.values.set_index("dataset")
        for screen in SCREENS:
            for metric in bench.spec.metrics:  # the reference keeps 10 significant digits: within its tolerance
                got, want = values.loc[screen, metric], committed.loc[(screen, label), metric]
                assert abs(got - want) <= max(RELATIVE_TOLERANCE * abs(want), ABSOLUTE_FLOOR), (screen, label, metric)
        # its place: the entry ties its ranker on every screen and metric, and the others keep their order
        ranks = result.ranks
        for metric in bench.spec.metrics:
            part = ranks[ranks["metric"] == metric].set_index("model")["mean_rank"]
            assert part[f"{label} again"] == part[label], metric
            alone = committed.loc[SCREENS, metric].unstack("model")[list(bench.spec.rankers)]
            own = alone.rank(axis=1, ascending=False).mean()
            others = [m for m in bench.spec.rankers if m != label]
            assert list(part[others].sort_values(kind="stable").index) == list(
                own[others].sort_values(kind="stable").index
            )
        versus = result.versus.set_index(["metric", "ranker"])
        assert (versus.xs(label, level="ranker")["ties"] == len(SCREENS)).all()


def _example_code() -> tuple[str, str]:
    page = (ROOT / "docs" / "user_guide" / "evaluate.md").read_text()
    code = re.search(r"<!-- example -->\n```python\n(.*?)```", page, re.S).group(1)
    shown = re.search(r"<!-- example output -->\n```text\n(.*?)```", page, re.S).group(1)
    return code, shown


def test_the_worked_example_runs_as_written_and_prints_what_the_page_shows(tmp_path, mirror):
    code, shown = _example_code()
    assert len(code.strip().splitlines()) <= 40
    project = tmp_path / "project"  # the project's files the example reads, and nothing written into the checkout
    project.mkdir()
    for part in ("config.yaml", "config", "workflow", "results"):
        (project / part).symlink_to(ROOT / part)
    (project / "example.py").write_text(code)
    env = {**os.environ, "CROCBENCH_MIRROR": str(mirror)}
    done = subprocess.run(
        [sys.executable, "example.py"], cwd=project, capture_output=True, text=True, env=env, timeout=1800
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == shown, done.stdout
    assert (project / "extratrees" / "result.json").is_file()

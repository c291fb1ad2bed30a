"""Benchmarks against the real data. An export from the mirror is the frozen one (every file's sha256 is the
committed spec's, so it is byte-identical to the export the spec was frozen from), equals the compounds and folds
a workflow run of the benchmark's config makes, and the round trip holds: a reference ranker's own out-of-fold
scores from that run, evaluated, give back its committed values and its place. And the docs' worked example runs
as written (docs/user_guide/evaluate.md).

The first is marked ``workflow`` (pytest -m workflow; CI runs it): it runs the workflow and standardizes screens
of 63,643 and 104,663 compounds, minutes of CPU. The worked example trains 20 forests and is marked ``fulldata``
(pytest -m fulldata tests/test_benchmark_workflow.py), outside CI's 30 minutes.
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

BENCHMARK = "pubchem_hts"
SCREENS = ["GPCR_3_primary", "ion_channel2_primary"]  # the panel's two smallest screens
RANKERS = {"knn": "kNN", "maxsim": "MAX-SIM"}


@pytest.mark.workflow
def test_the_export_is_the_frozen_one_equals_a_workflow_run_and_gives_back_its_rankers(tmp_path, mirror, monkeypatch):
    # a workflow run of the benchmark's config on its two smallest screens: folds, kNN and MAX-SIM
    work = tmp_path / "run"
    work.mkdir()
    config = yaml.safe_load((ROOT / "config" / "panels" / "pubchem_hts.yaml").read_text())
    config.update(dataset=SCREENS, mirror=str(mirror))
    targets = [
        f"results/{s}/{f}" for s in SCREENS for f in ("folds.tsv", "scores/knn.parquet", "scores/maxsim.parquet")
    ]
    done = run_workflow(work, config, "--cores", "2", *targets, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]

    # the export: every file checked against the committed spec's sha256 as it is written (export refuses
    # anything else), and the spec copied byte for byte
    os.environ.setdefault("CROCBENCH_MIRROR", str(mirror))
    monkeypatch.setenv("CROCBENCH_CACHE", str(tmp_path / "cache"))  # the archives it fetches
    spec = bm.find_spec(BENCHMARK)
    out = tmp_path / "export"
    files = bm.export(spec, out, ROOT, SCREENS, progress=None)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["benchmark.json", "reference.csv", *[f"{s}.csv" for s in SCREENS]]
    )
    assert (out / "benchmark.json").read_bytes() == (bm.SPECS / "pubchem_hts.json").read_bytes()
    for screen in SCREENS:
        assert files[f"{screen}.csv"] == spec.files[f"{screen}.csv"]

    # it equals the workflow run's compounds and folds
    for screen in SCREENS:
        table = pd.read_csv(out / f"{screen}.csv", dtype={"id": str}, keep_default_na=False)
        folds = pd.read_csv(work / "results" / screen / "folds.tsv", sep="\t", dtype={"id": str})
        compounds = pd.read_parquet(work / "results" / screen / "compounds.parquet", columns=["id", "smiles"])
        assert table["id"].tolist() == folds["id"].tolist() == compounds["id"].tolist()
        assert np.array_equal(table["fold"], folds["fold"]) and np.array_equal(table["label"], folds["label"])
        assert table["smiles"].tolist() == compounds["smiles"].tolist()

    # the round trip: each ranker's own scores give back its committed values and its place
    bench = bm.load(out)
    committed = pd.read_csv(ROOT / bench.spec.reference / "datasets.tsv", sep="\t").set_index(["dataset", "model"])
    for key, label in RANKERS.items():
        sub = tmp_path / key
        sub.mkdir()
        for screen in SCREENS:
            scores = pd.read_parquet(work / "results" / screen / "scores" / f"{key}.parquet")
            scores[["id", "score"]].to_csv(sub / f"{screen}.csv", index=False)
        (sub / "benchmark.json").write_bytes((out / "benchmark.json").read_bytes())
        result = bench.evaluate(sub, name=f"{label} again")
        assert result.subset and result.screens == SCREENS
        values = result.values.set_index("dataset")
        for screen in SCREENS:
            for metric in bench.spec.metrics:  # the reference keeps 10 significant digits: within its tolerance
                got, want = values.loc[screen, metric], committed.loc[(screen, label), metric]
                assert abs(got - want) <= max(RELATIVE_TOLERANCE * abs(want), ABSOLUTE_FLOOR), (screen, label, metric)
        # its place: on every screen the entry and its ranker share the ranker's own rank r and r + 1, so both
        # have the ranker's mean rank among the reference's rankers alone, plus one half
        for metric in bench.spec.metrics:
            part = result.ranks[result.ranks["metric"] == metric].set_index("model")["mean_rank"]
            alone = committed.loc[SCREENS, metric].unstack("model")[list(bench.spec.rankers)]
            own = alone.rank(axis=1, ascending=False).mean()[label]
            assert part[f"{label} again"] == part[label] == pytest.approx(own + 0.5), metric
        versus = result.versus.set_index(["metric", "ranker"])
        assert (versus.xs(label, level="ranker")["ties"] == len(SCREENS)).all()


def _example_code() -> tuple[str, str]:
    page = (ROOT / "docs" / "user_guide" / "evaluate.md").read_text()
    code = re.search(r"<!-- example -->\n```python\n(.*?)```", page, re.S).group(1)
    shown = re.search(r"<!-- example output -->\n```text\n(.*?)```", page, re.S).group(1)
    return code, shown


@pytest.mark.fulldata
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

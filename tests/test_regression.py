"""Regression of a finished workflow run (``pytest -m regression`` after ``snakemake --cores 2``).

1. The paper's published numbers and claims (``crocbench/published.yaml``) are reproduced within
   their stated tolerances, or are documented known deviations that stay inside their measured
   band around our own value (never a silent pass, never an unbounded one); a documented
   deviation that no longer deviates fails too, so that its note cannot go stale.
2. The run's tables equal the committed reference (``results/reference/``): counts and text
   exactly, floats to 1e-9 relative (``crocbench.reference``).  Refresh the reference on purpose
   with ``crocbench reference results/dtp_aids``, which prints what moved.
"""

import json
import warnings
from pathlib import Path

import pandas as pd
import pytest
import yaml

from crocbench.models import LABELS
from crocbench.paper import (
    check_claims,
    irv_training_claims,
    load_published,
    measured_values,
    published_comparison,
)
from crocbench.reference import REFERENCE_FILES, compare_run
from crocbench.report import pooled_metrics

pytestmark = pytest.mark.regression
ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())
RESULTS = ROOT / "results" / CONFIG["dataset"]
REFERENCE = ROOT / "results" / "reference"


@pytest.fixture(scope="module")
def tables():
    needed = [RESULTS / "tables" / f for f in ("areas.tsv", "significance.tsv", "irv_training.tsv")]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: run `snakemake --cores 2` before `pytest -m regression`")
    return [pd.read_csv(p, sep="\t") for p in needed]


def _names():
    return {m: LABELS.get(m, m) for m in CONFIG["models"]}


def test_published_numbers(tables):
    areas, _, training = tables
    table = published_comparison(measured_values(areas, training, {v: k for k, v in _names().items()}))
    failed = table[table["status"] == "FAIL"]
    for row in table[table["status"] == "known deviation"].itertuples():
        warnings.warn(
            f"known deviation {row.id}: published {row.published}, reproduced {row.reproduced:.4f} "
            f"(tolerance {row.tolerance}, band {row.band_low}-{row.band_high}): {row.note}",
            stacklevel=1,
        )
    assert failed.empty, "published numbers no longer reproduced (or a deviation left its band):\n" + "\n".join(
        f"  {r.id} ({r.model} {r.metric}): published {r.published}, reproduced {r.reproduced:.6g}, "
        f"tolerance {r.tolerance}, band {r.band_low}-{r.band_high}"
        for r in failed.itertuples()
    )
    assert (table["status"] != "not run").all(), table[table["status"] == "not run"]["id"].tolist()
    documented = {a["id"] for a in load_published()["anchors"] if a.get("known_deviation")}
    stale = table[table["id"].isin(documented) & (table["status"] == "pass")]["id"].tolist()
    assert not stale, f"documented deviations that now pass (remove their known_deviation note): {stale}"


def _check(claims):
    """Claims (``crocbench.report.Claim``): unexplained failures and stale deviation notes fail."""
    for c in claims:
        if c.holds is False and c.note:
            warnings.warn(f"known deviation {c.id}: {c.text} ({c.evidence}): {c.note}", stacklevel=2)
    unexplained = [f"{c.id}: {c.evidence}" for c in claims if c.holds is False and not c.note]
    assert not unexplained, "claims no longer reproduced: " + "; ".join(unexplained)
    assert all(c.holds is not None for c in claims), [c.id for c in claims if c.holds is None]


def test_published_claims(tables):
    areas, significance, _ = tables
    claims = check_claims(areas, significance, _names())
    _check(claims)
    documented = {c["id"] for c in load_published()["claims"] if c.get("known_deviation")}
    stale = [c.id for c in claims if c.id in documented and c.holds is True]
    assert not stale, f"claims documented as deviations now hold (remove their known_deviation note): {stale}"


def test_appendix_a_claims(tables):
    _, _, training = tables
    others = {m: pooled_metrics(pd.read_parquet(RESULTS / "scores" / f"{m}.parquet")) for m in ("svm", "knn")}
    claims = irv_training_claims(training, others)
    _check(claims)
    documented = {c["id"] for c in load_published()["appendix_claims"] if c.get("known_deviation")}
    stale = [c.id for c in claims if c.id in documented and c.holds is True]
    assert not stale, f"Appendix A claims documented as deviations now hold (remove their note): {stale}"


@pytest.fixture(scope="module")
def reference_differences():
    if CONFIG["dataset"] != "dtp_aids":
        pytest.skip("the committed reference is for the default dataset")
    return compare_run(RESULTS, REFERENCE)


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_tables_equal_the_reference(reference_differences, name):
    moved = reference_differences[name]
    assert not moved, "\n".join(moved) + f"\n(refresh on purpose: crocbench reference {RESULTS})"


def test_standardization_summary_is_the_documented_one():
    summary = json.loads((RESULTS / "standardize_summary.json").read_text())
    if CONFIG["dataset"] == "dtp_aids":
        assert (summary["rows_in"], summary["rejected"], summary["kept"], summary["positives"]) == (
            41913,
            7,
            41906,
            1487,
        )
        assert (summary["duplicate_groups"], summary["conflicting_class_groups"]) == (712, 36)


def test_the_bootstrap_sd_of_auc_is_delongs_on_every_pooled_ranking():
    """Every ranker's pooled scores: the bootstrap SD of AUC[ROC] (1,000 resamples; its own error ~2%) is DeLong's
    standard error to within 7.5%."""
    from _delong import delong_se

    from crocbench.metrics import paper_metrics
    from crocbench.stats import bootstrap

    for model in CONFIG["models"]:
        scores = pd.read_parquet(RESULTS / "scores" / f"{model}.parquet")
        y, s = scores["label"].to_numpy(), scores["score"].to_numpy()
        (iv,) = bootstrap(y, s, paper_metrics()[:1], n_resamples=1000, seed=0)
        assert iv.se == pytest.approx(delong_se(y, s), rel=0.075), model


#: Run in the report page after it loads: the right edge of the landing page's first table and the left edge of
#: the workflow graph's drawing (Snakemake draws it beside the text column), once both are there.
_LANDING_PROBE = """<script>
function probe() {
  const table = document.querySelector('.prose table'), graph = document.querySelector('#rulegraph canvas, #rulegraph svg');
  if (!table || !graph) { setTimeout(probe, 100); return; }
  document.body.setAttribute('data-edges', table.getBoundingClientRect().right + ',' + graph.getBoundingClientRect().left);
}
window.addEventListener('load', probe);
</script>"""


def test_the_reports_landing_table_ends_left_of_the_workflow_graph(tmp_path):
    """``results/report.html`` (the README's report command, run by .ci/run before this suite) opened in headless
    Chromium at 1,280 x 900: the published-vs-reproduced table on the landing page ends before the workflow's
    graph begins, so no number is drawn under the graph."""
    import re
    import shutil
    import subprocess

    report, browser = ROOT / "results" / "report.html", shutil.which("chromium")
    if not report.is_file() or browser is None:
        pytest.fail("run `snakemake --report results/report.html`, with Debian's chromium installed, before this test")
    head, tail = report.read_text().rsplit("</body>", 1)
    page = tmp_path / "report.html"
    page.write_text(head + _LANDING_PROBE + "</body>" + tail)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
    dom = subprocess.run(
        [browser, *flags, "--window-size=1280,900", "--virtual-time-budget=10000", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    edges = re.search(r'data-edges="([0-9.]+),([0-9.]+)"', dom)
    assert edges, "the landing page showed no table beside the workflow graph"
    table_right, graph_left = map(float, edges.groups())
    assert table_right <= graph_left, (
        f"the table ends at {table_right:.0f} px, under the graph from {graph_left:.0f} px"
    )

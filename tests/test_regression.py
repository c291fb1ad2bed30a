"""Regression of a finished workflow run (``pytest -m regression`` after ``snakemake --cores 2``).

1. The paper's published numbers and claims (``crocbench/published.yaml``) are reproduced within
   their stated tolerances, or are documented known deviations, which are reported with their
   measured numbers (never a silent pass).
2. The run's tables equal the committed reference (``results/reference/``) to 1e-9: the
   pipeline is deterministic, so any difference means a change moved a result.  Refresh the
   reference on purpose with ``crocbench reference results/dtp_aids``.
"""

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from crocbench.models import LABELS
from crocbench.report import (REFERENCE_FILES, check_claims, load_published, measured_values, published_comparison,
                              reference_frame)

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
        warnings.warn(f"known deviation {row.id}: published {row.published}, reproduced {row.reproduced:.4f} "
                      f"(tolerance {row.tolerance}): {row.note}", stacklevel=1)
    assert failed.empty, "published numbers no longer reproduced:\n" + "\n".join(
        f"  {r.id} ({r.model} {r.metric}): published {r.published}, reproduced {r.reproduced:.6g}, "
        f"tolerance {r.tolerance}" for r in failed.itertuples())
    assert (table["status"] != "not run").all(), table[table["status"] == "not run"]["id"].tolist()


def test_published_claims(tables):
    areas, significance, _ = tables
    claims = check_claims(areas, significance, _names())
    unexplained = [c for c in claims if c[2] is False and not c[4]]
    for cid, text, ok, evidence, note in claims:
        if ok is False and note:
            warnings.warn(f"known deviation {cid}: {text} ({evidence}): {note}", stacklevel=1)
    assert not unexplained, "claims no longer reproduced: " + "; ".join(f"{c[0]}: {c[3]}" for c in unexplained)
    assert all(c[2] is not None for c in claims), [c[0] for c in claims if c[2] is None]


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_tables_equal_the_reference(name):
    if CONFIG["dataset"] != "dtp_aids":
        pytest.skip("the committed reference is for the default dataset")
    ref_path = REFERENCE / name
    assert ref_path.is_file(), f"{ref_path} missing: create it with `crocbench reference {RESULTS}`"
    run, ref = reference_frame(RESULTS, name), pd.read_csv(ref_path, sep="\t")
    assert list(run.columns) == list(ref.columns), f"{name}: columns changed"
    assert len(run) == len(ref), f"{name}: {len(run)} rows, reference {len(ref)}"
    for column in ref.columns:
        a, b = run[column], ref[column]
        if pd.api.types.is_numeric_dtype(b):
            diff = np.abs(a.to_numpy(float) - b.to_numpy(float))
            bad = np.flatnonzero(~((diff <= 1e-9) | (np.isnan(a.to_numpy(float)) & np.isnan(b.to_numpy(float)))))
            assert bad.size == 0, (f"{name}: {column} moved in row {bad[0]} ({run.iloc[bad[0], 0]}): "
                                   f"{a.iloc[bad[0]]!r}, reference {b.iloc[bad[0]]!r}")
        else:
            bad = np.flatnonzero(a.fillna("").astype(str).to_numpy() != b.fillna("").astype(str).to_numpy())
            assert bad.size == 0, f"{name}: {column} changed in row {bad[0]}: {a.iloc[bad[0]]!r} vs {b.iloc[bad[0]]!r}"


def test_standardization_summary_is_the_documented_one():
    summary = json.loads((RESULTS / "standardize_summary.json").read_text())
    if CONFIG["dataset"] == "dtp_aids":
        assert (summary["rows_in"], summary["rejected"], summary["kept"], summary["positives"]) == (41913, 7, 41906, 1487)
        assert (summary["duplicate_groups"], summary["conflicting_class_groups"]) == (712, 36)

"""crocbench.reference._manifest: every committed reference says what it is, and a bad manifest fails in one line."""

from pathlib import Path

import pytest
import yaml

from crocbench.reference import MANIFEST, Manifest, read_manifest, references, write_manifest

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "results" / "reference"


def test_every_committed_reference_folder_has_a_manifest_that_reads():
    folders = [REFERENCE, *sorted(p for p in REFERENCE.iterdir() if p.is_dir())]
    assert [m.folder for m in references(REFERENCE)] == folders  # none is left without one
    kinds = {m.name: m.kind for m in references(REFERENCE)}
    assert kinds["reference"] == "paper" and kinds["pubchem_hts_ecfp"] == "panel"
    assert kinds["ecfp_rankers_random"] == "study" and kinds["ecfp_rankers"] == "tables"


def test_the_committed_overlays_name_the_panel_they_overlay_and_what_they_change():
    scaffold, confirmed = (read_manifest(REFERENCE / f"pubchem_hts_ecfp_{o}") for o in ("scaffold", "confirmed"))
    assert (scaffold.overlays, scaffold.split, scaffold.labels) == ("pubchem_hts_ecfp", "scaffold", "primary")
    assert (confirmed.overlays, confirmed.split, confirmed.labels) == ("pubchem_hts_ecfp", "random", "confirmed")
    for manifest in references(REFERENCE):  # every declared document and figure exists
        assert all((ROOT / d).is_file() for d in (*manifest.documents, *manifest.figures)), manifest.name


def test_a_manifest_written_reads_back(tmp_path):
    (tmp_path / "base").mkdir()
    write_manifest(Manifest(tmp_path / "base", kind="panel", split="random", labels="primary"))
    m = Manifest(tmp_path / "x", kind="panel", split="scaffold", labels="primary", overlays="base",
                 campaign_key="campaign", documents=("README.md",))  # fmt: skip
    (tmp_path / "x").mkdir()
    write_manifest(m)
    assert read_manifest(tmp_path / "x") == m


@pytest.mark.parametrize(
    "spec, message",
    [
        (None, "no manifest"),
        ({"kind": "survey"}, "kind must be one of paper, panel, study, tables, memorization; got 'survey'"),
        ({"kind": "panel", "split": "stratified"}, "split must be one of random, scaffold, cluster"),
        ({"kind": "panel", "colour": 1}, "unknown key 'colour'"),
        ({"kind": "panel", "overlays": "elsewhere"}, "overlays 'elsewhere' is no reference beside it"),
        ({"kind": "panel", "figures": {"a.png": "pie"}}, "figures.a.png must be one of critical_difference"),
        ({"kind": "panel", "questions": {"declared": "before the run"}}, "questions: metric_of_record is required"),
        ({"kind": "memorization", "strata": {"novel": 0.4}}, "a memorization reference declares strata: novel, analog"),
    ],
)
def test_a_bad_manifest_fails_in_one_line_naming_the_file(tmp_path, spec, message):
    if spec is not None:
        (tmp_path / MANIFEST).write_text(yaml.safe_dump(spec))
    with pytest.raises(ValueError) as info:
        read_manifest(tmp_path)
    text = str(info.value)
    assert text.startswith(str(tmp_path / MANIFEST)) and message in text and "\n" not in text

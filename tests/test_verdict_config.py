"""config/studies/verdict.yaml, issue 94's declaration: it passes the schema and the cross-field checks over the panel,
its factorial and families are what it says, and each stage's planned hours are the cost model's."""

from __future__ import annotations

import itertools
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from _configs import merged_config

from crocbench.config import check_config
from crocbench.stats import screens_needed

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "config" / "studies" / "verdict.yaml"
PANEL = ROOT / "config" / "panels" / "pubchem_hts.yaml"
NEW = {"channel_atp", "dna_repair", "transcription", "transcription2", "zinc_finger"}


def _config(tmp_path):
    config, runs = merged_config(PANEL, STUDY, ROOT / "config" / "studies" / "fair_chosen.yaml")
    return config, check_config(config, runs, root=tmp_path)


def test_the_verdict_study_validates_over_the_panel_on_fifteen_campaigns(tmp_path):
    config, screens = _config(tmp_path)
    confirmed = yaml.safe_load((ROOT / "config" / "panels" / "pubchem_hts_confirmed.yaml").read_text())["dataset"]
    campaigns = {s.rsplit("_", 1)[0] for s in screens}
    assert len(screens) == 15 and set(confirmed) <= set(screens) and campaigns - {
        s.rsplit("_", 1)[0] for s in confirmed
    } == NEW  # fmt: skip
    assert not campaigns & {s.rsplit("_", 1)[0] for s in config["tuning"]["chosen_on"]}  # no development screen
    assert config["cv"] == {**config["cv"], "folds": 5, "split": "random", "repeats": 3}
    assert config["verdict"]["declared"] == "before the run"


def test_the_factorial_puts_every_ranker_on_both_fingerprints(tmp_path):
    config, _ = _config(tmp_path)
    verdict = config["verdict"]
    arms = verdict["arms"]
    entries = {a["ranker"] for a in arms.values()}
    assert entries <= set(config["models"]) and entries == set(config["summary"]["models"]) - {"random"}
    # each arm's class, from its models: entry read here ("class", else the entry's own name), and its features
    # read from the entry's own features: or the class's default (paper for the similarity rankers)
    own = {"maxsim": "paper", "knn": "paper", "svm": "paper", "irv": "paper"}
    klass = {e: (config["models"].get(e) or {}).get("class", e) for e in entries}
    reads = {e: (config["models"].get(e) or {}).get("features", own.get(klass[e], "ecfp4")) for e in entries}
    for a in arms.values():
        assert reads[a["ranker"]] == a["fingerprint"].lower()
    classes = set(klass.values())
    assert sorted((klass[a["ranker"]], a["fingerprint"]) for a in arms.values()) == sorted(
        itertools.product(classes, verdict["fingerprints"])
    )
    for family in verdict["families"]:  # rankers compared at equal features, under both fingerprints
        assert verdict["metric_of_record"] in family["metrics"]
        pairs = [(arms[a], arms[b]) for a, b in family["pairs"]]
        assert all(a["fingerprint"] == b["fingerprint"] and klass[a["ranker"]] != klass[b["ranker"]] for a, b in pairs)
        assert {a["fingerprint"] for a, _ in pairs} == set(verdict["fingerprints"])
    for a, b in verdict["decomposition"]["pairs"]:  # both factors differ, so both parts are defined
        assert klass[arms[a]["ranker"]] != klass[arms[b]["ranker"]]
        assert arms[a]["fingerprint"] != arms[b]["fingerprint"]


def test_each_arm_on_its_other_fingerprint_is_tuned_as_its_twin_was(tmp_path):
    """verdict_development.yaml: the arms of verdict.yaml that are not chosen yet, on fair_development.yaml's panel
    with its settings; each arm's fixed settings are its twin's, so the two differ only in features and, once
    chosen, in the chosen values."""
    from crocbench.config import compared_models, tuning_settings
    from crocbench.models import make_model

    studies = ROOT / "config" / "studies"
    twin, _ = merged_config(PANEL, studies / "fair_development.yaml")
    dev, runs = merged_config(PANEL, studies / "verdict_development.yaml")
    assert check_config(dev, runs, root=tmp_path) == check_config(twin, runs, root=tmp_path)
    assert tuning_settings(dev) == tuning_settings(twin) and dev["cv"] == twin["cv"]
    assert dev["similarity"] == twin["similarity"]
    verdict, _ = _config(tmp_path)
    arms = {a["ranker"] for a in verdict["verdict"]["arms"].values()}
    chosen = yaml.safe_load((studies / "fair_chosen.yaml").read_text())["models"]
    new = {m for m in arms if m not in chosen and (verdict["models"][m] or {}).get("class", m) != "maxsim"}
    assert new == {m for m in dev["models"] if (dev["models"][m] or {}).get("tune") == "declared"}
    tuned = [m for m in compared_models(dev) if "." in m]
    assert sorted({m.split(".")[0] for m in tuned}) == sorted(new) and len(tuned) == 8 * len(new)
    for arm in new:
        entry = dict(dev["models"][arm])
        klass, features = entry.pop("class"), entry.pop("features")
        fingerprint = {a["ranker"]: a["fingerprint"].lower() for a in verdict["verdict"]["arms"].values()}
        assert features == fingerprint[arm] != fingerprint[klass]  # the other fingerprint than the twin's
        assert entry.pop("tune") == twin["models"][klass]["tune"] == "declared"  # the twin's budget
        fixed = {k: v for k, v in twin["models"][klass].items() if k != "tune"}
        assert vars(make_model(arm, {"class": klass, **entry})) == vars(make_model(klass, fixed))


def test_the_union_leaves_room_for_a_verdict_to_hold_without_any_one_screen(tmp_path):
    config, screens = _config(tmp_path)
    tests = sum(len(f["pairs"]) * len(f["metrics"]) for f in config["verdict"]["families"])
    assert tests == 48 and config["verdict"]["holm"] == "union"
    assert screens_needed(tests=tests, alpha=config["verdict"]["alpha"]) + 1 <= len(screens)
    assert screens_needed(tests=tests) > 10  # the ten screens of stage 1 alone cannot carry a verdict


def _hours(arguments: str, columns: list) -> float:
    """The cost model's `all` row, summed over ``columns``, for a stage's arguments."""
    cost = yaml.safe_load(STUDY.read_text())["verdict"]["cost"]
    command = [sys.executable, *shlex.split(cost["model"])[1:], *shlex.split(arguments)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300, cwd=ROOT).stdout
    (row,) = [line for line in out.splitlines() if line.startswith("| all |")]
    cells = [c.strip() for c in row.split("|")[2:-1]]
    return sum(float(cells[["tuning", "random", "grouped"].index(c)]) for c in columns)


@pytest.mark.parametrize(
    "stage", yaml.safe_load(STUDY.read_text())["verdict"]["cost"]["stages"], ids=lambda s: str(s["stage"])
)
def test_each_stages_planned_hours_are_the_cost_models(stage):
    assert _hours(stage["arguments"], stage["columns"]) == pytest.approx(stage["planned_hours"], abs=0.005)


def test_the_plan_is_the_longest_run_of_priorities_that_fits_the_budget():
    cost = yaml.safe_load(STUDY.read_text())["verdict"]["cost"]
    stages = sorted(cost["stages"], key=lambda s: s["priority"])
    assert [s["priority"] for s in stages] == list(range(1, len(stages) + 1))
    total, fits = 0.0, True
    for s in stages:
        total += s["planned_hours"]
        fits = fits and total <= cost["budget_hours"]
        assert s["planned"] == fits, s["stage"]


def _edited(tmp_path, edit, whole: bool = False) -> str:
    """check_config's one line on the verdict study after ``edit(verdict)`` (``edit(config)`` if ``whole``)."""
    from crocbench.models import declared_runs, expand_runs

    config, _ = merged_config(PANEL, STUDY, ROOT / "config" / "studies" / "fair_chosen.yaml")
    edit(config if whole else config["verdict"])
    runs = declared_runs(expand_runs(config["models"]))
    with pytest.raises(ValueError) as error:
        check_config(config, runs, root=tmp_path)
    assert "\n" not in str(error.value)
    return str(error.value)


def test_a_bad_verdict_declaration_stops_in_one_line(tmp_path):
    def across(v):
        v["families"][0]["pairs"][0] = ["IRV/paper", "SVM/ECFP4"]

    def same_features(v):
        v["decomposition"]["pairs"][0] = ["IRV/paper", "RF/paper"]

    def unknown_ranker(v):
        v["arms"]["GNN/paper"] = {"ranker": "chemprop", "fingerprint": "paper"}

    def other_fingerprint(v):
        v["arms"]["kNN/ECFP4"]["ranker"] = "knn"

    def two_screens(config):
        config["dataset"] = config["dataset"][:2]

    def over_budget(v):
        v["cost"]["stages"][1]["planned"] = True

    assert _edited(tmp_path, across) == (
        "verdict: families: rankers at equal features: IRV/paper and SVM/ECFP4 read different features (paper, ECFP4)"
    )
    assert _edited(tmp_path, same_features) == (
        "verdict: decomposition: IRV/paper and RF/paper must differ in ranker and in features"
    )
    assert _edited(tmp_path, unknown_ranker).startswith("verdict: arms: GNN/paper: 'chemprop' is not a model (")
    assert _edited(tmp_path, other_fingerprint) == (
        "verdict: arms: kNN/ECFP4: model knn reads paper, not ECFP4 (its models: entry's features:)"
    )
    assert _edited(tmp_path, two_screens, whole=True) == (
        "verdict: a verdict's leave-one-screen-out panels need 3 screens or more; dataset: names 2"
    )
    assert _edited(tmp_path, over_budget) == (
        "verdict: cost: stage 2: planned must be false (the planned stages are the longest run of priorities "
        "within 30 h; with it 31.71 h)"
    )

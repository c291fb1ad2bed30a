"""crocbench.benchmark: what ties and what is checked, per repeat.

An entry that reproduces a reference ranker repeat by repeat ties with it on every screen and metric (the committed
fair_random benchmark, and a repeated split of the toy project end to end); a repeated submission's ``fold`` column
is checked against each repeat's own fold column; a Parquet export loads and resumes; Nemenyi's critical distance
counts the entry among the rankers; a result's record holds each repeat's values and each model's place.
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _benchmark import FOLDS, RANKERS, SCREENS, N, _submission, _toy_project, make_world, repeated_export

from crocbench.benchmark import SPECS, committed_specs, load, place
from crocbench.benchmark._spec import spec_bytes

ROOT = Path(__file__).resolve().parents[1]


#: The toy benchmark is a committed spec here (conftest.py's ``toy_registry``).
pytestmark = pytest.mark.usefixtures("toy_registry")


@pytest.fixture(scope="module")
def world(tmp_path_factory, toy_registry):
    made = make_world(tmp_path_factory.mktemp("export"))
    (toy_registry / "toy.json").write_bytes(spec_bytes(made["spec"]))
    return made


@pytest.fixture(scope="module")
def fair_random():
    """The committed fair_random spec, its reference rows (checked against the spec's sha256) and its rankers'
    values per repeat."""
    from crocbench.benchmark._recipe import reference_values, table_bytes

    spec = committed_specs(SPECS)["fair_random"]
    reference = reference_values(spec, ROOT)
    assert hashlib.sha256(table_bytes(reference)).hexdigest() == spec.files["reference.csv"]["sha256"]
    per_repeat = pd.read_csv(ROOT / spec.reference / "datasets_repeats.tsv", sep="\t")
    return spec, reference, per_repeat[per_repeat["dataset"].isin(spec.screens)]


def _reproduced(per_repeat: pd.DataFrame, spec, ranker: str, shift: float) -> pd.DataFrame:
    """A ranker's committed values per repeat, each moved by ``shift`` units of its 10th significant digit (|shift|
    < 0.5: each still rounds to the committed value; a plain mean of them does not always round to the mean of
    the committed values)."""
    rows = per_repeat[per_repeat["model"] == ranker].drop(columns="model").reset_index(drop=True)
    for metric in spec.metrics:
        x = rows[metric].to_numpy(float)
        unit = 10.0 ** (np.floor(np.log10(np.abs(np.where(x == 0, 1.0, x)))) - 9)
        rows[metric] = np.where(x == 0, 0.0, x + shift * unit)
    return rows


@pytest.fixture(scope="module")
def baselines_once():
    """The exact random baselines (:func:`crocbench.metrics.random_baseline`, a function of the metric, the list's
    size and its actives) computed once per screen and metric in this module: every ranker and entry placed on
    fair_random's screens has the same."""
    import functools

    import crocbench.metrics._sets as sets

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sets, "random_baseline", functools.cache(sets.random_baseline))
        yield


def test_a_rankers_own_repeats_give_its_reference_rows_bit_for_bit(fair_random, baselines_once):
    from crocbench.benchmark._evaluate import screen_values

    spec, reference, per_repeat = fair_random
    for i, ranker in enumerate(spec.rankers):
        shift = 0.45 if i % 2 == 0 else -0.45  # up for one, down for the next: a plain mean breaks either way
        values = screen_values(spec, _reproduced(per_repeat, spec, ranker, shift)).set_index("dataset")
        rows = reference[reference["model"] == ranker].set_index("dataset").loc[values.index]
        for metric in spec.metrics:
            assert values[metric].to_list() == rows[metric].to_list(), (ranker, metric)


@pytest.mark.parametrize("ranker, shift", [("LogReg", 0.45), ("RF", -0.45), ("MAX-SIM", 0.45)])
def test_an_entry_that_reproduces_a_ranker_repeat_by_repeat_ties_with_it(fair_random, baselines_once, ranker, shift):
    spec, reference, per_repeat = fair_random
    result = place(spec, reference, _reproduced(per_repeat, spec, ranker, shift), "entry")
    versus = result.versus[result.versus["ranker"] == ranker].set_index("metric")
    assert versus.loc[list(spec.metrics), ["wins", "losses", "ties"]].to_numpy().tolist() == [[0, 0, 10]] * 8
    ranks = result.ranks.set_index(["metric", "model"])
    for metric in spec.metrics:
        assert ranks.loc[(metric, "entry"), "mean_rank"] == ranks.loc[(metric, ranker), "mean_rank"], metric
        assert ranks.loc[(metric, "entry"), "place"] == ranks.loc[(metric, ranker), "place"], metric


def _scores_with_auc(labels: np.ndarray, above: list) -> np.ndarray:
    """Scores whose AUC[ROC] is sum(above) / (actives x inactives): the inactives score 0, 1, 2, ... and the j-th
    active scores just above ``above[j]`` of them."""
    scores = np.zeros(labels.size)
    scores[labels == 0] = np.arange((labels == 0).sum())
    scores[labels == 1] = np.asarray(above) - 0.5
    return scores


#: A, B and C's AUC[ROC] per screen and repeat (6 actives, 24 inactives: k / 144), at 10 significant digits. A's
#: are 60/144 and 72/144 on toy_a, 60/144 and 116/144 on toy_b: their plain means end in ...333 and ...111,
#: the means of their 10 digits in ...334 and ...112.
REPEATS = """dataset\tmodel\trepeat\tcompounds\tactives\troc
toy_a\tA\t0\t30\t6\t0.4166666667
toy_a\tA\t1\t30\t6\t0.5
toy_a\tB\t0\t30\t6\t0.75
toy_a\tB\t1\t30\t6\t0.8
toy_a\tC\t0\t30\t6\t0.25
toy_a\tC\t1\t30\t6\t0.3
toy_b\tA\t0\t30\t6\t0.4166666667
toy_b\tA\t1\t30\t6\t0.8055555556
toy_b\tB\t0\t30\t6\t0.625
toy_b\tB\t1\t30\t6\t0.6
toy_b\tC\t0\t30\t6\t0.125
toy_b\tC\t1\t30\t6\t0.2
"""


def test_a_repeated_split_end_to_end_ties_an_entry_with_the_ranker_it_reproduces(tmp_path, monkeypatch):
    from crocbench.benchmark import freeze

    project, path, _ = _toy_project(tmp_path, monkeypatch)
    config = project / "toy.yaml"
    config.write_text(config.read_text().replace('"cv": {"folds": 3}', '"cv": {"folds": 3, "repeats": 2}'))
    draft = json.loads(path.read_text())
    path.write_bytes(spec_bytes({**draft, "split": {**draft["split"], "repeats": 2}, "rankers": ["A", "B", "C"]}))
    (project / "results" / "ref" / "datasets_repeats.tsv").write_text(REPEATS)
    freeze(path, project, progress=None)
    out = tmp_path / "export"
    from crocbench.benchmark import export, read_spec

    export(read_spec(path), out, project, progress=None)
    bench = load(out, unregistered=True)  # a variant of the toy spec, none of the committed ones
    assert (out / "reference.csv").read_text().splitlines()[1:4] == [
        "toy_a,A,30,6,0.4583333334",
        "toy_a,B,30,6,0.775",
        "toy_a,C,30,6,0.275",
    ]
    above = {("toy_a", 0): [10] * 6, ("toy_a", 1): [12] * 6, ("toy_b", 0): [10] * 6, ("toy_b", 1): [20, 20] + [19] * 4}
    frames = {}
    for screen, loaded in bench.screens.items():
        labels = loaded.table["label"].to_numpy()
        frames[screen] = pd.concat(
            [
                pd.DataFrame(
                    {"id": loaded.table["id"], "repeat": r, "score": _scores_with_auc(labels, above[screen, r])}
                )
                for r in (0, 1)
            ]
        )
    result = bench.evaluate(frames, name="entry")
    assert result.repeats["roc"].to_list() == [0.4166666667, 0.5, 0.4166666667, 0.8055555556]
    assert result.values.set_index("dataset")["roc"].to_dict() == {"toy_a": 0.4583333334, "toy_b": 0.6111111112}
    a = result.versus.set_index("ranker").loc["A"]
    assert (a["wins"], a["losses"], a["ties"]) == (0, 0, 2)
    ranks = result.ranks.set_index("model")
    # B first on both screens (0.775, 0.6125), A and the entry tied second (2.5 each), C last
    assert ranks.loc["entry", "mean_rank"] == ranks.loc["A", "mean_rank"] == 2.5
    assert ranks["place"].to_dict() == {"A": 2, "B": 1, "C": 4, "entry": 2}


def test_each_repeats_fold_column_is_checked_against_that_repeats_folds(world, tmp_path):
    bench = load(repeated_export(world, tmp_path / "export"), unregistered=True)

    def frames(fold_of):
        return {
            s: pd.concat(
                [
                    pd.DataFrame(
                        {
                            "id": t.table["id"],
                            "repeat": r,
                            "fold": t.table[fold_of(r)],
                            "score": world["scores"][s, "B"],
                        }
                    )
                    for r in (0, 1)
                ]
            )
            for s, t in bench.screens.items()
        }

    right = bench.evaluate(frames(lambda r: f"fold_{r}"), name="entry")
    without = bench.evaluate({s: f.drop(columns="fold") for s, f in frames(lambda r: "fold_0").items()}, name="entry")
    pd.testing.assert_frame_equal(right.values, without.values)
    moved = int(((np.arange(N) % FOLDS) != ((np.arange(N) // 7) % FOLDS)).sum())
    with pytest.raises(ValueError) as error:
        bench.evaluate(frames(lambda r: "fold_0"), name="entry")  # repeat 0's folds given for both repeats
    assert str(error.value) == (
        f"screen s0 (scores), repeat 1: {moved} compound(s) have a fold other than the export's (its s0.csv's "
        "fold_1 column), e.g. 'm1'"
    )


def test_a_parquet_export_loads_and_resumes_without_writing_again(tmp_path, monkeypatch):
    import io

    from crocbench.benchmark import export, freeze

    project, path, _ = _toy_project(tmp_path, monkeypatch)
    spec = freeze(path, project, progress=None)
    out = tmp_path / "export"
    export(spec, out, project, fmt="parquet", progress=None)
    parquets = sorted(out.glob("*.parquet"))
    assert [p.name for p in parquets] == ["toy_a.parquet", "toy_b.parquet"]
    stamps = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in parquets}
    bench = load(out, unregistered=True)
    assert list(bench.screens) == ["toy_a", "toy_b"] and len(bench.screens["toy_a"].table) == 30
    said = io.StringIO()
    export(spec, out, project, fmt="parquet", progress=said)
    assert said.getvalue().splitlines() == ["[1/2] toy_a: already exported", "[2/2] toy_b: already exported"]
    assert {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in parquets} == stamps


def test_nemenyis_critical_difference_counts_the_entry_among_the_rankers(world, tmp_path):
    result = load(world["export"]).evaluate(_submission(world, tmp_path / "sub", ranker="C"), name="entry")
    k, n = len(RANKERS) + 1, len(SCREENS)  # the three reference rankers and the entry, over 10 screens
    q = 2.569  # Demsar (2006) table 5a, alpha 0.05, k = 4
    assert result.ranks["nemenyi_cd"].to_list() == pytest.approx([q * np.sqrt(k * (k + 1) / (6 * n))] * k, rel=2e-4)


def test_the_record_holds_each_repeats_values_and_each_models_place(world, tmp_path):
    from sklearn.metrics import roc_auc_score

    result = load(world["export"]).evaluate(_submission(world, tmp_path / "sub", ranker="A"), name="strong")
    record = json.loads(result.write(tmp_path / "out")[0].read_text())
    assert [(r["dataset"], r["repeat"]) for r in record["repeats"]] == [(s, 0) for s in SCREENS]
    for row in record["repeats"]:
        labels = world["tables"][row["dataset"]]["label"].to_numpy()
        assert row["roc"] == float(f"{roc_auc_score(labels, world['scores'][row['dataset'], 'A']):.10g}")
    # A's own scores: A and the entry share the best mean rank (1.5), B (3.0) and C (4.0) follow: 1 + the number
    # strictly better
    places = {r["model"]: (r["mean_rank"], r["place"]) for r in record["placement"]["ranks"]}
    assert places == {"A": (1.5, 1), "strong": (1.5, 1), "B": (3.0, 3), "C": (4.0, 4)}

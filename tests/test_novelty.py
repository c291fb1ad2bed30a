"""The novelty split (crocbench.cv.novelty_table), its certificate and ``crocbench split``: against a brute force over
all pairs of small random libraries, and real compounds through the command line."""

import json
import re

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from _cli import _cli, _one_line_error
from _hiv import hiv_sample
from test_chem_graph import as_fingerprints, brute_matrix, random_library

from crocbench.chem.graph import tau_graph
from crocbench.cv import (
    DROPPED,
    certificate,
    graph_at,
    kept_by_tau,
    novelty_groups,
    novelty_table,
    strata,
    train_test_similarity,
    verify_certificate,
)
from crocbench.similarity import SimilarityIndex

N_FOLDS = 3
CASES = [(seed, tau) for seed in range(6) for tau in (1 / 3, 0.4, 0.5)]


def _labels(seed: int, n: int) -> np.ndarray:
    return (np.random.default_rng(1000 + seed).random(n) < 0.4).astype(int)


def _split(seed: int, tau: float, fold_seed: int = 0, **options):
    sets = random_library(seed)
    fp = as_fingerprints(sets)
    y = _labels(seed, len(sets))
    table = novelty_table([f"c{i}" for i in range(len(sets))], y, tau_graph(fp, tau), tau, N_FOLDS, fold_seed, 0.9)
    return sets, fp, table


def _brute_components(adjacent: np.ndarray) -> np.ndarray:
    """Each vertex's component, by a plain depth-first search."""
    n = adjacent.shape[0]
    comp = np.full(n, -1)
    for start in range(n):
        if comp[start] < 0:
            stack, comp[start] = [start], start
            while stack:
                v = stack.pop()
                for w in np.flatnonzero(adjacent[v]).tolist():
                    if comp[w] < 0:
                        comp[w] = start
                        stack.append(w)
    return comp


@pytest.mark.parametrize(("seed", "tau"), CASES)
def test_no_pair_of_two_folds_is_at_or_above_tau(seed, tau):
    """Over all pairs of kept compounds in different folds, the brute-force similarity is below tau; a dropped
    compound is in no fold, every kept one in one of the k."""
    sets, _, table = _split(seed, tau)
    fold = table["fold"].to_numpy()
    kept = fold != DROPPED
    brute = brute_matrix(sets)
    crossing = kept[:, None] & kept[None, :] & (fold[:, None] != fold[None, :]) & (brute >= np.float32(tau))
    assert not crossing.any(), np.argwhere(crossing)[:3]
    assert set(fold[kept].tolist()) == set(range(N_FOLDS))
    assert ((table["group"] == DROPPED) == ~kept).all()


@pytest.mark.parametrize(("seed", "tau"), CASES)
def test_components_that_fit_in_a_fold_are_kept_whole(seed, tau):
    """The components (brute force) of at most ceil(N / k) compounds lose none and lie in one fold each; only
    compounds of larger components are dropped."""
    sets, _, table = _split(seed, tau)
    brute = brute_matrix(sets)
    np.fill_diagonal(brute, 0)
    comp = _brute_components(brute >= np.float32(tau))
    size = np.bincount(comp, minlength=len(sets))[comp]
    cap = -(-len(sets) // N_FOLDS)
    fold = table["fold"].to_numpy()
    small = size <= cap
    assert (fold[small] != DROPPED).all()
    for c in np.unique(comp[small]).tolist():
        assert np.unique(fold[comp == c]).size == 1, c


def test_the_libraries_have_large_components_to_cut():
    """The cases above cut components: some drop compounds, some drop none."""
    dropped = [int((_split(seed, tau)[2]["fold"] == DROPPED).sum()) for seed, tau in CASES]
    assert max(dropped) > 0 and min(dropped) == 0, dropped


@pytest.mark.parametrize(("seed", "tau"), CASES[:6])
def test_the_same_seed_gives_the_same_folds_and_others_move_them(seed, tau):
    first = _split(seed, tau, fold_seed=3)[2]
    pd.testing.assert_frame_equal(first, _split(seed, tau, fold_seed=3)[2])
    others = [_split(seed, tau, fold_seed=s)[2]["fold"] for s in (4, 5, 6)]
    assert any((f != first["fold"]).any() for f in others)


@pytest.mark.parametrize(("seed", "tau"), CASES)
def test_the_certificate_is_the_brute_force_maximum_over_all_pairs(seed, tau):
    """Per fold, the highest similarity between its compounds and every compound (active or not) of the other
    folds, exactly; the dropped ones counted by class and listed."""
    sets, fp, table = _split(seed, tau)
    cert = certificate(table, fp, tau, "ecfp4")
    fold = table["fold"].to_numpy()
    brute = brute_matrix(sets)
    for entry in cert["folds"]:
        f = entry["fold"]
        other = (fold != f) & (fold != DROPPED)
        assert entry["max_similarity"] == float(brute[np.ix_(fold == f, other)].max())
        assert entry["compounds"] == int((fold == f).sum())
        assert entry["actives"] == int(table["label"][fold == f].sum())
        assert entry["max_similarity"] < np.float32(tau)
    gone = table[fold == DROPPED]
    assert cert["dropped"] == {
        "actives": int(gone["label"].sum()),
        "inactives": int((gone["label"] == 0).sum()),
        "ids": gone["id"].tolist(),
    }
    assert verify_certificate(cert, table, fp)[0]["max_similarity"] == cert["folds"][0]["max_similarity"]


@pytest.mark.parametrize(("seed", "tau"), CASES)
def test_every_test_active_is_novel_under_the_novelty_split(seed, tau):
    """The memorization strata (crocbench.cv.strata, with novel = tau) of the split: every test active is novel,
    its highest similarity to a training active below tau; the dropped compounds are neither tested nor trained on
    (the overlap table has a row for each kept compound, and its maxima equal the brute force's over kept ones)."""
    sets, fp, table = _split(seed, tau)
    overlap = train_test_similarity(SimilarityIndex(fp), table)
    fold = table["fold"].to_numpy()
    kept = fold != DROPPED
    assert overlap["id"].tolist() == table["id"][kept].tolist()
    actives = overlap[overlap["label"] == 1]
    assert (strata(actives["to_train_actives"], novel=tau, analog=max(tau, 0.7)) == "novel").all()
    brute = brute_matrix(sets)
    for row, i in enumerate(np.flatnonzero(kept).tolist()):
        train = kept & (fold != fold[i])
        assert overlap["to_train"].iloc[row] == brute[i, train].max() < np.float32(tau)


def test_the_consumers_of_a_fold_table_honour_dropped_compounds():
    """A fold's training rows hold no dropped compound; cross-validation scores no dropped compound, and the pooled
    scores hold the kept compounds alone; a score given for a dropped compound is refused."""
    from crocbench.cv import cross_validate, pool_scores, split
    from crocbench.models import MaxSim

    assert [a.tolist() for a in split(np.array([0, 1, DROPPED, 1, 0]), 0)] == [[1, 3], [0, 4]]
    with pytest.raises(ValueError, match=r"fold -1 does not exist; folds are \[0, 1\]"):
        split(np.array([0, 1, DROPPED]), DROPPED)
    # a, b, c actives alike; d, e, f inactives alike; g, dropped, an active as like a as b is ({1, 2} vs {1, 3})
    features = [{1, 2}, {1, 3}, {2, 3}, {4, 5}, {4, 6}, {5, 6}, {1, 2, 7}]
    fp = as_fingerprints(features)
    folds = pd.DataFrame({"id": list("abcdefg"), "label": [1, 1, 1, 0, 0, 0, 1], "fold": [0, 1, 0, 1, 0, 1, DROPPED]})
    cv = cross_validate(lambda fold: MaxSim(), SimilarityIndex(fp), folds)
    assert sorted(cv.scores) == [0, 1]
    pooled = cv.pooled(folds)
    assert pooled["id"].tolist() == list("abcdef")
    # MaxSim: the highest similarity to a training active; were g trained on, a would score T({1,2}, {1,2,7}) = 2/3
    assert pooled["score"].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0, 0.0, 0.0])
    extra = pd.DataFrame({"id": ["g"], "fold": [DROPPED], "label": [1], "score": [0.5]})
    with pytest.raises(ValueError, match=r"1 scored compound\(s\) are in no fold \(dropped by the split\), e.g. 'g'"):
        pool_scores([cv.scores[0], cv.scores[1], extra], folds)


@pytest.mark.parametrize(("seed", "tau"), CASES[:3])
def test_the_maxima_are_the_same_in_tiles_of_a_few_columns(seed, tau, monkeypatch):
    """Tiles of 5 rows and 3 columns of the fold-sorted compounds give the brute-force maxima too."""
    import crocbench.cv._certificate as module

    sets, fp, table = _split(seed, tau)
    fold, brute = table["fold"].to_numpy(), brute_matrix(sets)
    monkeypatch.setattr(module, "COLUMNS", 3)
    monkeypatch.setattr(module, "BLOCK", 5)
    for entry in module.fold_maxima(fp, fold):
        other = (fold != entry["fold"]) & (fold != DROPPED)
        assert entry["max_similarity"] == float(brute[np.ix_(fold == entry["fold"], other)].max())
        i, j = entry["pair"]
        assert fold[i] == entry["fold"] and other[j] and brute[i, j] == np.float32(entry["max_similarity"])


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda c: [], "the certificate is not a mapping"),
        (lambda c: {**c, "folds": [{"fold": "zero"}]}, "the certificate's folds are not a list of fold"),
        (lambda c: {**c, "folds": "all"}, "the certificate's folds are not a list of fold"),
        (lambda c: {**c, "dropped": ["c1"]}, "the certificate's dropped is not a mapping with the list ids"),
    ],
)
def test_a_certificate_of_another_shape_is_one_line(edit, words):
    sets, fp, table = _split(0, 0.4)
    cert = certificate(table, fp, 0.4, "ecfp4")
    with pytest.raises(ValueError, match=f"^{words}"):
        verify_certificate(edit(json.loads(json.dumps(cert))), table, fp)


def test_a_forged_certificate_is_refused():
    """A fold table edited by one row; a crossing pair under a certificate made for it; a changed maximum."""
    sets, fp, table = _split(0, 0.4)
    cert = certificate(table, fp, 0.4, "ecfp4")
    edited = table.copy()
    edited.loc[0, "fold"] = (edited.loc[0, "fold"] + 1) % N_FOLDS
    with pytest.raises(ValueError, match="the fold table is not the one certified"):
        verify_certificate(cert, edited, fp)
    brute = brute_matrix(sets)
    np.fill_diagonal(brute, 0)
    i, j = np.argwhere(brute >= np.float32(0.4))[0]
    crossed = table.copy()
    crossed["fold"] = 0
    crossed.loc[j, "fold"] = 1
    with pytest.raises(
        ValueError, match=rf"^fold 0: compound c\d+ and compound c{j} of another fold are at similarity"
    ):
        verify_certificate(certificate(crossed, fp, 0.4, "ecfp4"), crossed, fp)
    changed = json.loads(json.dumps(cert))
    changed["folds"][1]["max_similarity"] = 0.0
    with pytest.raises(ValueError, match="fold 1: the certificate's highest similarity"):
        verify_certificate(changed, table, fp)


def test_a_pair_exactly_at_tau_across_two_folds_is_refused():
    """T({1, 2}, {1, 2, 3, 4}) = 1/2 exactly: at tau 0.5 the pair in two folds is refused; at tau 0.55 it is below
    tau, certified, the fold maxima 1/2 each."""
    fp = as_fingerprints([{1, 2}, {1, 2, 3, 4}, {5}, {6}])
    table = pd.DataFrame({"id": list("abcd"), "label": [1, 1, 0, 0], "fold": [0, 1, 0, 1]})
    with pytest.raises(
        ValueError,
        match=r"^fold 0: compound a and compound b of another fold are at similarity 0\.5, at or above tau 0\.5$",
    ):
        verify_certificate(certificate(table, fp, 0.5, "ecfp4"), table, fp)
    maxima = verify_certificate(certificate(table, fp, 0.55, "ecfp4"), table, fp)
    assert [m["max_similarity"] for m in maxima] == [0.5, 0.5]


def test_more_than_max_dropped_is_one_line_naming_the_share_and_a_tau_that_fits():
    """The path 0-1-2-3-4 (similarities 0.5) drops 1 of 5 = 20%: above max_dropped 0.1; at tau 0.55 no edge."""
    path = sp.csr_matrix(0.5 * (np.eye(5, k=1) + np.eye(5, k=-1)), dtype=np.float32)
    with pytest.raises(ValueError) as caught:
        novelty_table(list("abcde"), [1, 0, 1, 0, 1], path, 0.4, n_folds=2, max_dropped=0.1)
    assert str(caught.value) == (
        "the novelty split at tau 0.4 drops 20.0% of the compounds (1 of 5), above max_dropped 0.1; "
        "tau 0.55 drops 0.0%, within it"
    )


# --- The command line, on real compounds ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def compounds(mirror, tmp_path_factory):
    """419 real compounds of the DTP AIDS screen (every 100th row), as id,smiles,label."""
    path = tmp_path_factory.mktemp("novelty") / "compounds.csv"
    hiv_sample(mirror, 100)[["id", "smiles", "label"]].to_csv(path, index=False)
    return path


def _ecfp_sets(path) -> list:
    from crocbench.chem.ecfp import ecfp_counts

    counts = ecfp_counts(pd.read_csv(path)["smiles"].tolist())[1]
    return [set(counts.indices[counts.indptr[i] : counts.indptr[i + 1]].tolist()) for i in range(counts.shape[0])]


def test_split_novelty_then_verify(compounds, tmp_path):
    """The command's certificate holds the brute-force maxima of its fold table over real ECFP4 bits; verify
    accepts it."""
    folds, cert_path = tmp_path / "folds.tsv", tmp_path / "cert.json"
    done = _cli("split", "novelty", compounds, "--folds", folds, "--certificate", cert_path, "--n-folds", 2,
                "--tau", 0.3)  # fmt: skip
    assert done.returncode == 0, done.stderr
    table, cert = pd.read_csv(folds, sep="\t"), json.loads(cert_path.read_text())
    brute, fold = brute_matrix(_ecfp_sets(compounds)), table["fold"].to_numpy()
    for entry in cert["folds"]:
        other = (fold != entry["fold"]) & (fold != DROPPED)
        assert entry["max_similarity"] == float(brute[np.ix_(fold == entry["fold"], other)].max()) < np.float32(0.3)
    done = _cli("split", "verify", cert_path, "--folds", folds, "--compounds", compounds)
    assert done.returncode == 0 and done.stdout.startswith("certified: 2 folds"), done.stderr


@pytest.mark.parametrize(
    ("options", "fragments"),
    [
        (["--tau", "0"], ["tau is a Tanimoto similarity in (0, 1]; got '0'"]),
        (["--tau", "1.5"], ["tau is a Tanimoto similarity in (0, 1]; got '1.5'"]),
        (["--fingerprint", "maccs"], ["unknown fingerprint 'maccs'; known: ecfp4"]),
        (["--max-dropped", "1"], ["max_dropped is a share of the compounds in [0, 1); got '1'"]),
    ],
)
def test_bad_split_options_are_one_line_and_write_nothing(compounds, tmp_path, options, fragments):
    out = tmp_path / "out"
    out.mkdir()
    done = _cli("split", "novelty", compounds, "--folds", out / "f.tsv", "--certificate", out / "c.json", *options)
    _one_line_error(done, *fragments)
    assert list(out.iterdir()) == []


def test_more_than_max_dropped_names_the_share_and_a_tau_that_fits(compounds, tmp_path):
    """At tau 0.2 the 419 compounds form large components: more than 10% dropped is one line, nothing written; the
    share it names is its count over 419, and the tau it names does split them within 10%, its folds table
    dropping the share it said."""
    out = tmp_path / "out"
    out.mkdir()
    common = ["--folds", out / "f.tsv", "--certificate", out / "c.json", "--n-folds", 2, "--max-dropped", 0.1]
    line = _one_line_error(_cli("split", "novelty", compounds, *common, "--tau", 0.2))
    assert list(out.iterdir()) == []
    found = re.fullmatch(
        r"crocbench: error: the novelty split at tau 0\.2 drops (\d+\.\d)% of the compounds \((\d+) of 419\), above "
        r"max_dropped 0\.1; tau (0\.\d+) drops (\d+\.\d)%, within it",
        line,
    )
    assert found, line
    share, count, tau, fits = found.groups()
    assert f"{100 * int(count) / 419:.1f}" == share and float(share) > 10
    assert _cli("split", "novelty", compounds, *common, "--tau", tau).returncode == 0
    folds = pd.read_csv(out / "f.tsv", sep="\t")
    assert f"{100 * (folds['fold'] == DROPPED).mean():.1f}" == fits


def test_verify_refuses_a_fold_table_edited_by_one_row(compounds, tmp_path):
    """Through the installed command: exit 2, one line, nothing written."""
    folds, cert_path = tmp_path / "folds.tsv", tmp_path / "cert.json"
    assert (
        _cli("split", "novelty", compounds, "--folds", folds, "--certificate", cert_path, "--n-folds", 2).returncode
        == 0
    )
    lines = folds.read_text().splitlines()
    fields = lines[1].split("\t")
    fields[2] = "1" if fields[2] == "0" else "0"
    folds.write_text("\n".join([lines[0], "\t".join(fields), *lines[2:]]) + "\n")
    before = sorted(tmp_path.iterdir())
    done = _cli("split", "verify", cert_path, "--folds", folds, "--compounds", compounds, installed=True)
    _one_line_error(done, "the fold table is not the one certified")
    assert sorted(tmp_path.iterdir()) == before


@pytest.mark.parametrize("seed", range(12))
def test_the_cover_between_two_levels_is_a_minimum_vertex_cover(seed):
    """König's cover (crocbench.cv._novelty._cover) covers every edge and is as small as the smallest found by
    trying every subset of the vertices of a small random bipartite graph."""
    from itertools import combinations

    from crocbench.cv._novelty import _cover

    rng = np.random.default_rng(seed)
    u = rng.integers(0, 5, size=9) * 2  # even labels on one side, odd on the other
    v = rng.integers(0, 5, size=9) * 2 + 1
    near, far = _cover(u, v)
    cover = set(near.tolist()) | set(far.tolist())
    assert all(a in cover or b in cover for a, b in zip(u.tolist(), v.tolist(), strict=True))
    vertices = sorted(set(u.tolist()) | set(v.tolist()))
    smallest = next(
        size
        for size in range(len(vertices) + 1)
        for subset in combinations(vertices, size)
        if all(a in subset or b in subset for a, b in zip(u.tolist(), v.tolist(), strict=True))
    )
    assert len(cover) == smallest


TAUS = (0.3, 1 / 3, 0.4, 0.5, 0.6)


@pytest.mark.parametrize("seed", range(6))
def test_the_graph_at_a_higher_tau_is_the_brute_force_graph_at_it(seed):
    """One graph at the lowest tau, cut down to each higher one, holds every pair at or above it and no other."""
    sets = random_library(seed)
    brute = brute_matrix(sets)
    np.fill_diagonal(brute, 0)
    low = tau_graph(as_fingerprints(sets), min(TAUS))
    for tau in TAUS:
        assert (brute == np.float32(tau)).any() or tau == 0.3  # pairs exactly at tau: kept, not cut
        want = np.where(brute >= np.float32(tau), brute, 0)
        np.testing.assert_array_equal(graph_at(low, tau).toarray(), want)


@pytest.mark.parametrize("seed", range(6))
def test_what_is_kept_at_each_tau_is_the_split_of_the_brute_force_graph(seed):
    """Compounds and actives kept at each tau, from one graph, against the split of each tau's brute-force graph."""
    sets = random_library(seed)
    y = _labels(seed, len(sets))
    brute = brute_matrix(sets)
    np.fill_diagonal(brute, 0)
    got = kept_by_tau(tau_graph(as_fingerprints(sets), min(TAUS)), y, TAUS, N_FOLDS)
    assert got["tau"].tolist() == list(TAUS)
    assert (got["compounds"] == len(sets)).all() and (got["actives"] == y.sum()).all()
    for row, tau in zip(got.itertuples(), TAUS, strict=True):
        kept = novelty_groups(sp.csr_matrix(np.where(brute >= np.float32(tau), brute, 0)), N_FOLDS) != DROPPED
        assert (row.compounds_kept, row.actives_kept) == (kept.sum(), y[kept].sum()), tau
    assert (got["compounds_kept"] < len(sets)).any()  # the libraries make the split drop compounds somewhere


def test_the_graph_at_a_higher_tau_of_a_coo_graph_out_of_row_order_keeps_each_pair_its_value():
    """A COO graph whose entries are not in row order: each kept pair keeps its own similarity."""
    dense = np.array([[0, 0.5, 0.3], [0.5, 0, 0.7], [0.3, 0.7, 0]], dtype=np.float32)
    coo = sp.coo_matrix(dense)
    back = np.arange(coo.nnz)[::-1]
    shuffled = sp.coo_matrix((coo.data[back], (coo.row[back], coo.col[back])), shape=dense.shape)
    np.testing.assert_array_equal(graph_at(shuffled, 0.5).toarray(), np.where(dense >= 0.5, dense, 0))

"""Checks every registered metric passes (scikit-learn's ``test_common`` for crocbench.metrics): one table of
cases over the registry :data:`crocbench.metrics.METRICS`, each checked by brute force on small lists.

A metric added to the registry without a case here fails ``test_every_registered_metric_has_a_case``.
"""

import itertools

import numpy as np
import pytest

from crocbench import metrics as M

#: Every registered metric with parameters that suit the small lists below, and the variants worth checking.
CASES = [
    ("roc_auc", {}),
    ("croc_auc", {"alpha": 3.0}),
    ("croc_auc", {"alpha": 2.0, "transform": "pow"}),
    ("croc_auc", {"alpha": 2.0, "transform": "log"}),
    ("roc_auc_cutoff", {"t": 0.4}),
    ("roc_n", {"n": 2}),
    ("proc_auc", {}),
    ("ac_auc", {}),
    ("cac_auc", {"alpha": 4.0}),
    ("rie", {"alpha": 5.0}),
    ("bedroc", {"alpha": 5.0}),
    ("slr", {}),
    ("enrichment_factor", {"fraction": 0.3}),
    ("enrichment_factor", {"k": 3}),
    ("hits_at_k", {"k": 3}),
    ("precision_at_k", {"k": 4}),
    ("recall_at_k", {"k": 2}),
    ("r_precision", {}),
    ("average_precision", {}),
    ("loc_auc", {"u0": 0.5}),
    ("log_auc", {"lam": 0.2}),
    ("log_auc", {"lam": 0.1, "upper": 0.5}),
    ("adjusted_log_auc", {"lam": 0.25}),
    ("dcg", {"k": 4}),
    ("dcg", {"log_base": 10}),
    ("ndcg", {"k": 5}),
]
IDS = [f"{name}:{','.join(f'{k}={v}' for k, v in params.items())}" for name, params in CASES]

#: Metrics whose tie rule is a score threshold, not an ordering: LocAUC counts a positive when its score reaches the
#: score at rank ceil(u0 N), so a tie group passes or fails whole (its docstring); checked by that rule instead.
SCORE_THRESHOLD = {"loc_auc"}
#: Metrics whose per-positive value depends on the other positives' places too (a precision at each positive's
#: rank, or a threshold set by the whole list): no exact random baseline; they say so.
NO_EXACT_BASELINE = {"average_precision", "loc_auc"}


def test_every_registered_metric_has_a_case():
    assert {name for name, _ in CASES} == set(M.METRICS)


#: Metrics reached through another's public function (a parameter of it) rather than one of their own.
THROUGH = {"adjusted_log_auc": ("log_auc", {"adjusted": True})}


@pytest.mark.parametrize("name", sorted(M.METRICS))
def test_every_registered_metric_has_its_public_function_in_its_familys_module(name):
    """The registry declares a metric once, by family; its public function lives in that family's module and
    computes the registered metric (a metric registered without its function, or filed under another family,
    fails here)."""
    function, extra = THROUGH.get(name, (name, {}))
    f = getattr(M, function)
    assert f.__module__ == f"crocbench.metrics._{M.METRIC_FAMILY[name]}"
    y, s = _lists(2)
    params = dict(next(p for n, p in CASES if n == name))
    assert f(y, s, **params, **extra) == pytest.approx(M.score(y, s, name, **params), abs=1e-12)


def _tie_breaks(s: np.ndarray):
    """Every ordering of the tied scores, as scores without ties (each group's members spread below its value)."""
    groups = {}
    for i, v in enumerate(s):
        groups.setdefault(v, []).append(i)
    for orders in itertools.product(*(itertools.permutations(g) for g in groups.values())):
        broken = s.astype(float).copy()
        for order in orders:
            for r, i in enumerate(order):
                broken[i] = s[i] - r * 1e-3  # the score gaps are whole numbers: no order across groups changes
        yield broken


def _lists(seed: int):
    rng = np.random.default_rng(seed)
    y = rng.random(8) < 0.4
    y[:2] = [True, False]
    return y, rng.integers(0, 4, size=8).astype(float)  # heavy ties


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
@pytest.mark.parametrize("seed", range(3))
def test_ties_are_the_exact_expectation_over_orderings_and_its_bounds(name, params, seed):
    """ "expected" is the mean over every ordering of each tie group; "optimistic" and "pessimistic" the best and
    the worst ordering (every metric here is higher-is-better)."""
    if name in SCORE_THRESHOLD:
        pytest.skip("a score-threshold tie rule: test_loc_auc_counts_a_tie_group_whole")
    y, s = _lists(seed)
    values = [M.score(y, b, name, **params) for b in _tie_breaks(s)]
    assert M.score(y, s, name, **params) == pytest.approx(np.mean(values), abs=1e-12)
    assert M.score(y, s, name, ties="optimistic", **params) == pytest.approx(max(values), abs=1e-12)
    assert M.score(y, s, name, ties="pessimistic", **params) == pytest.approx(min(values), abs=1e-12)


def test_loc_auc_counts_a_tie_group_whole():
    """By hand: N = 8, u0 = 0.5, so Q is the score at rank 4 (3.0). The positives scoring at least 3 (ranks 1-5 as
    groups: 5, 5, 4, 3, 3) count their 1 - FPR, with a tied negative counting 1/2; the positive at 1.0 counts 0."""
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0])
    s = np.array([5, 5, 4, 3, 3, 2, 1, 0.0])
    # negatives: 4. Positive at 5 ties one negative: 1 - 0.5/4; at 4: 1 - 1/4; at 3 (ties one): 1 - 1.5/4
    want = ((1 - 0.5 / 4) + (1 - 1 / 4) + (1 - 1.5 / 4) + 0.0) / 4
    assert M.score(y, s, "loc_auc", u0=0.5) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_invariant_to_the_rows_order_and_to_an_increasing_map_of_the_scores(name, params):
    y, s = _lists(7)
    want = M.score(y, s, name, **params)
    order = np.random.default_rng(1).permutation(y.size)
    assert M.score(y[order], s[order], name, **params) == pytest.approx(want, abs=1e-12)
    assert M.score(y, np.exp(s) * 3 - 10, name, **params) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_the_random_baseline_is_the_mean_and_sd_over_every_placement_of_the_positives(name, params):
    n, n_pos = 8, 3
    if name in NO_EXACT_BASELINE:
        with pytest.raises(ValueError, match=f"^{name} has no exact random baseline"):
            M.random_baseline(name, n, n_pos, **params)
        return
    values = []
    for placed in itertools.combinations(range(n), n_pos):
        y = np.zeros(n, dtype=bool)
        y[list(placed)] = True
        values.append(M.score(y, -np.arange(n, dtype=float), name, **params))
    base = M.random_baseline(name, n, n_pos, **params)
    assert base.mean == pytest.approx(np.mean(values), abs=1e-12)
    assert base.sd == pytest.approx(np.std(values), abs=1e-12)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_the_value_is_the_affine_map_of_the_mean_of_the_per_positive_values(name, params):
    """The core every metric is built on: value = scale * mean(h over the positives) + offset."""
    y, s = _lists(3)
    counts = M.Counts(y.size, int(y.sum()), int((~y).sum()))
    d = M.definition(name, counts, **params)
    per_positive = M.per_positive_values(y, s, name, **params)
    assert per_positive.shape == (int(y.sum()),)
    assert d.scale * per_positive.mean() + d.offset == pytest.approx(M.score(y, s, name, **params), abs=1e-12)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_the_spec_and_the_scorer_give_the_same_value(name, params):
    from sklearn.linear_model import LogisticRegression

    spec = name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    y, s = _lists(5)
    assert M.parse_metric(spec).value(M.Ranking(y, s)) == pytest.approx(M.score(y, s, name, **params), abs=1e-12)
    x = s[:, None]
    model = LogisticRegression().fit(x, y)  # a monotone map of the one feature: the same ranking, ties kept
    assert M.scorer(spec)(model, x, y) == pytest.approx(M.score(y, s, name, **params), abs=1e-12)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
@pytest.mark.parametrize("seed", range(4))
def test_a_stratum_is_the_list_with_the_other_positives_deleted(name, params, seed):
    """A metric on a stratum of the positives (``Ranking.stratum``: one sort of the whole list) equals the metric
    on the list with the other positives' rows deleted, under every tie rule, and so do its per-positive values
    (in input order): brute force over every non-empty stratum of a small list with heavy ties."""
    rng = np.random.default_rng(100 + seed)
    y = rng.random(11) < 0.5
    y[:3] = [True, True, False]
    s = rng.integers(0, 4, size=11).astype(float)
    ranking = M.Ranking(y, s)
    n_pos = int(y.sum())
    for mask in itertools.product([False, True], repeat=n_pos):
        keep = np.array(mask)
        if not keep.any():
            continue
        rows = ~y.copy()
        rows[np.flatnonzero(y)[keep]] = True
        stratum = ranking.stratum(keep)
        for ties in M.TIES:
            want = M.score(y[rows], s[rows], name, ties=ties, **params)
            assert M.score(stratum, None, name, ties=ties, **params) == pytest.approx(want, abs=1e-12), (mask, ties)
        np.testing.assert_allclose(
            M.per_positive_values(stratum, None, name, **params),
            M.per_positive_values(y[rows], s[rows], name, **params),
            atol=1e-12,
        )


def test_a_stratum_needs_a_positive_and_one_mark_per_positive():
    ranking = M.Ranking([1, 0, 1], [3, 2, 1])
    with pytest.raises(ValueError, match="at least one positive"):
        ranking.stratum([False, False])
    with pytest.raises(ValueError, match="each of the 2 positives"):
        ranking.stratum([True])

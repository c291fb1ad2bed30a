"""One shared, seeded, stratified k-fold split, and pooling of out-of-fold scores."""

from __future__ import annotations

import numpy as np
import pandas as pd

FOLD_COLUMNS = ["id", "label", "fold"]
SCORE_COLUMNS = ["id", "fold", "label", "score"]


def stratified_folds(y, n_folds: int = 10, seed: int = 0) -> np.ndarray:
    """The fold (0..n_folds-1) of every compound: each class shuffled (seeded) and dealt round-robin.

    Every fold gets the same number of positives and of negatives, to within one.

    Examples
    --------
    >>> f = stratified_folds([1, 1, 0, 0, 0, 0], n_folds=2, seed=0)
    >>> sorted(f[:2].tolist()), sorted(f[2:].tolist())
    ([0, 1], [0, 0, 1, 1])
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ValueError("y must be a non-empty 1-d array of labels")
    n_folds = int(n_folds)
    counts = np.unique(y, return_counts=True)[1]
    if n_folds < 2 or counts.min() < n_folds:
        raise ValueError(f"{n_folds} folds need at least that many compounds of each class; "
                         f"the smallest class has {counts.min()}")
    rng = np.random.default_rng(seed)
    folds = np.empty(y.size, dtype=np.int64)
    offset = 0
    for value in np.unique(y):  # deal each class on from where the previous one stopped
        members = rng.permutation(np.flatnonzero(y == value))
        folds[members] = (offset + np.arange(members.size)) % n_folds
        offset += members.size
    return folds


def fold_table(ids, y, n_folds: int = 10, seed: int = 0) -> pd.DataFrame:
    """``id, label, fold`` for every compound, in input order."""
    y = np.asarray(y)
    return pd.DataFrame({"id": np.asarray(ids, dtype=str), "label": y.astype(np.int8),
                         "fold": stratified_folds(y, n_folds, seed)})


def split(folds: np.ndarray, fold: int) -> tuple[np.ndarray, np.ndarray]:
    """``(train, test)`` row indices of one fold."""
    folds = np.asarray(folds)
    if fold not in set(np.unique(folds).tolist()):
        raise ValueError(f"fold {fold} does not exist; folds are {sorted(set(folds.tolist()))}")
    return np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)


def pool_scores(parts, folds: pd.DataFrame) -> pd.DataFrame:
    """Pool per-fold score tables into one, checking every compound is scored exactly once by its own fold.

    Returns the pooled table in the order of ``folds`` (columns id, fold, label, score).
    """
    pooled = pd.concat(list(parts), ignore_index=True)
    missing = [c for c in SCORE_COLUMNS if c not in pooled.columns]
    if missing:
        raise ValueError(f"score tables lack column(s) {missing}")
    repeated = pooled["id"][pooled["id"].duplicated()]
    if repeated.size:
        raise ValueError(f"{repeated.size} compound(s) scored more than once, e.g. {repeated.iloc[0]!r}")
    merged = folds.merge(pooled, on="id", how="left", suffixes=("", "_scored"), validate="one_to_one")
    unscored = merged["score"].isna()
    if unscored.any():
        raise ValueError(f"{int(unscored.sum())} compound(s) have no score, e.g. {merged['id'][unscored].iloc[0]!r}")
    if len(pooled) != len(folds):
        raise ValueError(f"{len(pooled) - len(folds)} scored id(s) are not in the fold table")
    wrong = (merged["fold"] != merged["fold_scored"]) | (merged["label"] != merged["label_scored"])
    if wrong.any():
        raise ValueError(f"{int(wrong.sum())} compound(s) scored in another fold or with another label, "
                         f"e.g. {merged['id'][wrong].iloc[0]!r}")
    return merged[SCORE_COLUMNS].reset_index(drop=True)


def score_fold(model, sim, folds: pd.DataFrame, fold: int) -> pd.DataFrame:
    """Fit ``model`` on every fold but ``fold`` and score ``fold``: a table of id, fold, label, score.

    ``folds`` is a fold table (:func:`fold_table`) whose rows are the rows of ``sim``.
    """
    y, train, test, rows = _fold_rows(sim, folds, fold)
    model.fit(sim, train, y[train])
    return rows.assign(score=model.score(sim, test))


def _fold_rows(sim, folds: pd.DataFrame, fold: int):
    """``(y, train, test, rows)`` of one fold: the labels, the row indices, and id/fold/label of its test compounds."""
    if len(folds) != sim.n:
        raise ValueError(f"the fold table has {len(folds)} compounds, the similarity index {sim.n}")
    y = folds["label"].to_numpy()
    train, test = split(folds["fold"].to_numpy(), fold)
    rows = pd.DataFrame({"id": folds["id"].to_numpy()[test], "fold": np.int64(fold), "label": y[test].astype(np.int8)})
    return y, train, test, rows


def svm_grid_fold(sim, folds: pd.DataFrame, fold: int, Cs, class_weights, n_jobs: int = 1, buffer=None,
                  progress=None, **labels) -> pd.DataFrame:
    """:meth:`SVM.grid <crocbench.models.SVM.grid>` on one fold, as a long table.

    Columns id, fold, label, the ``labels`` given (e.g. ``fingerprint=``), C,
    class_weight ("none" or "balanced"), score ("decision" or "platt") and value;
    one row per (test compound, set-up, score).
    """
    from .models import SVM

    y, train, test, base = _fold_rows(sim, folds, fold)
    grid = SVM.grid(sim, train, y[train], test, Cs, class_weights, n_jobs=n_jobs, buffer=buffer, progress=progress)
    parts = [base.assign(**labels, C=C, class_weight=class_weight or "none", score=kind, value=values)
             for (C, class_weight), scores in grid.items() for kind, values in zip(("decision", "platt"), scores)]
    return pd.concat(parts, ignore_index=True)


def per_fold_metrics(pooled: pd.DataFrame, calls, notes: list | None = None) -> pd.DataFrame:
    """One row per fold (and one for the pooled list, fold ``all``) with every metric of ``calls``.

    A metric undefined for a list that size (e.g. ROC50 with fewer than 50
    negatives) is NaN, and the reason is appended to ``notes`` if given.
    """
    from .metrics import Ranking

    rows = []
    groups = [(str(f), part) for f, part in pooled.groupby("fold", sort=True)] + [("all", pooled)]
    for fold, part in groups:
        ranking = Ranking(part["label"].to_numpy(), part["score"].to_numpy())
        row = {"fold": fold, "n": len(part), "positives": int(part["label"].sum())}
        for call in calls:
            try:
                row[call.key] = call.value(ranking)
            except ValueError as exc:
                row[call.key] = np.nan
                if notes is not None:
                    notes.append(f"fold {fold}: {call.key} undefined ({exc})")
        rows.append(row)
    return pd.DataFrame(rows)


def platt_fit(decision, y) -> tuple[float, float]:
    """Platt's (1999) sigmoid ``P(y = 1 | f) = 1 / (1 + exp(A f + B))`` fitted to decision values.

    Maximum likelihood with Platt's smoothed targets ``(n_pos + 1) / (n_pos + 2)``
    and ``1 / (n_neg + 2)`` (as in LIBSVM and scikit-learn), from
    ``A = 0, B = log((n_neg + 1) / (n_pos + 1))``.  Returns ``(A, B)``; ``A < 0``
    when larger decision values mean positive.
    """
    from scipy.optimize import minimize

    f = np.asarray(decision, dtype=np.float64)
    y = np.asarray(y).astype(bool)
    if f.ndim != 1 or f.shape != y.shape or not np.isfinite(f).all():
        raise ValueError(f"decision values must be finite and match the labels; got shapes {f.shape} and {y.shape}")
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        raise ValueError("Platt scaling needs positives and negatives")
    target = np.where(y, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    scale = max(float(np.abs(f).max()), 1e-12)  # optimize on f / scale: well conditioned
    g = f / scale

    def loss(ab):
        z = ab[0] * g + ab[1]  # log-odds of y = 0
        p_loss = np.logaddexp(0.0, z)  # -log P(y = 1)
        value = np.sum(target * p_loss + (1 - target) * (p_loss - z))
        q = 1.0 / (1.0 + np.exp(-z))  # P(y = 0)
        grad = q - (1 - target)
        return value, np.array([np.dot(grad, g), grad.sum()])

    start = np.array([0.0, np.log((n_neg + 1.0) / (n_pos + 1.0))])
    result = minimize(loss, start, jac=True, method="L-BFGS-B", options={"gtol": 1e-10, "maxiter": 1000})
    return float(result.x[0] / scale), float(result.x[1])


"""A novelty split's certificate: what it claims of its folds, recomputed and checked by :func:`verify_certificate`.

The certificate holds the fold table's sha256 (:func:`fold_table_sha256`), ``tau``, the fingerprint, per fold the
exact highest similarity between its compounds and the compounds of the other folds (over all pairs, actives and
inactives; :func:`fold_maxima`), and the dropped compounds: counted by class, with their ids.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd

from .._memory import TILE_COLUMNS as COLUMNS
from .._memory import TILE_ROWS as BLOCK
from ._folds import DROPPED, NOVELTY


def fold_table_bytes(table: pd.DataFrame) -> bytes:
    """The fold table's canonical bytes: ``id<TAB>label<TAB>fold`` lines, header first, in the table's order, UTF-8.

    Parameters
    ----------
    table : pandas.DataFrame
        ``id``, ``label`` and ``fold`` per compound.

    Returns
    -------
    bytes
        The table's bytes, which its sha256 is taken of.

    Examples
    --------
    >>> fold_table_bytes(pd.DataFrame({"id": ["a", "b"], "label": [1, 0], "fold": [0, -1]}))
    b'id\\tlabel\\tfold\\na\\t1\\t0\\nb\\t0\\t-1\\n'
    """
    lines = ["id\tlabel\tfold"]
    lines += [
        f"{i}\t{int(y)}\t{int(f)}"
        for i, y, f in zip(table["id"].astype(str), table["label"].to_numpy(), table["fold"].to_numpy(), strict=True)
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def fold_table_sha256(table: pd.DataFrame) -> str:
    """The sha256 (hex) of :func:`fold_table_bytes`.

    Parameters
    ----------
    table : pandas.DataFrame
        ``id``, ``label`` and ``fold`` per compound.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    return hashlib.sha256(fold_table_bytes(table)).hexdigest()


def fold_maxima(fp, folds) -> list[dict]:
    """Per fold, the exact highest similarity between its compounds and those of the other folds, and the pair.

    Parameters
    ----------
    fp : Fingerprints or crocbench.similarity.FeatureMatrix
        The compounds' feature sets, in the order of ``folds``.
    folds : array-like of int of shape (n,)
        Each compound's fold; ``DROPPED`` (-1) compounds are in none.

    Returns
    -------
    list of dict
        Per fold, in order: ``fold``, ``compounds``, ``max_similarity`` (the float32 value, widened; 0 with no
        pair sharing a feature) and ``pair`` (the row numbers of a pair attaining it, the fold's first).

    Examples
    --------
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> [(m["fold"], round(m["max_similarity"], 3), m["pair"]) for m in fold_maxima(fp, [0, 1, 1])]
    [(0, 0.5, [0, 2]), (1, 0.5, [2, 0])]
    """
    from ..similarity import FeatureMatrix

    fm = fp if isinstance(fp, FeatureMatrix) else FeatureMatrix(fp)
    folds = np.asarray(folds, dtype=np.int64)
    if folds.shape != (fm.n,):
        raise ValueError(f"a fold table of {folds.size} compounds for fingerprints of {fm.n}")
    kept = np.flatnonzero(folds != DROPPED)
    order = kept[np.argsort(folds[kept], kind="stable")]  # the kept compounds, fold by fold
    names, starts, sizes = np.unique(folds[order], return_index=True, return_counts=True)
    best = np.zeros(names.size, dtype=np.float32)
    others = [kept[folds[kept] != f] for f in names]  # by row number: the first is the default pair's
    pair = [[int(order[s]), int(o[0]) if o.size else -1] for s, o in zip(starts, others, strict=True)]
    sub, n = fm.take(order), order.size
    buffer = np.empty(min(BLOCK, n) * min(COLUMNS, n), dtype=np.float32)  # one tile's memory, reused
    for i in range(0, n, BLOCK):  # each pair of two folds once: the upper triangle of tiles, same-fold pairs masked
        rows = slice(i, min(i + BLOCK, n))
        for j in range(i, n, COLUMNS):
            cols = slice(j, min(j + COLUMNS, n))
            shape = (rows.stop - rows.start, cols.stop - cols.start)
            block = sub.tanimoto(rows, cols, out=buffer[: shape[0] * shape[1]].reshape(shape))
            _mask_same_fold(block, rows, cols, starts, sizes)
            for side, (lo, hi) in ((0, (rows.start, rows.stop)), (1, (cols.start, cols.stop))):
                for f in np.flatnonzero((starts < hi) & (starts + sizes > lo)).tolist():
                    a, b = max(lo, int(starts[f])) - lo, min(hi, int(starts[f] + sizes[f])) - lo
                    part = block[a:b] if side == 0 else block[:, a:b]
                    k = int(np.argmax(part))
                    if part.flat[k] > best[f]:
                        r, c = divmod(k, part.shape[1])
                        r, c = (r + a, c) if side == 0 else (r, c + a)
                        mine, theirs = (
                            (rows.start + r, cols.start + c) if side == 0 else (cols.start + c, rows.start + r)
                        )
                        best[f], pair[f] = part.flat[k], [int(order[mine]), int(order[theirs])]
    return [
        {"fold": int(f), "compounds": int(z), "max_similarity": float(b), "pair": p}
        for f, z, b, p in zip(names, sizes, best, pair, strict=True)
    ]


def _mask_same_fold(block: np.ndarray, rows: slice, cols: slice, starts: np.ndarray, sizes: np.ndarray) -> None:
    """Set to -1 the entries of a tile (``rows`` x ``cols`` of the fold-sorted compounds) whose two compounds share
    a fold: one rectangle per fold the rows meet."""
    for s, z in zip(starts.tolist(), sizes.tolist(), strict=True):
        r0, r1 = max(rows.start, s), min(rows.stop, s + z)
        c0, c1 = max(cols.start, s), min(cols.stop, s + z)
        if r0 < r1 and c0 < c1:
            block[r0 - rows.start : r1 - rows.start, c0 - cols.start : c1 - cols.start] = -1.0


def certificate(table: pd.DataFrame, fp, tau: float, fingerprint: str) -> dict:
    """The certificate of a novelty split's fold table (:func:`crocbench.cv.novelty_table`).

    Parameters
    ----------
    table : pandas.DataFrame
        ``id``, ``label`` and ``fold`` per compound.
    fp : Fingerprints or crocbench.similarity.FeatureMatrix
        The compounds' feature sets, in the table's order.
    tau : float
        The split's threshold.
    fingerprint : str
        The fingerprint's name (:data:`crocbench.chem.graph.FINGERPRINTS`).

    Returns
    -------
    dict
        ``split``, ``fold_table_sha256``, ``tau``, ``fingerprint``, ``folds`` (per fold ``fold``, ``compounds``,
        ``actives``, ``max_similarity``) and ``dropped`` (``actives``, ``inactives``, ``ids``).
    """
    folds = table["fold"].to_numpy()
    label = table["label"].to_numpy() == 1
    ids = table["id"].astype(str).to_numpy()
    dropped = folds == DROPPED
    per_fold = [
        {k: m[k] for k in ("fold", "compounds", "max_similarity")} | {"actives": int(label[folds == m["fold"]].sum())}
        for m in fold_maxima(fp, folds)
    ]
    return {
        "split": NOVELTY,
        "fold_table_sha256": fold_table_sha256(table),
        "tau": float(tau),
        "fingerprint": str(fingerprint),
        "folds": per_fold,
        "dropped": {
            "actives": int((dropped & label).sum()),
            "inactives": int((dropped & ~label).sum()),
            "ids": ids[dropped].tolist(),
        },
    }


def certificate_bytes(cert: dict) -> bytes:
    """A certificate's file bytes, as ``crocbench split novelty``, the workflow and a benchmark export write them:
    JSON, one-space indent, one final newline, UTF-8.

    Parameters
    ----------
    cert : dict
        The certificate (:func:`certificate`).

    Returns
    -------
    bytes
        The file's bytes (a benchmark spec holds their sha256).
    """
    return (json.dumps(cert, indent=1) + "\n").encode("utf-8")


def _check_shape(cert) -> None:
    """One line where ``cert`` is not shaped as :func:`certificate` writes it (before anything is recomputed)."""
    if not isinstance(cert, dict):
        raise ValueError(
            "the certificate is not a mapping of split, fold_table_sha256, tau, fingerprint, folds, dropped"
        )
    folds = cert.get("folds")
    if not isinstance(folds, list) or not all(
        isinstance(f, dict) and isinstance(f.get("fold"), int) and isinstance(f.get("max_similarity"), int | float)
        for f in folds
    ):
        raise ValueError("the certificate's folds are not a list of fold (an integer) and max_similarity (a number)")
    dropped = cert.get("dropped")
    if not isinstance(dropped, dict) or not isinstance(dropped.get("ids"), list):
        raise ValueError("the certificate's dropped is not a mapping with the list ids")


def verify_certificate(cert: dict, table: pd.DataFrame, fp) -> list[dict]:
    """Recompute a certificate from the fold table and the compounds; one-line ValueError where they differ.

    Parameters
    ----------
    cert : dict
        The certificate (:func:`certificate`).
    table : pandas.DataFrame
        The fold table: ``id``, ``label`` and ``fold``.
    fp : Fingerprints or crocbench.similarity.FeatureMatrix
        The compounds' feature sets (of ``cert``'s fingerprint), in the table's order.

    Returns
    -------
    list of dict
        The recomputed per-fold maxima (:func:`fold_maxima`).

    Raises
    ------
    ValueError
        The certificate is not shaped as :func:`certificate` writes it; the fold table's sha256 is not the
        certificate's; a pair of two folds is at or above tau (named); a fold's highest similarity, or the dropped
        compounds, are not what the certificate says.
    """
    from ..chem.clusters import check_threshold

    _check_shape(cert)
    tau = check_threshold(cert.get("tau"), "the certificate's tau")
    sha = fold_table_sha256(table)
    if sha != cert.get("fold_table_sha256"):
        raise ValueError(
            f"the fold table's sha256 is {sha[:12]}..., the certificate's {str(cert.get('fold_table_sha256'))[:12]}"
            "...: the fold table is not the one certified"
        )
    ids = table["id"].astype(str).to_numpy()
    maxima = fold_maxima(fp, table["fold"].to_numpy())
    for m in maxima:
        if np.float32(m["max_similarity"]) >= np.float32(tau):
            i, j = m["pair"]
            raise ValueError(
                f"fold {m['fold']}: compound {ids[i]} and compound {ids[j]} of another fold are at similarity "
                f"{m['max_similarity']:.6g}, at or above tau {tau:g}"
            )
    claimed = {int(f["fold"]): float(f["max_similarity"]) for f in cert.get("folds", [])}
    found = {m["fold"]: m["max_similarity"] for m in maxima}
    if claimed != found:
        fold = min(set(claimed) ^ set(found) or {f for f in found if claimed[f] != found[f]})
        raise ValueError(
            f"fold {fold}: the certificate's highest similarity to the other folds is {claimed.get(fold)}, "
            f"recomputed {found.get(fold)}"
        )
    dropped = ids[table["fold"].to_numpy() == DROPPED].tolist()
    if dropped != [str(i) for i in cert["dropped"]["ids"]]:
        raise ValueError(
            f"the certificate lists {len(cert['dropped']['ids'])} dropped compounds, the fold table {len(dropped)}"
        )
    return maxima

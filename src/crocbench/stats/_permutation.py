"""Permutation samples of the mean difference of two samples, drawn chunk by chunk.

The paired test flips one fair coin per positive: heads swaps its two values
between the methods, i.e. flips the sign of its difference (paper, section
2.5).  The unpaired test pools both methods' values and splits them uniformly
at random into two parts of the original sizes.  Each chunk holds about
:data:`_CHUNK_CELLS` random cells, so that :func:`crocbench.stats.p_values`,
counting hits as the chunks come (:func:`_permutation_hits`), holds one chunk
at a time whatever the number of samples; its p-value is
``(1 + hits) / (1 + n_samples)``.
"""

from __future__ import annotations

import numpy as np

_CHUNK_CELLS = 4_000_000  # random cells drawn per vectorized chunk


def _permutation_hits(samples: np.ndarray, observed, alternative: str, tol) -> np.ndarray:
    """Column-wise counts of ``samples`` (rows, m) at least as extreme as ``observed`` (m,); the p-value is
    ``(1 + hits) / (1 + n_samples)``, hits summed over every chunk of samples."""
    if alternative == "greater":
        return np.count_nonzero(samples >= observed - tol, axis=0)
    if alternative == "less":
        return np.count_nonzero(samples <= observed + tol, axis=0)
    return np.count_nonzero(np.abs(samples) >= np.abs(observed) - tol, axis=0)


def _tolerance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # Sampled statistics equal to the observed one up to rounding count as "at least as extreme".
    return 1e-9 * (np.abs(a).mean(axis=0) + np.abs(b).mean(axis=0) + 1e-300)


def paired_permutation_samples(d: np.ndarray, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """Mean of ``s_i * d_i`` with independent fair signs s_i, ``n_samples`` times (vectorized).

    ``d`` is (n,) or (n, m): with m columns the same sign flips are applied
    to every column (one draw serves several metrics of the same positives),
    and the result is (n_samples, m).

    Parameters
    ----------
    d : ndarray of shape (n,) or (n, m)
        Per-positive differences of the two methods, one column per comparison.
    n_samples : int
        The number of sign-flip samples.
    rng : numpy.random.Generator
        The random source.

    Returns
    -------
    ndarray of shape (n_samples,) or (n_samples, m)
        The mean of the sign-flipped differences, per sample (and column).

    Examples
    --------
    >>> samples = paired_permutation_samples(np.array([1.0, 1.0]), 1000, np.random.default_rng(0))
    >>> sorted(set(samples.tolist()))
    [-1.0, 0.0, 1.0]
    """
    return _collect(_paired_chunks(d, n_samples, rng), n_samples, d.shape[1:])


def _collect(chunks, n_samples: int, columns: tuple) -> np.ndarray:
    out = np.empty((n_samples,) + columns)
    start = 0
    for block in chunks:
        out[start : start + block.shape[0]] = block
        start += block.shape[0]
    return out


def _paired_chunks(d: np.ndarray, n_samples: int, rng: np.random.Generator):
    """:func:`paired_permutation_samples` chunk by chunk (about :data:`_CHUNK_CELLS` random cells each), so
    that a caller counting hits holds one chunk at a time, whatever ``n_samples``."""
    n = d.shape[0]
    total = d.sum(axis=0)
    chunk = max(1, _CHUNK_CELLS // max(n, 1))
    n_bytes = (n + 7) // 8
    for start in range(0, n_samples, chunk):
        rows = min(chunk, n_samples - start)
        raw = np.frombuffer(rng.bytes(rows * n_bytes), dtype=np.uint8).reshape(rows, n_bytes)
        bits = np.unpackbits(raw, axis=1, count=n).astype(d.dtype)
        # sum of s_i d_i with s_i = 2 bit_i - 1
        yield (2.0 * (bits @ d) - total) / n


def unpaired_permutation_samples(a: np.ndarray, b: np.ndarray, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """``mean(first part) - mean(second part)`` of random splits of the pooled values.

    ``a`` and ``b`` are (na,) and (nb,), or (na, m) and (nb, m) with one
    split applied to every column; the result is (n_samples,) or (n_samples, m).

    Each split is uniform over the C(na + nb, na) ways: a fair coin per value
    (one random bit, not a float, per value), then the part that came out too
    large gives up a uniformly random set of the surplus.  The result does not
    depend on which values are which, so it is uniform among splits of the
    right size.  Parts of very different sizes draw each split by sorting
    random keys instead.

    Parameters
    ----------
    a : ndarray of shape (na,) or (na, m)
        The first method's values.
    b : ndarray of shape (nb,) or (nb, m)
        The second method's values.
    n_samples : int
        The number of random splits.
    rng : numpy.random.Generator
        The random source.

    Returns
    -------
    ndarray of shape (n_samples,) or (n_samples, m)
        ``mean(first part) - mean(second part)`` per split (and column).
    """
    return _collect(_unpaired_chunks(a, b, n_samples, rng), n_samples, a.shape[1:])


def _unpaired_chunks(a: np.ndarray, b: np.ndarray, n_samples: int, rng: np.random.Generator):
    """:func:`unpaired_permutation_samples` chunk by chunk (as :func:`_paired_chunks`)."""
    pooled = np.concatenate([a, b])
    n, na, nb = pooled.shape[0], a.shape[0], b.shape[0]
    total = pooled.sum(axis=0)
    chunk = max(1, _CHUNK_CELLS // n)
    coins = 0.25 <= na / n <= 0.75
    n_bytes = (n + 7) // 8
    for start in range(0, n_samples, chunk):
        rows = min(chunk, n_samples - start)
        if coins:
            raw = np.frombuffer(rng.bytes(rows * n_bytes), dtype=np.uint8).reshape(rows, n_bytes)
            bits = np.unpackbits(raw, axis=1, count=n)
            _resize(bits, na, rng)
            first = bits.astype(pooled.dtype)
        else:
            keys = rng.random((rows, n))
            chosen = np.argpartition(keys, na - 1, axis=1)[:, :na]
            first = np.zeros((rows, n))
            np.put_along_axis(first, chosen, 1.0, axis=1)
        s_a = first @ pooled
        yield s_a / na - (total - s_a) / nb


def _resize(bits: np.ndarray, size: int, rng: np.random.Generator) -> None:
    """Flip a uniformly random set of each row's ``bits`` (0/1, (rows, n), in place) so that exactly ``size``
    are 1: ones to zeros in a row with too many, zeros to ones in a row with too few.

    Vectorized rejection sampling: uniform column draws per row, kept when they land on the kind to flip; a
    row's first distinct kept draws, in draw order, are a uniform sample without replacement.
    """
    n = bits.shape[1]
    surplus = np.count_nonzero(bits, axis=1).astype(np.int64) - size
    rows = np.flatnonzero(surplus)
    while rows.size:
        need, flip = np.abs(surplus[rows]), (surplus[rows] > 0).astype(bits.dtype)
        width = 2 * int(need.max()) + 32
        draws = rng.integers(0, n, size=(rows.size, width))
        kept = bits[rows[:, None], draws] == flip[:, None]
        # each row's first draw of a column: its draws sorted (stably), a run of equal draws starts at its first
        order = np.argsort(draws, axis=1, kind="stable")
        ordered = np.take_along_axis(draws, order, axis=1)
        starts = np.ones(draws.shape, dtype=bool)
        starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        firsts = np.zeros(draws.shape, dtype=bool)
        np.put_along_axis(firsts, order, starts, axis=1)
        first = np.flatnonzero(firsts & kept)  # first occurrences of kept draws, in draw order, rows in turn
        local = first // width
        rank = np.arange(first.size) - np.searchsorted(local, local)
        take = rank < need[local]
        bits[rows[local[take]], draws.ravel()[first[take]]] = 1 - flip[local[take]]
        got = np.bincount(local[take], minlength=rows.size)
        surplus[rows] -= np.sign(surplus[rows]) * got
        rows = rows[got < need]

"""Compiled loops of the similarity engine (numba): the top-k selection of a tile, each row's (and column's) best
candidates kept as they are counted.

Candidate keys are the int64 ``sim_bits << 32 | (2**32 - 1 - index)`` of ``_all_pairs``: one integer
comparison orders by decreasing similarity, then increasing index.  A row's list holds its best
``k`` keys in decreasing order, ``-1`` where it has fewer. Parallel over rows (or column stripes) that no other
thread writes, so race-free and independent of the number of threads.
"""

from __future__ import annotations

import numpy as np

from ._chunks import _LOW
from ._kernels import _SLACK, _count_rows, _union, numba
from ._popcount import ROWS


@numba.njit(cache=True, forceinline=True)
def _key(s, index):  # pragma: no cover - compiled
    bits = np.int64(np.array([s], dtype=np.float32).view(np.int32)[0])
    return (bits << 32) | (_LOW - index)


@numba.njit(cache=True, forceinline=True)
def _insert(best, key):  # pragma: no cover - compiled
    """Insert ``key`` into the decreasing list ``best`` (the caller checked it beats the last); the last drops."""
    p = best.shape[0] - 1
    while p > 0 and best[p - 1] < key:
        best[p] = best[p - 1]
        p -= 1
    best[p] = key


@numba.njit(cache=True, forceinline=True)
def _threshold(last):  # pragma: no cover - compiled
    """The similarity a candidate must reach to enter a list whose last key is ``last`` (-1: not full)."""
    if last < 0:
        return np.float32(-1.0)
    return np.array([np.int32(last >> 32)], dtype=np.int32).view(np.float32)[0]


@numba.njit(cache=True, forceinline=True)
def _offer(mine, c, union, index, kth):  # pragma: no cover - compiled
    """Offer candidate ``index`` (intersection ``c``, ``union``) to the list ``mine``, whose k-th similarity is
    ``kth``; returns the list's k-th similarity after."""
    s = np.float32(np.float64(c) / union)
    if s >= kth:
        key = _key(s, index)
        if key > mine[-1]:
            _insert(mine, key)
            return _threshold(mine[-1])
    return kth


#: Columns per prefilter chunk, and the prefilter's slack: ``c >= lim u`` in float32 with ``lim = float32(t (1 -
#: 2**-18))`` admits every pair with ``c >= t u (1 - 2**-20)`` (float64), the exact test's, as float32's
#: roundings of ``lim`` and of ``lim u`` are each below 2**-24 relative; it may admit a few more, which the exact
#: test then turns away.
CHUNK, _LOOSE = 64, 1.0 - 2.0**-18


@numba.njit(cache=True, forceinline=True)
def _flag_row(flags, row, size_i, size_b, row_lim):  # pragma: no cover - compiled
    """``flags[j] = 1`` where column j of ``row`` (intersection counts) may reach the row's threshold
    ``row_lim`` (float32, branch-free: one vector loop), else 0."""
    for j in range(row.shape[0]):
        c = row[j]
        flags[j] = np.uint8(c >= row_lim * (size_i + size_b[j] - c))


@numba.njit(cache=True, forceinline=True)
def _flag_row_or_column(flags, row, size_i, size_b, row_lim, col_lim):  # pragma: no cover - compiled
    """As :func:`_flag_row`, and also where column j may reach its own list's threshold ``col_lim[j]``."""
    for j in range(row.shape[0]):
        c = row[j]
        union = size_i + size_b[j] - c
        flags[j] = np.uint8(c >= row_lim * union) | np.uint8(c >= col_lim[j] * union)


@numba.njit(cache=True, forceinline=True)
def _chunk_flagged(words, lo):  # pragma: no cover - compiled
    """Whether any of the ``CHUNK`` flags from column ``lo`` is set (``words``: the flags as uint64)."""
    acc = np.uint64(0)
    for q in range(lo // 8, lo // 8 + CHUNK // 8):
        acc |= words[q]
    return acc != 0


@numba.njit(cache=True, forceinline=True)
def _flag_buffer(n):  # pragma: no cover - compiled
    """Zeroed flags for ``n`` columns, padded to whole chunks (the padding stays 0)."""
    return np.zeros(-(-max(n, 1) // CHUNK) * CHUNK, dtype=np.uint8)


#: Bins of :func:`_row_floor`'s histogram of a row's similarities.
_BINS = 256


@numba.njit(cache=True, forceinline=True)
def _row_floor(row, size_i, size_b, m):  # pragma: no cover - compiled
    """A similarity ``L = b / _BINS`` that at least ``m`` of the row's pairs reach (a histogram of their float32
    similarities), so a pair below it has ``m - 1`` others of the row (itself being one at most) above it, and
    cannot enter a top ``m - 1``; 0 when the row has fewer than ``m`` pairs.  A pair whose float32 similarity
    is in bin b has a true one above ``L (1 - 2**-24)``, which is more than any pair that ``L (1 - 2**-18)``
    (the prefilter's loose slack) turns away."""
    hist = np.zeros(_BINS + 1, dtype=np.int64)
    for j in range(row.shape[0]):
        c = row[j]
        union = max(np.float32(1.0), size_i + size_b[j] - c)
        hist[np.int64(np.float32(c / union) * _BINS)] += 1
    reached = 0
    for b in range(_BINS, -1, -1):
        reached += hist[b]
        if reached >= m:
            return np.float32(b / _BINS)
    return np.float32(0.0)


@numba.njit(cache=True, forceinline=True)
def _offer_row(row, size_i, size_b, own, first_b, mine, clamp, flags):  # pragma: no cover - compiled
    """Offer a row of intersection counts (against columns ``first_b + j``) to the row's list ``mine``; column
    ``own`` (the compound itself, or -1) is skipped.  The chunks of ``CHUNK`` columns none of which can reach the
    list's k-th (``flags``, a :func:`_flag_buffer` for the row, set by :func:`_flag_row`) are passed over.  A list
    not yet full (a diagonal tile's, at first) has no k-th: the flags then take the floor of :func:`_row_floor`."""
    kth = _threshold(mine[-1])
    n = row.shape[0]
    lim = kth
    if kth < 0 and n > 4 * mine.shape[0]:  # a list not yet full: a floor the row's own k + 1 best reach
        lim = _row_floor(row, size_i, size_b, mine.shape[0] + 1)
    _flag_row(flags, row, size_i, size_b, np.float32(lim * _LOOSE))
    words = flags.view(np.uint64)
    for lo in range(0, n, CHUNK):
        if not _chunk_flagged(words, lo):
            continue
        for q in range(lo // 8, lo // 8 + CHUNK // 8):  # then 8 flags at a time, then one by one
            if words[q] == 0:
                continue
            for j in range(8 * q, min(n, 8 * q + 8)):
                if flags[j] == 0:
                    continue
                c = row[j]
                union = _union(c, size_i, size_b[j], clamp)
                if c < kth * union * _SLACK or j == own:  # cannot reach the k-th: no division
                    continue
                kth = _offer(mine, c, union, first_b + j, kth)


@numba.njit(parallel=True, cache=True, nogil=True)
def offer_rows(inter, size_a, size_b, first_a, first_b, best, clamp):  # pragma: no cover - compiled
    """Offer the tile's pairs to its rows' lists: row ``first_a + i`` (a row of ``best``, the lists of all
    compounds, each its best keys in decreasing order) gets candidate ``first_b + j``, never itself."""
    for t in numba.prange((inter.shape[0] + TASK_ROWS - 1) // TASK_ROWS):
        flags = _flag_buffer(inter.shape[1])
        for i in range(t * TASK_ROWS, min(inter.shape[0], (t + 1) * TASK_ROWS)):
            _offer_row(inter[i], size_a[i], size_b, first_a + i - first_b, first_b, best[first_a + i], clamp, flags)


@numba.njit(parallel=True, cache=True, nogil=True)
def offer_columns(inter, size_a, size_b, first_a, first_b, best, clamp):  # pragma: no cover - compiled
    """Offer the tile's pairs to its columns' lists (an off-diagonal tile): row ``first_b + j`` of ``best`` gets
    candidate ``first_a + i``. Each task reads a stripe of columns of every row, in order."""
    n_a, n_b = inter.shape
    stripe = 1024
    for t in numba.prange((n_b + stripe - 1) // stripe):
        lo, hi = t * stripe, min(n_b, (t + 1) * stripe)
        kth = np.empty(hi - lo, dtype=np.float32)
        for j in range(lo, hi):
            kth[j - lo] = _threshold(best[first_b + j, -1])
        for i in range(n_a):
            for j in range(lo, hi):
                c = inter[i, j]
                union = _union(c, size_a[i], size_b[j], clamp)
                if c < kth[j - lo] * union * _SLACK:
                    continue
                kth[j - lo] = _offer(best[first_b + j], c, union, first_a + i, kth[j - lo])


#: Rows per task of :func:`offer_tile`, and the column candidates a task may collect by default.
TASK_ROWS, TASK_CANDIDATES = 64, 64 * 512


@numba.njit(parallel=True, cache=True, nogil=True)
def offer_tile(
    words_a,
    words_b,
    words_bt,
    a_ptr,
    a_idx,
    b_ptr,
    b_idx,
    size_a,
    size_b,
    first_a,
    first_b,
    best,
    columns,
    clamp,
    found,
):  # pragma: no cover - compiled
    """Count and offer a tile row by row, never storing it: each row's counts go to its own list while in cache.

    With ``columns`` (an off-diagonal tile whose columns' lists are all full), the pairs that reach
    their column's k-th as the tile starts are kept in ``found`` (``(i, j, count)``, up to
    ``found.shape[1]`` per task of ``TASK_ROWS`` rows) and merged into the columns' lists afterwards.
    Returns False when a task had more (the caller then offers the columns from the stored tile).
    """
    n_a, n_b = words_a.shape[0], words_b.shape[0]
    tasks = (n_a + TASK_ROWS - 1) // TASK_ROWS
    used = np.zeros(tasks, dtype=np.int64)
    col_kth = np.empty(n_b, dtype=np.float64)
    col_lim = np.empty(n_b, dtype=np.float32)  # the prefilter's (_flag_row_or_column)
    for j in range(n_b):
        col_kth[j] = _threshold(best[first_b + j, -1]) * _SLACK
        col_lim[j] = np.float32(_threshold(best[first_b + j, -1]) * _LOOSE)
    for t in numba.prange(tasks):
        rows = np.empty((ROWS, n_b), dtype=np.float32)
        flags = _flag_buffer(n_b)
        words = flags.view(np.uint64)
        for i in range(t * TASK_ROWS, min(n_a, (t + 1) * TASK_ROWS)):
            if (i - t * TASK_ROWS) % ROWS == 0:  # the next ROWS rows' counts, at once
                _count_rows(rows, 0, min(ROWS, n_a - i), words_a, i, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx)
            row = rows[(i - t * TASK_ROWS) % ROWS]
            if not columns:
                _offer_row(row, size_a[i], size_b, first_a + i - first_b, first_b, best[first_a + i], clamp, flags)
                continue
            mine = best[first_a + i]
            kth = _threshold(mine[-1])
            row_kth = kth * _SLACK
            _flag_row_or_column(flags, row, size_a[i], size_b, np.float32(kth * _LOOSE), col_lim)
            for lo in range(0, n_b, CHUNK):  # one pass for both: the row's list, and the columns' candidates
                if not _chunk_flagged(words, lo):
                    continue
                for q in range(lo // 8, lo // 8 + CHUNK // 8):
                    if words[q] == 0:
                        continue
                    for j in range(8 * q, min(n_b, 8 * q + 8)):
                        if flags[j] == 0:
                            continue
                        c = row[j]
                        union = _union(c, size_a[i], size_b[j], clamp)
                        if c >= col_kth[j] * union:
                            if used[t] < found.shape[1]:
                                found[t, used[t], 0] = np.int32(i)
                                found[t, used[t], 1] = np.int32(j)
                                found[t, used[t], 2] = np.int32(c)
                            used[t] += 1
                        if c >= row_kth * union:
                            kth = _offer(mine, c, union, first_b + j, kth)
                            row_kth = kth * _SLACK
    if not columns:
        return True
    if used.max() > found.shape[1]:
        return False
    # the candidates by column (a counting sort), then each column's list updated by one task
    start = np.zeros(n_b + 1, dtype=np.int64)
    for t in range(tasks):
        for m in range(used[t]):
            start[found[t, m, 1] + 1] += 1
    start = np.cumsum(start)
    fill = start[:-1].copy()
    rows = np.empty(start[-1], dtype=np.int64)
    counts = np.empty(start[-1], dtype=np.float32)
    for t in range(tasks):
        for m in range(used[t]):
            j = found[t, m, 1]
            rows[fill[j]] = found[t, m, 0]
            counts[fill[j]] = found[t, m, 2]
            fill[j] += 1
    for j in numba.prange(n_b):
        mine = best[first_b + j]
        kth = _threshold(mine[-1])
        for m in range(start[j], start[j + 1]):
            i, c = rows[m], counts[m]
            kth = _offer(mine, c, _union(c, size_a[i], size_b[j], clamp), first_a + i, kth)
    return True

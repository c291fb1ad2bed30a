"""Compiled loops of the similarity engine (numba): intersection counts and the top-k selection of a tile.

Both are parallel over rows (or column stripes) that no other thread writes, so they are
race-free and their results do not depend on the number of threads or their schedule.
Values equal the vectorized code's bit for bit: counts are exact integers, and a similarity
is ``c / (a + b - c)`` divided in float64 and rounded once to float32, which equals float32's
correctly rounded quotient (the double rounding is innocuous: 53 >= 2 x 24 + 2 bits).

Candidate keys are the int64 ``sim_bits << 32 | (2**32 - 1 - index)`` of ``_all_pairs``: one integer
comparison orders by decreasing similarity, then increasing index.  A row's list holds its best
``k`` keys in decreasing order, ``-1`` where it has fewer.
"""

from __future__ import annotations

import os

import numpy as np

from .._extras import needs

with needs("crocbench.similarity"):
    import numba

if "NUMBA_THREADING_LAYER" not in os.environ:  # numba's own pool: fork-safe (GNU OpenMP's is not)
    numba.config.THREADING_LAYER = "workqueue"

_LOW = (1 << 32) - 1


def use_threads(threads: int) -> None:
    """Run the compiled loops on ``threads`` threads (at most numba's pool; at least 1)."""
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))


@numba.njit(cache=True, forceinline=True)
def _popcount(x):  # pragma: no cover - compiled
    """Set bits of a uint64 (LLVM compiles this idiom to one popcnt instruction)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@numba.njit(cache=True, forceinline=True)
def _count_row(row, words_i, words_b, a_idx, start, stop, b_ptr, b_idx):  # pragma: no cover - compiled
    """``row[j] = |A_i & B_j|``: popcounts of the packed words, then one add per rare feature A_i shares."""
    n_words = words_b.shape[1]
    for j in range(row.shape[0]):
        c = np.uint64(0)
        for w in range(n_words):
            c += _popcount(words_i[w] & words_b[j, w])
        row[j] = np.float32(c)
    for p in range(start, stop):
        f = a_idx[p]
        for q in range(b_ptr[f], b_ptr[f + 1]):
            row[b_idx[q]] += 1.0


@numba.njit(parallel=True, cache=True, nogil=True)
def count_intersections(out, words_a, words_b, a_ptr, a_idx, b_ptr, b_idx):  # pragma: no cover - compiled
    """``out[i, j] = |A_i & B_j|`` (float32): the frequent features bit-packed (``words_*``, popcounts of their
    AND), plus the rare ones, A's as CSR (``a_ptr``, ``a_idx``), B's as CSC (``b_ptr`` over features,
    ``b_idx`` the columns of ``out`` holding each)."""
    for i in numba.prange(out.shape[0]):
        _count_row(out[i], words_a[i], words_b, a_idx, a_ptr[i], a_ptr[i + 1], b_ptr, b_idx)


#: ``c < t u (1 - 2**-20)`` (float64) implies ``float32(c / u) < t`` for a float32 t: a multiplication
#: rules out most pairs before the division (the rounding of c / u is far below the slack).
_SLACK = 1.0 - 2.0**-20


@numba.njit(cache=True, forceinline=True)
def _union(c, size_a, size_b, clamp):  # pragma: no cover - compiled
    """``|a| + |b| - |a & b|`` as float64 (exact integers), 1 where both sets are empty (``clamp``)."""
    union = np.float64(size_a) + np.float64(size_b) - np.float64(c)
    if clamp and union < 1.0:
        union = 1.0
    return union


@numba.njit(parallel=True, cache=True, nogil=True)
def tanimoto_block(out, words_a, words_b, a_ptr, a_idx, b_ptr, b_idx, size_a, size_b, clamp):  # pragma: no cover
    """``out[i, j] = T(A_i, B_j)``: each row's intersection counts (as :func:`count_intersections`), then
    divided in place, ``float32(c / union)`` (0 where both sets are empty: ``clamp``), stored in ``out``'s dtype
    (float32, or float64 holding the float32 value exactly). ``out`` may be a strided view (rows of a matrix)."""
    for i in numba.prange(out.shape[0]):
        row = out[i]
        _count_row(row, words_a[i], words_b, a_idx, a_ptr[i], a_ptr[i + 1], b_ptr, b_idx)
        for j in range(row.shape[0]):
            row[j] = np.float32(np.float64(row[j]) / _union(row[j], size_a[i], size_b[j], clamp))


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


@numba.njit(cache=True, forceinline=True)
def _offer_row(row, size_i, size_b, own, first_b, mine, clamp):  # pragma: no cover - compiled
    """Offer a row of intersection counts (against columns ``first_b + j``) to the row's list ``mine``; column
    ``own`` (the compound itself, or -1) is skipped."""
    kth = _threshold(mine[-1])
    for j in range(row.shape[0]):
        c = row[j]
        union = _union(c, size_i, size_b[j], clamp)
        if c < kth * union * _SLACK or j == own:  # cannot reach the k-th: no division
            continue
        kth = _offer(mine, c, union, first_b + j, kth)


@numba.njit(parallel=True, cache=True, nogil=True)
def offer_rows(inter, size_a, size_b, first_a, first_b, best, clamp):  # pragma: no cover - compiled
    """Offer the tile's pairs to its rows' lists: row ``first_a + i`` (a row of ``best``, the lists of all
    compounds, each its best keys in decreasing order) gets candidate ``first_b + j``, never itself."""
    for i in numba.prange(inter.shape[0]):
        _offer_row(inter[i], size_a[i], size_b, first_a + i - first_b, first_b, best[first_a + i], clamp)


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
    words_a, words_b, a_ptr, a_idx, b_ptr, b_idx, size_a, size_b, first_a, first_b, best, columns, clamp, found
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
    for j in range(n_b):
        col_kth[j] = _threshold(best[first_b + j, -1]) * _SLACK
    for t in numba.prange(tasks):
        row = np.empty(n_b, dtype=np.float32)
        for i in range(t * TASK_ROWS, min(n_a, (t + 1) * TASK_ROWS)):
            _count_row(row, words_a[i], words_b, a_idx, a_ptr[i], a_ptr[i + 1], b_ptr, b_idx)
            if not columns:
                _offer_row(row, size_a[i], size_b, first_a + i - first_b, first_b, best[first_a + i], clamp)
                continue
            mine = best[first_a + i]
            kth = _threshold(mine[-1])
            row_kth = kth * _SLACK
            for j in range(n_b):  # one pass for both: the row's list, and the columns' candidates
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

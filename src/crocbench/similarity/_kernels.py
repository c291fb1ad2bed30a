"""Compiled loops of the similarity engine (numba): intersection counts and Tanimoto blocks, and a kernel's
columns summed in a fixed order (:func:`gathered_dot`); the top-k selection of a tile is :mod:`._selection`'s.

Both are parallel over rows (or column stripes) that no other thread writes, so they are
race-free and their results do not depend on the number of threads or their schedule.
Values are the same on every path (vector or scalar): counts are exact integers, and a similarity
is ``c / (a + b - c)`` divided in float64 and rounded once to float32, which equals float32's
correctly rounded quotient (the double rounding is innocuous: 53 >= 2 x 24 + 2 bits).

Candidate keys are the int64 ``sim_bits << 32 | (2**32 - 1 - index)`` of ``_all_pairs``: one integer
comparison orders by decreasing similarity, then increasing index.  A row's list holds its best
``k`` keys in decreasing order, ``-1`` where it has fewer.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from .._extras import needs

with needs("crocbench.similarity"):
    import numba
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

from ._popcount import COLS, ROWS

if "NUMBA_THREADING_LAYER" not in os.environ:  # numba's own pool: fork-safe (GNU OpenMP's is not)
    numba.config.THREADING_LAYER = "workqueue"


def use_threads(threads: int) -> None:
    """Run the compiled loops on ``threads`` threads (at most numba's pool; at least 1)."""
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))


def process_threads() -> int:
    """The threads this process's numeric work is given: torch's where torch is loaded (the workflow's steps and
    the models set them), else ``OMP_NUM_THREADS`` (which torch would read when imported), else numba's pool.
    Importing torch only to ask it would cost a second and a few hundred MB of every job that computes a kernel."""
    torch_threads = getattr(sys.modules.get("torch"), "get_num_threads", None)
    if torch_threads is not None:
        return torch_threads()
    try:
        threads = int(os.environ.get("OMP_NUM_THREADS", "").split(",")[0])  # OpenMP's "4,2": 4 at the top level
    except ValueError:
        threads = 0
    return threads if threads > 0 else numba.config.NUMBA_NUM_THREADS  # unset, 0 or unreadable: as OpenMP


@numba.njit(cache=True, forceinline=True)
def _popcount(x):  # pragma: no cover - compiled
    """Set bits of a uint64 (LLVM compiles this idiom to one popcnt instruction)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@intrinsic
def count_8x8(typingctx, words_a, a0, words_bt, c0, out, o0):  # pragma: no cover - compiled
    """``out[o0 + r, c0 + c] = |A_(a0 + r) & B_(c0 + c)|`` over the packed words, r, c in 0..7, in ``out``'s float
    dtype (exact integers): the vector path's block (AVX-512 VPOPCNTDQ).

    B's words come transposed (word-major, ``words_bt[w, c]``): for each word ``w``, one 512-bit load of the 8
    columns' words, then per row an AND with the row's word (broadcast), a vector popcount (``llvm.ctpop.v8i64``)
    and an add into that row's accumulator.  The 8 accumulators stay in registers for all words; no horizontal sum
    is needed, and each load of B serves 8 rows.  ``words_a`` and ``words_bt`` are C-contiguous uint64; ``out``'s
    rows may be strided but each row's elements are contiguous.  It lives in this file so that numba's cache of the
    loops that inline it is invalidated when it changes."""
    sig = types.void(words_a, types.int64, words_bt, types.int64, out, types.int64)

    def codegen(context, builder, signature, args):
        a_arr = context.make_array(signature.args[0])(context, builder, args[0])
        bt_arr = context.make_array(signature.args[2])(context, builder, args[2])
        out_arr = context.make_array(signature.args[4])(context, builder, args[4])
        a0_, c0_, o0_ = args[1], args[3], args[5]
        i64, i32 = ir.IntType(64), ir.IntType(32)
        vec = ir.VectorType(i64, COLS)
        flt = context.get_value_type(signature.args[4].dtype)
        fvec = ir.VectorType(flt, COLS)
        n_words = builder.extract_value(bt_arr.shape, 0)
        n_cols = builder.extract_value(bt_arr.shape, 1)
        a_words = builder.extract_value(a_arr.shape, 1)
        out_row_bytes = builder.extract_value(out_arr.strides, 0)
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(vec, [vec]), f"llvm.ctpop.v{COLS}i64")
        broadcast = ir.Constant(ir.VectorType(i32, COLS), [0] * COLS)
        entry = builder.block
        head = builder.append_basic_block("pc8.head")
        body = builder.append_basic_block("pc8.body")
        done = builder.append_basic_block("pc8.done")
        builder.branch(head)
        builder.position_at_end(head)
        w = builder.phi(i64)
        w.add_incoming(ir.Constant(i64, 0), entry)
        acc = []
        for _ in range(ROWS):
            phi = builder.phi(vec)
            phi.add_incoming(ir.Constant(vec, None), entry)
            acc.append(phi)
        builder.cbranch(builder.icmp_signed("<", w, n_words), body, done)
        builder.position_at_end(body)
        b_ptr = builder.gep(bt_arr.data, [builder.add(builder.mul(w, n_cols), c0_)])
        b = builder.load(builder.bitcast(b_ptr, vec.as_pointer()), align=8)
        step = []
        for r in range(ROWS):
            q_ptr = builder.gep(
                a_arr.data, [builder.add(builder.mul(builder.add(a0_, ir.Constant(i64, r)), a_words), w)]
            )
            q = builder.insert_element(ir.Constant(vec, ir.Undefined), builder.load(q_ptr), ir.Constant(i32, 0))
            q = builder.shuffle_vector(q, ir.Constant(vec, ir.Undefined), broadcast)
            step.append(builder.add(acc[r], builder.call(ctpop, [builder.and_(q, b)])))
        tail = builder.block
        w.add_incoming(builder.add(w, ir.Constant(i64, 1)), tail)
        for r in range(ROWS):
            acc[r].add_incoming(step[r], tail)
        builder.branch(head)
        builder.position_at_end(done)
        base = builder.bitcast(out_arr.data, ir.IntType(8).as_pointer())
        width = context.get_abi_sizeof(flt)
        for r in range(ROWS):
            offset = builder.add(
                builder.mul(builder.add(o0_, ir.Constant(i64, r)), out_row_bytes),
                builder.mul(c0_, ir.Constant(i64, width)),
            )
            row_ptr = builder.bitcast(builder.gep(base, [offset]), fvec.as_pointer())
            builder.store(builder.uitofp(acc[r], fvec), row_ptr, align=width)
        return context.get_dummy_value()

    return sig, codegen


@numba.njit(cache=True, forceinline=True)
def _count_words(row, words_i, words_b, first):  # pragma: no cover - compiled
    """``row[j] = |A_i & B_j|`` over the packed words, for columns ``j >= first``: one popcount per word."""
    n_words = words_b.shape[1]
    for j in range(first, row.shape[0]):
        c = np.uint64(0)
        for w in range(n_words):
            c += _popcount(words_i[w] & words_b[j, w])
        row[j] = np.float32(c)


@numba.njit(cache=True, forceinline=True)
def _add_rare(row, a_idx, start, stop, b_ptr, b_idx):  # pragma: no cover - compiled
    """One add per rare feature A_i shares with a column (A_i's features ``a_idx[start:stop]``, B's as CSC)."""
    for p in range(start, stop):
        f = a_idx[p]
        for q in range(b_ptr[f], b_ptr[f + 1]):
            row[b_idx[q]] += 1.0


@numba.njit(cache=True, forceinline=True)
def _count_row(row, words_i, words_b, a_idx, start, stop, b_ptr, b_idx):  # pragma: no cover - compiled
    """``row[j] = |A_i & B_j|``: popcounts of the packed words, then one add per rare feature A_i shares."""
    _count_words(row, words_i, words_b, 0)
    _add_rare(row, a_idx, start, stop, b_ptr, b_idx)


@numba.njit(cache=True, forceinline=True)
def _count_rows(out, o0, n_rows, words_a, i0, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx):  # pragma: no cover
    """``out[o0 + r] = |A_(i0 + r) & B_j|`` for every column j, r < ``n_rows``.  With B's words also given
    transposed (``words_bt``, the vector path), whole blocks of 8 rows x 8 columns are counted by the vector
    popcount (:func:`count_8x8`) and the rest column by column; else (an empty ``words_bt``) each row
    by :func:`_count_row`."""
    n_b = words_b.shape[0]
    r = 0
    if n_b >= COLS and words_bt.shape[1] == n_b and out.strides[1] == out.itemsize:
        full = n_b - n_b % COLS
        while r + ROWS <= n_rows:
            for c0 in range(0, full, COLS):
                count_8x8(words_a, i0 + r, words_bt, c0, out, o0 + r)
            for s in range(r, r + ROWS):
                row = out[o0 + s]
                _count_words(row, words_a[i0 + s], words_b, full)
                _add_rare(row, a_idx, a_ptr[i0 + s], a_ptr[i0 + s + 1], b_ptr, b_idx)
            r += ROWS
    for s in range(r, n_rows):
        _count_row(out[o0 + s], words_a[i0 + s], words_b, a_idx, a_ptr[i0 + s], a_ptr[i0 + s + 1], b_ptr, b_idx)


@numba.njit(parallel=True, cache=True, nogil=True)
def count_intersections(out, words_a, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx):  # pragma: no cover
    """``out[i, j] = |A_i & B_j|`` (float32): the frequent features bit-packed (``words_*``, popcounts of their
    AND; ``words_bt``, B's words transposed on the vector path, else empty), plus the rare ones, A's as CSR
    (``a_ptr``, ``a_idx``), B's as CSC (``b_ptr`` over features, ``b_idx`` the columns of ``out`` holding each)."""
    n_a = out.shape[0]
    for t in numba.prange((n_a + ROWS - 1) // ROWS):
        lo = t * ROWS
        _count_rows(out, lo, min(ROWS, n_a - lo), words_a, lo, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx)


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
def tanimoto_block(
    out, words_a, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx, size_a, size_b, clamp
):  # pragma: no cover - compiled
    """``out[i, j] = T(A_i, B_j)``: each row's intersection counts (as :func:`count_intersections`), then
    divided in place, ``float32(c / union)`` (0 where both sets are empty: ``clamp``), stored in ``out``'s dtype
    (float32, or float64 holding the float32 value exactly). ``out`` may be a strided view (rows of a matrix)."""
    n_a = out.shape[0]
    for t in numba.prange((n_a + ROWS - 1) // ROWS):
        lo = t * ROWS
        _count_rows(out, lo, min(ROWS, n_a - lo), words_a, lo, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx)
        for i in range(lo, min(n_a, lo + ROWS)):
            row = out[i]
            for j in range(row.shape[0]):
                row[j] = np.float32(np.float64(row[j]) / _union(row[j], size_a[i], size_b[j], clamp))


@numba.njit(parallel=True, cache=True, nogil=True)
def tanimoto_dot(
    out, weights, words_a, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx, size_a, size_b, clamp
):  # pragma: no cover - compiled
    """``out[i, c] = sum_j T(A_i, B_j) w_jc`` in float64, summed in column order j (each term one multiply of
    the float32 similarity, widened, by ``w_jc``, then one add): for each c, the bits of ``ordered_dot`` of
    :func:`tanimoto_block`'s rows, without holding them.  Each block of 8 rows is counted into a scratch row
    block of its own."""
    n_a, n_b, m = out.shape[0], words_b.shape[0], out.shape[1]
    for t in numba.prange((n_a + ROWS - 1) // ROWS):
        lo = t * ROWS
        rows = min(ROWS, n_a - lo)
        scratch = np.empty((rows, n_b), dtype=np.float32)
        _count_rows(scratch, 0, rows, words_a, lo, words_b, words_bt, a_ptr, a_idx, b_ptr, b_idx)
        for r in range(rows):
            i, row = lo + r, scratch[r]
            if m == 1:  # one sum: a scalar accumulator (a register)
                total = 0.0
                for j in range(n_b):
                    s = np.float64(np.float32(np.float64(row[j]) / _union(row[j], size_a[i], size_b[j], clamp)))
                    total += s * weights[j, 0]
                out[i, 0] = total
                continue
            acc = out[i]
            acc[:] = 0.0
            for j in range(n_b):
                s = np.float64(np.float32(np.float64(row[j]) / _union(row[j], size_a[i], size_b[j], clamp)))
                for c in range(m):
                    acc[c] += s * weights[j, c]


@numba.njit(parallel=True, cache=True, nogil=True)
def gathered_dot(out, matrix, cols, weights):  # pragma: no cover - compiled
    """``out[i] = sum_j matrix[i, cols[j]] weights[j]`` in float64, summed in order j (each term one multiply,
    then one add): the bits of ``ordered_dot`` of ``matrix[:, cols]``, without gathering the block."""
    for i in numba.prange(matrix.shape[0]):
        row = matrix[i]
        total = 0.0
        for j in range(cols.size):
            total += row[cols[j]] * weights[j]
        out[i] = total

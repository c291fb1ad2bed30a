"""The process-pool map every parallel step uses (fingerprints, parsing, synthesis, the power study)."""

import ctypes

import numpy as np
import pytest

from crocbench._parallel import map_chunks, map_processes


def _square(x):
    return x * x


def _blas_threads(_):
    from threadpoolctl import threadpool_info

    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def _sum(chunk):
    return sum(chunk)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_results_in_input_order_whatever_starts_first(n_jobs):
    items = [3, 1, 4, 1, 5, 9, 2, 6]
    seen = []
    out = map_processes(_square, items, n_jobs, first=lambda x: -x, done=lambda i, r: seen.append((i, r)))
    assert out == [9, 1, 16, 1, 25, 81, 4, 36]
    assert sorted(seen) == [(i, x * x) for i, x in enumerate(items)]  # each item reported once, with its result


def test_serial_starts_in_the_order_asked():
    seen = []
    map_processes(_square, [2, 7, 5], 1, first=lambda x: -x, done=lambda i, r: seen.append(i))
    assert seen == [1, 2, 0]


def _fail_first(item):
    i, folder = item
    if i == 0:
        raise ValueError("item 0 is bad")
    sum(range(20_000))  # some work, as a chunk of compounds has
    (folder / str(i)).touch()


def test_an_items_error_cancels_the_items_not_started(tmp_path):
    """The first item fails at once: the error reaches the caller, and the hundreds queued behind it do not run first
    (each that runs leaves a file). Without the cancellation every other item runs before the error is raised."""
    items = [(i, tmp_path) for i in range(400)]
    with pytest.raises(ValueError, match="item 0 is bad"):
        map_processes(_fail_first, items, 2)
    ran = len(list(tmp_path.iterdir()))
    assert ran < 200, ran


def test_workers_run_one_blas_thread():
    pools = map_processes(_blas_threads, range(2), 2)
    assert all(threads and set(threads) == {1} for threads in pools), pools


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_map_chunks_splits_and_keeps_order(n_jobs):
    items = list(np.arange(23))
    assert map_chunks(_sum, items, n_jobs, chunk_size=5) == [sum(items[i : i + 5]) for i in range(0, 23, 5)]


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _mmapped_bytes_while_holding(nbytes: int) -> int:
    """glibc's bytes in mmapped blocks while an array of ``nbytes`` is alive."""
    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = _Mallinfo2
    block = np.ones(nbytes // 8)
    held = mallinfo2().hblkhd
    del block
    return held


def _reuse_measurements() -> tuple[int, int, int, int, int]:
    """``(base, size, outside, inside, after)``: mmapped bytes holding 1 kB, and a 64 MB array outside, inside and
    after :func:`reuse_freed_memory`."""
    from crocbench._parallel import reuse_freed_memory

    size = 64 * 2**20
    base, outside = _mmapped_bytes_while_holding(1024), _mmapped_bytes_while_holding(size)
    with reuse_freed_memory():
        inside = _mmapped_bytes_while_holding(size)
    return base, size, outside, inside, _mmapped_bytes_while_holding(size)


def test_reuse_freed_memory_serves_large_blocks_from_the_heap_and_restores():
    """Outside the block a 64 MB array is its own mmap; inside, it comes from the heap; after, mmap again. Measured in
    a fresh process: glibc's thresholds are the process's, and a library fitted earlier in this one may have moved
    them (a LightGBM forest of 131,072 leaves does)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if not hasattr(ctypes.CDLL(None), "mallinfo2"):
        pytest.skip("not glibc >= 2.33")
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        base, size, outside, inside, after = pool.submit(_reuse_measurements).result()
    assert outside >= base + size and inside < base + size and after >= base + size

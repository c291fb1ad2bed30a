"""The machine's resources as the workflow budgets them, the process-pool map every parallel step uses, and
heap reuse for loops that allocate large arrays."""

from __future__ import annotations

import contextlib
import ctypes
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Sequence


def memory_budget_mb() -> int:
    """What the jobs of one run may use together (MB): 90% of this machine's physical memory.

    The workflow's ``mem_mb`` budget unless ``--resources mem_mb=...`` says otherwise,
    and what the SVM's default ``max_kernel_gb`` is derived from.
    """
    return int(0.9 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)


#: glibc's mallopt parameters and the defaults restored after :func:`reuse_freed_memory`.
_M_TRIM_THRESHOLD, _M_MMAP_MAX = -1, -4
_DEFAULT_TRIM_THRESHOLD, _DEFAULT_MMAP_MAX = 128 * 1024, 65536


@contextlib.contextmanager
def reuse_freed_memory():
    """Within the block, large freed blocks stay in this process's heap for the next allocation (glibc only).

    glibc serves every block above its mmap threshold (at most 32 MB) by a
    fresh ``mmap`` and unmaps it when freed, so a loop that allocates and
    frees such arrays pays for zeroing new pages each time: the IRV's
    epochs on (n, 20) float64 tensors (above 32 MB from n = 210,000) spent
    most of their time in the kernel (a 250,000-compound fold: 66 s, 22 s
    with the heap reused).  Inside the block, large blocks come from the heap
    (``M_MMAP_MAX`` 0) and the heap is not trimmed below 2 GB of free top;
    after it, the defaults are restored and the free heap goes back to the
    system.  Elsewhere than glibc it does nothing.
    """
    try:
        libc = ctypes.CDLL(None)
        mallopt, malloc_trim = libc.mallopt, libc.malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to tune
        yield
        return
    mallopt(_M_MMAP_MAX, 0)
    mallopt(_M_TRIM_THRESHOLD, 2**31 - 1)
    try:
        yield
    finally:
        mallopt(_M_MMAP_MAX, _DEFAULT_MMAP_MAX)
        mallopt(_M_TRIM_THRESHOLD, _DEFAULT_TRIM_THRESHOLD)
        malloc_trim(0)


def one_blas_thread() -> None:
    """Limit this process's BLAS to one thread: a pool's workers share the cores.

    Two power-study processes with two OpenBLAS threads each took 33 s on
    2 cores where one thread each took 27 s.
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)


def map_processes(fn: Callable, items: Sequence, n_jobs: int = 1, *, first=None, done=None) -> list:
    """``[fn(item) for item in items]``, in ``n_jobs`` processes (one BLAS thread each) when there are several.

    Parameters
    ----------
    fn : callable
        A picklable function of one item.
    items : sequence
    n_jobs : int
        Worker processes; 1 runs in this process.
    first : callable, optional
        Key of an item: items are started in ascending order of it (e.g. the
        longest first), which does not change the order of the results.
    done : callable, optional
        ``done(i, result)`` as each item ``i`` finishes (for progress).

    Returns
    -------
    list
        The results, in input order.
    """
    items = list(items)
    order = sorted(range(len(items)), key=lambda i: first(items[i])) if first else range(len(items))
    results = [None] * len(items)

    def finish(i: int, result) -> None:
        results[i] = result
        if done is not None:
            done(i, result)

    if n_jobs > 1 and len(items) > 1:
        with ProcessPoolExecutor(max_workers=n_jobs, initializer=one_blas_thread) as pool:
            futures = {pool.submit(fn, items[i]): i for i in order}
            for future in as_completed(futures):
                finish(futures[future], future.result())
    else:
        for i in order:
            finish(i, fn(items[i]))
    return results


def map_chunks(fn: Callable, items: Sequence, n_jobs: int = 1, chunk_size: int = 2000, progress=None, what: str = "") -> list:
    """``[fn(chunk) for chunk in chunks(items)]`` by :func:`map_processes`: one result per chunk, in input order.

    ``progress`` (a stream) receives a line per chunk.
    """
    items = list(items)
    chunks = [items[i:i + chunk_size] for i in range(0, len(items), chunk_size)]
    count = 0

    def report(i: int, result) -> None:
        nonlocal count
        count += len(chunks[i])
        if progress is not None:
            print(f"{what or 'items'}: {count}/{len(items)}", file=progress, flush=True)

    return map_processes(fn, chunks, n_jobs, done=report)

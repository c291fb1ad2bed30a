"""The process-pool map every parallel step uses, with one BLAS thread per worker.

The machine's memory budget and heap reuse (:func:`memory_budget_mb`, :func:`reuse_freed_memory`) live in
:mod:`crocbench._memory`; they are re-exported here for the code that imports them from this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from ._extras import needs
from ._memory import memory_budget_mb, reuse_freed_memory

__all__ = [
    "available_cores",
    "map_chunks",
    "map_processes",
    "memory_budget_mb",
    "one_blas_thread",
    "reuse_freed_memory",
]


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count; at least 1)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this platform
        return max(1, os.cpu_count() or 1)


def one_blas_thread() -> None:
    """Limit this process's BLAS to one thread: a pool's workers share the cores.

    Two power-study processes with two OpenBLAS threads each took 33 s on
    2 cores where one thread each took 27 s.
    """
    with needs("crocbench._parallel"):
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

    Raises
    ------
    Exception
        The first item's error to reach this process; the items still queued are then cancelled (those already
        handed to a worker, at most ``n_jobs + 1`` beyond the running ones, still run).
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
            try:
                for future in as_completed(futures):
                    finish(futures[future], future.result())
            except BaseException:  # an item failed, or the run was interrupted: the queued items are cancelled
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    else:
        for i in order:
            finish(i, fn(items[i]))
    return results


def map_chunks(
    fn: Callable, items: Sequence, n_jobs: int = 1, chunk_size: int = 2000, progress=None, what: str = ""
) -> list:
    """``[fn(chunk) for chunk in chunks(items)]`` by :func:`map_processes`: one result per chunk, in input order.

    ``progress`` (a stream) receives a line per chunk.
    """
    items = list(items)
    chunks = [items[i : i + chunk_size] for i in range(0, len(items), chunk_size)]
    count = 0

    def report(i: int, result) -> None:
        nonlocal count
        count += len(chunks[i])
        if progress is not None:
            print(f"{what or 'items'}: {count:,}/{len(items):,}", file=progress, flush=True)

    return map_processes(fn, chunks, n_jobs, done=report)

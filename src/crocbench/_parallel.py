"""The machine's resources as the workflow budgets them, and a chunked process-pool map."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Sequence


def memory_budget_mb() -> int:
    """What the jobs of one run may use together (MB): 90% of this machine's physical memory.

    The workflow's ``mem_mb`` budget unless ``--resources mem_mb=...`` says otherwise,
    and what the SVM's default ``max_kernel_gb`` is derived from.
    """
    return int(0.9 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)


def map_chunks(fn: Callable, items: Sequence, n_jobs: int = 1, chunk_size: int = 2000, progress=None, what: str = "") -> list:
    """``[fn(chunk) for chunk in chunks(items)]``, in ``n_jobs`` processes when there are several chunks.

    Results are in input order.  ``progress`` (a stream) receives a line per chunk.
    """
    items = list(items)
    chunks = [items[i:i + chunk_size] for i in range(0, len(items), chunk_size)]
    done, results = 0, []

    def report(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            print(f"{what or 'items'}: {done}/{len(items)}", file=progress, flush=True)

    if n_jobs > 1 and len(chunks) > 1:
        with ProcessPoolExecutor(max_workers=n_jobs) as pool:
            for chunk, result in zip(chunks, pool.map(fn, chunks)):
                results.append(result)
                report(len(chunk))
    else:
        for chunk in chunks:
            results.append(fn(chunk))
            report(len(chunk))
    return results

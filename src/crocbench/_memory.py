"""Memory: the run's budget, large arrays on huge pages, buffers reused across kernels, heap reuse.

Fresh pages can cost more than the arithmetic that fills them on the virtual
machines this runs on; the helpers here avoid paying for them twice.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import mmap
import os

import numpy as np

#: Rows and columns of the tile an all-pairs pass over the engine keeps in memory, reused tile after tile
#: (:func:`crocbench.similarity.pairs_at_least`, a novelty certificate's maxima): float32, 128 MiB.
TILE_ROWS, TILE_COLUMNS = 2048, 16384


def memory_budget_mb() -> int:
    """What the jobs of one run may use together (MB): 90% of this machine's physical memory.

    The workflow's ``mem_mb`` budget unless ``--resources mem_mb=...`` says otherwise,
    and what the SVM's default ``max_kernel_gb`` is derived from.
    """
    return int(0.9 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)


def peak_rss_kb(children: bool = False) -> int:
    """This process's peak resident memory since its ``exec`` (``VmHWM`` of ``/proc/self/status``), in kB; with
    ``children``, the largest of its finished child processes' (``getrusage``), 0 if none.

    Exact, unlike a sampled maximum (Snakemake's ``benchmark:`` polls every 30 s after the first 15 s, so a job
    whose peak comes late can report far less). Not ``getrusage(RUSAGE_SELF)``: Linux keeps that across ``exec``.
    """
    if children:
        import resource

        return int(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


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


_HUGE = 64 * 1024 * 1024  # arrays at least this large get transparent huge pages


def empty_array(shape, dtype=np.float32) -> np.ndarray:
    """``np.empty`` for large arrays, backed by transparent huge pages where the kernel offers them.

    The first write to a fresh 4 KiB page can cost more than the arithmetic
    (measured here: 5.6 s to first-fill 2 GiB, 0.2 s with huge pages).

    Parameters
    ----------
    shape : int or tuple of int
        The array's shape.
    dtype : numpy dtype, default=numpy.float32
        The array's dtype.

    Returns
    -------
    ndarray
        An uninitialized C-contiguous array.

    Examples
    --------
    >>> a = empty_array((2, 3)); a.shape, a.dtype
    ((2, 3), dtype('float32'))
    """
    size = math.prod(shape) * np.dtype(dtype).itemsize
    if size < _HUGE or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.empty(shape, dtype=dtype)
    buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        buf.madvise(mmap.MADV_HUGEPAGE)
    except OSError:  # not supported here: plain pages
        pass
    return np.frombuffer(buf, dtype=dtype).reshape(shape)


class KernelBuffer:
    """One allocation reused for successive square kernels (cross-validation folds, inner folds).

    Writing a freshly allocated 11 GB kernel costs more than computing it on
    the virtual machines this runs on (measured: 18-30 s for a fresh 37,715^2
    float64 kernel, 7.3 s written into a reused one).  ``take(n)`` returns a
    C-contiguous (n, n) view of the buffer, growing it when n is larger than
    any before; the previous view's contents are overwritten by the next kernel.
    Inside ``keep_kernel_memory()`` every buffer made shares the block's
    allocation, so only one may be in use at a time.

    Examples
    --------
    >>> buf = KernelBuffer()
    >>> a = buf.take(3); b = buf.take(2)
    >>> np.shares_memory(a, b), b.shape, b.flags["C_CONTIGUOUS"]
    (True, (2, 2), True)
    """

    def __init__(self):
        self._held = _KEPT[-1] if _KEPT else [None]  # inside keep_kernel_memory: the block's allocation

    def take(self, n: int, dtype=np.float64) -> np.ndarray:
        """A C-contiguous (n, n) view of the buffer, grown (reallocated) when needed.

        Parameters
        ----------
        n : int
            The kernel's size.
        dtype : numpy dtype, default=numpy.float64
            The kernel's dtype; a change of dtype reallocates.

        Returns
        -------
        ndarray of shape (n, n)
            The view; its contents are whatever the previous kernel left there.
        """
        size = int(n) * int(n)
        flat = self._held[0]
        if flat is None or flat.dtype != dtype or flat.size < size:
            flat = self._held[0] = None  # free the old one before allocating the new
            flat = self._held[0] = empty_array((size,), dtype)
        return flat[:size].reshape(n, n)


#: The allocations of the open keep_kernel_memory blocks, innermost last (each a one-item list).
_KEPT: list = []


@contextlib.contextmanager
def keep_kernel_memory():
    """Within the block, every :class:`KernelBuffer` made shares one allocation, kept from one fit to the next.

    A fresh allocation's first write is what costs on the virtual machines this runs on: 3.2 GB (a 20,000^2
    float64 kernel) took 7.8 to 9.0 s to fill in a new process and 0.4 s when refilled, or allocated again at
    once after being freed; freed memory left idle for seconds is handed back to the host, and the next
    allocation pays again (1.3 to 6.0 s for 3.2 GB after 5 s idle). A job that fits several folds one after the
    other (the workflow's ``score_folds`` and ``score_folds_<n>_<j>``) holds its kernel memory here, so only its first fold pays. Only one
    buffer made inside the block may be in use at a time (fits run one after the other); the memory is freed
    when the block ends.

    Examples
    --------
    >>> with keep_kernel_memory():
    ...     a = KernelBuffer().take(3)
    ...     b = KernelBuffer().take(2)
    >>> np.shares_memory(a, b)
    True
    """
    _KEPT.append([None])
    try:
        yield
    finally:
        _KEPT.pop()[0] = None  # a buffer outliving the block no longer holds the memory

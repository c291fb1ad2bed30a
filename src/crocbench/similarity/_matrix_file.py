"""The N x N similarity matrix file, read by blocks: :class:`MatrixFile` (:func:`.tanimoto_matrix` writes it)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._memory import empty_array


def matrix_mem_mb(n: int) -> int:
    """Memory (MB) of the job writing the N x N float32 matrix through a memory map: its pages plus 1 GB.

    Parameters
    ----------
    n : int
        The number of compounds N.

    Returns
    -------
    int
        The job's memory in MB.

    Examples
    --------
    >>> matrix_mem_mb(41_906)
    7699
    """
    return int(4 * n**2 / 2**20 + 1000)


class MatrixFile:
    """An all-pairs similarity matrix in a ``.npy`` file (as :func:`.tanimoto_matrix` writes it), read by blocks.

    Reads are plain file reads into one small scratch block, not a memory map:
    the process holds only what it copies out (a mapped 7 GB matrix would count
    in its resident memory), and the operating system's page cache serves the
    many jobs that read one file.  Values are returned exactly as stored.

    Parameters
    ----------
    path : path-like
        The ``.npy`` file of an N x N float32 or float64 matrix.
    block_bytes : int, default=64 * 2**20
        Size of the scratch block of one read.
    threads : int, default=1
        Blocks read at a time.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.npy")
    >>> np.save(path, np.arange(16, dtype=np.float32).reshape(4, 4))
    >>> MatrixFile(path).gather([3, 1], [0, 2]).tolist()
    [[12.0, 14.0], [4.0, 6.0]]
    """

    def __init__(self, path, block_bytes: int = 64 * 2**20, threads: int = 1):
        self.path, self.threads = str(path), max(1, int(threads))
        with open(self.path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            read_header = {
                (1, 0): np.lib.format.read_array_header_1_0,
                (2, 0): np.lib.format.read_array_header_2_0,
            }.get(version)
            if read_header is None:
                raise ValueError(f"{self.path}: unsupported .npy version {version}")
            shape, fortran, self.dtype = read_header(fh)
            self.offset = fh.tell()
        if len(shape) != 2 or shape[0] != shape[1] or fortran:
            raise ValueError(f"{self.path}: not a square C-ordered matrix (shape {shape})")
        self.n = shape[0]
        self.row_bytes = self.n * self.dtype.itemsize
        self.block_rows = max(1, block_bytes // self.row_bytes)

    def gather(self, rows, cols, out: np.ndarray | None = None, dtype=None) -> np.ndarray:
        """``M[rows][:, cols]`` into ``out`` (C-contiguous, any float dtype; exact widening), or a new array.

        Rows are read in file order, ``block_rows`` of them at a time (one read
        per run of consecutive rows), and written to their places in ``out``;
        ``threads`` such blocks at a time.

        Parameters
        ----------
        rows : array-like of int
            Row indices.
        cols : array-like of int
            Column indices.
        out : ndarray of shape (len(rows), len(cols)), default=None
            C-contiguous float array to fill; None allocates one.
        dtype : numpy dtype, default=None
            The dtype of an array allocated here; None for the file's.

        Returns
        -------
        ndarray of shape (len(rows), len(cols))
            ``M[rows][:, cols]`` (``out`` if given).
        """
        rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
        for v in (rows, cols):
            if v.size and (v.min() < 0 or v.max() >= self.n):
                raise ValueError(f"row indices must lie in [0, {self.n})")
        if out is None:
            out = empty_array((rows.size, cols.size), dtype or self.dtype)
        if out.shape != (rows.size, cols.size):
            raise ValueError(f"out has shape {out.shape}, the block {(rows.size, cols.size)}")
        order = np.argsort(rows, kind="stable")
        ordered = rows[order]
        in_order = bool(np.all(order == np.arange(rows.size)))
        all_cols = cols.size == self.n and bool(np.all(cols == np.arange(self.n)))
        starts = range(0, ordered.size, self.block_rows)

        def work(part):
            scratch = np.empty((min(self.block_rows, ordered.size), self.n), dtype=self.dtype)
            with open(self.path, "rb", buffering=0) as fh:
                for i in part:
                    chunk = ordered[i : i + self.block_rows]
                    cut = np.concatenate([[0], np.flatnonzero(np.diff(chunk) != 1) + 1, [chunk.size]])
                    for a, b in zip(cut[:-1], cut[1:]):  # one read per run of consecutive rows
                        fh.seek(self.offset + int(chunk[a]) * self.row_bytes)
                        if fh.readinto(memoryview(scratch[a:b]).cast("B")) != (b - a) * self.row_bytes:
                            raise ValueError(f"{self.path}: truncated")
                    block = scratch[: chunk.size]
                    values = block if all_cols else np.take(block, cols, axis=1)
                    if in_order:
                        out[i : i + chunk.size] = values
                    else:
                        out[order[i : i + chunk.size]] = values

        workers = max(1, min(self.threads, len(starts)))
        if workers == 1:
            work(starts)
        else:  # reads, gathers and casts release the GIL
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(work, [starts[w::workers] for w in range(workers)]))
        return out

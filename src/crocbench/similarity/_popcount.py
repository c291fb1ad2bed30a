"""Which popcount path the engine's intersection counts take: the vector path (AVX-512 VPOPCNTDQ) or the scalar one.

The vector path counts 8 rows x 8 columns of packed words at once (``_kernels.count_8x8``); the scalar path one
``popcnt`` per word.  :func:`popcount_path` chooses the vector path where the CPU has AVX-512 VPOPCNTDQ (LLVM then
emits ``vpopcntq`` on zmm registers).  The environment variable ``CROCBENCH_POPCOUNT`` (``auto``, ``vector`` or
``scalar``) overrides the choice: the tests run both paths and compare them.  Both count the same integers, so
every result is bit-identical on either path.
"""

from __future__ import annotations

import os

from .._extras import needs

#: Rows and columns of one vector block.
ROWS = COLS = 8

_CHOICES = ("auto", "vector", "scalar")


def host_has_vpopcntdq() -> bool:
    """Whether this CPU has AVX-512 VPOPCNTDQ (as LLVM sees the host).

    Returns
    -------
    bool
        LLVM's host feature ``avx512vpopcntdq``.
    """
    with needs("crocbench.similarity"):
        import llvmlite.binding as ll

    return bool(ll.get_host_cpu_features().get("avx512vpopcntdq", False))


def popcount_path() -> str:
    """The path the engine's intersection counts take in this process: ``"vector"`` or ``"scalar"``.

    ``CROCBENCH_POPCOUNT=auto`` (the default) takes the vector path where the CPU has AVX-512 VPOPCNTDQ;
    ``vector`` forces it (correct anywhere, as LLVM lowers the vector popcount for any CPU, fast only with the
    instruction); ``scalar`` forces the scalar path.

    Returns
    -------
    str
        ``"vector"`` or ``"scalar"``.

    Raises
    ------
    ValueError
        On another value of ``CROCBENCH_POPCOUNT``.

    Examples
    --------
    >>> popcount_path() in ("vector", "scalar")
    True
    """
    choice = os.environ.get("CROCBENCH_POPCOUNT", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise ValueError(f"CROCBENCH_POPCOUNT must be one of {', '.join(_CHOICES)}; got {choice!r}")
    if choice == "auto":
        return "vector" if host_has_vpopcntdq() else "scalar"
    return choice


def describe_path() -> str:
    """One line saying which popcount path runs, and why (for logs and benchmark tables).

    Returns
    -------
    str
        E.g. ``"vector popcount (AVX-512 VPOPCNTDQ, 8 x 8 blocks)"``.
    """
    forced = os.environ.get("CROCBENCH_POPCOUNT", "auto").strip().lower() not in ("", "auto")
    has = host_has_vpopcntdq()
    why = "CROCBENCH_POPCOUNT" if forced else ("this CPU has AVX-512 VPOPCNTDQ" if has else "no AVX-512 VPOPCNTDQ")
    if popcount_path() == "vector":
        return f"vector popcount, {ROWS} x {COLS} blocks ({why})"
    return f"scalar popcount, one word at a time ({why})"


__all__ = ["COLS", "ROWS", "describe_path", "host_has_vpopcntdq", "popcount_path"]

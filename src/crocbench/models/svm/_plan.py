"""The SVM's memory plan: how a fold is fitted (exact, subsample or Nystroem) within the kernel memory allowed."""

from __future__ import annotations

import math

_BESIDE_KERNEL_MB = 3000  # a fold's memory beside its training kernel: the fits, the fingerprints, the test block
_MIN_LANDMARKS = 10


def _n_train(n_compounds: int, n_folds: int) -> int:
    """The training compounds of one fold (the largest: n less the smallest test fold)."""
    return int(n_compounds) - int(n_compounds) // int(n_folds)


def _gb(x: float) -> str:
    return f"{x:,.1f}" if x >= 1 else f"{x:.3g}"


def _kernel_gb(n: int) -> float:
    """The float64 kernel of n compounds, in GB (1e9 bytes)."""
    return 8 * int(n) ** 2 / 1e9


def fold_plan(model, n_train: int, n_positives: int | None = None) -> dict:
    """:meth:`SVM.plan <crocbench.models.SVM.plan>` of ``model``: how a fold of ``n_train`` compounds is fitted."""
    need, limit = _kernel_gb(n_train), model.kernel_limit_gb
    held = need if model.working_set is None else _kernel_gb(min(int(n_train), model.working_set))
    if held <= limit:
        return {"strategy": "exact", "fit_compounds": int(n_train), "kernel_gb": held}
    where = (
        f"max_kernel_gb = {limit:g}"
        if model.max_kernel_gb is not None
        else f"{limit:.1f} GB, the default max_kernel_gb of this machine's memory"
    )
    if model.working_set is not None and model.working_set < n_train:
        raise ValueError(
            f"the SVM's working set of {model.working_set:,} compounds needs a {_gb(held)} GB kernel "
            f"(8 bytes x working_set^2), above {where}; lower the svm's working_set or raise max_kernel_gb"
        )
    if model.large == "error":
        raise ValueError(
            f"the SVM's training kernel of {n_train:,} compounds needs {_gb(need)} GB (8 bytes x n_train^2), "
            f"above {where}; set the svm's 'large: subsample' (exact LIBSVM on all training positives and a "
            f"seeded subset of negatives that fits) or 'large: nystroem' (a linear SVM on Nystroem features), "
            f"or raise max_kernel_gb on a machine with more memory"
        )
    if model.large == "nystroem":
        n, limit_bytes = int(n_train), limit * 1e9
        a = n * (2 - 1 / model.inner_folds if model.selects else 1)  # features, and an inner fold's copy of them
        m = min(model.landmarks, n, int((math.sqrt(a * a + 4 * limit_bytes / 8) - a) / 2))
        while m > 0 and 8 * m * (a + m) > limit_bytes:  # the root's rounding
            m -= 1
        if m < _MIN_LANDMARKS:
            m = _MIN_LANDMARKS
            raise ValueError(
                f"the SVM's Nystroem features of {n:,} compounds on {m} landmarks need "
                f"{_gb(8 * m * (a + m) / 1e9)} GB, above {where}; raise max_kernel_gb"
            )
        return {
            "strategy": "nystroem",
            "fit_compounds": n,
            "landmarks": int(m),
            "kernel_gb": 8 * m * (a + m) / 1e9,
            "kernel_gb_full": need,
        }
    m = math.isqrt(int(limit * 1e9 / 8))
    if n_positives is not None and n_positives >= m:
        raise ValueError(
            f"the SVM's {n_positives:,} training positives alone need a "
            f"{_gb(_kernel_gb(n_positives))} GB kernel, above {where}; raise max_kernel_gb"
        )
    return {"strategy": "subsample", "fit_compounds": m, "kernel_gb": _kernel_gb(m), "kernel_gb_full": need}

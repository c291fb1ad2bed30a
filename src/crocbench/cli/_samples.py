"""``compare --samples``: its limit, and how long the permutation samples take on this machine.

A permutation test draws ``--samples`` sign flips (paired) or splits (unpaired) of the positives' values, one
draw serving every metric: the work grows as samples x positives, and with the number of metrics a little.
:data:`MAX_SAMPLES` bounds it (a typo such as ``--samples 100000000000`` would run for days); above
:data:`ANNOUNCE_SAMPLES` the command first says how long it expects to take.  The estimate is measured, not
assumed: the same tests on random values of the same shape (positives x metrics), about
:data:`_CALIBRATION_CELLS` random cells (well under a second), timed here and scaled linearly.  It is rough:
within a factor of about 2 on an idle machine, the big runs' larger chunks being somewhat slower per sample.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from ..stats import p_values

#: The most permutation samples ``compare`` draws: p-values down to 1e-7, far below any threshold in use.
MAX_SAMPLES = 10_000_000
#: Above this many samples ``compare`` first prints how long it expects to take (on stderr).
ANNOUNCE_SAMPLES = 1_000_000
#: Random cells (samples x positives) of the calibration run.
_CALIBRATION_CELLS = 200_000


def _permutation_tests(tests) -> list[str]:
    return [t for t in tests if t.endswith("permutation")]


def _seconds_per_sample(n_pos: int, n_metrics: int, tests) -> float:
    """Seconds one sample of the permutation ``tests`` takes here, for ``n_pos`` positives and ``n_metrics``
    metrics: a short run of the same tests on random values of that shape, timed."""
    n_samples = max(200, min(50_000, _CALIBRATION_CELLS // max(n_pos, 1)))
    rng = np.random.default_rng(0)
    a, b = rng.random((n_pos, n_metrics)), rng.random((n_pos, n_metrics))
    start = time.perf_counter()
    for name in _permutation_tests(tests):
        p_values(name, a, b, "greater", n_samples=n_samples, seed=0)
    return (time.perf_counter() - start) / n_samples


def _duration(seconds: float) -> str:
    """A duration in the unit a person reads it in: 0.25 s, 40 s, 12 minutes, 5 hours, 3 days, 2 years."""
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.0f} s"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def check_samples(n_samples: int, n_pos: int, n_metrics: int, tests) -> None:
    """Refuse ``--samples`` above :data:`MAX_SAMPLES`; above :data:`ANNOUNCE_SAMPLES`, print how long the
    permutation tests will take, roughly, on stderr.

    Parameters
    ----------
    n_samples : int
        The ``--samples`` given.
    n_pos : int
        Positives of the list (the permutation tests permute their values).
    n_metrics : int
        Metrics compared (one draw serves them all).
    tests : sequence of str
        The tests chosen; only the permutation tests draw samples.

    Raises
    ------
    ValueError
        ``n_samples`` is above :data:`MAX_SAMPLES`; the message says how long the limit and the request would
        take here.
    """
    perm = _permutation_tests(tests)
    if n_samples <= ANNOUNCE_SAMPLES or (not perm and n_samples <= MAX_SAMPLES):
        return
    per_sample = _seconds_per_sample(n_pos, n_metrics, perm) if perm else 0.0
    if n_samples > MAX_SAMPLES:
        took = (
            f" ({MAX_SAMPLES} samples take about {_duration(MAX_SAMPLES * per_sample)} here, {n_samples} about "
            f"{_duration(n_samples * per_sample)})"
            if perm
            else ""
        )
        raise ValueError(
            f"--samples {n_samples} is above the limit of {MAX_SAMPLES}{took}; give at most {MAX_SAMPLES}: "
            f"its smallest p-value is already {1 / (MAX_SAMPLES + 1):.0e}"
        )
    print(
        f"crocbench compare: {n_samples} permutation samples, roughly {_duration(n_samples * per_sample)} "
        f"({_count(len(perm), 'permutation test')}, {_count(n_metrics, 'metric')}, {_count(n_pos, 'positive')})",
        file=sys.stderr,
    )

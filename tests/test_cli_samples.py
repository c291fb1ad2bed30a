"""crocbench.cli._samples: the limit of ``compare --samples`` and the time it announces."""

import re

from _cli import _cli, _no_traceback_error


def test_compare_refuses_more_samples_than_its_limit(small, monkeypatch):
    from crocbench.cli import MAX_SAMPLES, _samples

    f, _ = small
    assert MAX_SAMPLES == 10_000_000
    done = _cli("compare", f, f, "--samples", "100000000000")
    line = _no_traceback_error(done, "--samples 100000000000 is above the limit of 10000000 (")
    assert re.search(r"about [\d.]+ (s|minutes?|hours?|days?|years?)", line), line
    assert done.stdout == ""
    usage = " ".join(_cli("compare", "--help").stdout.split())
    assert "at most 10000000" in usage
    monkeypatch.setattr(_samples, "ANNOUNCE_SAMPLES", 1_000)  # what a run above 1,000,000 samples prints first
    done = _cli("compare", f, f, "--samples", "2000", "--tests", "paired_permutation,paired_t")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        r"crocbench compare: 2000 permutation samples, roughly [\d.]+ (s|minutes?|hours?) "
        r"\(1 permutation test, 2 metrics, 6 positives\)\n",
        done.stderr,
    ), done.stderr
    quiet = _cli("compare", f, f, "--samples", "2000", "--tests", "paired_t")  # no permutation test: no estimate
    assert quiet.returncode == 0 and quiet.stderr == ""

"""What a hostile user tried, case by case: each gets one line naming the problem and exit 2, or a correct result.

One file for the battery, so that a new case is added beside the others; each case names the module it exercises.
"""

import gzip
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from _cli import _cli as _in_process

from crocbench import metrics


def _cli(*args, cwd=None, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "crocbench", *map(str, args)], cwd=cwd, input=stdin, capture_output=True, timeout=600
    )


def _one_line_exit_2(run) -> str:
    """The one line of a run that exited 2 and wrote nothing else (a child's bytes or ``main``'s text)."""
    err = run.stderr if isinstance(run.stderr, str) else run.stderr.decode()
    assert run.returncode == 2 and err.count("\n") == 1 and err.startswith("crocbench: error: "), err
    assert not run.stdout
    return err


@pytest.fixture
def r200(tmp_path):
    rng = np.random.default_rng(0)
    y = (rng.random(200) < 0.1).astype(int)
    path = tmp_path / "r200.csv"
    pd.DataFrame({"score": rng.random(200) + y, "label": y}).to_csv(path, index=False)
    return path


# --- metrics._sets: metric specs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, message",
    [
        ("dcg:k=0", "metric 'dcg:k=0': k must be at least 1; got 0"),
        ("dcg:k=1,k=5", "metric 'dcg:k=1,k=5': parameter 'k' is given twice"),
        (
            "dcg_100:k=5",
            "'dcg_100' is a named metric with its parameters fixed (dcg:k=100); give parameters to the "
            "metric itself, e.g. dcg:k=5",
        ),  # fmt: skip
        ("log_auc:lam=1e-310", "lam must be at least 1e-300"),
    ],
)
def test_a_bad_metric_spec_is_one_line_naming_it(r200, spec, message):
    assert message in _one_line_exit_2(_cli("score", r200, "--metric", spec))


def test_roc_n_beyond_the_negatives_names_the_metric_and_the_bound():
    y, s = np.array([1, 0, 1, 0, 0, 1]), np.arange(6.0)[::-1]
    with pytest.raises(ValueError, match=r"^metric 'roc_n:n=10': n must be at most 3, the list's negatives; got 10$"):
        metrics.parse_metric("roc_n:n=10").value(metrics.Ranking(y, s))


# --- metrics._definitions: BEDROC and RIE at large alpha, logAUC at tiny lam -----------------------------------------


def _bedroc_mp(y_sorted, alpha) -> float:
    """BEDROC by Truchon & Bayly's formula in 60-digit arithmetic (mpmath): no overflow at any alpha."""
    import mpmath

    mpmath.mp.dps = 60
    n, ranks = len(y_sorted), [i + 1 for i, v in enumerate(y_sorted) if v]
    a, ra = mpmath.mpf(alpha), mpmath.mpf(len(ranks)) / n
    rie = sum(mpmath.e ** (-a * r / n) for r in ranks) / (ra * (1 - mpmath.e**-a) / (mpmath.e ** (a / n) - 1))
    rie_max = (1 - mpmath.e ** (-a * ra)) / (ra * (1 - mpmath.e**-a))
    rie_min = (1 - mpmath.e ** (a * ra)) / (ra * (1 - mpmath.e**a))
    return float((rie - rie_min) / (rie_max - rie_min))


@pytest.mark.parametrize("alpha", [20.0, 300.0, 10_000.0, 1e5])
@pytest.mark.parametrize("n", [5, 200])
def test_bedroc_at_any_alpha_is_the_high_precision_formula(alpha, n):
    rng = np.random.default_rng(n)
    y = np.zeros(n, dtype=bool)
    y[rng.choice(n, max(2, n // 10), replace=False)] = True
    want = _bedroc_mp(list(y), alpha)
    assert metrics.bedroc(y, -np.arange(n, dtype=float), alpha=alpha) == pytest.approx(want, abs=1e-9)


def test_bedroc_random_baseline_at_alpha_1e5_matches_a_simulation():
    """The issue's case: N = 200, 20 actives, alpha = 1e5: the exact SD was 0.0 (a weight underflowed); 20,000
    random rankings give about 0.30."""
    base = metrics.random_baseline("bedroc", 200, 20, alpha=1e5)
    rng = np.random.default_rng(1)
    values = []
    for _ in range(20_000):
        y = np.zeros(200, dtype=bool)
        y[rng.choice(200, 20, replace=False)] = True
        values.append(metrics.bedroc(y, -np.arange(200.0), alpha=1e5))
    assert base.mean == pytest.approx(np.mean(values), abs=0.01)
    assert base.sd == pytest.approx(np.std(values), abs=0.01) and base.sd > 0.25


def test_bedroc_on_five_rows_at_alpha_10000_from_the_command_line(tmp_path):
    path = tmp_path / "r5.csv"
    path.write_text("score,label\n5,1\n4,0\n3,1\n2,0\n1,0\n")
    run = _cli("score", path, "--metric", "bedroc:alpha=10000", "--json")
    assert run.returncode == 0, run.stderr
    assert b"Overflow" not in run.stderr


def test_log_auc_at_the_smallest_lam_is_finite_and_its_random_mean_is_the_closed_form():
    from crocbench.metrics._definitions import _log_auc_random_mean

    y, s = np.array([1, 0, 0, 1, 0]), np.array([5, 4, 3, 2, 1.0])
    assert math.isfinite(metrics.log_auc(y, s, lam=1e-300))
    for m, lo, hi in [(1_000_000, 1e-3, 1.0), (999_983, 1e-3, 0.1), (123_457, 0.01, 0.02)]:
        assert _log_auc_random_mean(m, lo, hi, summed=0) == pytest.approx(_log_auc_random_mean(m, lo, hi), abs=1e-14)
    with pytest.raises(ValueError, match="lam must be at least 1e-300"):
        metrics.log_auc(y, s, lam=1e-310)


def test_adjusted_log_auc_with_parameters_is_parsed_without_a_terabyte(r200):
    """Parsing checks the parameters on a list of 10^12 compounds; the random mean is then summed in closed form."""
    run = _cli("score", r200, "--metric", "adjusted_log_auc:lam=0.0001", "--json")
    assert run.returncode == 0, run.stderr


# --- stats._bootstrap, cli: --ci ------------------------------------------------------------------------------------


def test_ci_has_an_upper_bound_like_samples(r200):
    err = _one_line_exit_2(_cli("score", r200, "--ci", "1000000000"))
    assert "must be at most 1,000,000" in err


# --- metrics._scorers: multiclass ------------------------------------------------------------------------------------


def test_the_scorer_says_multiclass_is_not_supported():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    x, y = rng.random((30, 3)), np.arange(30) % 3
    with pytest.raises(ValueError, match=r"^roc: multiclass targets are not supported \(3 classes\)"):
        metrics.scorer("roc")(LogisticRegression().fit(x, y), x, y)


# --- cli._files: gzip, a headerless file ------------------------------------------------------------------------------


def test_gzip_data_in_a_csv_or_on_stdin_says_to_decompress(r200, tmp_path):
    packed = gzip.compress(r200.read_bytes())
    (tmp_path / "packed.csv").write_bytes(packed)
    assert "packed.csv: is gzip-compressed" in _one_line_exit_2(_cli("score", tmp_path / "packed.csv"))
    assert "<stdin>: is gzip-compressed" in _one_line_exit_2(_cli("score", "-", stdin=packed))


def test_a_headerless_file_whose_first_numbers_repeat_is_called_headerless(tmp_path):
    path = tmp_path / "h.csv"
    path.write_text("1,1\n0.5,0\n0.2,1\n")
    assert "has no header row (its first line '1,1' is all numbers)" in _one_line_exit_2(_cli("score", path))


# --- cli._tools: explain, synthesize -----------------------------------------------------------------------------------


def test_explain_on_a_folds_table_without_fold_and_a_corrupt_fingerprints_file(tmp_path):
    """Through ``main`` in this process: the command's exit status and streams."""
    (tmp_path / "folds.tsv").write_text("id\tlabel\n1\t0\n")
    np.savez(tmp_path / "fingerprints.npz", indptr=np.arange(3), ids=np.arange(3))
    err = _one_line_exit_2(_in_process("explain", tmp_path, "1"))
    assert "folds.tsv: no fold column (it has id, label)" in err
    (tmp_path / "folds.tsv").write_text("id\tlabel\tfold\n1\t0\t0\n")
    (tmp_path / "fingerprints.npz").write_bytes(b"garbage, not an archive")
    err = _one_line_exit_2(_in_process("explain", tmp_path, "1"))
    assert f"{tmp_path / 'fingerprints.npz'}: not an .npz archive" in err and "allow_pickle" not in err


@pytest.mark.parametrize(
    "out, message",
    [(".", "--out .: is a folder"), ("sub", "--out sub: is a folder"), ("missing/s.csv", "does not exist; create it")],
)
def test_synthesize_checks_out_before_making_any_molecule(tmp_path, out, message):
    (tmp_path / "sub").mkdir()
    run = _cli("synthesize", "--n", "10", "--out", out, "--source", tmp_path / "absent.csv", cwd=tmp_path)
    assert message in _one_line_exit_2(run)  # before the source is even read: no molecule was made


# --- data._tables: a byte that is not UTF-8, at its own offset --------------------------------------------------------


def test_a_table_that_is_not_utf8_names_the_bytes_own_offset(tmp_path):
    from crocbench.data._tables import read_table

    text = "smiles,activity\n" + "".join(f"C{'C' * (i % 5)},CI\n" for i in range(100))
    data = text.encode()
    path = tmp_path / "bad.csv"
    path.write_bytes(data[:700] + b"\xbc" + data[700:])
    with pytest.raises(ValueError, match=r"byte 0xbc at offset 700 \(line \d+\)"):
        read_table(path)

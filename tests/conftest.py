import hashlib
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]

# OpenMP threads (LightGBM's, torch's, scikit-learn's) that wait for work sleep instead of spinning: the suite runs
# two workers on two cores, each test's threads share them, and a spinning thread burns the core its peer's thread
# needs (LightGBM's forest tests took 6x the CPU). Set before any OpenMP runtime loads; children inherit it; a
# value the user set wins. Waiting changes no result, only CPU time.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# Compiled modules are cached (__pycache__, git-ignored) even where the environment says not to write them
# (PYTHONDONTWRITEBYTECODE): the suite starts a few hundred Python children (the command line, snakemake, the
# examples), and each one compiled the whole package again, about 0.3 CPU s apiece. Caching changes no result.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

#: Seconds a test of each mark may run (pytest-timeout) before it fails with every thread's stack; the unit suite's
#: tests get pyproject.toml's ``timeout``. A test that needs another names its own (``@pytest.mark.timeout(N)``).
MARK_TIMEOUTS = {"workflow": 1800, "statistics": 1800, "slurm": 3600, "fulldata": 3600, "regression": 3600}


def pytest_collection_finish(session):
    """What collection built (every test module, the libraries they import, the items) lives to the end of the
    run: moved out of the collector's reach (``gc.freeze``), so that a full collection scans only what the tests
    made since. statsmodels' Holm adjustment, which tests/test_conover.py calls as the reference, runs one per call:
    over collection's 300,000-odd objects it cost 0.15 CPU s each (test_conover.py: 9 CPU s)."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(items):
    """A marked test's timeout (:data:`MARK_TIMEOUTS`), where it names none of its own."""
    for item in items:
        limits = [MARK_TIMEOUTS[m.name] for m in item.iter_markers() if m.name in MARK_TIMEOUTS]
        if limits and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(max(limits)))


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The local data mirror (CROCBENCH_MIRROR, else ../shared/mirror beside the project)."""
    path = Path(os.environ.get("CROCBENCH_MIRROR", ROOT.parent / "shared" / "mirror"))
    if not path.is_dir():
        pytest.skip(f"no data mirror at {path}")
    return path


@pytest.fixture(autouse=True)
def user_cache(tmp_path_factory, monkeypatch, request) -> Path:
    """A user cache (``CROCBENCH_CACHE``) of each test's own, made when first written: no test reads or fills the
    user's, nor another test's."""
    name = hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    folder = tmp_path_factory.getbasetemp() / "user-cache" / name
    monkeypatch.setenv("CROCBENCH_CACHE", str(folder))
    return folder


@pytest.fixture(scope="module")
def toy_registry(tmp_path_factory):
    """A folder of committed specs (``CROCBENCH_SPECS``) for one test module: the module writes its toy
    benchmark's spec into it, so that spec is a committed one there."""
    folder = tmp_path_factory.mktemp("registry")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROCBENCH_SPECS", str(folder))
        yield folder


SIZE_RANKER = '''
import numpy as np


class SizeRanker:
    """A user's ranker, outside crocbench: larger molecules (more features, more SMILES characters) first."""

    label = "SIZE"

    def __init__(self, weight=1.0):
        self.weight = weight

    def fit(self, data, train, y):
        self.seen_ = len(train)
        return self

    def score(self, data, rows):
        feats = np.asarray(data.fingerprints[rows].sum(axis=1)).ravel()
        return feats + self.weight * np.array([len(data.smiles[r]) for r in rows]) / 1000

    def resources(self, n_compounds, n_folds):
        return {"threads": 3, "mem_mb": n_compounds}


class NoScore:
    def fit(self, data, train, y):
        return self
'''


@pytest.fixture
def write_plugin():
    """Writes the test plug-in module (class ``SizeRanker``, a user's ranker; ``NoScore``, a broken one) as
    ``folder/{module}.py`` and returns the folder."""

    def write(folder: Path, module: str = "size_ranker") -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{module}.py").write_text(SIZE_RANKER)
        return folder

    return write


@pytest.fixture(scope="session")
def slurm_cluster():
    """A real single-node Slurm cluster started for the ``slurm`` tests (tests/_slurm.py), stopped at the end.

    Debian's slurm-wlm and munge are installed if missing. A machine that cannot host it (not root, a Slurm
    configuration of its own in /etc/slurm) fails the test with the reason: the tests were asked for.
    """
    import shutil
    import tempfile

    from _slurm import LocalSlurm, SlurmUnavailable, install_packages

    folder = Path(tempfile.mkdtemp(prefix="crocbench-slurm-"))
    folder.chmod(0o755)  # munged runs as the munge user and must reach its key and socket folders
    try:
        install_packages()
        cluster = LocalSlurm(folder).__enter__()
    except SlurmUnavailable as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"no test Slurm cluster: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def http_server():
    """A real HTTP server on 127.0.0.1 (tests/_http.py): its base URL."""
    from _http import serve

    url, stop = serve()
    yield url
    stop()


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs mounted for the test (a real full disk); skips, with the reason, where mounting is not
    allowed (not root, or no mount permission in this container)."""
    import subprocess

    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True, timeout=60
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False, timeout=60)


@pytest.fixture
def ranked(tmp_path):
    """The command-line tests' ranked list of 300 compounds, written as file A (CSV, labels 0/1) and file B (TSV,
    another order, other scores, labels CA/CI): (labels, scores A, scores B, path A, path B)."""
    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.1).astype(int)
    y[:2] = [1, 0]
    a = rng.normal(size=n) + 1.5 * y
    b = np.round(rng.normal(size=n) + 0.8 * y, 1)
    ids = [f"NSC{i}" for i in range(n)]
    fa, fb = tmp_path / "a.csv", tmp_path / "b.tsv"
    pd.DataFrame({"id": ids, "pred": a, "active": y}).to_csv(fa, index=False)
    # file B lists the compounds in another order, tab-separated, labels as words
    perm = rng.permutation(n)
    pd.DataFrame({"id": np.array(ids)[perm], "pred": b[perm], "active": np.where(y[perm] == 1, "CA", "CI")}).to_csv(
        fb, sep="\t", index=False
    )
    return y, a, b, fa, fb


@pytest.fixture
def small(tmp_path):
    """30 compounds, 6 positives: shorter than the default top 1,000, so some metrics are undefined."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(6, int), np.zeros(24, int)]
    f = tmp_path / "small.csv"
    pd.DataFrame({"id": [f"m{i}" for i in range(30)], "score": rng.random(30) + y, "label": y}).to_csv(f, index=False)
    return f, y


@pytest.fixture(scope="module")
def data():
    """The model tests' synthetic feature sets (tests/_synthetic.py) and their full Tanimoto matrix: (fp, y, full)."""
    from _synthetic import synthetic

    from crocbench.similarity import tanimoto_matrix

    fp, y = synthetic()
    full = tanimoto_matrix(fp).astype(np.float64)
    return fp, y, full

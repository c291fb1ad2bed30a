"""Results do not depend on the CPU's BLAS and SIMD kernels (issue 16: a regression run on another CPU failed).

OpenBLAS picks its kernels per CPU (``DYNAMIC_ARCH``) and numpy its SIMD loops, so the last bits of
a matrix product or a transcendental function differ between machines.  ``OPENBLAS_CORETYPE`` and
``NPY_DISABLE_CPU_FEATURES`` make one machine run another CPU's kernels: an SVM fold, kNN and IRV
folds and the significance table are computed under two settings, and the regression comparison
(:func:`crocbench.reference.compare`) must find nothing between them.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _waits import start, stop

from crocbench.reference import compare

HERE = Path(__file__).resolve().parent
SETTINGS = {
    "haswell": {"OPENBLAS_CORETYPE": "Haswell"},
    "sandybridge": {"OPENBLAS_CORETYPE": "Sandybridge", "NPY_DISABLE_CPU_FEATURES": "AVX2 FMA3"},
}
SCRIPT = r"""
import sys
import numpy as np, pandas as pd
sys.path.insert(0, sys.argv[2])
from _synthetic import synthetic
from crocbench.cv import cross_validate, fold_table
from crocbench.chem.fingerprints import Fingerprints
from crocbench.models import IRV, KNN, SVM
from crocbench.report import metric_set_for, significance_table
from crocbench.similarity import SimilarityIndex
from crocbench.stats import TESTS

fp, y = synthetic(n=400, frac=0.15, seed=4)
rows = [fp.row(i) for i in range(fp.n)]
dup = np.arange(0, fp.n, 9)  # duplicate structures, as in the DTP AIDS screen: tied scores on every CPU
rows += [rows[i] for i in dup]
y = np.concatenate([y, y[dup]])
fp = Fingerprints(np.concatenate([[0], np.cumsum([r.size for r in rows])]), np.concatenate(rows))
sim = SimilarityIndex(fp)
folds = fold_table([f"c{i}" for i in range(fp.n)], y, n_folds=3, seed=0)
models = {"SVM": lambda: SVM(C=1.0, class_weight="balanced"), "kNN": lambda: KNN(k=5), "IRV": lambda: IRV(k=5)}
pooled = {name: pd.concat(cross_validate(lambda f: make(), sim, folds).scores.values()).sort_values("id")
          .reset_index(drop=True) for name, make in models.items()}
pd.concat([p.assign(model=m) for m, p in pooled.items()]).to_parquet(sys.argv[1] + ".scores.parquet")
table = significance_table(pooled, metric_set_for(pooled["SVM"], top=100), TESTS, n_samples=1000, seed=0)
table.to_csv(sys.argv[1] + ".significance.tsv", sep="\t", index=False, float_format="%.10g")
# the same decision values through BLAS: these do differ between the settings (the test is not vacuous)
svm = SVM(C=1.0, class_weight="balanced").fit(sim, np.arange(0, fp.n, 2), y[::2])
blas = sim.similarities(np.arange(1, fp.n, 2), svm.support_).astype(np.float64) @ svm.dual_coef_
np.save(sys.argv[1] + ".blas.npy", blas)
"""


def _supported() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return " avx2 " in flags and " fma " in flags


@pytest.mark.skipif(not _supported(), reason="needs an x86-64 CPU with AVX2 and FMA to run both kernel sets")
def test_results_are_the_same_with_another_cpus_blas_and_simd_kernels(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    runs = {  # the two settings side by side, each in a process of its own
        name: start(
            [sys.executable, str(script), str(tmp_path / name), str(HERE)],
            env={**os.environ, "OMP_NUM_THREADS": "1", **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, env in SETTINGS.items()
    }
    try:
        for run in runs.values():
            _, stderr = run.communicate(timeout=600)
            assert run.returncode == 0, stderr[-3000:]
    finally:
        stop(*runs.values())
    a, b = (np.load(tmp_path / f"{name}.blas.npy") for name in SETTINGS)
    assert not np.array_equal(a, b)  # the two settings really run different kernels
    np.testing.assert_allclose(a, b, rtol=1e-12)
    scores = [pd.read_parquet(tmp_path / f"{name}.scores.parquet") for name in SETTINGS]
    svm = [s[s["model"] == "SVM"]["score"].to_numpy() for s in scores]
    assert np.array_equal(svm[0], svm[1])  # the SVM's decision values: the same bits
    for name in ("significance.tsv",):
        run, ref = (pd.read_csv(tmp_path / f"{s}.{name}", sep="\t") for s in SETTINGS)
        assert compare(run, ref, name) == []
    for model in ("kNN", "IRV"):  # the other models' scores agree to rounding
        x, y = (s[s["model"] == model]["score"].to_numpy() for s in scores)
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-15)

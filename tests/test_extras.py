"""A feature whose extra is not installed stops with one line that names the extra (crocbench._extras); the
subprocesses here cannot import the extra's modules (tests/_absent.py)."""

import json
import pickle

import pandas as pd
import pytest
from _absent import EXTRA_MODULES, crocbench_without, run_without

from crocbench._extras import EXTRAS, MissingExtra, needs


def _line(feature, distribution):
    return f"{feature} needs {distribution}, which the 'workflow' extra installs: pip install 'crocbench[workflow]'"


def test_the_python_api_raises_one_line_naming_the_extra():
    code = """
import numpy as np
import crocbench.models as models  # importable: torch is imported where a model needs it
from crocbench.chem.fingerprints import fingerprints_from_smiles
for call in (lambda: models.irv_terms(None, None, None), lambda: fingerprints_from_smiles(["CCO"])):
    try:
        call()
    except ImportError as exc:
        print(type(exc).__name__, exc, sep=": ")
import crocbench.plots
"""
    done = run_without({"torch", "rdkit", "matplotlib"}, code)
    assert done.stdout.splitlines() == [
        "MissingExtra: " + _line("crocbench.models", "torch"),
        "MissingExtra: " + _line("crocbench.chem.fingerprints", "rdkit"),
    ]
    # uncaught, the traceback ends in the one line (the ModuleNotFoundError it replaces is not chained)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "crocbench._extras.MissingExtra: " + _line("crocbench.plots", "matplotlib")
    assert "During handling" not in done.stderr


def test_synthesize_without_rdkit_exits_2_with_one_line_naming_the_extra(tmp_path):
    done = crocbench_without({"rdkit"}, "synthesize", "--n", "5", "--out", "out.csv", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"crocbench: error: {_line('crocbench synthesize', 'rdkit')}\n"
    assert not (tmp_path / "out.csv").exists()


def test_without_any_extra_score_and_compare_run_and_the_other_commands_say_which_extra(tmp_path):
    table = pd.DataFrame({"id": ["a", "b", "c", "d"], "score": [0.9, 0.5, 0.5, 0.1], "label": [1, 0, 1, 0]})
    table.to_csv(tmp_path / "a.csv", index=False)
    table.assign(score=[0.1, 0.5, 0.9, 0.2]).to_csv(tmp_path / "b.csv", index=False)
    commands = {
        "score": ["score", "a.csv", "--json"],
        "compare": ["compare", "a.csv", "b.csv", "--samples", "200"],
        "explain": ["explain", "results/dtp_aids", "NSC1"],
        "reference": ["reference", "results/dtp_aids", "--check"],
        "score --plot": ["score", "a.csv", "--plot", "curves.png"],
    }
    code = f"""
import contextlib, io, json
from crocbench.cli import main
out = {{}}
for name, args in {commands!r}.items():
    with contextlib.redirect_stdout(io.StringIO()) as o, contextlib.redirect_stderr(io.StringIO()) as e:
        rc = main(args)
    out[name] = [rc, o.getvalue(), e.getvalue()]
print(json.dumps(out))
"""
    done = run_without(EXTRA_MODULES, code, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["score"][0] == 0 and json.loads(results["score"][1])  # the whole table, as JSON
    assert results["compare"][0] == 0 and "AUC[ROC]" in results["compare"][1]  # its table of p-values
    for command, distribution in [("explain", "numba"), ("reference", "pyyaml"), ("score --plot", "matplotlib")]:
        line = f"crocbench: error: {_line('crocbench ' + command, distribution)}\n"
        assert results[command] == [2, "", line], command
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv"]  # nothing written


def test_needs_converts_only_a_missing_extra_and_the_error_crosses_processes():
    with pytest.raises(ModuleNotFoundError) as raised:  # not an extra's module: unchanged
        with needs("crocbench.models"):
            import crocbench_has_no_such_module  # noqa: F401
    assert type(raised.value) is ModuleNotFoundError
    with pytest.raises(KeyError), needs("x"):  # any other error: unchanged
        raise KeyError("k")
    exc = MissingExtra("crocbench.models", "sklearn")
    assert isinstance(exc, ImportError) and exc.name == "sklearn" and exc.extra == "workflow"
    again = pickle.loads(pickle.dumps(exc))  # as a worker process's error comes back to the pool's caller
    assert type(again) is MissingExtra and str(again) == str(exc) == _line("crocbench.models", "scikit-learn")
    assert set(EXTRAS) == set(EXTRA_MODULES)

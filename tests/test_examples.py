"""docs/examples/: the scoring guide's example list is shipped, is what its generator writes, and the guide's
command prints what the guide shows."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_predictions_are_what_their_generator_writes(tmp_path):
    script = tmp_path / "make_predictions.py"
    script.write_text((ROOT / "docs" / "examples" / "make_predictions.py").read_text())
    subprocess.run([sys.executable, str(script)], check=True, timeout=600)
    assert (tmp_path / "predictions.csv").read_bytes() == (ROOT / "docs" / "examples" / "predictions.csv").read_bytes()


def test_the_scoring_guides_example_prints_what_the_guide_shows():
    """The first command of docs/user_guide/scoring.md, run as written from the repository's root: its first
    lines are the guide's (the block ends in ``...``)."""
    block = re.search(r"```text\n\$ (crocbench score [^\n]*)\n(.*?)\n\.\.\.\n```", (ROOT / "docs" / "user_guide" /
                      "scoring.md").read_text(), flags=re.S)  # fmt: skip
    command, shown = block.group(1).split(), block.group(2).splitlines()
    run = subprocess.run(
        [sys.executable, "-m", "crocbench", *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    printed = (run.stderr + run.stdout).splitlines() if not run.stdout.startswith(shown[0]) else run.stdout.splitlines()
    assert printed[: len(shown)] == shown


def _export(folder: Path, screens: dict) -> None:
    """A hand-made export of screens named by ``screens``'s keys (40 compounds each, the same SMILES, the labels
    its values, two repeats of a 4-fold split) and its spec."""
    import pandas as pd

    smiles = [("C" * (1 + i % 7)) + ("O" if i % 2 else "N") + ("c1ccccc1" if i % 3 == 0 else "") for i in range(40)]
    folder.mkdir(parents=True, exist_ok=True)
    for screen, labels in screens.items():
        table = pd.DataFrame(
            {
                "id": [f"m{i}" for i in range(40)],
                "smiles": smiles,
                "label": labels,
                "fold_0": [i % 4 for i in range(40)],
            }
        )
        table["fold_1"] = [(i // 10) for i in range(40)]
        table.to_csv(folder / f"{screen}.csv", index=False)
    (folder / "benchmark.json").write_text(json.dumps({"screens": list(screens), "name": "hand-made"}) + "\n")


@pytest.mark.parametrize("example", ["logreg_morgan.py", "extratrees_morgan.py"])
def test_an_entry_example_writes_out_of_fold_scores_with_no_crocbench_code(tmp_path, example):
    """docs/examples/logreg_morgan.py and extratrees_morgan.py, run as a user runs them: every compound once per
    repeat, and out of fold: a compound's own label, flipped, leaves its scores as they were and moves others' (so
    labels are used). One run scores two screens of the same compounds, ``as_is`` and ``flipped`` (the first
    label flipped): each screen's models are trained on its own labels only."""
    import ast

    import pandas as pd

    script = ROOT / "docs" / "examples" / example
    imported = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for path in (script, ROOT / "docs" / "examples" / "logreg_morgan.py")
        for n in ast.walk(ast.parse(path.read_text()))
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert not [m for m in imported if m.split(".")[0] == "crocbench"], imported
    labels = [int(i % 5 == 0 or i % 7 == 1) for i in range(40)]
    export, out = tmp_path / "export", tmp_path / "submission"
    _export(export, {"as_is": labels, "flipped": [1 - labels[0], *labels[1:]]})
    run = subprocess.run(
        [sys.executable, str(script), str(export), str(out)], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    assert (out / "benchmark.json").read_bytes() == (export / "benchmark.json").read_bytes()
    scores = {}
    for case in ("as_is", "flipped"):
        table = pd.read_csv(out / f"{case}.csv", dtype={"id": str})
        assert list(table.columns) == ["id", "repeat", "score"]
        assert sorted(table.groupby("repeat")["id"].apply(sorted).tolist()) == [sorted(f"m{i}" for i in range(40))] * 2
        scores[case] = table.set_index(["repeat", "id"])["score"]
    same = scores["as_is"].loc[[(0, "m0"), (1, "m0")]].to_numpy() == scores["flipped"].loc[[(0, "m0"), (1, "m0")]]
    assert same.all()  # its own label never trained the model that scored it
    assert (scores["as_is"] != scores["flipped"]).any()


def test_a_stopped_entry_run_goes_on_where_it_stopped(tmp_path):
    """A screen's finished file is kept by the next run, which scores only the screens still missing; no ``.part``
    file is left behind."""
    script = ROOT / "docs" / "examples" / "logreg_morgan.py"
    export, out = tmp_path / "export", tmp_path / "submission"
    labels = [int(i % 5 == 0) for i in range(40)]
    _export(export, {"s": labels, "t": labels})
    out.mkdir()
    (out / "s.csv").write_text("id,repeat,score\nkept,0,0.5\n")
    run = subprocess.run(
        [sys.executable, str(script), str(export), str(out)], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    assert (
        out / "s.csv"
    ).read_text() == "id,repeat,score\nkept,0,0.5\n" and "s: kept from an earlier run" in run.stdout
    assert "t: kept" not in run.stdout
    assert sorted(p.name for p in out.iterdir()) == ["benchmark.json", "s.csv", "t.csv"]
    assert len((out / "t.csv").read_text().splitlines()) == 1 + 2 * 40

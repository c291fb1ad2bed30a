"""A benchmark written by hand for the tests: a 10-screen export with its reference (``make_world``), two of its
screens with a repeated split (``repeated_export``), a submission of a reference ranker's scores, and a project whose
two 30-compound screens are exported from a local mirror."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

from crocbench.benchmark import SPEC_FILE
from crocbench.benchmark._spec import spec_bytes

SCREENS = [f"s{i}" for i in range(10)]  # 10: a Wilcoxon-Holm over 3 comparisons can pass
RANKERS = ["A", "B", "C"]
N, N_POS, FOLDS = 300, 30, 5


def _csv(frame) -> bytes:
    return frame.to_csv(index=False, lineterminator="\n").encode()


def _scores(seed: int, labels: np.ndarray, strength: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.round(rng.normal(size=labels.size) + strength * labels, 3)  # rounded: some ties


def make_world(out: Path) -> dict:
    """A hand-written export of 10 screens in ``out``, its reference rankers' scores (A strong, B middling, C weak)
    and their AUC[ROC] by scikit-learn: ``export``, ``tables``, ``scores``, ``spec``, ``reference``."""
    files, tables, scores, ref_rows = {}, {}, {}, []
    for s, screen in enumerate(SCREENS):
        labels = np.zeros(N, dtype=np.int8)
        labels[np.random.default_rng(100 + s).choice(N, N_POS, replace=False)] = 1
        table = pd.DataFrame(
            {"id": [f"m{i}" for i in range(N)], "smiles": "C", "label": labels, "fold": np.arange(N) % FOLDS}
        )
        data = _csv(table)
        (out / f"{screen}.csv").write_bytes(data)
        files[f"{screen}.csv"] = {"sha256": hashlib.sha256(data).hexdigest(), "compounds": N, "actives": N_POS}
        tables[screen] = table
        for r, (ranker, strength) in enumerate(zip(RANKERS, (2.0, 1.0, 0.3))):
            x = _scores(10 * s + r, labels, strength)
            scores[screen, ranker] = x
            ref_rows.append(
                {"dataset": screen, "model": ranker, "compounds": N, "actives": N_POS, "roc": roc_auc_score(labels, x)}
            )
    reference = _csv(pd.DataFrame(ref_rows))
    (out / "reference.csv").write_bytes(reference)
    files["reference.csv"] = {"sha256": hashlib.sha256(reference).hexdigest()}
    spec = {
        "name": "toy",
        "version": 1,
        "description": "ten hand-made screens",
        "config": [],
        "split": {"kind": "random", "folds": FOLDS, "repeats": 1, "seed": 0},
        "metric_of_record": "roc",
        "metrics": ["roc"],
        "reference": "nowhere",
        "rankers": RANKERS,
        "screens": SCREENS,
        "files": files,
    }
    (out / SPEC_FILE).write_bytes(spec_bytes(spec))
    return {"export": out, "tables": tables, "scores": scores, "spec": spec, "reference": pd.DataFrame(ref_rows)}


def repeated_export(world, out: Path) -> Path:
    """Screens s0 and s1 of ``world`` exported into ``out`` with two repeats: fold_0 = i mod 5,
    fold_1 = (i div 7) mod 5 (a variant of the toy spec, none of the committed ones); ``out``."""
    out.mkdir()
    files, screens = {}, ["s0", "s1"]
    for screen in screens:
        table = world["tables"][screen].drop(columns="fold")
        table["fold_0"], table["fold_1"] = np.arange(N) % FOLDS, (np.arange(N) // 7) % FOLDS
        data = _csv(table)
        (out / f"{screen}.csv").write_bytes(data)
        files[f"{screen}.csv"] = {"sha256": hashlib.sha256(data).hexdigest(), "compounds": N, "actives": N_POS}
    reference = _csv(world["reference"][world["reference"]["dataset"].isin(screens)])
    (out / "reference.csv").write_bytes(reference)
    files["reference.csv"] = {"sha256": hashlib.sha256(reference).hexdigest()}
    spec = {**world["spec"], "split": {**world["spec"]["split"], "repeats": 2}, "screens": screens, "files": files}
    (out / SPEC_FILE).write_bytes(spec_bytes(spec))
    return out


def _submission(world, folder: Path, ranker="B", edit=None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for screen in SCREENS:
        frame = pd.DataFrame({"id": world["tables"][screen]["id"], "score": world["scores"][screen, ranker]})
        frame = frame.iloc[::-1]  # any order
        if edit is not None:
            frame = edit(screen, frame)
        if frame is not None:
            frame.to_csv(folder / f"{screen}.csv", index=False)
    (folder / SPEC_FILE).write_bytes((world["export"] / SPEC_FILE).read_bytes())
    return folder


def _toy_project(tmp_path, monkeypatch) -> tuple[Path, Path, Path]:
    """A project declaring two 30-compound screens in a local mirror, a reference of rankers A and B on them, and
    a draft spec with no hashes: (project, spec path, mirror)."""
    root = Path(__file__).resolve().parents[1]
    project, mirror = tmp_path / "project", tmp_path / "mirror"
    (project / "workflow").mkdir(parents=True)
    (project / "workflow" / "schemas").symlink_to(root / "workflow" / "schemas")
    (project / "config.yaml").write_bytes((root / "config.yaml").read_bytes())
    mirror.mkdir()
    monkeypatch.setenv("CROCBENCH_MIRROR", str(mirror))
    smiles = ["C" * (i + 1) for i in range(20)] + [f"c1ccccc1{'C' * i}O" for i in range(10)]
    datasets = {}
    for s, screen in enumerate(("toy_a", "toy_b")):
        labels = [int((i + s) % 5 == 0) for i in range(30)]
        data = _csv(pd.DataFrame({"smiles": smiles, "active": labels}))
        (mirror / f"{screen}.csv").write_bytes(data)
        datasets[screen] = {
            "description": f"{screen}: 30 hand-made compounds",
            "files": [
                {
                    "name": f"{screen}.csv",
                    "url": f"http://127.0.0.1:9/{screen}.csv",
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
            ],
            "structures": {"file": f"{screen}.csv", "smiles": "smiles", "label": "active"},
            "positive": [1],
            "negative": [0],
        }
    config = {"dataset": ["toy_a", "toy_b"], "cv": {"folds": 3}, "download": {"retries": 1}, "datasets": datasets}
    (project / "toy.yaml").write_text(json.dumps(config))
    (project / "results" / "ref").mkdir(parents=True)
    (project / "results" / "ref" / "datasets.tsv").write_text(
        "dataset\tmodel\tcompounds\tactives\troc\tother\n"
        "toy_b\tB\t30\t6\t0.625\t1\ntoy_b\tA\t30\t6\t0.75\t1\ntoy_a\tA\t30\t6\t0.5\t1\ntoy_a\tB\t30\t6\t0.875\t1\n"
        "toy_a\tC\t30\t6\t0.25\t1\n"
    )
    draft = {
        "name": "toy",
        "version": 1,
        "description": "two hand-made screens",
        "config": ["toy.yaml"],
        "split": {"kind": "random", "folds": 3, "repeats": 1, "seed": 0},
        "metric_of_record": "roc",
        "metrics": ["roc"],
        "reference": "results/ref",
        "rankers": ["A", "B"],
        "screens": ["toy_a", "toy_b"],
        "files": {},
    }
    path = project / "toy.json"
    path.write_bytes(spec_bytes(draft))
    return project, path, mirror

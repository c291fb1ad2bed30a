"""crocbench.cli._tools: ``crocbench explain`` and ``crocbench reference`` on a workflow run's results."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from crocbench.cli import main


def test_explain_prints_the_irv_influences(tmp_path, capsys):
    from _synthetic import synthetic

    from crocbench.chem.fingerprints import save_fingerprints
    from crocbench.cv import fold_table, split
    from crocbench.models import IRV
    from crocbench.similarity import SimilarityIndex

    fp, y = synthetic()
    save_fingerprints(tmp_path / "fingerprints.npz", fp)
    folds = fold_table([f"c{i}" for i in range(fp.n)], y, 10, 0)
    folds.to_csv(tmp_path / "folds.tsv", sep="\t", index=False)
    assert main(["explain", str(tmp_path), "c5", "--k", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    sim = SimilarityIndex(fp)
    train, _ = split(folds["fold"].to_numpy(), int(folds["fold"][5]))
    irv = IRV(k=5).fit(sim, train, y[train])
    assert f"logit {irv.score(sim, [5])[0]:.4f}" in out[0]
    rows = [line.split() for line in out[3:]]
    expected = irv.explain(sim, 5, ids=folds["id"].to_numpy())
    assert [r[1] for r in rows] == expected["neighbour"].tolist()
    assert [float(r[6]) for r in rows] == pytest.approx(expected["influence"].tolist(), abs=1e-4)
    assert main(["explain", str(tmp_path), "nope"]) == 2
    assert "compound 'nope' is not in" in capsys.readouterr().err
    assert main(["explain", str(tmp_path / "absent"), "c5"]) == 2
    assert "run the workflow first" in capsys.readouterr().err


def test_reference_refresh_prints_what_moved(tmp_path, capsys):
    from crocbench.reference import REFERENCE_FILES

    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    (run / "scores" / "svm").mkdir(parents=True)
    for name in REFERENCE_FILES:
        if name != "svm_folds.tsv":
            pd.DataFrame(
                {"model": ["IRV", "SVM"], "roc": [0.8443, 0.8532], "top1000": [641, 625], "train_seconds": [3.0, 4.0]}
            ).to_csv(run / "tables" / name, sep="\t", index=False)
    for fold in range(2):
        (run / "scores" / "svm" / f"fold_{fold}.json").write_text(
            json.dumps(
                {
                    "fold": fold,
                    "C": 1.0,
                    "class_weight": "balanced",
                    "support_vectors": 100 + fold,
                    "intercept": 0.1,
                    "select_metric": "roc",
                    "inner_cv": [
                        {"C": 1.0, "class_weight": None, "value": 0.8},
                        {"C": 1.0, "class_weight": "balanced", "value": 0.84},
                    ],
                }
            )
        )
    ref = tmp_path / "ref"
    assert main(["reference", str(run), "--out", str(ref)]) == 0
    out = capsys.readouterr().out
    assert out.count(": new\n") == len(REFERENCE_FILES) + 1 and "not in the reference" not in out  # + manifest
    assert "manifest.yaml: new" in out
    folds = pd.read_csv(ref / "svm_folds.tsv", sep="\t")
    assert folds.columns.tolist() == [
        "fold",
        "C",
        "class_weight",
        "support_vectors",
        "select_metric",
        "inner_1_none",
        "inner_1_balanced",
    ]
    assert "train_seconds" not in pd.read_csv(ref / "areas.tsv", sep="\t").columns  # wall clock: never compared
    assert main(["reference", str(run), "--out", str(ref)]) == 0
    assert capsys.readouterr().out.count(": unchanged") == len(REFERENCE_FILES)
    areas = pd.read_csv(run / "tables" / "areas.tsv", sep="\t")
    areas.loc[1, "roc"] = 0.86
    areas.to_csv(run / "tables" / "areas.tsv", sep="\t", index=False)
    assert main(["reference", str(run), "--out", str(ref)]) == 0
    out = capsys.readouterr().out
    assert "areas.tsv: roc moved in 1 of 2 rows\n  SVM: 0.8532 -> 0.86" in out
    assert main(["reference", str(tmp_path / "nothing")]) == 2  # no run there: one line, exit 2
    assert "run the workflow first" in capsys.readouterr().err


def _panel_summary(folder: Path) -> pd.DataFrame:
    """A small panel's summary tables, written where the workflow writes them (``<folder>/tables``): 10 screens,
    the paper's five rankers scoring a seeded list each (the trained ones better, IRV at the top)."""
    from crocbench.models import LABELS
    from crocbench.paper import PAPER_MODELS, claims_across
    from crocbench.report import conover_table, datasets_table, ranks_table

    rng = np.random.default_rng(7)
    names = {m: LABELS[m] for m in PAPER_MODELS}
    runs = {}
    for d in range(10):
        n = 400 + 40 * d
        y = (np.arange(n) % 25 == 0).astype(int)
        lift = {"random": 0.0, "maxsim": 0.8, "knn": 1.2, "svm": 1.5, "irv": 1.9}
        runs[f"screen{d}"] = {
            names[m]: pd.DataFrame({"id": np.arange(n), "label": y, "score": rng.normal(size=n) + lift[m] * y})
            for m in PAPER_MODELS
        }
    table = datasets_table(runs, n_resamples=100, seed=1)
    ranks, pairs = ranks_table(table)
    claim_ids = ["svm_best_roc_irv_best_croc", "croc_order", "croc_significant_roc_not"]
    screens = pd.DataFrame(
        [
            {"dataset": d, "id": c, "text": c.replace("_", " "), "holds": (i + k) % 3 > 0, "evidence": ""}
            for i, d in enumerate(runs)
            for k, c in enumerate(claim_ids)
        ]
    )
    tables = folder / "tables"
    tables.mkdir(parents=True)
    for name, frame in {
        "datasets": table,
        "ranks": ranks,
        "wilcoxon": pairs,
        "conover": conover_table(table),
        "claims": claims_across(screens, table, names),
        "claims_per_screen": screens,
    }.items():
        frame.to_csv(tables / f"{name}.tsv", sep="\t", index=False, float_format="%.10g")
    return table


def test_a_panels_reference_its_check_and_its_docs_tables(tmp_path, capsys):
    """`crocbench reference results/summary --out <panel>` keeps the summary's tables; `--check` exits 1 on a
    moved number; the docs' panel tables are generated from the reference, beside the dtp_aids ones."""
    from crocbench.pages import reference_blocks, update_readme
    from crocbench.reference import SUMMARY_FILES

    summary, ref = tmp_path / "results" / "summary", tmp_path / "reference" / "mypanel"
    table = _panel_summary(summary)
    assert main(["reference", str(summary)]) == 2  # a panel's summary names its reference folder
    assert "name its reference folder with --out" in capsys.readouterr().err
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 2
    assert main(["reference", str(summary), "--out", str(ref)]) == 0
    assert sorted(p.name for p in ref.iterdir()) == sorted([*SUMMARY_FILES, "manifest.yaml"])
    assert (ref / "manifest.yaml").read_text().startswith("kind: panel\n")
    capsys.readouterr()
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 0
    assert "equals the reference" in capsys.readouterr().out
    moved = pd.read_csv(summary / "tables" / "datasets.tsv", sep="\t")
    moved.loc[3, "croc_exp_80"] *= 1 + 1e-6
    moved.to_csv(summary / "tables" / "datasets.tsv", sep="\t", index=False, float_format="%.10g")
    assert main(["reference", str(summary), "--out", str(ref), "--check"]) == 1
    assert f"datasets.tsv: croc_exp_80 moved in 1 of {len(table)} rows" in capsys.readouterr().out
    assert main(["reference", str(summary), "--out", str(ref), "--check", "--readme", "README.md"]) == 2
    dtp = tmp_path / "dtp_reference"
    dtp.mkdir()
    (dtp / "areas.tsv").write_text("model\troc\n")  # a dataset's reference: a panel's summary may not go there
    assert main(["reference", str(summary), "--out", str(dtp)]) == 2
    assert "holds another kind of reference (areas.tsv)" in capsys.readouterr().err

    # the docs' tables: a page with the panel's blocks (stale) and the dtp_aids reference's (left alone)
    page = tmp_path / "page.md"
    names = ["roc", "croc_exp_80", "bedroc_20", "ef_1pct", "ranks", "pairs", "claims"]
    names += [f"conover_{m}" for m in ("roc", "croc_exp_80", "bedroc_20", "ef_1pct", "log_auc_0.001_0.1", "dcg_100")]
    page.write_text(
        "".join(f"<!-- reference:mypanel/{n} -->\n| stale |\n<!-- /reference:mypanel/{n} -->\n" for n in names)
        + "<!-- reference:pooled -->\n| dtp |\n<!-- /reference:pooled -->\n"
    )
    assert sorted(n for _, n in update_readme([page], ref)) == sorted(f"mypanel/{n}" for n in names)
    blocks = reference_blocks(page.read_text())
    assert blocks["pooled"] == "| dtp |"
    cells = {}  # (row, screen) -> cell, over the tables the screens are spread across (a ranker per row)
    for part in blocks["mypanel/croc_exp_80"].split("\n\n"):
        header, _, *rows = [[c.strip() for c in r.strip("| ").split(" | ")] for r in part.splitlines()]
        assert header[0] == "ranker"
        cells |= {(row[0], screen): cell for row in rows for screen, cell in zip(header[1:], row[1:])}
    assert sorted({screen for _, screen in cells}) == sorted(table["dataset"].unique())
    assert cells["*compounds*", "screen0"] == "400" and {r for r, _ in cells} >= {"*actives*", "IRV", "SVM"}
    irv = table[(table["dataset"] == "screen0") & (table["model"] == "IRV")].iloc[0]
    value, low, high = map(float, re.match(r"([\d.]+) \[([\d.]+), ([\d.]+)\]", cells["IRV", "screen0"]).groups())
    assert (value, low, high) == pytest.approx(
        (irv["croc_exp_80"], irv["croc_exp_80_low"], irv["croc_exp_80_high"]), abs=5e-4
    )
    conover = pd.read_csv(ref / "conover.tsv", sep="\t").query("metric == 'croc_exp_80'")
    matrix = [r.strip("| ").split(" | ") for r in blocks["mypanel/conover_croc_exp_80"].splitlines()[2:]]
    assert matrix[0][0] == "IRV"  # the best mean rank first (IRV's lift is the largest)
    order = [r[0] for r in matrix]
    for row in conover.itertuples():  # each pair's Holm p, both ways round, bold below 0.05
        for a, b in ((row.a, row.b), (row.b, row.a)):
            cell = matrix[order.index(a)][1 + order.index(b)]
            assert cell == (f"**{row.p_holm:.2g}**" if row.p_holm < 0.05 else f"{row.p_holm:.2g}")
    pairs = pd.read_csv(ref / "wilcoxon.tsv", sep="\t")
    lines = blocks["mypanel/pairs"].splitlines()[2:]
    assert len(lines) == 10  # the 10 pairs of five rankers
    roc = pairs[pairs["metric"] == "roc"].reset_index(drop=True)
    for line, row in zip(lines, roc.itertuples()):
        cell = line.split(" | ")[1]
        assert line.startswith(f"| {row.a} vs {row.b} |") and ("**p" in cell) == (row.p_holm < 0.05)
    claims = pd.read_csv(ref / "claims.tsv", sep="\t")
    cells = [line.split(" | ")[2] for line in blocks["mypanel/claims"].splitlines()[2:]]
    want = {True: "supported", False: "not supported"}
    assert cells == [want[bool(v)] for v in claims["supported_across"]] and len(cells) == 3
    page.write_text(page.read_text().replace("mypanel/ranks", "mypanel/nope"))
    with pytest.raises(ValueError, match="names no table"):
        update_readme([page], ref)

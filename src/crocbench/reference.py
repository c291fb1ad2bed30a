"""The committed regression reference (``results/reference/``): what it holds, how a run is compared with it.

A run's tables are compared cell by cell: text and integer columns (counts,
fold numbers, chosen set-ups) must be equal; floating-point columns must
agree to :data:`RELATIVE_TOLERANCE` (relative, with :data:`ABSOLUTE_FLOOR`
near 0), or to a column's own declared tolerance (:data:`COLUMN_TOLERANCES`).
The tables are written with 10 significant digits, and their values are
reproducible across CPUs to far better than that: the Tanimoto kernel and
every count are exact, the SVM's decision values are summed in a fixed order,
and the rank tests treat values within 1e-12 (relative) as ties.

:func:`compare` returns the differences as readable lines (row, column, old,
new); ``pytest -m regression`` fails with them and ``crocbench reference``
prints them when it rewrites the reference.

A panel of screens has a reference of its own (``results/reference/<panel>/``, e.g. ``pubchem_hts``): the
summary's tables (:data:`SUMMARY_FILES`, from ``results/summary/tables/``), compared the same way, and the
docs' tables of the panel generated from it (:func:`panel_tables`; blocks ``<!-- reference:<panel>/<table> -->``).
A study of rankers on one dataset (a run of its own, e.g. ``config/examples/modern.yaml``) keeps :data:`STUDY_FILES`
in a folder of its own (``results/reference/<study>/``, written with ``crocbench reference RUN --out DIR --study``),
and its page's tables come from them (:func:`study_tables`; blocks ``<!-- reference:<study>/<table> -->``).
An overlay's reference (the panel under a scaffold split, or its confirmed definitions) is also compared with the
panel beside it, on the campaigns they share (:func:`compared_panels`; block ``<panel>/vs_<other panel>``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ._io import write_table, write_text

#: Tables of a run kept in the reference.  Most are ``tables/<name>``; ``svm_folds.tsv`` is built
#: from the SVM's per-fold records (the chosen C and class weight, the inner-CV values).
REFERENCE_FILES = (
    "areas.tsv",
    "areas_per_fold.tsv",
    "other_metrics.tsv",
    "significance.tsv",
    "irv_training.tsv",
    "published.tsv",
    "power.tsv",
    "svm_folds.tsv",
)
#: The summary tables of a panel run (``results/summary/tables/``) kept in the panel's reference folder.
SUMMARY_FILES = ("datasets.tsv", "ranks.tsv", "wilcoxon.tsv", "claims.tsv", "claims_per_screen.tsv")
#: The tables a study of rankers on one dataset keeps (its folder holds ``intervals.tsv``): table 1 and the other
#: metrics, with intervals, and the six tests of every pair.
STUDY_FILES = ("areas.tsv", "other_metrics.tsv", "intervals.tsv", "significance.tsv")
#: The pairs of a study that ask whether training for the top helps (labels as ``config/examples/modern.yaml``
#: gives them): trained for the top, then the same model trained plainly. Pairs a study lacks are left out.
TRAINED_FOR_THE_TOP = (("GBM-rank", "GBM"), ("MLP-exp", "MLP"))
#: The columns that name a row of each table, in the lines that say what moved.
ROW_KEYS = {
    "datasets.tsv": ["dataset", "model"],
    "ranks.tsv": ["metric", "model"],
    "wilcoxon.tsv": ["metric", "a", "b"],
    "claims.tsv": ["id"],
    "claims_per_screen.tsv": ["dataset", "id"],
    "areas.tsv": ["model"],
    "areas_per_fold.tsv": ["model"],
    "other_metrics.tsv": ["model", "key"],
    "intervals.tsv": ["model", "key"],
    "significance.tsv": ["a", "b", "metric"],
    "irv_training.tsv": ["scheme"],
    "published.tsv": ["id"],
    "power.tsv": ["a", "b", "metric", "test", "fraction"],
    "svm_folds.tsv": ["fold"],
}
#: Floats agree to this relative difference (the tables hold 10 significant digits).
RELATIVE_TOLERANCE = 1e-9
#: ... or to this absolute difference, for values near 0.
ABSOLUTE_FLOOR = 1e-12
#: Columns with their own absolute tolerance.  The SVM's inner-CV values come from BLAS matrix
#: products (fast, but their last bits depend on the CPU's kernels): a duplicate pair tied on one
#: CPU and split on another moves an inner AUC[ROC] by 1/(n_pos n_neg), about 4e-8 on dtp_aids;
#: 1e-6 allows 25 such pairs and is still 1,000 times below the smallest gap between two set-ups.
COLUMN_TOLERANCES = {("svm_folds.tsv", "inner_"): 1e-6}
#: Wall-clock columns: never compared.
TIMING_COLUMNS = ("train_seconds",)
_SHOWN = 8  # moved cells listed per table


def svm_folds_frame(results) -> pd.DataFrame:
    """One row per outer fold of the workflow's SVM: chosen C and class weight, support vectors, and the
    inner-CV value of every candidate set-up (``inner_<C>_<class weight>``; with successive halving, in
    the last round it reached, on the share ``fit_share_<C>_<class weight>`` of the inner training sets)."""
    from .models import SvmFold

    paths = sorted(Path(results, "scores", "svm").glob("fold_*.json"), key=lambda p: int(p.stem[5:]))
    rows = [SvmFold.from_info(json.loads(path.read_text())).row() for path in paths]
    if not rows:
        raise FileNotFoundError(f"{results}/scores/svm/fold_*.json: no SVM fold records")
    return pd.DataFrame(rows)


def is_summary(results) -> bool:
    """Whether ``results`` is a panel's summary folder (``results/summary``, or a copy: it has
    ``tables/datasets.tsv``) rather than one dataset's."""
    return Path(results).name == "summary" or (Path(results) / "tables" / "datasets.tsv").is_file()


def reference_files(results, study: bool = False) -> tuple:
    """The tables kept in a reference of the run at ``results``: :data:`SUMMARY_FILES` for a panel's summary,
    :data:`STUDY_FILES` for a study (``study``), :data:`REFERENCE_FILES` for one dataset."""
    return SUMMARY_FILES if is_summary(results) else STUDY_FILES if study else REFERENCE_FILES


def reference_frame(results, name: str) -> pd.DataFrame:
    """A run's table as kept in the reference (wall-clock columns dropped)."""
    if name == "svm_folds.tsv":
        return svm_folds_frame(results)
    table = pd.read_csv(Path(results) / "tables" / name, sep="\t")
    return table.drop(columns=[c for c in TIMING_COLUMNS if c in table.columns])


def missing_tables(results, study: bool = False) -> list:
    """Reference tables the run at ``results`` (a dataset's folder or a panel's ``summary``) lacks."""
    names = reference_files(results, study)
    missing = [n for n in names if n != "svm_folds.tsv" and not (Path(results) / "tables" / n).is_file()]
    if "svm_folds.tsv" in names and not any(Path(results, "scores", "svm").glob("fold_*.json")):
        missing.append("scores/svm/fold_*.json")
    return missing


def _row_name(frame: pd.DataFrame, i: int, name: str) -> str:
    keys = [c for c in ROW_KEYS.get(name, frame.columns[:1]) if c in frame.columns]
    return (
        " / ".join(
            f"{frame[c].iloc[i]:g}" if isinstance(frame[c].iloc[i], float) else str(frame[c].iloc[i]) for c in keys
        )
        or f"row {i + 1}"
    )


def _cell(value) -> str:
    return repr(value.item() if hasattr(value, "item") else value)


def _tolerance(name: str, column: str) -> float | None:
    for (table, prefix), tol in COLUMN_TOLERANCES.items():
        if table == name and column.startswith(prefix):
            return tol
    return None


def compare(run: pd.DataFrame, ref: pd.DataFrame, name: str) -> list[str]:
    """The differences between a run's table and the reference's, as lines (empty: they agree).

    Examples
    --------
    >>> ref = pd.DataFrame({"model": ["IRV", "SVM"], "roc": [0.8443, 0.8531], "top1000": [641, 625]})
    >>> compare(ref.assign(roc=[0.8443, 0.8531 + 1e-13]), ref, "areas.tsv")
    []
    >>> compare(ref.assign(top1000=[641, 626]), ref, "areas.tsv")
    ['areas.tsv: top1000 moved in 1 of 2 rows', '  SVM: 625 -> 626']
    """
    if list(run.columns) != list(ref.columns):
        gone = [c for c in ref.columns if c not in run.columns]
        new = [c for c in run.columns if c not in ref.columns]
        return [f"{name}: columns changed (missing: {', '.join(gone) or 'none'}; new: {', '.join(new) or 'none'})"]
    if len(run) != len(ref):
        return [f"{name}: {len(run)} rows, reference {len(ref)}"]
    lines = []
    for column in ref.columns:
        a, b = run[column], ref[column]
        if pd.api.types.is_float_dtype(b) or pd.api.types.is_float_dtype(a):
            x, y = a.to_numpy(float), b.to_numpy(float)
            tol = _tolerance(name, column)
            limit = tol if tol is not None else np.maximum(RELATIVE_TOLERANCE * np.abs(y), ABSOLUTE_FLOOR)
            same = (np.abs(x - y) <= limit) | (np.isnan(x) & np.isnan(y))
        else:
            same = a.fillna("").astype(str).to_numpy() == b.fillna("").astype(str).to_numpy()
        bad = np.flatnonzero(~same)
        if bad.size:
            lines.append(f"{name}: {column} moved in {bad.size} of {len(ref)} rows")
            lines += [f"  {_row_name(ref, i, name)}: {_cell(b.iloc[i])} -> {_cell(a.iloc[i])}" for i in bad[:_SHOWN]]
            if bad.size > _SHOWN:
                lines.append(f"  ... and {bad.size - _SHOWN} more")
    return lines


def compare_run(results, reference) -> dict:
    """``{table: difference lines}`` between a run and the reference folder (a missing reference table is
    one line)."""
    out = {}
    for name in reference_files(results, is_study_reference(reference)):
        path = Path(reference) / name
        if not path.is_file():
            out[name] = [f"{name}: not in the reference {reference}"]
            continue
        out[name] = compare(reference_frame(results, name), pd.read_csv(path, sep="\t"), name)
    return out


def write_reference(results, reference, study: bool = False) -> dict:
    """Copy a run's tables into the reference folder (the documented way to refresh it on purpose).

    With ``study`` (implied where the folder already holds a study's reference), the tables of a study of rankers
    (:data:`STUDY_FILES`) into a folder of its own.

    Returns ``{path written: lines saying what moved against the previous reference}``; a table the reference
    did not hold yet gets ``["new"]``.
    """
    reference = Path(reference)
    study = study or is_study_reference(reference)
    if study and is_summary(results):
        raise ValueError(f"{results} is a panel's summary: a study's reference is of one dataset's run")
    if study and (reference / "published.tsv").is_file():
        raise ValueError(f"{reference} holds a dataset's reference (published.tsv): a study needs a folder of its own")
    other = REFERENCE_FILES if is_summary(results) else SUMMARY_FILES
    mixed = [n for n in other if n != "svm_folds.tsv" and (reference / n).is_file()]
    if mixed:
        kind = "a panel's summary" if is_summary(results) else "a dataset's run"
        raise ValueError(f"{reference} holds another kind of reference ({mixed[0]}): {kind} needs a folder of its own")
    reference.mkdir(parents=True, exist_ok=True)
    before = compare_run(results, reference)
    written = {}
    for name in reference_files(results, study):
        path = reference / name
        is_new = not path.is_file()
        write_table(reference_frame(results, name), path, sep="\t", index=False, float_format="%.12g")
        written[path] = ["new"] if is_new else before[name]
    return written


# --- the README's results tables, generated from the reference (tests/test_readme.py keeps them equal) ---


def _readme_labels() -> dict:
    """Metric key -> the README's label: the paper panel's own labels of its headline areas (AUC[ROC],
    AUC[CROC(exp)] a=7, ...), and the README's for the count of actives and the IRV's epochs."""
    from .metrics import HEADLINE, paper_panel

    panel = {c.key: c.label for c in paper_panel()}
    return {**{k: panel[k] for k in HEADLINE}, "top1000": "actives in top 1,000", "epochs_mean": "epochs"}


def _number(value, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.{digits}g}"


def readme_tables(reference) -> dict:
    """The README's two results tables as Markdown, from the reference folder: ``"published"`` (every anchor
    of ``published.yaml`` with the run's value and status) and ``"pooled"`` (the paper's three numbers per
    model beside the run's)."""
    from .models import LABELS
    from .paper import load_published
    from .report import RANDOM_ROW

    labels = _readme_labels()
    published = pd.read_csv(Path(reference) / "published.tsv", sep="\t")
    lines = [
        "| anchor | model | quantity | published | reproduced | tolerance (band) | status |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in published.itertuples():
        allowed = "" if pd.isna(r.tolerance) else f"{r.tolerance:g}"
        if not pd.isna(r.band_low):
            allowed += f" ({_number(r.band_low)} to {_number(r.band_high)})"
        lines.append(
            f"| {r.id} | {r.model} | {labels.get(r.metric, r.metric)} | "
            f"{'' if pd.isna(r.published) else f'{r.published:g}'} | {_number(r.reproduced)} | "
            f"{allowed.strip()} | {r.status} |"
        )
    areas = pd.read_csv(Path(reference) / "areas.tsv", sep="\t").set_index("model")
    paper = {(a["model"], a["metric"]): a["published"] for a in load_published()["anchors"]}
    keys = {**{label: key for key, label in LABELS.items()}, RANDOM_ROW: "random_expected"}
    metrics = ("roc", "croc_exp_80", "top1000")
    pooled = [
        "| model | " + " | ".join(f"{labels[m]} | paper" for m in metrics) + " |",
        "|---|" + "---|---|" * len(metrics),
    ]
    for label, row in areas.iterrows():
        cells = []
        for m in metrics:
            ours = f"{row[m]:.1f}" if m == "top1000" else f"{row[m]:.3f}"
            theirs = paper.get((keys.get(label, label), m))
            cells += [ours, "" if theirs is None else f"{theirs:g}"]
        pooled.append(f"| {label} | " + " | ".join(cells) + " |")
    return {"published": "\n".join(lines), "pooled": "\n".join(pooled)}


def panel_tables(reference) -> dict:
    """The docs' tables of a panel, as Markdown, from its reference folder (``results/reference/<panel>``), named
    ``<panel>/<table>``: per metric of :data:`crocbench.report.SUMMARY_FIGURE_METRICS` (``<panel>/roc``, ...)
    every screen's value per model with its interval; ``<panel>/ranks`` (mean ranks, Friedman, Nemenyi);
    ``<panel>/pairs`` (every pair's Wilcoxon test, Holm-adjusted); ``<panel>/claims`` (the paper's claims
    across the screens); ``<panel>/vs_<other>`` for each panel reference of :func:`compared_panels`
    (:func:`comparison_markdown`)."""
    from .report import (
        SUMMARY_FIGURE_METRICS,
        claims_across_markdown,
        pairs_markdown,
        ranks_overview_markdown,
        screens_markdown,
    )

    folder = Path(reference)
    read = {name: pd.read_csv(folder / name, sep="\t") for name in ("datasets.tsv", "ranks.tsv", "wilcoxon.tsv")}
    claims = pd.read_csv(folder / "claims.tsv", sep="\t")
    tables = {m: screens_markdown(read["datasets.tsv"], m) for m in SUMMARY_FIGURE_METRICS}
    tables["ranks"] = ranks_overview_markdown(read["ranks.tsv"], SUMMARY_FIGURE_METRICS)
    tables["pairs"] = pairs_markdown(read["wilcoxon.tsv"], SUMMARY_FIGURE_METRICS)
    tables["claims"] = claims_across_markdown(claims)
    for other in compared_panels(folder):
        tables[f"vs_{other.name}"] = comparison_markdown(folder, other)
    return {f"{folder.name}/{name}": table for name, table in tables.items()}


def _campaigns(reference) -> set:
    from .data.pubchem import campaign_of

    return set(pd.read_csv(Path(reference) / "datasets.tsv", sep="\t", usecols=["dataset"])["dataset"].map(campaign_of))


def compared_panels(reference) -> list:
    """The panel references beside this one (same parent folder) that it is compared with: those holding every
    one of its screens' campaigns (:func:`crocbench.data.pubchem.campaign_of`: a scaffold-split or a confirmed
    overlay of a panel is compared with the panel)."""
    folder = Path(reference)
    mine = _campaigns(folder)
    return [
        other
        for other in sorted(folder.parent.iterdir())
        if other != folder and is_panel_reference(other) and mine <= _campaigns(other)
    ]


def comparison_markdown(reference, other) -> str:
    """:func:`crocbench.report.panels_compared` of two panel references, on the campaigns they share, as Markdown:
    a column per reference (named by its folder)."""
    from .data.pubchem import campaign_of
    from .models import LABELS
    from .paper import PAPER_MODELS, claims_across
    from .report import markdown_table, panels_compared

    panels = {
        Path(ref).name: tuple(pd.read_csv(Path(ref) / n, sep="\t") for n in ("datasets.tsv", "claims_per_screen.tsv"))
        for ref in (reference, other)
    }
    names = {m: LABELS[m] for m in PAPER_MODELS}
    compared = panels_compared(
        panels, names, key=campaign_of, across=lambda per_screen, table: claims_across(per_screen, table, names)
    )
    return markdown_table(compared.rename(columns={"what": ""}))


def is_panel_reference(reference) -> bool:
    """Whether the reference folder is a panel's (it holds ``datasets.tsv``) rather than ``dtp_aids``'s."""
    return (Path(reference) / "datasets.tsv").is_file()


def is_study_reference(reference) -> bool:
    """Whether the reference folder is a study's (it holds ``intervals.tsv``, :data:`STUDY_FILES`)."""
    return (Path(reference) / "intervals.tsv").is_file()


def study_tables(reference) -> dict:
    """The tables of a study of rankers, as Markdown, from its reference folder (``results/reference/<study>``),
    named ``<study>/<table>``: ``rankers`` (table 1: AUC[ROC], AUC[CROC(exp)] a=80 and BEDROC(20) with their 95%
    intervals, and EF 1%), ``orders`` (the rankers in each metric's order), ``versus_paper`` (the paper's six tests
    of every other ranker against the IRV and the SVM) and ``top_training`` (the pairs of :data:`TRAINED_FOR_THE_TOP`
    the study holds)."""
    from .models import LABELS
    from .paper import PAPER_MODELS
    from .report import STUDY_METRICS, orders_markdown, pair_tests, pair_tests_markdown, rankers_markdown
    from .stats import TESTS

    folder = Path(reference)
    intervals, other, significance = (
        pd.read_csv(folder / name, sep="\t") for name in ("intervals.tsv", "other_metrics.tsv", "significance.tsv")
    )
    models = list(dict.fromkeys(intervals["model"]))
    anchors = [LABELS["irv"], LABELS["svm"]]
    others = [m for m in models if m not in {LABELS[p] for p in PAPER_MODELS}]
    labels = dict(zip(intervals["key"], intervals["label"]))
    trained = [pair for pair in TRAINED_FOR_THE_TOP if set(pair) <= set(models)]
    tables = {
        "rankers": rankers_markdown(intervals, other),
        "orders": orders_markdown(intervals, other),
        "versus_paper": pair_tests_markdown(
            pair_tests(significance, [(m, a) for m in others for a in anchors], STUDY_METRICS), labels, TESTS
        ),
        "top_training": pair_tests_markdown(pair_tests(significance, trained, STUDY_METRICS), labels, TESTS),
    }
    return {f"{folder.name}/{name}": table for name, table in tables.items()}


def document_tables(reference) -> dict:
    """The Markdown tables the docs show from a reference folder: :func:`panel_tables` for a panel's,
    :func:`study_tables` for a study's, :func:`readme_tables` for ``dtp_aids``'s."""
    if is_panel_reference(reference):
        return panel_tables(reference)
    return study_tables(reference) if is_study_reference(reference) else readme_tables(reference)


_BLOCK = r"<!-- reference:({name}) -->\n(.*?)\n?<!-- /reference:\1 -->"


def reference_blocks(text: str) -> dict:
    """The ``<!-- reference:NAME -->`` ... ``<!-- /reference:NAME -->`` blocks of a Markdown text: name -> table.

    A name is a table of :func:`readme_tables` (``pooled``) or ``<panel>/<table>`` (``pubchem_hts/roc``).
    """
    import re

    pattern = re.compile(_BLOCK.format(name=r"[\w./-]+"), flags=re.S)
    return {m.group(1): m.group(2).strip() for m in pattern.finditer(text)}


def update_readme(documents, reference) -> list:
    """Rewrite the ``<!-- reference:NAME -->`` blocks of the Markdown ``documents`` (README.md, pages of the
    docs) from the reference; returns ``(document, name)`` of the blocks whose text changed.

    Blocks from ``dtp_aids``'s reference are named by table (``pooled``), a panel's by ``<panel>/<table>``; the
    blocks of other references are left alone. A block may stand in any of the documents; every table of
    :func:`document_tables` must stand in at least one, and a block of this reference naming no table is an
    error.
    """
    import re

    documents = [documents] if isinstance(documents, str | Path) else list(documents)
    tables, seen, changed = document_tables(reference), set(), []
    named = is_panel_reference(reference) or is_study_reference(reference)
    prefix = f"{Path(reference).name}/" if named else None
    for document in documents:
        path = Path(document)
        text = path.read_text()
        for name in reference_blocks(text):
            if not (name.startswith(prefix) if prefix else "/" not in name):
                continue  # another reference's block
            if name not in tables:
                raise ValueError(f"{document}: block <!-- reference:{name} --> names no table ({', '.join(tables)})")
            match = re.compile(_BLOCK.format(name=re.escape(name)), flags=re.S).search(text)
            seen.add(name)
            if match.group(2) != tables[name]:
                changed.append((str(document), name))
                block = f"<!-- reference:{name} -->\n{tables[name]}\n<!-- /reference:{name} -->"
                text = text[: match.start()] + block + text[match.end() :]
        write_text(path, text)
    missing = [name for name in tables if name not in seen]
    if missing:
        raise ValueError(f"no <!-- reference:{missing[0]} --> block in {', '.join(map(str, documents))}")
    return changed

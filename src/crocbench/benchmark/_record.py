"""An evaluation written down: the result record (JSON), its Markdown page and the critical-difference figure
with the entry marked. The record holds no time or path, so the same submission gives the same bytes.

The record (``result.json``): ``benchmark`` (name, version, sha256), ``crocbench`` (its version), ``entry``,
``screens``, ``subset``, ``metric_of_record``, ``submission`` (each file's sha256), ``repeats`` (each screen's and
repeat's values at the references' precision), ``values`` (per screen, their means, and the exact random
baselines), ``placement`` (``ranks``: each model's mean rank and place per metric; ``versus``: the entry against
each ranker; ``order``: the place by value on one screen) and ``verdicts`` (the sentences)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from ._evaluate import metric_label
from ._words import verdicts

RESULT_JSON, RESULT_MD, RESULT_FIGURE = "result.json", "result.md", "critical_difference.png"
#: The entry's colour in the critical-difference figure; the reference's rankers are grey.
ENTRY_COLOUR, OTHER_COLOUR = "tab:red", "0.45"


def _clean(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


def _rows(frame: pd.DataFrame) -> list:
    return [{k: _clean(v) for k, v in row.items()} for row in frame.to_dict("records")]


def record(result) -> dict:
    """The result record of an evaluation (see the module's docstring)."""
    from .. import __version__
    from ._spec import UNREGISTERED

    spec = result.spec
    return {
        "benchmark": {"name": spec.name, "version": spec.version, "sha256": spec.sha256},
        "registry": "committed spec" if result.registered else UNREGISTERED,
        "crocbench": __version__,
        "entry": result.entry,
        "screens": result.screens,
        "subset": result.subset,
        "metric_of_record": spec.metric_of_record,
        "submission": {"sha256": dict(result.submission)},
        "repeats": _rows(result.repeats),
        "values": _rows(result.values),
        "placement": {"ranks": _rows(result.ranks), "versus": _rows(result.versus), "order": _rows(result.order)},
        "verdicts": verdicts(result),
    }


def record_bytes(result) -> bytes:
    """The bytes of ``result.json``: the record as JSON, two-space indent, one final newline."""
    return (json.dumps(record(result), indent=2, allow_nan=False) + "\n").encode()


def _values_table(result) -> pd.DataFrame:
    spec = result.spec
    rows = []
    for r in result.values.to_dict("records"):
        row = {"screen": r["dataset"], "compounds": f"{r['compounds']:,}", "actives": f"{r['actives']:,}"}
        for key in spec.metrics:
            mean = r[f"{key}_random_mean"]
            row[metric_label(key)] = f"{r[key]:.4f}" + (f" ({mean:.4f})" if pd.notna(mean) else "")
        rows.append(row)
    return pd.DataFrame(rows)


def _versus_table(result) -> pd.DataFrame:
    v = result.versus
    return pd.DataFrame(
        {
            "metric": [metric_label(m) for m in v["metric"]],
            "family": v["family"],
            "ranker": v["ranker"],
            "record (W-L-T)": [f"{a}-{b}-{c}" for a, b, c in zip(v["wins"], v["losses"], v["ties"])],
            "mean difference [95% CI]": [
                f"{m:+.4f} [{lo:+.4f}, {hi:+.4f}]" for m, lo, hi in zip(v["mean_difference"], v["low"], v["high"])
            ],
            "Wilcoxon-Holm p": [f"{p:.2g}" for p in v["p_holm"]],
            "Conover-Holm p": [f"{p:.2g}" for p in v["conover_p_holm"]],
            "mean ranks": [f"{a:.2f} vs {b:.2f}" for a, b in zip(v["entry_rank"], v["ranker_rank"])],
        }
    )


def markdown(result) -> str:
    """The result as a Markdown page: the verdicts, the values per screen, the placement."""
    from ..report import markdown_table

    spec = result.spec
    lines = [
        f"# {result.entry} on benchmark {spec.name} v{spec.version}",
        "",
        f"Benchmark sha256 `{spec.sha256}`; metric of record {spec.metric_of_record}. "
        "Sentences and tables are written by `crocbench benchmark evaluate`.",
        "",
        *[f"- {line}" for line in verdicts(result)],
        "",
        "## Values per screen",
        "",
        "Each metric on the pooled out-of-fold scores, exact ties; in brackets its exact mean under a random ordering.",
        "",
        markdown_table(_values_table(result)),
        "",
    ]
    if not result.versus.empty:
        lines += [
            "## Placement",
            "",
            f"The entry against each reference ranker across the {len(result.screens)} screens: the record, the "
            "mean paired difference (entry - ranker) with its 95% bootstrap interval over screens, the two-sided "
            "Wilcoxon signed-rank test (Holm over the entry's comparisons on the metric) and Conover's post-hoc "
            "test after Friedman's (Holm over all pairs). Only the metric of record's rows are confirmatory.",
            "",
            markdown_table(_versus_table(result)),
            "",
            f"![critical difference]({RESULT_FIGURE})",
            "",
        ]
    return "\n".join(lines)


def write_figure(result, path) -> list:
    """The critical-difference diagrams of every metric, the entry in red."""
    from ..plots import plot_critical_difference

    panels = {}
    for metric in result.spec.metrics:
        part = result.ranks[result.ranks["metric"] == metric]
        panels[metric_label(metric)] = (dict(zip(part["model"], part["mean_rank"])), float(part["nemenyi_cd"].iloc[0]))
    colours = {m: OTHER_COLOUR for m in result.ranks["model"].unique()} | {result.entry: ENTRY_COLOUR}
    return plot_critical_difference(panels, path, colours=colours, formats=("png",))


def write_result(result, out) -> list:
    """Write the record, the page and (across screens) the figure into ``out``; returns the paths.

    All are made in a folder beside ``out`` first and then moved in, so a failure (a missing extra for the
    figure, a full disk) leaves ``out`` as it was; a figure of an earlier result that this one has not is removed.
    """
    import os
    import tempfile

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    names = [RESULT_JSON, RESULT_MD] + ([RESULT_FIGURE] if not result.ranks.empty else [])
    with tempfile.TemporaryDirectory(prefix=f".{out.name}-", dir=out.parent) as tmp:
        tmp = Path(tmp)
        (tmp / RESULT_JSON).write_bytes(record_bytes(result))
        (tmp / RESULT_MD).write_text(markdown(result) + "\n")
        if RESULT_FIGURE in names:
            write_figure(result, tmp / RESULT_FIGURE)
        out.mkdir(exist_ok=True)
        for name in names:
            os.replace(tmp / name, out / name)
    if RESULT_FIGURE not in names:
        (out / RESULT_FIGURE).unlink(missing_ok=True)
    return [out / name for name in names]

"""The protocol page's table of the splits: what each guarantees, and the leak each leaves on DTP AIDS, measured by
the committed memorization references of the paper's labels (one per split, ``kind: memorization``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..reference import references

#: The block of the table (``<!-- reference:splits/promises -->``).
BLOCK = "splits/promises"


def _leak(folder: Path) -> tuple[int, dict]:
    """A memorization reference's test actives and, per stratum, how many (the first model's rows: every model
    has the same actives)."""
    table = pd.read_csv(folder / "memorization.tsv", sep="\t")
    first = table[table["model"] == table["model"].iloc[0]].drop_duplicates("stratum").set_index("stratum")
    counts = {s: int(first.loc[s, "actives"]) if s in first.index else 0 for s in ("analog", "middle", "novel")}
    return int(first.loc["all", "actives"]), counts


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}% ({count:,} of {total:,})"


def split_tables(root) -> dict:
    """``{BLOCK: Markdown}``: per split of :data:`crocbench.cv.SPLITS`, what it guarantees
    (:data:`crocbench.cv.PROMISES`) and the share of the test actives with a training active at or above the
    strata's ``analog`` and ``novel`` thresholds, from the committed memorization reference of that split on the
    paper's labels (``results/reference``); the novelty split's is none by construction at its default tau
    (:data:`crocbench.chem.graph.TAU`), on its own fingerprint. ``{}`` where no such reference is committed.

    Parameters
    ----------
    root : path-like
        The repository's root.

    Returns
    -------
    dict
        The block's name and its table, with a sentence saying what was measured on what.

    Raises
    ------
    ValueError
        Two references of one split, or references whose strata's thresholds differ (one line).
    """
    from ..chem.graph import TAU
    from ..cv import NOVELTY, PROMISES, SPLITS
    from ..report import markdown_table

    found = {}
    for m in references(Path(root) / "results" / "reference"):
        if m.kind == "memorization" and m.labels == "paper" and m.split != NOVELTY:
            if m.split in found:
                raise ValueError(f"two memorization references of the {m.split} split: {found[m.split].name}, {m.name}")
            found[m.split] = m
    if not found:
        return {}
    levels = {(m.strata["novel"], m.strata["analog"]) for m in found.values()}
    if len(levels) > 1:
        raise ValueError(f"the memorization references' strata differ: {sorted(levels)}")
    novel, analog = levels.pop()
    rows = []
    for split in SPLITS:
        row = {"split": split, "guarantees": PROMISES[split]}
        if split == NOVELTY:
            for level in (analog, novel):
                none = "none, by construction" if TAU <= level else "not bounded"
                row[f"test actives with a training active >= {level:g}"] = f"{none} (tau {TAU:g})"
        elif split in found:
            total, counts = _leak(found[split].folder)
            row[f"test actives with a training active >= {analog:g}"] = _share(counts["analog"], total)
            row[f"test actives with a training active >= {novel:g}"] = _share(
                counts["analog"] + counts["middle"], total
            )
        else:
            continue
        rows.append(row)
    names = ", ".join(f"`{found[s].name}`" for s in SPLITS if s in found)
    said = (
        f"The shares are of DTP AIDS's test actives, each by its nearest training active on the paper's "
        f"fingerprints (the memorization study's strata: references {names}); the novelty split's bound holds on "
        "its own fingerprint, ECFP4 bits, where its certificate checks it."
    )
    return {BLOCK: markdown_table(pd.DataFrame(rows)) + "\n\n" + said}

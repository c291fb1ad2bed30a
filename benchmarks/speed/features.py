"""Speed and memory of parsing, fingerprints and similarities on the DTP AIDS set; prints a table.

    python benchmarks/speed/features.py [path/to/HIV_41913.csv]

Each step runs in its own process so its peak RSS is its own.  Targets
(2 cores): parse + fingerprint <= 20 s; full exact Tanimoto matrix <= 20 s
and <= 10 GB; top-20 neighbours of every compound without the matrix <= 30 s
and <= 2 GB; the workflow's top-50 search (each pair once, in tiles, as the
``neighbours`` jobs run it) at least 2x the pairs per second of the query-block
search it replaced (``top_k``, every query row against all), timed in the same run; the
PAINS flags of the first 20,000 compounds on two processes at least 1.6x as fast as on one.
RDKit's BulkTanimotoSimilarity on 2048-bit Morgan fingerprints
(single-threaded) is timed on the first 1,000 rows against all and scaled
to all rows, in the same run.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from crocbench._bench import measure, print_result, step_args

ROOT = Path(__file__).resolve().parents[2]
#: Compounds the PAINS steps check (RDKit's PAINS catalog, as the workflow's ``pains`` job runs it).
PAINS_ROWS = 20_000
DEFAULT_CSV = Path(os.environ.get("CROCBENCH_MIRROR", ROOT.parent / "shared" / "mirror")) / "HIV_41913.csv"


def _step(name: str, csv: str, cache: str) -> dict:
    import pandas as pd

    from crocbench import similarity as S
    from crocbench.chem import fingerprints as F

    t = time.perf_counter()
    if name == "fingerprints":
        smiles = pd.read_csv(csv)["smiles"].tolist()
        reasons, fp = F.fingerprints_from_smiles(smiles, n_jobs=2)
        keep = np.array([r is None for r in reasons])
        rows = np.flatnonzero(keep)
        sizes = fp.sizes()[rows]
        ids = np.concatenate([fp.row(i) for i in rows])
        np.savez(cache, indptr=np.r_[0, np.cumsum(sizes)], ids=ids, smiles=np.array(smiles, dtype=object)[rows])
        extra = {"molecules": int(rows.size), "rejected": int((~keep).sum())}
    else:
        data = np.load(cache, allow_pickle=True)
        fp = F.Fingerprints(data["indptr"], data["ids"])
        extra = {"molecules": fp.n}
        if name == "matrix":
            S.tanimoto_matrix(fp)
        elif name == "topk":
            S.top_k(fp, 20)
        elif name == "topk50_blocks":
            S.top_k(fp, 50)
        elif name == "topk50_tiles":
            S.all_pairs_top_k(fp, 50)
        elif name in ("pains_1", "pains_2"):  # the workflow's pains job on one process and on two
            from crocbench.chem.pains import pains_alerts

            smiles = data["smiles"][:PAINS_ROWS].tolist()
            t = time.perf_counter()
            flagged = sum(bool(a) for a in pains_alerts(smiles, n_jobs=int(name[-1])))
            return {"seconds": time.perf_counter() - t, "molecules": len(smiles), "flagged": flagged}
        elif name == "rdkit":
            from rdkit import Chem, DataStructs
            from rdkit.Chem import rdFingerprintGenerator

            gen = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)
            fps = [gen.GetFingerprint(Chem.MolFromSmiles(s)) for s in data["smiles"]]
            t = time.perf_counter()
            for q in fps[:1000]:
                DataStructs.BulkTanimotoSimilarity(q, fps)
            extra["scaled_from_rows"] = 1000
            return {"seconds": (time.perf_counter() - t) * len(fps) / 1000, **extra}
    return {"seconds": time.perf_counter() - t, **extra}


def main() -> None:
    if (args := step_args()) is not None:
        print_result(_step(*args))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", nargs="?", default=str(DEFAULT_CSV), help="the DTP AIDS CSV (default: the mirror's)")
    csv = p.parse_args().csv
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cache = str(Path(tmp) / "fp.npz")
        for step, label, target in [
            ("fingerprints", "parse + fingerprint (2 processes)", "<= 20 s"),
            ("matrix", "full Tanimoto matrix, float32, in memory", "<= 20 s, <= 10 GB"),
            ("topk", "top-20 neighbours, no full matrix", "<= 30 s, <= 2 GB"),
            ("topk50_blocks", "top-50, query blocks x all (before)", "reference"),
            ("topk50_tiles", "top-50, each pair once, tiles (workflow)", ">= 2x pairs/s of the above"),
            ("rdkit", "RDKit BulkTanimoto, Morgan 2048 bits, 1 thread", "reference"),
            ("pains_1", f"PAINS flags of {PAINS_ROWS:,}, 1 process (before)", "reference"),
            ("pains_2", f"PAINS flags of {PAINS_ROWS:,}, 2 processes (workflow)", ">= 1.6x the above"),
        ]:
            rows.append((label, measure(__file__, step, csv, cache), target))
    by = {label: r for label, r, _ in rows}
    ratio = (
        by["RDKit BulkTanimoto, Morgan 2048 bits, 1 thread"]["seconds"]
        / by["full Tanimoto matrix, float32, in memory"]["seconds"]
    )
    width = max(len(label) for label, _, _ in rows)
    n = rows[0][1]["molecules"]
    print(f"{'step':<{width}}  {'seconds':>8}  {'N^2 pairs/s':>11}  {'peak RSS GB':>11}  target")
    for label, r, target in rows:
        pairs = "" if label.startswith("PAINS") else f"{n * n / r['seconds']:.3g}"  # no pairs: one compound at a time
        print(f"{label:<{width}}  {r['seconds']:>8.1f}  {pairs:>11}  {r['peak_rss_gb']:>11.2f}  {target}")
    speedup = (
        by["top-50, query blocks x all (before)"]["seconds"] / by["top-50, each pair once, tiles (workflow)"]["seconds"]
    )
    print(f"top-50 search: tiles {speedup:.2f}x the pairs per second of query blocks")
    pains = [by[label] for label in by if label.startswith("PAINS")]
    assert pains[0]["flagged"] == pains[1]["flagged"], "PAINS: two processes flagged other compounds than one"
    print(
        f"PAINS ({pains[0]['flagged']} of {PAINS_ROWS:,} flagged): 2 processes "
        f"{pains[0]['seconds'] / pains[1]['seconds']:.2f}x the compounds per second of 1"
    )
    print(
        f"molecules: {rows[0][1]['molecules']} (rejected {rows[0][1]['rejected']}); "
        f"RDKit (all pairs, scaled from 1,000 rows) / ours: {ratio:.1f}x"
    )


if __name__ == "__main__":
    main()

"""Exact top-k neighbours: crocbench against FPSim2 and RDKit on the same compounds, the same fingerprints, the same k.

    pip install -r envs/bench.txt        # FPSim2, pinned
    python benchmarks/speed/neighbours.py [--compounds results/dtp_aids/compounds.parquet] [--n N] [--k 50]
                                    [--fpsim2-queries Q] [--rdkit-queries Q]

The task: every compound's k most similar others (Tanimoto), on RDKit Morgan fingerprints (radius 2, 2,048 bits)
of the workflow's standardized compounds (41,906 for dtp_aids). Each engine runs in a subprocess of its own
(crocbench._bench: its wall time, CPU time and peak RSS):

- crocbench: ``crocbench.similarity.all_pairs_top_k`` on the bits as feature sets (every pair once, both cores),
  and again on the workflow's own features (the paper's labeled trees), a table of its own; each on the path this
  CPU takes (the vector popcount where it has AVX-512 VPOPCNTDQ) and on the scalar fallback
  (``CROCBENCH_POPCOUNT=scalar``);
- FPSim2: ``FPSim2Engine.top_k`` per query (k + 1, the compound itself dropped; threshold 0, one worker: its
  bounds prune nothing at threshold 0), on ``--fpsim2-queries`` queries (default all) against all compounds;
- RDKit: ``DataStructs.BulkTanimotoSimilarity`` of ``--rdkit-queries`` queries (default 2,000) against all,
  the top k by ``numpy.argpartition``: its pairs per second, scaled to all queries (marked as such).

Pairs are query x reference pairs answered: N (N - 1) for every compound's top k. The table gives each engine's
pairs per second of wall time and of CPU time, its ratio to crocbench, and whether its k-th similarities equal
crocbench's (float32) on the queries it ran.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, measure, print_result, step_args  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BITS, RADIUS = 2048, 2


def _bit_sets(smiles):
    """Per compound, the on-bits of its RDKit Morgan fingerprint (radius 2, 2,048 bits), and the bit vectors."""
    from rdkit import Chem, RDLogger
    from rdkit.Chem import rdFingerprintGenerator

    RDLogger.DisableLog("rdApp.*")
    generator = rdFingerprintGenerator.GetMorganGenerator(radius=RADIUS, fpSize=BITS)
    vectors = [generator.GetFingerprint(Chem.MolFromSmiles(s)) for s in smiles]
    return [np.array(list(v.GetOnBits()), dtype=np.uint64) for v in vectors], vectors


def _prepare(compounds: str, n: int, folder: str) -> None:
    import pandas as pd
    from FPSim2.io import create_db_file

    from crocbench.chem.fingerprints import fingerprints_from_smiles, save_fingerprints

    table = pd.read_parquet(compounds, columns=["smiles"]).iloc[:n]
    bits, _ = _bit_sets(table["smiles"])
    _, paper = fingerprints_from_smiles(table["smiles"].tolist())
    save_fingerprints(Path(folder) / "paper.npz", paper)
    indptr = np.zeros(len(bits) + 1, dtype=np.int64)
    np.cumsum([b.size for b in bits], out=indptr[1:])
    np.savez(Path(folder) / "bits.npz", indptr=indptr, ids=np.concatenate(bits))
    create_db_file(
        mols_source=[[s, i] for i, s in enumerate(table["smiles"])],
        filename=str(Path(folder) / "fpsim2.h5"),
        mol_format="smiles",
        fp_type="Morgan",
        fp_params={"radius": RADIUS, "fpSize": BITS},
    )
    print_result({"n": len(bits)})


def _load_bits(folder: str):
    from crocbench.chem.fingerprints import Fingerprints

    with np.load(Path(folder) / "bits.npz") as f:
        return Fingerprints(f["indptr"], f["ids"])


def _crocbench(folder: str, k: int, features: str, label: str, cut: str = "default") -> None:
    """All-pairs top-k on the Morgan bits (``morgan``, compared with the other engines) or on the workflow's own
    features (``paper``: the paper's labeled trees, depth 2, unfolded), after a warm-up on 200 compounds (the
    compiled loops load from numba's cache, or compile once).  ``cut``: the share of the compounds a feature
    must be in to be bit-packed (``default``: the engine's ``DENSE_FRACTION``; 0: every feature packed)."""
    from crocbench.chem.fingerprints import Fingerprints, load_fingerprints
    from crocbench.similarity import FeatureMatrix, all_pairs_top_k

    fp = _load_bits(folder) if features == "morgan" else load_fingerprints(Path(folder) / "paper.npz")
    all_pairs_top_k(Fingerprints(fp.indptr[:201], fp.ids[: fp.indptr[200]]), k)
    start, cpu = time.perf_counter(), cpu_seconds()
    if cut != "default":
        fp = FeatureMatrix(fp, max(1, int(float(cut) * fp.n)))
    nb = all_pairs_top_k(fp, k)
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    np.save(Path(folder) / f"kth_{label}_{features}.npy", nb.similarity[:, -1])
    try:
        from crocbench.similarity._popcount import describe_path

        path = describe_path()
    except ImportError:  # a crocbench from before the vector path
        path = "scalar popcount, one word at a time"
    result = {"seconds": wall, "cpu_seconds": cpu, "queries": fp.n, "pairs": fp.n * (fp.n - 1), "path": path}
    if cut != "default":
        result["words"] = int(fp.words.shape[1])
    print_result(result)


def _fpsim2(folder: str, k: int, queries: int) -> None:
    from FPSim2 import FPSim2Engine
    from rdkit import DataStructs

    fp = _load_bits(folder)
    engine = FPSim2Engine(str(Path(folder) / "fpsim2.h5"))
    vectors = []
    for i in range(queries):
        v = DataStructs.ExplicitBitVect(BITS)
        v.SetBitsFromList([int(b) for b in fp.ids[fp.indptr[i] : fp.indptr[i + 1]]])
        vectors.append(v)
    kth = np.empty(queries, dtype=np.float32)
    start, cpu = time.perf_counter(), cpu_seconds()
    for i, v in enumerate(vectors):
        hits = engine.top_k(v, k + 1, 0.0, n_workers=1)
        coeff = hits["coeff"][hits["mol_id"] != i]  # the compound itself dropped (it may tie with a duplicate)
        kth[i] = coeff[k - 1]
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    np.save(Path(folder) / "kth_fpsim2.npy", kth)
    print_result({"seconds": wall, "cpu_seconds": cpu, "queries": queries, "pairs": queries * (fp.n - 1)})


def _rdkit(folder: str, k: int, queries: int) -> None:
    from rdkit import DataStructs

    fp = _load_bits(folder)
    vectors = []
    for i in range(fp.n):
        v = DataStructs.ExplicitBitVect(BITS)
        v.SetBitsFromList([int(b) for b in fp.ids[fp.indptr[i] : fp.indptr[i + 1]]])
        vectors.append(v)
    kth = np.empty(queries, dtype=np.float32)
    start, cpu = time.perf_counter(), cpu_seconds()
    for i in range(queries):
        sims = np.asarray(DataStructs.BulkTanimotoSimilarity(vectors[i], vectors), dtype=np.float64)
        sims[i] = -1.0
        kth[i] = np.float32(-np.partition(-sims, k - 1)[k - 1])
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    np.save(Path(folder) / "kth_rdkit.npy", kth)
    print_result({"seconds": wall, "cpu_seconds": cpu, "queries": queries, "pairs": queries * (fp.n - 1)})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--compounds", default=str(ROOT / "results" / "dtp_aids" / "compounds.parquet"))
    p.add_argument("--n", type=int, default=None, help="the first N compounds (default: all)")
    p.add_argument("--k", type=int, default=50)
    p.add_argument("--fpsim2-queries", type=int, default=None, help="default: every compound")
    p.add_argument("--rdkit-queries", type=int, default=2000)
    p.add_argument(
        "--cuts",
        default="",
        help="also time crocbench with these shares of the compounds as the cut between packed and indexed "
        "features (comma-separated, e.g. 0,0.003,0.01,0.03; 0 packs every feature): where the two trade places",
    )
    p.add_argument(
        "--before",
        metavar="SRC",
        help="also run crocbench from this source folder (e.g. a worktree of an older commit's src/): before/after",
    )
    args = p.parse_args()
    if not Path(args.compounds).is_file():
        sys.exit(f"{args.compounds}: no such file (run the workflow first, or pass --compounds)")
    with tempfile.TemporaryDirectory() as folder:
        n = measure(__file__, "prepare", args.compounds, args.n or 10**9, folder)["n"]
        k, fq, rq = args.k, min(args.fpsim2_queries or n, n), min(args.rdkit_queries, n)
        scalar = {"CROCBENCH_POPCOUNT": "scalar"}
        runs = {
            "crocbench": measure(__file__, "crocbench", folder, k, "morgan", "now"),
            "crocbench, scalar path": measure(__file__, "crocbench", folder, k, "morgan", "scalar", env=scalar),
            "FPSim2 0.7.4": measure(__file__, "fpsim2", folder, k, fq),
            "RDKit": measure(__file__, "rdkit", folder, k, rq),
        }
        paper = {
            "crocbench": measure(__file__, "crocbench", folder, k, "paper", "now"),
            "crocbench, scalar path": measure(__file__, "crocbench", folder, k, "paper", "scalar", env=scalar),
        }
        if args.before:
            old = {"PYTHONPATH": str(Path(args.before).resolve())}
            runs["crocbench before"] = measure(__file__, "crocbench", folder, k, "morgan", "before", env=old)
            paper["crocbench before"] = measure(__file__, "crocbench", folder, k, "paper", "before", env=old)
            paper["crocbench before"]["same"] = np.array_equal(
                np.load(Path(folder) / "kth_before_paper.npy"), np.load(Path(folder) / "kth_now_paper.npy")
            )
        cuts = {}
        for cut in [c for c in args.cuts.split(",") if c.strip()]:
            for features in ("morgan", "paper"):
                cuts[(float(cut), features)] = measure(__file__, "crocbench", folder, k, features, f"cut{cut}", cut)
                same = np.load(Path(folder) / f"kth_cut{cut}_{features}.npy")
                cuts[(float(cut), features)]["same"] = np.array_equal(
                    same, np.load(Path(folder) / f"kth_now_{features}.npy")
                )
        ours = np.load(Path(folder) / "kth_now_morgan.npy")
        kth = {
            "crocbench, scalar path": np.load(Path(folder) / "kth_scalar_morgan.npy"),
            "FPSim2 0.7.4": np.load(Path(folder) / "kth_fpsim2.npy"),
            "RDKit": np.load(Path(folder) / "kth_rdkit.npy"),
        }
        paper["crocbench, scalar path"]["same"] = np.array_equal(
            np.load(Path(folder) / "kth_scalar_paper.npy"), np.load(Path(folder) / "kth_now_paper.npy")
        )
        if args.before:
            kth["crocbench before"] = np.load(Path(folder) / "kth_before_morgan.npy")
    base = runs["crocbench"]["pairs"] / runs["crocbench"]["seconds"]
    print(f"## Top-{k} neighbours of {n:,} compounds, RDKit Morgan radius {RADIUS}, {BITS:,} bits\n")
    for name, r in {**runs, **{f"{name} (paper's features)": r for name, r in paper.items()}}.items():
        if "path" in r:
            print(f"- {name}: {r['path']}")
    print()
    print(
        "| engine | queries | wall s | CPU s | pairs/s (wall) | pairs/s per CPU-second | vs crocbench | "
        "peak RSS GB | k-th similarity = crocbench's |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, r in runs.items():
        rate = r["pairs"] / r["seconds"]
        same = (
            ""
            if name == "crocbench"
            else (
                "yes"
                if np.array_equal(kth[name], ours[: kth[name].size])
                else f"no: {int((kth[name] != ours[: kth[name].size]).sum())} of {kth[name].size} differ"
            )
        )
        scaled = "" if r["queries"] == n else f" (all {n:,}: {r['seconds'] * n / r['queries']:.0f} s, scaled)"
        print(
            f"| {name} | {r['queries']:,} | {r['seconds']:.1f}{scaled} | {r['cpu_seconds']:.1f} | {rate:.3g} | "
            f"{r['pairs'] / r['cpu_seconds']:.3g} | {rate / base:.2f}x | {r['peak_rss_gb']:.2f} | {same} |"
        )
    print("\n## The same search on the workflow's features (the paper's labeled trees, depth 2, unfolded)\n")
    print(
        "| engine | wall s | CPU s | pairs/s (wall) | pairs/s per CPU-second | vs crocbench | peak RSS GB | "
        "k-th similarity = crocbench's |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name, r in paper.items():
        print(
            f"| {name} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | {r['pairs'] / r['seconds']:.3g} | "
            f"{r['pairs'] / r['cpu_seconds']:.3g} | {paper['crocbench']['seconds'] / r['seconds']:.2f}x | "
            f"{r['peak_rss_gb']:.2f} | {'' if 'same' not in r else 'yes' if r['same'] else 'no'} |"
        )

    if cuts:
        print("\n## The cut between bit-packed (popcount) and indexed features (same run)\n")
        print("A feature in at least this share of the compounds is bit-packed; the rest are counted from the")
        print(f"inverted index (the default cut: {_default_cut()}).\n")
        print("| cut | features | packed words | wall s | CPU s | pairs/s (wall) | k-th similarity = default's |")
        print("|---:|---|---:|---:|---:|---:|---|")
        for (cut, features), r in sorted(cuts.items()):
            print(
                f"| {cut:g} | {features} | {r['words']} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | "
                f"{r['pairs'] / r['seconds']:.3g} | {'yes' if r['same'] else 'no'} |"
            )


def _default_cut() -> str:
    from crocbench.similarity._tanimoto import DENSE_FRACTION

    return f"{DENSE_FRACTION:g}"


if __name__ == "__main__":
    step = step_args()
    if step is None:
        main()
    elif step[0] == "prepare":
        _prepare(step[1], int(step[2]), step[3])
    elif step[0] == "crocbench":
        _crocbench(step[1], int(step[2]), step[3], step[4], *step[5:])
    elif step[0] == "fpsim2":
        _fpsim2(step[1], int(step[2]), int(step[3]))
    else:
        _rdkit(step[1], int(step[2]), int(step[3]))

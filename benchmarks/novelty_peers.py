"""The novelty split beside its peers, in one run: Lo-Hi's Hi splitter and DataSAIL (C1e), on DTP AIDS.

Each method runs in a process of its own (``--step METHOD N TAU OUT``), timed, its peak memory read from its own
``/proc/self/status`` (``benchmarks/_harness.py``), under a wall-clock cap (``--cap``, seconds) and an address-space
cap (``--memory``, GB).  The peers run in their own virtual environment (``--peers-python``: ``pip install
lohi-splitter datasail``); they are not dependencies of crocbench.  Each writes which compounds it puts in train,
in test, or leaves out; then every split is measured alike, by crocbench's exact engine on ECFP4 (Morgan radius 2,
2048 bits): the compounds and actives kept and the highest train-to-test similarity.

The peers make one train/test split; the novelty split makes ten folds, and is compared on one of them: fold 0
as test, the other nine as train.  Lo-Hi's threshold is the same tau (its own ECFP4 is 1024 bits, its test is
``> tau``); DataSAIL takes no threshold (it clusters, then minimises the similarity across the split).

    python benchmarks/novelty_peers.py [--sizes 2000 41906] [--tau 0.4] [--cap 1200] [--memory 8]

SIZE compounds of DTP AIDS (``HIV_41913.csv``, the rows RDKit parses, a seeded sample of them; CA and CM
active) are split.
Writes ``peers.tsv`` under ``--out``, row by row (a method and size run again replaces its row).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _harness import machine, print_result, step_args  # noqa: E402

METHODS = ("crocbench", "lohi", "datasail")
PEERS_PYTHON = "/work/peers-venv/bin/python"


def dtp_aids(mirror: Path, n: int):
    """``n`` compounds of DTP AIDS that RDKit parses (a seeded sample, in file order; all of them where ``n`` is
    their number or more): ``id, smiles, label``."""
    import pandas as pd
    from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    t = pd.read_csv(mirror / "HIV_41913.csv")
    t = t[[Chem.MolFromSmiles(s) is not None for s in t["smiles"]]].reset_index(drop=True)
    if n < len(t):
        t = t.sample(n, random_state=0).sort_index().reset_index(drop=True)
    return pd.DataFrame({"id": [f"m{i}" for i in range(len(t))], "smiles": t["smiles"], "label": t["activity"]})


def _crocbench(table, tau):
    from crocbench._parallel import available_cores
    from crocbench.chem.graph import named_fingerprints, tau_graph
    from crocbench.cv import novelty_table

    fp = named_fingerprints(table["smiles"].tolist(), n_jobs=available_cores())
    label = table["label"].isin(["CA", "CM"]).astype(int)
    folds = novelty_table(table["id"], label, tau_graph(fp, tau), tau, 10, 0, 0.9)["fold"].to_numpy()
    return ["dropped" if f < 0 else "test" if f == 0 else "train" for f in folds]


def _lohi(table, tau):
    from lohi_splitter import hi_train_test_split

    train, test = hi_train_test_split(table["smiles"].tolist(), similarity_threshold=tau, verbose=False)
    part = ["dropped"] * len(table)
    for i in train:
        part[i] = "train"
    for i in test:
        part[i] = "test"
    return part


def _datasail(table, tau):
    from datasail.sail import datasail

    e_splits, _, _ = datasail(
        techniques=["C1e"],
        splits=[0.9, 0.1],
        names=["train", "test"],
        e_type="M",
        e_data=dict(zip(table["id"], table["smiles"], strict=True)),
        e_sim="ecfp",
        max_sec=600,
        threads=len(os.sched_getaffinity(0)),
        verbose="E",
    )
    got = e_splits["C1e"][0]
    return [got.get(i, "dropped") if got.get(i) in ("train", "test") else "dropped" for i in table["id"]]


def step(method: str, mirror: str, n: str, tau: str, out: str) -> None:
    table = dtp_aids(Path(mirror), int(n))
    start = time.perf_counter()
    part = {"crocbench": _crocbench, "lohi": _lohi, "datasail": _datasail}[method](table, float(tau))
    seconds = time.perf_counter() - start
    Path(out).write_text(json.dumps(part))
    print_result({"method": method, "split_s": round(seconds, 1)})


def run_step(python: str, method: str, mirror: Path, n: int, tau: float, out: Path, cap: int, memory_gb: float):
    """One method's step under the caps: its JSON result with ``wall_s``, or the reason it gave none."""

    def limit():
        cap_bytes = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    env = {**os.environ, "PYTHONPATH": str(HERE.parent / "src")} if method == "crocbench" else None
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [python, __file__, "--step", method, str(mirror), str(n), str(tau), str(out)],
            capture_output=True,
            text=True,
            timeout=cap,
            preexec_fn=limit if method != "crocbench" else None,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"failed": f"no split within the cap of {cap} s"}
    wall = time.perf_counter() - start
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return {"failed": f"exit {done.returncode} after {wall:.0f} s: {last[:160]}"}
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "wall_s": round(wall, 1)}


def measure_split(table, part, tau: float) -> dict:
    """Compounds and actives kept, and the highest train-to-test similarity, by crocbench's engine on ECFP4."""
    import numpy as np

    from crocbench.chem.graph import named_fingerprints
    from crocbench.similarity import FeatureMatrix

    part = np.asarray(part)
    label = table["label"].isin(["CA", "CM"]).to_numpy()
    fm = FeatureMatrix(named_fingerprints(table["smiles"].tolist()))
    train, test = np.flatnonzero(part == "train"), np.flatnonzero(part == "test")
    best = 0.0
    for i in range(0, test.size, 2048):
        for j in range(0, train.size, 16384):
            best = max(best, float(fm.tanimoto(test[i : i + 2048], train[j : j + 16384]).max(initial=0.0)))
    kept = part != "dropped"
    return {
        "train": int(train.size),
        "test": int(test.size),
        "compounds_kept": int(kept.sum()),
        "actives_kept": int(label[kept].sum()),
        "max_train_test": round(best, 4),
        "below_tau": bool(np.float32(best) < np.float32(tau)),
    }


def main() -> None:

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[2000, 41906])
    p.add_argument("--tau", type=float, default=0.4)
    p.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    p.add_argument("--cap", type=int, default=1200, help="seconds per method and size (default: 1200)")
    p.add_argument("--memory", type=float, default=8.0, help="GB of address space per peer (default: 8)")
    p.add_argument("--peers-python", default=PEERS_PYTHON)
    p.add_argument("--mirror", default=str(HERE.parents[1] / "shared" / "mirror"))
    p.add_argument("--out", default=str(HERE.parent / "results/reference/novelty_cost"))
    args = p.parse_args()
    sys.path.insert(0, str(HERE.parent / "src"))

    mirror, out = Path(args.mirror), Path(args.out)
    for n in args.sizes:
        table = dtp_aids(mirror, n)
        for method in args.methods:
            python = sys.executable if method == "crocbench" else args.peers_python
            part_path = out / f".{method}_{n}.json"
            result = run_step(python, method, mirror, n, args.tau, part_path, args.cap, args.memory)
            row = {
                "screen": "dtp_aids",
                "compounds": len(table),
                "actives": int(table["label"].isin(["CA", "CM"]).sum()),
            }
            row |= {"method": method, "tau": args.tau}
            if "failed" not in result:
                row |= measure_split(table, json.loads(part_path.read_text()), args.tau)
                row |= {"wall_s": result["wall_s"], "peak_rss_gb": round(result["peak_rss_gb"], 2)}
                part_path.unlink()
            else:
                row["failed"] = result["failed"]
            row["machine"] = machine()
            print(row, flush=True)
            _write_row(out / "peers.tsv", row)


def _write_row(path: Path, row: dict) -> None:
    """Add ``row`` to the table at ``path``, replacing the row of the same screen, size and method."""
    import pandas as pd

    new = pd.DataFrame([row])
    if path.is_file():
        old = pd.read_csv(path, sep="\t")
        same = (
            (old["screen"] == row["screen"]) & (old["compounds"] == row["compounds"]) & (old["method"] == row["method"])
        )
        new = pd.concat([old[~same], new], ignore_index=True)
    counts = ["train", "test", "compounds_kept", "actives_kept"]  # whole numbers, empty where a method failed
    new[counts] = new[counts].astype("Int64")
    new.sort_values(["compounds", "method"], kind="stable").to_csv(path, sep="\t", index=False)


if __name__ == "__main__":
    args = step_args()
    if args is not None:
        step(*args)
    else:
        main()

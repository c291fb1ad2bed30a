"""The novelty split's memory on a large screen's graph: the split alone, under METIS budgets, each in a process.

The screen's graph at ``tau`` is built once (the screen and its ECFP4 as ``novelty_scale.py`` reads them) and its
CSR arrays saved to ``--graph`` (a file reused when it exists: the graph of the 641,736-compound screen takes
about 25 minutes on 2 cores), with the build's seconds and peak memory.  Then the graph is split
(:func:`crocbench.cv.novelty_groups`, 10 folds) in a process of its own (``benchmarks/_harness.py``) for each
``--budgets`` value of ``crocbench.cv._novelty.METIS_ENTRIES`` (0: none, every piece bisected whole), each with
its seconds, peak memory (the graph's arrays included) and compounds kept, and the sha256 of its groups.

    python benchmarks/novelty_split.py [--screen transcription_5_primary] [--tau 0.4] [--graph FILE] [--budgets ...]
"""

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _harness import machine, measure, print_result, step_args  # noqa: E402


def build(screen: str, mirror: str, tau: str, graph_file: str) -> None:
    import numpy as np
    from novelty_cost import load_screen

    from crocbench._parallel import available_cores
    from crocbench.chem.graph import named_fingerprints, tau_graph

    start = time.perf_counter()
    table = load_screen(screen, Path(mirror))
    fp = named_fingerprints(table["smiles"], ids=table["id"].tolist(), n_jobs=available_cores())
    graph = tau_graph(fp, float(tau))
    seconds = time.perf_counter() - start
    np.savez(graph_file, indptr=graph.indptr, indices=graph.indices, data=graph.data)
    print_result({"step": "build", "compounds": len(table), "edges": int(graph.nnz // 2), "seconds": round(seconds, 1)})


def split(graph_file: str, budget: str) -> None:
    import numpy as np
    import scipy.sparse as sp

    import crocbench.cv._novelty as novelty

    z = np.load(graph_file)
    n = z["indptr"].size - 1
    graph = sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=(n, n))
    novelty.METIS_ENTRIES = int(budget) or graph.nnz
    start = time.perf_counter()
    group = novelty.novelty_groups(graph, 10)
    print_result(
        {
            "step": "split",
            "budget": int(budget),
            "seconds": round(time.perf_counter() - start, 1),
            "kept": int((group >= 0).sum()),
            "groups_sha256": hashlib.sha256(group.tobytes()).hexdigest(),
        }
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--screen", default="transcription_5_primary")
    p.add_argument("--tau", type=float, default=0.4)
    p.add_argument("--graph", default="novelty_graph.npz", help="the graph's file (built when missing)")
    p.add_argument("--budgets", type=int, nargs="+", default=[2**26, 0])
    p.add_argument("--mirror", default=str(HERE.parents[1] / "shared" / "mirror"))
    args = p.parse_args()
    print(machine(), flush=True)
    if not Path(args.graph).is_file():
        print(json.dumps(measure(__file__, "build", args.screen, args.mirror, args.tau, args.graph)), flush=True)
    for budget in args.budgets:
        print(json.dumps(measure(__file__, "split", args.graph, budget)), flush=True)


if __name__ == "__main__":
    args = step_args()
    if args is not None:
        {"build": build, "split": split}[args[0]](*args[1:])
    else:
        main()

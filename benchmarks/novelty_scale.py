"""The novelty split and its check at scale: each phase's seconds and the peak memory, on a primary screen.

The steps of ``crocbench split novelty`` and ``crocbench split verify``, timed one by one in a process of their
own (``benchmarks/_harness.py``): reading the screen, ECFP4 (on every core, ``crocbench._parallel``), preparing
the engine's matrix, the graph at ``tau``, the split, its certificate, and the check's recomputation of the
maxima (``verify`` also recomputes ECFP4: the same cost as the ECFP4 phase).  The screen is read from the
DataValuationPlatform wheel's members (``benchmarks/novelty_cost.py``), its SMILES as distributed; ``--sizes``
takes seeded samples of it.  Each phase's wall and CPU seconds are printed (the CPU seconds of the process and
its workers: a fair measure where the machine is shared), and where a sample is smaller than the screen, the
all-pairs phases scaled by ``(N / n)^2`` and the others by ``N / n``, to the whole screen.

    python benchmarks/novelty_scale.py [--screen transcription_5_primary] [--sizes 20000 40000] [--tau 0.4]
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _harness import machine, measure, print_result, step_args  # noqa: E402

#: The phases whose cost grows with the square of the compounds.
ALL_PAIRS = ("graph", "certificate", "verify")


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def step(screen: str, mirror: str, n: str, tau: str) -> None:
    from novelty_cost import load_screen

    from crocbench._parallel import available_cores
    from crocbench.chem.graph import named_fingerprints, tau_graph
    from crocbench.cv import certificate, novelty_table, verify_certificate
    from crocbench.similarity import FeatureMatrix

    wall, cpu, last = {}, {}, [time.perf_counter(), _cpu()]

    def done(phase):
        now = [time.perf_counter(), _cpu()]
        wall[phase], cpu[phase] = round(now[0] - last[0], 1), round(now[1] - last[1], 1)
        last[:] = now

    table = load_screen(screen, Path(mirror))
    if int(n) < len(table):
        table = table.sample(int(n), random_state=0).sort_index().reset_index(drop=True)
    done("read")
    fp = named_fingerprints(table["smiles"], ids=table["id"].tolist(), n_jobs=available_cores())
    done("ecfp4")
    fm = FeatureMatrix(fp)
    done("prepare")
    graph = tau_graph(fm, float(tau))
    done("graph")
    folds = novelty_table(table["id"], table["label"], graph, float(tau), 10, 0, 0.99)
    done("split")
    cert = certificate(folds, fm, float(tau), "ecfp4")
    done("certificate")
    verify_certificate(cert, folds, FeatureMatrix(fp))
    done("verify")
    kept = int((folds["fold"] >= 0).sum())
    print_result(
        {
            "screen": screen,
            "compounds": len(table),
            "kept": kept,
            "edges": int(graph.nnz // 2),
            "wall_s": wall,
            "cpu_s": cpu,
        }
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--screen", default="transcription_5_primary")
    p.add_argument("--sizes", type=int, nargs="+", default=[20000, 40000])
    p.add_argument("--tau", type=float, default=0.4)
    p.add_argument("--whole", type=int, default=641736, help="the screen's compounds, to scale to")
    p.add_argument("--mirror", default=str(HERE.parents[1] / "shared" / "mirror"))
    args = p.parse_args()
    print(machine(), flush=True)
    for n in args.sizes:
        r = measure(__file__, args.screen, args.mirror, n, args.tau)
        print(json.dumps(r), flush=True)
        if n < args.whole:
            k1, k2 = args.whole / n, (args.whole / n) ** 2
            scaled = {p: round(s * (k2 if p in ALL_PAIRS else k1)) for p, s in r["cpu_s"].items()}
            print(f"scaled to {args.whole} compounds, CPU seconds: {scaled}, total {sum(scaled.values())}", flush=True)


if __name__ == "__main__":
    args = step_args()
    if args is not None:
        step(*args)
    else:
        main()

"""One fold job of a finished panel screen, replayed in a process of its own: its time and exact peak memory.

    python benchmarks/accounting/fold_job.py RESULTS [MODEL ...] [--fold F] [--config config/panels/pubchem_hts.yaml[,MORE.yaml]]

RESULTS is a finished screen's folder (e.g. ``results/transcription_5_primary`` of a panel run); each MODEL
(default: svm irv knn maxsim random) has fold F (default 0) scored as the workflow's ``score_fold`` job scores it:
the same library calls, the models as ``config.yaml`` merged with ``--config`` declares them (as Snakemake merges
them), the job's threads (as the run declares them: its class's ``resources``), from the run's fingerprints,
neighbours and folds (and its N x N matrix where the job read one and it is still there; the workflow deletes it
after the folds, and the replay then computes the kernels: the same values, other costs). Prints a Markdown
table: wall and CPU seconds, the exact peak RSS (``VmHWM``), and whether the scores equal the workflow's own fold
file. For jobs that ran before each step's log recorded its exact peak (Snakemake's sampled ``max_rss`` can miss
a late peak), and for sizing a model's settings: the table also gives the fold's AUC[ROC], AUC[CROC(exp)] a=80 and
EF 1% (each a fold's own value, not the pooled one), so a lighter setting's time and what it costs are read together.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_harness.py
from _harness import cpu_seconds, measure, print_result, step_args  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PANEL = ROOT / "config" / "panels" / "pubchem_hts.yaml"
MODELS = ("svm", "irv", "knn", "maxsim", "random")
METRICS = ("roc", "croc_exp_80", "ef_1pct")  # the fold's own values, printed beside its cost


def declared_run(config_file: str, model: str):
    """A model's checked run (its parameters, as the workflow's ``run_params``), the config (``config.yaml``
    updated by each of the comma-separated ``config_file``, as ``--configfile A B`` updates it) and the folders
    searched for plug-in models (``plugins/`` beside each)."""
    from crocbench.config import load_config, study_runs

    files = [Path(f).resolve() for f in config_file.split(",")]
    config = load_config(files, root=ROOT)
    search = [p / "plugins" for p in (*(f.parent for f in files), ROOT) if (p / "plugins").is_dir()]
    return study_runs(config, search)[model], config, search


def fold_step(results: str, model: str, fold: int, config_file: str = str(PANEL), save: str = "") -> None:
    """Score fold ``fold`` of ``model`` as workflow/scripts/score_fold.py does; print the result line. With
    ``save``, also write the fold's scores (``id, fold, label, score``) to that parquet file and the fitted
    model's ``info()`` beside it (``.json``), each written whole or not at all (a temporary file, then renamed)."""
    import pandas as pd
    import torch

    from crocbench._workflow._files import feature_files
    from crocbench.chem.ecfp import load_ecfp
    from crocbench.chem.fingerprints import load_fingerprints
    from crocbench.cv import cross_validate, repeat_seed
    from crocbench.metrics import Ranking, parse_metric
    from crocbench.models import make_model
    from crocbench.similarity import MatrixFile, SimilarityIndex, load_neighbours

    results = Path(results)
    run, config, search = declared_run(config_file, model)
    seed = repeat_seed(config["cv"]["seed"], 0)
    folds = pd.read_csv(results / "folds.tsv", sep="\t", dtype={"id": str})
    threads = run.resources(len(folds), config["cv"]["folds"])["threads"]  # the job's threads, as its class says
    torch.set_num_threads(threads)
    compounds = pd.read_parquet(results / "compounds.parquet", columns=["id", "smiles"])
    files = {k: Path(v) for k, v in feature_files(results, run, config["similarity"]["k"]).items()}  # its arm's
    neighbours = files["neighbours"]
    if not neighbours.is_file():
        sys.exit(f"{results}: no {neighbours.name} (not a run of this config)")
    # The job read its kernels from the N x N matrix when its model's class says so; the workflow deletes the
    # matrix after the folds (temp), so without it the replay computes them (the same values, other costs).
    matrix = files["matrix"]
    uses_matrix = run.uses_matrix(len(folds), config["cv"]["folds"]) and matrix.is_file()
    start, cpu = time.perf_counter(), cpu_seconds()
    sim = SimilarityIndex(
        load_fingerprints(files["fingerprints"]),
        load_neighbours(neighbours),
        block=config["similarity"]["block"],
        ids=compounds["id"],
        smiles=compounds["smiles"],
        matrix=MatrixFile(matrix, threads=threads) if uses_matrix else None,
        ecfp=load_ecfp(results / "ecfp.npz") if run.uses_ecfp else None,  # for a model whose class says uses_ecfp
    )
    done = cross_validate(
        lambda k: make_model(model, run.params, seed=(seed, k), n_jobs=threads, search=search), sim, folds, only=[fold]
    )
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    scores = done.scores[fold]["score"].to_numpy()
    ranking = Ranking(done.scores[fold]["label"].to_numpy(), scores)
    if save:
        import json

        from crocbench._io import write_table, write_text

        info = done.models[fold].info() if hasattr(done.models[fold], "info") else {}
        write_text(Path(save).with_suffix(".json"), json.dumps(info, default=float))  # first: the scores mark done
        write_table(done.scores[fold], Path(save), index=False)
    ran = results / "scores" / model / f"fold_{fold}.parquet"  # the workflow's own fold, where it ran
    print_result(
        {
            "threads": threads,
            "kernels": "from the matrix" if uses_matrix else "computed",
            "seconds": wall,
            "cpu_seconds": cpu,
            "compounds": int(scores.size),
            "sha256": hashlib.sha256(scores.tobytes()).hexdigest(),
            "as_run": bool(np.array_equal(pd.read_parquet(ran)["score"].to_numpy(), scores)) if ran.is_file() else None,
            **{key: parse_metric(key).value(ranking) for key in METRICS},
        }
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results")
    p.add_argument("models", nargs="*", default=list(MODELS))
    p.add_argument("--fold", type=int, default=0)
    p.add_argument(
        "--config", default=str(PANEL), help="the config files over config.yaml, comma-separated (default: the panel's)"
    )
    args = p.parse_args()
    if not (Path(args.results) / "folds.tsv").is_file():
        sys.exit(f"{args.results}: no folds.tsv (name a finished screen's results folder)")
    print(f"## Fold {args.fold} of {Path(args.results).name}, replayed (one job at a time, with its own threads)\n")
    print(
        "| model | threads | wall s | CPU s | peak RSS GB | scores = the workflow's fold | AUC[ROC] | CROC a=80 | EF 1% |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|")
    for model in args.models:
        r = measure(__file__, "fold", args.results, model, args.fold, args.config)
        same = {True: "yes", False: "NO"}.get(r["as_run"], "")
        print(
            f"| {model} | {r['threads']} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | {r['peak_rss_gb']:.2f} | {same} "
            + "".join(f"| {r[key]:.4f} " for key in METRICS)
            + "|",
            flush=True,
        )


if __name__ == "__main__":
    args = step_args()
    if args is None:
        main()
    else:
        fold_step(args[1], args[2], int(args[3]), *args[4:6])

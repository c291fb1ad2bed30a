"""What every workflow script does around its one library call: log to the rule's log file, use its threads."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import time
import traceback
from pathlib import Path

from .._extras import needs
from .._memory import peak_rss_kb


@contextlib.contextmanager
def step(smk):
    """Run a workflow step: stdout/stderr go to ``smk.log[0]``; torch uses ``smk.threads``.

    The log's last line says how long the step took and its exact peak resident memory
    (:func:`crocbench._memory.peak_rss_kb`: ``done in 24.2 s; peak RSS 5630 MiB``), which
    ``crocbench._accounting`` (``benchmarks/accounting/``) reads before Snakemake's sampled ``max_rss``.

    An error is written to the log (message first, then the traceback); the
    console gets one line (:func:`console_line`: the rule, its wildcards, the
    message and where the traceback is) and the step exits with status 1, so
    Snakemake stops the run with no Python traceback on the console.
    """
    threads = max(1, int(getattr(smk, "threads", 1)))
    os.environ["OMP_NUM_THREADS"] = str(threads)
    log = open(smk.log[0], "w", buffering=1) if smk.log else sys.stderr
    start = time.perf_counter()
    with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        try:
            if "torch" in sys.modules:  # else OMP_NUM_THREADS applies when it is imported
                sys.modules["torch"].set_num_threads(threads)
            yield log
        except Exception as exc:
            with contextlib.suppress(OSError):  # a full disk may refuse the log too: the console line still comes
                print(f"ERROR: {exc}", file=log)
                traceback.print_exc(file=log)
            print(console_line(smk, exc), file=sys.__stderr__, flush=True)
            raise SystemExit(1) from None
        except BaseException as exc:  # an interruption (Ctrl-C, a job killed): logged, and passed on as it is
            print(f"ERROR: {exc!r}", file=log)
            traceback.print_exc(file=log)
            raise
        finally:
            try:  # Linux's /proc; elsewhere the line has the time only
                own, child = peak_rss_kb(), peak_rss_kb(children=True)
                peak = f"; peak RSS {own / 1024:.0f} MiB" + (
                    f" (largest child process {child / 1024:.0f} MiB)" if child else ""
                )
            except (OSError, RuntimeError):
                peak = ""
            with contextlib.suppress(OSError):
                print(f"done in {time.perf_counter() - start:.1f} s{peak}", file=log)
                if log is not sys.stderr:
                    log.close()


#: Errors whose message is the whole story (a bad input, a missing or corrupt file): shown without their type.
INPUT_ERRORS = (ValueError, OSError, EOFError, RuntimeError)


def console_line(smk, exc: BaseException) -> str:
    r"""The one console line for a failed step: ``rule[wildcards]: message (traceback: log)``.

    The message is the exception's, on one line; an error that is not an input
    error (a bug) is prefixed with its type. The full traceback is in the log.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> smk = SimpleNamespace(rule="standardize", wildcards={"dataset": "x", "repeat": ""}, log=["logs/x/standardize.log"])
    >>> console_line(smk, ValueError("dataset x: column 'smile' not found;\n  columns are: smiles, y"))
    "crocbench: standardize[dataset=x]: dataset x: column 'smile' not found; columns are: smiles, y (traceback: logs/x/standardize.log)"
    >>> console_line(smk, TypeError("f() takes 1 argument"))
    'crocbench: standardize[dataset=x]: TypeError: f() takes 1 argument (traceback: logs/x/standardize.log)'
    """
    message = " ".join(line.strip() for line in str(exc).splitlines() if line.strip()) or repr(exc)
    if not isinstance(exc, INPUT_ERRORS):
        message = f"{type(exc).__name__}: {message}"
    named = getattr(smk, "wildcards", None)
    wildcards = ", ".join(f"{k}={v}" for k, v in (named.items() if hasattr(named, "items") else ()) if v != "")
    where = f"{getattr(smk, 'rule', 'step')}" + (f"[{wildcards}]" if wildcards else "")
    log = f" (traceback: {smk.log[0]})" if getattr(smk, "log", None) else ""
    return f"crocbench: {where}: {message}{log}"


def config_error_line(config: dict, schema_file) -> str:
    """One line for a config that fails its JSON schema: where in the config, and what is wrong there.

    Snakemake's ``validate`` prints the whole schema and config; this names the
    key (dotted path) and the first error :func:`jsonschema.exceptions.best_match` picks.

    Examples
    --------
    >>> import tempfile, yaml
    >>> schema = {"type": "object", "properties": {"cv": {"type": "object", "properties": {
    ...     "folds": {"type": "integer", "minimum": 2}}}}}
    >>> with tempfile.NamedTemporaryFile("w", suffix=".yaml") as fh:
    ...     _ = fh.write(yaml.safe_dump(schema)); fh.flush()
    ...     print(config_error_line({"cv": {"folds": 1}}, fh.name))
    config: cv.folds: 1 is less than the minimum of 2
    """
    with needs("crocbench._workflow"):
        import jsonschema
        import yaml

    schema = yaml.safe_load(Path(schema_file).read_text())
    error = jsonschema.exceptions.best_match(jsonschema.validators.validator_for(schema)(schema).iter_errors(config))
    if error is None:
        return "config: does not match its schema"
    where = ".".join(str(p) for p in error.absolute_path) or "(top level)"
    return f"config: {where}: {' '.join(error.message.split())}"


#: The run lock held by this process, by file (kept open: the lock lasts as long as the process).
_RUN_LOCKS: dict = {}

#: Snakemake options under which an invocation runs no job and writes no output (it may run beside a run).
_NO_JOBS = (
    "dryrun",
    "unlock",
    "summary",
    "detailed_summary",
    "list_changes",
    "report",
    "lint",
    "dag",
    "rulegraph",
    "filegraph",
    "cleanup_metadata",
    "print_compilation",
    "list_rules",
    "list_target_rules",
    "d3dag",
)


def runs_jobs(argv=None) -> bool:
    """Whether this ``snakemake`` command line runs jobs (not ``-n``, ``--summary``, ``--report``, ...).

    >>> runs_jobs(["snakemake", "--cores", "2"]), runs_jobs(["snakemake", "-np"]), runs_jobs(["pytest"])
    (True, False, False)
    """
    argv = sys.argv if argv is None else argv
    if not argv or Path(argv[0]).name != "snakemake":
        return False  # the API from Python, or a job's own process
    with needs("crocbench._workflow"):
        from snakemake.cli import get_argument_parser

    args, _ = get_argument_parser().parse_known_args(argv[1:])
    return not any(getattr(args, name, None) for name in _NO_JOBS)


def hold_run_lock(folder=".snakemake") -> str | None:
    """Take this folder's run lock for the rest of the process; ``None``, or the one line saying who holds it.

    Snakemake's own lock is checked after the DAG is built (a second run may first trip over the first one's
    unfinished files) and is said in a paragraph; it stays behind when Snakemake is killed, and the next run
    then needs ``--unlock``.  This one is an ``flock`` on ``folder/crocbench.lock``, released by the kernel when
    the process ends, however it ends: held, it also proves that Snakemake's locks under ``folder/locks`` are
    a killed run's, and they are removed.
    """
    import fcntl

    path = Path(folder).resolve() / "crocbench.lock"
    if str(path) in _RUN_LOCKS:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        return (
            f"crocbench: another snakemake run is working in {path.parent.parent} ({holder}); "
            "this one stops here: wait for that one to finish (its results are kept), or stop it, and run again"
        )
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
    handle.flush()
    _RUN_LOCKS[str(path)] = handle
    shutil.rmtree(path.parent / "locks", ignore_errors=True)  # no run is alive here: a killed run's locks
    return None


def signature(*files, **params) -> str:
    """A short hash of input files' bytes and JSON-able parameters: what a resumable step's parts depend on."""
    h = hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode())
    for f in files:
        with open(f, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()[:16]


def resumable(directory, key: str, names, compute, log=None) -> list:
    """``[compute(name) for name in names]`` (pandas tables), each kept in ``directory`` as soon as it is done.

    An interrupted step, run again with the same ``key`` (:func:`signature` of
    its inputs and parameters), reuses the parts already there instead of
    recomputing them; parts of another key are ignored.  Each part is written
    under a temporary name and renamed, so a part on disk is always complete.
    The caller removes ``directory`` (:func:`remove_parts`) once its output is written.
    """
    import pandas as pd

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name in names:
        part = directory / f"{name}.{key}.parquet"
        if part.exists():
            out.append(pd.read_parquet(part))
            if log is not None:
                print(f"{name}: reused from an interrupted run ({part})", file=log, flush=True)
            continue
        table = compute(name)
        tmp = part.with_name(part.name + ".tmp")
        table.to_parquet(tmp, index=False)
        os.replace(tmp, part)
        out.append(table)
    return out


def remove_parts(directory) -> None:
    """Remove a :func:`resumable` step's parts once its output is complete."""
    shutil.rmtree(directory, ignore_errors=True)


def fold_groups(n_folds: int, n_jobs: int | None) -> list[list[int]]:
    """The folds of each of a run's fold jobs: consecutive folds, the first ``n_folds % n_jobs`` jobs one more;
    None (or ``n_jobs >= n_folds``): a fold a job.

    Examples
    --------
    >>> fold_groups(10, 2), fold_groups(5, 3), fold_groups(3, None)
    ([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], [[0, 1], [2, 3], [4]], [[0], [1], [2]])
    """
    n = int(n_folds) if n_jobs is None else min(int(n_jobs), int(n_folds))
    size, extra = divmod(int(n_folds), n)
    starts = [j * size + min(j, extra) for j in range(n + 1)]
    return [list(range(starts[j], starts[j + 1])) for j in range(n)]


def screen_runs(datasets, models, labels: dict, scores, repeat_scores=(), repeats: int = 1):
    """Each screen's pooled scores of every model, repeat by repeat, one screen in memory at a time (25 screens'
    would be gigabytes): yields ``(screen, [repeat 0's {label: scores (id, label, score)}, repeat 1's, ...])``.

    ``scores`` are the summary's inputs dataset by dataset, models in config order
    (:meth:`crocbench._workflow._files.Files.summary_scores`); ``repeat_scores`` repeats 1.. of each dataset the
    same way (``summary_repeat_scores``).
    """
    import pandas as pd

    paths, repeat_paths = iter(scores), iter(repeat_scores)
    read = lambda path: pd.read_parquet(path, columns=["id", "label", "score"])  # noqa: E731
    for screen in datasets:
        by_repeat = [{labels[m]: read(next(paths)) for m in models}]
        by_repeat += [{labels[m]: read(next(repeat_paths)) for m in models} for _ in range(1, repeats)]
        yield screen, by_repeat


def features_read(model, fingerprints, ecfp=None) -> dict:
    """What a fold job's model read, for its info: its ``features`` (``feature_set``) and the sha256 of the features
    themselves (:func:`crocbench.similarity.fingerprints_sha256`): the bits of the ECFP for a model that reads it
    (``uses_ecfp``), else the fingerprints the job loaded.

    Parameters
    ----------
    model : object
        The fitted model.
    fingerprints : Fingerprints
        The fingerprints the job loaded (its ``fingerprints`` input).
    ecfp : scipy.sparse.csr_matrix, default=None
        The ECFP counts the job loaded (its ``ecfp`` input), if any.

    Returns
    -------
    dict
        ``{"features": name, "features_sha256": hex digest}``.
    """
    from ..chem.clusters import bit_fingerprints
    from ..similarity import fingerprints_sha256

    read = bit_fingerprints(ecfp) if getattr(model, "uses_ecfp", False) else fingerprints
    return {"features": getattr(model, "feature_set", "paper"), "features_sha256": fingerprints_sha256(read)}


def features_design(infos, labels: dict) -> dict:
    """Each trained run's fingerprint and the sha256 of the features its fold jobs read, screen by screen: the
    design's ``features`` (``tables/design.yaml``), from the runs' fold 0 infos.

    Parameters
    ----------
    infos : sequence of path-like
        ``results/{dataset}/scores/{run}/fold_0.json`` files, each with ``run``, ``features`` and
        ``features_sha256`` (as ``score_fold`` writes them).
    labels : dict
        ``{run: label}``.

    Returns
    -------
    dict
        ``{label: {"features": name, "sha256": {dataset: hex digest}}}``, in the order of ``infos``.
    """
    out = {}
    for path in infos:
        info = json.loads(Path(path).read_text())
        entry = out.setdefault(labels[info["run"]], {"features": info["features"], "sha256": {}})
        entry["sha256"][Path(path).parents[2].name] = info["features_sha256"]
    return out


def stale_summary_tables(summary: str, pains: bool, claims: bool) -> list[str]:
    """The summary tables an earlier run may have left in ``results/{summary}/tables/`` that a run does not write:
    the PAINS tables without ``summary: pains``, the paper's claims where it does not rank the paper's five
    (``claims``: it does). ``summary`` is ``summary`` (the tables across the screens too) or ``screens``.

    Examples
    --------
    >>> stale_summary_tables("screens", pains=False, claims=True)
    ['results/screens/tables/pains.tsv', 'results/screens/tables/datasets_without_pains.tsv']
    """
    across = summary == "summary"
    names = []
    if not pains:
        names += ["pains.tsv", "datasets_without_pains.tsv"] + (["pains.md"] if across else [])
    if not claims:
        names += ["claims_per_screen.tsv"] + (["claims.tsv", "claims.md", "claims.html"] if across else [])
    return [f"results/{summary}/tables/{name}" for name in names]

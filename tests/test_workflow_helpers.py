"""The helpers every workflow script shares: resumable parts and their signature."""

import pandas as pd
import pytest

from crocbench import _accounting
from crocbench._workflow import remove_parts, resumable, screen_runs, signature, stale_summary_tables


def _script(path, *args):
    """``python PATH ARGS`` run in this process: the script loaded as a module of its own (its ``__name__`` not
    ``__main__``) and its ``main()`` called with ``sys.argv`` as that command line sets it (``sys.path`` restored
    after). Returns its exit status, stdout and stderr; ``sys.exit(message)`` writes the message to stderr and
    exits 1, as Python does at the top of a script."""
    import contextlib
    import importlib.util
    import io
    import subprocess
    import sys

    spec = importlib.util.spec_from_file_location(f"_script_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    out, err = io.StringIO(), io.StringIO()
    argv, path_before = sys.argv, list(sys.path)
    sys.argv = [str(path), *map(str, args)]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                spec.loader.exec_module(module)
                code = module.main() or 0
            except SystemExit as exc:
                code = exc.code if exc.code is None or isinstance(exc.code, int) else 1
                if not isinstance(exc.code, int | None):
                    print(exc.code, file=sys.stderr)
    finally:
        sys.argv, sys.path[:] = argv, path_before
    return subprocess.CompletedProcess([str(path), *args], code or 0, out.getvalue(), err.getvalue())


def test_signature_follows_file_bytes_and_parameters(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("one")
    first = signature(a, C=[1, 10])
    assert signature(a, C=[1, 10]) == first
    assert signature(a, C=[1, 100]) != first
    a.write_text("two")
    assert signature(a, C=[1, 10]) != first


def test_an_interrupted_resumable_step_reuses_its_finished_parts(tmp_path):
    parts = tmp_path / "parts"
    calls = []

    def compute(name, fail_at=None):
        calls.append(name)
        if name == fail_at:
            raise KeyboardInterrupt
        return pd.DataFrame({"name": [name], "value": [len(calls)]})

    with pytest.raises(KeyboardInterrupt):
        resumable(parts, "k1", [0, 1, 2], lambda n: compute(n, fail_at=2))
    assert calls == [0, 1, 2] and sorted(p.name for p in parts.iterdir()) == ["0.k1.parquet", "1.k1.parquet"]
    calls.clear()
    out = resumable(parts, "k1", [0, 1, 2], compute)
    assert calls == [2]  # only the unfinished part is computed again
    assert [t["value"].item() for t in out] == [1, 2, 1]  # parts 0 and 1 as first computed
    calls.clear()
    resumable(parts, "other", [0], compute)  # another signature: nothing reused
    assert calls == [0]
    remove_parts(parts)
    assert not parts.exists()


def test_every_rules_benchmark_file_is_attributed_to_that_rule():
    """crocbench._accounting (the per-rule table, the Slurm runtimes of benchmarks/accounting/run_cost.py) names the
    rule of every benchmark file that any rule writes, wildcards filled in; a new rule it does not know would
    otherwise stop it."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    found = {}
    for smk in sorted((root / "workflow" / "rules").glob("*.smk")):
        blocks = re.split(r"^(?:rule|checkpoint) (\w+):", smk.read_text(), flags=re.M)
        for rule, body in zip(blocks[1::2], blocks[2::2]):
            path = re.search(r'^    benchmark:\n\s+f?"([^"]+)"', body, flags=re.M)
            if path:
                found[rule] = path.group(1)
    assert len(found) >= 20 and "irv_sensitivity_fold" in found  # the parse found the rules
    values = {
        "dataset": "d",
        "fold": "3",
        "model": "svm",
        "k": "50",
        "chunk": "2",
        "file": "HIV.csv",
        "variant": "paper",
        "archive": "x.whl",
        "kind": "generic",
        "summary": "summary",  # results/summary/ (or results/screens/: the target screen_tables)
    }
    for rule, path in found.items():
        for repeat, fp in (("", ""), ("/repeats/2", "_ecfp4")):  # a repeat of cv: repeats; the ECFP4 bits' files
            filled = {**values, "repeat": repeat, "fp": fp}
            rel = re.sub(r"\{+(\w+)\}+", lambda m, filled=filled: filled[m.group(1)], path)
            rel = re.sub(r"^logs/(d|summary|archives)/benchmark/?", "", rel).removesuffix(".tsv")
            assert _accounting.rule_of(rel) == rule, (rule, rel)


def test_panel_cost_reads_stages_and_invocation_walls(tmp_path):
    """crocbench._accounting (benchmarks/accounting/panel.py): a job's stage (a model's fold jobs are the model's),
    and each invocation's wall time from Snakemake's log, first to last timestamp; a dry run (no job finished) and
    earlier invocations left out."""
    from datetime import datetime

    assert _accounting.stage_of("score_fold", "scores/svm/fold_3") == "svm"
    assert _accounting.stage_of("score_folds", "scores/irv_power/folds") == "irv_power"
    assert _accounting.stage_of("score_folds", "scores/svm/folds_1") == "svm"

    assert _accounting.stage_of("neighbours_chunk", "neighbours_k50/chunk_2") == "neighbours"
    assert _accounting.stage_of("fingerprints", "fingerprints") == "data"
    logs = tmp_path / ".snakemake" / "log"
    logs.mkdir(parents=True)
    run = "[Tue Nov 24 19:25:57 2026]\nrule download:\n[Tue Nov 24 19:26:10 2026]\n1 of 9 steps (11%) done\n"
    run += "[Tue Nov 24 21:01:07 2026]\n9 of 9 steps (100%) done\n"
    (logs / "2026-11-24T192557.snakemake.log").write_text(run)
    (logs / "2026-11-24T192000.snakemake.log").write_text(
        "[Tue Nov 24 19:20:00 2026]\nrule x:\n[Tue Nov 24 19:20:01 2026]\n"
    )
    (logs / "2026-11-23T100000.snakemake.log").write_text(run.replace("Nov 24", "Nov 23"))
    assert _accounting.invocation_walls(tmp_path, datetime(2026, 11, 24)) == [95 * 60 + 10]
    assert sorted(_accounting.invocation_walls(tmp_path)) == [95 * 60 + 10, 95 * 60 + 10]
    # another screen's invocation is not this screen's wall time
    (logs / "2026-11-25T100000.snakemake.log").write_text(
        run.replace("Nov 24", "Nov 25").replace(
            "rule download:", "rule download:\n    output: results/b/raw.csv\n    wildcards: dataset=b, name=raw"
        )
    )
    # a summary job reads every screen's tables and is no screen's
    summary = "rule summary:\n    input: results/a/tables/areas.tsv, results/b/tables/areas.tsv\n    wildcards: summary=screens"
    (logs / "2026-11-26T100000.snakemake.log").write_text(
        run.replace("Nov 24", "Nov 26").replace("rule download:", summary)
    )
    assert _accounting.invocation_walls(tmp_path, screens=["b"]) == [95 * 60 + 10]
    assert _accounting.invocation_walls(tmp_path, screens=["a"]) == []


def test_panel_cost_of_some_models_per_screen_and_per_compound(tmp_path):
    """benchmarks/accounting/panel.py --models: a fold's mean job seconds per model and screen done, the rate per
    compound over the screens done (sum of seconds over sum of compounds) and its estimate for every screen, the
    line through screens of different sizes, and the largest job; a screen not done is left out of all of them."""
    import subprocess
    import sys
    from pathlib import Path

    import numpy as np

    sizes = {"a": 100_000, "b": 300_000, "c": 200_000, "d": 400_000}  # d not done
    seconds = {}
    for screen, n in sizes.items():
        logs = tmp_path / "run" / "logs" / screen / "benchmark"
        for model, per in (("rf", 1e-4), ("mlp", 5e-5), ("svm", 1.0)):
            for fold in range(10):
                s = per * n + fold**2  # folds 0..9: a mean of per * n + 28.5 (a median of 20.5)
                seconds[screen, model, fold] = s
                (logs / "scores" / model).mkdir(parents=True, exist_ok=True)
                rss = 900 + fold if (screen, model) == ("b", "mlp") else 500
                (logs / "scores" / model / f"fold_{fold}.tsv").write_text(f"s\tmax_rss\n{s}\t{rss}\n")
        if screen != "d":
            (tmp_path / "run" / "results" / screen / "tables").mkdir(parents=True)
            (tmp_path / "run" / "results" / screen / "tables" / "areas.tsv").write_text("model\n")
    (tmp_path / "panel.yaml").write_text("dataset: [a, b, c, d]\n")
    counts = "dataset\tkept\tpositives\n" + "".join(f"{d}\t{n}\t10\n" for d, n in sizes.items())
    (tmp_path / "counts.tsv").write_text(counts)
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "accounting" / "panel.py"
    args = ["--config", str(tmp_path / "panel.yaml"), "--counts", str(tmp_path / "counts.tsv"), "--models", "rf", "mlp"]
    out = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "run"), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    section = out[out.index("A fold's mean job seconds of rf, mlp") :]
    rows = {line.split("|")[1].strip(): line for line in section.splitlines() if line.startswith("| ")}
    cells = [c.strip() for c in rows["b"].split("|")[1:-1]]
    assert cells == ["b", "300,000", f"{30 + 28.5:.1f}", f"{15 + 28.5:.1f}", f"{45 + 57:.1f}"]  # rf, mlp, both
    assert "d" not in rows
    done = [(d, m, f) for (d, m, f) in seconds if d != "d" and m != "svm"]
    rate = sum(seconds[k] for k in done) / sum(sizes[d] for d in "abc")  # a screen's ten folds of both, per compound
    assert f"{rate * 1000:.2f} ms a compound" in out
    assert f"take an estimated {rate * sum(sizes.values()) / 3600:.1f} h of jobs" in out
    per_screen = [sum(seconds[d, m, f] for m in ("rf", "mlp") for f in range(10)) for d in "abc"]
    slope, intercept = np.polyfit([sizes[d] for d in "abc"], per_screen, 1)
    assert f"{intercept:.0f} s + {slope * 1000:.2f} ms a compound for a screen's ten folds" in out
    assert "their largest job: 909 MiB (b, scores/mlp/fold_9; sampled)" in out
    assert "largest peak RSS 909 MiB (b, scores/mlp/fold_9; sampled)" in out  # of every job, svm's too
    bad = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "run"), *args, "knn"], capture_output=True, text=True, timeout=600
    )
    assert bad.returncode != 0 and "no fold jobs of knn in the screens done" in bad.stderr


def test_the_cost_per_ranker_counts_candidates_with_their_ranker_and_every_repeat(tmp_path):
    """benchmarks/accounting/rankers.py: a development panel's candidates (rf.c1, rf.c2) are the forest's stage, a
    repeat's fold jobs count with the run's, the other jobs go to their stages; hours summed by hand."""
    from pathlib import Path

    jobs = {  # screen: {benchmark file: (wall s, cpu s)}
        "a": {"scores/rf.c1/fold_0": (100, 150), "scores/rf.c2/fold_0": (50, 90), "scores/svm/fold_0": (10, 12),
              "neighbours_k50/chunk_0": (20, 20), "fingerprints": (5, 4)},
        "b": {"scores/rf/fold_0": (30, 40), "repeats/1/scores/rf/fold_1": (40, 50), "scores/knn/folds": (3, 3)},
        "summary": {"summary_tables": (8, 7)}, "screens": {"screen_datasets": (4, 4)},  # the summary's: one column
    }  # fmt: skip
    for screen, files in jobs.items():
        for rel, (s, cpu) in files.items():
            path = tmp_path / "logs" / screen / "benchmark" / f"{rel}.tsv"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"s\tmax_rss\tcpu_time\n{s}\t500\t{cpu}\n")
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "accounting" / "rankers.py"
    out = _script(script, tmp_path)
    assert out.returncode == 0, out.stderr
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]] for line in out.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| stage")}  # fmt: skip
    assert list(rows) == ["rf", "neighbours", "other", "svm", "data", "knn"]  # by wall hours, largest first
    header = next(line for line in out.stdout.splitlines() if line.startswith("| stage"))
    assert [c.strip() for c in header.split("|")[-4:-1]] == ["a", "b", "summary"]
    assert rows["other"] == ["2", f"{12 / 3600:.2f}", f"{11 / 3600:.2f}", "8.00", "0.00", "0.00", f"{12 / 3600:.2f}"]
    assert rows["rf"] == [
        "4",
        f"{220 / 3600:.2f}",
        f"{330 / 3600:.2f}",
        "100.00",
        f"{150 / 3600:.2f}",
        f"{70 / 3600:.2f}",
        "0.00",
    ]
    assert rows["knn"][:2] == ["1", f"{3 / 3600:.2f}"]
    assert out.stdout.startswith(f"## {tmp_path}: 10 jobs, {270 / 3600:.2f} h of job wall time")
    apart = _script(script, tmp_path, "--runs")
    runs = {line.split("|")[1].strip(): line.split("|")[2:-1] for line in apart.stdout.splitlines() if "| rf" in line}
    runs = {k: [c.strip() for c in v] for k, v in runs.items()}
    assert {k: v[:2] for k, v in runs.items()} == {
        "rf.c1": ["1", f"{100 / 3600:.2f}"], "rf.c2": ["1", f"{50 / 3600:.2f}"], "rf": ["2", f"{70 / 3600:.2f}"]
    }  # fmt: skip
    assert runs["rf"][-3:-1] == ["", "35.00"] and runs["rf.c2"][-3:-1] == ["50.00", ""]  # screens a, b: mean seconds
    missing = _script(script, tmp_path / "none")
    assert missing.returncode != 0 and "no logs folder" in missing.stderr


def test_a_steps_log_ends_with_its_exact_peak_memory(tmp_path):
    """The peak of a step that held 400 MB for a moment and freed it long before its end (which a sampled maximum,
    such as Snakemake's benchmark after its first 15 s, misses): VmHWM, read in a fresh process."""
    import re
    import subprocess
    import sys

    script = f"""
import time, numpy as np
from types import SimpleNamespace
from crocbench._workflow import step
with step(SimpleNamespace(log=[{str(tmp_path / "step.log")!r}], threads=1)):
    a = np.ones(50_000_000)  # 400 MB, touched
    del a
    time.sleep(0.2)
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=600)
    last = (tmp_path / "step.log").read_text().splitlines()[-1]
    mib = int(re.fullmatch(r"done in [\d.]+ s; peak RSS (\d+) MiB", last).group(1))
    assert 400e6 / 2**20 < mib < 400e6 / 2**20 + 300  # the array, and the interpreter with numpy
    # crocbench._accounting.jobs reads it before Snakemake's sampled max_rss; a log without it leaves the sample
    from pathlib import Path

    logs = tmp_path / "logs" / "screen"
    for rel, log in (("scores/svm/fold_0", last), ("standardize", "done in 2.0 s"), ("fingerprints", None)):
        (logs / "benchmark" / rel).parent.mkdir(parents=True, exist_ok=True)
        (logs / "benchmark" / f"{rel}.tsv").write_text("s\th:m:s\tmax_rss\n3.0\t0:00:03\t100.5\n")
        if log is not None:
            (logs / f"{rel}.log").parent.mkdir(parents=True, exist_ok=True)
            (logs / f"{rel}.log").write_text(f"fitting\n{log}\n")
    # pool_scores logs to scores/{model}/pool.log: a child process's peak is logged, the tree's is the sample's
    (logs / "benchmark" / "pool_scores").mkdir(parents=True)
    (logs / "benchmark" / "pool_scores" / "svm.tsv").write_text("s\th:m:s\tmax_rss\n1.0\t0:00:01\t2000\n")
    (logs / "scores" / "svm" / "pool.log").write_text(
        "done in 1.0 s; peak RSS 90 MiB (largest child process 700 MiB)\n"
    )
    jobs = _accounting.jobs(logs).set_index("file")
    assert jobs.loc["scores/svm/fold_0", "max_rss_mb"] == mib and jobs.loc["scores/svm/fold_0", "rss_exact"]
    assert jobs.loc["standardize", "max_rss_mb"] == 100.5 and not jobs.loc["standardize", "rss_logged"]
    assert jobs.loc["fingerprints", "max_rss_mb"] == 100.5
    pool = jobs.loc["pool_scores/svm"]
    assert pool["max_rss_mb"] == 2000 and pool["rss_logged"] and not pool["rss_exact"]
    assert _accounting.logged_peak_mb(Path("x.log")) is None
    assert _accounting.logged_peak_mb(logs / "scores" / "svm" / "pool.log") == (90, 700)
    assert _accounting.log_of("repeats/2/import_scores/gnn") == "repeats/2/scores/gnn/import"


def test_rule_table_sums_jobs_per_rule_and_fold_jobs_per_model(tmp_path):
    """crocbench._accounting.rule_table (benchmarks/accounting/run_cost.py, protocol_study.py): one row per rule, a
    model's fold jobs a row of their own, a repeat's jobs (repeats/r/) counted with the run's, peaks in GB."""
    logs = tmp_path / "logs" / "d"
    for rel, s, rss in (
        ("scores/svm/fold_0", 10.0, 1024),
        ("repeats/1/scores/svm/fold_0", 30.0, 2048),
        ("scores/irv/folds", 5.0, 512),
        ("scores/knn/folds_0", 1.0, 256),  # a share of a run's folds (score_folds_<n>_<j>)
        ("scores/knn/folds_1", 1.5, 300),
        ("standardize", 2.0, 100),
    ):
        (logs / "benchmark" / rel).parent.mkdir(parents=True, exist_ok=True)
        (logs / "benchmark" / f"{rel}.tsv").write_text(f"s\th:m:s\tmax_rss\n{s}\t0:00:01\t{rss}\n")
    table = _accounting.rule_table(logs)
    assert list(table.index) == ["score_fold (svm)", "score_folds (irv)", "score_folds (knn)", "standardize"]
    assert table.loc["score_folds (knn)", "jobs"] == 2 and table.loc["score_folds (knn)", "total_s"] == 2.5
    svm = table.loc["score_fold (svm)"]
    assert (svm["jobs"], svm["total_s"], svm["longest_s"], svm["max_rss_gb"]) == (2, 40.0, 30.0, 2.0)
    with pytest.raises(SystemExit, match="no benchmark files"):
        _accounting.rule_table(tmp_path / "logs" / "none")


def test_fold_groups_are_consecutive_and_cover_every_fold_once():
    """crocbench._workflow.fold_groups: against a brute force over sizes: every fold once, in order, groups of
    sizes differing by at most one (larger first); None or more jobs than folds: a fold a job."""
    from crocbench._workflow import fold_groups

    for n_folds in range(1, 13):
        assert fold_groups(n_folds, None) == [[k] for k in range(n_folds)]
        for n_jobs in range(1, 15):
            groups = fold_groups(n_folds, n_jobs)
            assert len(groups) == min(n_jobs, n_folds)
            assert [k for g in groups for k in g] == list(range(n_folds))
            sizes = [len(g) for g in groups]
            assert sizes == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1


def test_screen_runs_pair_each_screens_files_with_its_models_and_repeats(tmp_path):
    """The summary's inputs, dataset by dataset and models in order, then repeats 1.. the same way: each file is
    written with its own (screen, repeat, model) in its scores, and read back where it belongs."""
    screens, models, labels = ["s1", "s2"], ["knn", "irv"], {"knn": "kNN", "irv": "IRV"}

    def write(screen, repeat, model):
        path = tmp_path / f"{screen}_{repeat}_{model}.parquet"
        tag = {"s1": 1, "s2": 2}[screen] * 100 + repeat * 10 + models.index(model)
        pd.DataFrame({"id": ["a"], "label": [1], "score": [float(tag)], "extra": [0]}).to_parquet(path)
        return str(path)

    scores = [write(s, 0, m) for s in screens for m in models]
    repeat_scores = [write(s, r, m) for s in screens for r in (1, 2) for m in models]
    got = list(screen_runs(screens, models, labels, scores, repeat_scores, repeats=3))
    assert [s for s, _ in got] == screens
    for screen, by_repeat in got:
        assert len(by_repeat) == 3
        for r, run in enumerate(by_repeat):
            assert list(run) == ["kNN", "IRV"] and list(run["kNN"].columns) == ["id", "label", "score"]
            base = {"s1": 100, "s2": 200}[screen] + 10 * r
            assert [run[label]["score"].iloc[0] for label in ("kNN", "IRV")] == [base, base + 1]
    only = list(screen_runs(screens, models, labels, scores))  # one repeat: no repeat files
    assert [len(b) for _, b in only] == [1, 1] and only[1][1][0]["IRV"]["score"].iloc[0] == 201.0


def test_the_plan_prices_a_chosen_setting_by_its_development_seconds_over_its_default(tmp_path):
    """benchmarks/accounting/cost_model.py --plan --chosen: a chosen forest whose development fold took its priced
    default's seconds (computed here from the measured table's log-log line at the three development screens'
    training sets, 100 of 500 trees) keeps the plan's hours; at twice those seconds its headline hours double; a
    ranker not chosen keeps its own."""
    from pathlib import Path

    import numpy as np

    root = Path(__file__).resolve().parents[1]
    script = root / "benchmarks" / "accounting" / "cost_model.py"
    measured = root / "benchmarks" / "accounting" / "measured" / "fold_seconds_2026-11-29.md"
    counts = pd.read_csv(root / "config" / "panels" / "pubchem_hts_counts.tsv", sep="\t").set_index("dataset")
    lines = [line for line in measured.read_text().splitlines() if line.startswith("| rf ")]
    sizes = (41_906, 104_663, 300_971)
    seconds = [float(c.replace(",", "")) for c in lines[0].split("|")[3:6]]
    development = [counts.loc[d, "kept"] for d in ("GPCR_2_primary", "serine_primary", "hsf1_primary")]

    def at(n):  # piecewise linear in log-log, as measured (the three sizes; hsf1 is the largest)
        x, y = np.log(sizes), np.log(seconds)
        i = 0 if np.log(n) < x[1] else 1
        return np.exp(y[i] + (y[i + 1] - y[i]) / (x[i + 1] - x[i]) * (np.log(n) - x[i]))

    default = np.mean([at(n * 0.8 / 0.9) * 100 / 500 for n in development])  # 5-fold training sets, 100 trees

    def plan(extra=()):
        args = ["--measured", str(measured), "--plan", "5,3,1", "--budget", "8", "--dev-screens", "3"]
        args += ["--dev-folds", "1", "--rf-cap", "100", "--models", "svm", "rf", *extra]
        done = _script(script, *args)
        assert done.returncode == 0, done.stderr
        out = done.stdout
        return {line.split("|")[1].strip(): line.split("|")[2:-1] for line in out.splitlines() if line.startswith("| ")}

    base = plan()
    for factor in (1.0, 2.0):
        table = tmp_path / f"chosen_{factor}.tsv"
        pd.DataFrame(
            {"ranker": ["rf"], "candidate": ["rf.c1"], "seconds": [factor * default], "chosen": [True]}
        ).to_csv(table, sep="\t", index=False)
        rows = plan(["--chosen", str(table)])
        for col in (1, 2):  # random and grouped split hours
            assert float(rows["rf"][col]) == pytest.approx(factor * float(base["rf"][col]), abs=0.011)
        assert rows["rf"][4].strip() == f"{factor:.2f}" and rows["svm"][:4] == base["svm"][:4]


def test_the_stale_summary_tables_are_those_a_run_does_not_write():
    """Without PAINS and without the paper's five: both kinds, the Markdown and HTML of the summary's only where it
    writes its tables across the screens; with both, none."""
    assert stale_summary_tables("summary", pains=True, claims=True) == []
    tables = "results/summary/tables/"
    assert stale_summary_tables("summary", pains=False, claims=False) == [
        tables + name
        for name in ("pains.tsv", "datasets_without_pains.tsv", "pains.md", "claims_per_screen.tsv", "claims.tsv",
                     "claims.md", "claims.html")
    ]  # fmt: skip
    assert stale_summary_tables("screens", pains=True, claims=False) == ["results/screens/tables/claims_per_screen.tsv"]

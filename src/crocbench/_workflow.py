"""What every workflow script does around its one library call: log to the rule's log file, use its threads."""

from __future__ import annotations

import contextlib
import os
import sys
import time
import traceback


@contextlib.contextmanager
def step(smk):
    """Run a workflow step: stdout/stderr go to ``smk.log[0]``; torch uses ``smk.threads``.

    An error is written to the log (message first, then the traceback) and re-raised,
    so Snakemake stops and names the log.
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
        except BaseException as exc:
            print(f"ERROR: {exc}", file=log)
            traceback.print_exc(file=log)
            raise
        finally:
            print(f"done in {time.perf_counter() - start:.1f} s", file=log)
            if log is not sys.stderr:
                log.close()

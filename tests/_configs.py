"""A config as ``snakemake --configfile A B ...`` builds it (:func:`crocbench.config.load_config`), and its runs
declared (the workflow's ``common.smk`` does the same)."""

from pathlib import Path

from crocbench.config import load_config

ROOT = Path(__file__).resolve().parents[1]


def merged_config(*files) -> tuple[dict, dict]:
    """``(config, runs)``: config.yaml updated by each of ``files`` (paths, or dicts already read), validated by
    the schema; ``runs`` are its declared runs (:func:`crocbench.models.declared_runs`), each ``tune:`` resolved
    (the IRV's reweighting runs left out)."""
    from crocbench.config import tuning_settings
    from crocbench.models import declared_runs, expand_runs

    config = load_config(files, ROOT)
    return config, declared_runs(expand_runs(config["models"], tuning=tuning_settings(config)))

"""A config as ``snakemake --configfile A B ...`` builds it: config.yaml updated by each file in turn, then checked
against the schema, and its runs declared (the workflow's ``common.smk`` does the same)."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def merged_config(*files) -> tuple[dict, dict]:
    """``(config, runs)``: config.yaml updated by each of ``files`` (paths, or dicts already read), validated by
    the schema; ``runs`` are its declared runs (:func:`crocbench.models.declared_runs`)."""
    import copy

    import jsonschema
    from snakemake.utils import update_config

    from crocbench.models import declared_runs

    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    for part in files:
        update_config(config, copy.deepcopy(part if isinstance(part, dict) else yaml.safe_load(Path(part).read_text())))
    jsonschema.validate(config, yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text()))
    return config, declared_runs(dict(config["models"]))
